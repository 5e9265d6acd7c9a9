//! Helpers shared by the integration tests: fixture paths and running the binary.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output};

/// The rules of the built-in pack.
pub const RULES: [&str; 7] = [
    "shared-bank-conflict",
    "global-load-efficiency",
    "global-store-efficiency",
    "sector-waste",
    "register-spill",
    "local-memory",
    "atomic-contention",
];

/// Absolute path of a file under fixtures/, as a string for the importer.
pub fn fixture(relative: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(relative);
    assert!(path.exists(), "missing fixture {relative}");
    path.to_string_lossy().into_owned()
}

/// The corpus fixture whose name starts with `prefix` (`"04_"`).
pub fn corpus(prefix: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus");
    let name = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.starts_with(prefix))
        .unwrap_or_else(|| panic!("no corpus fixture {prefix}"));
    dir.join(name).to_string_lossy().into_owned()
}

/// Runs the built binary with `args` from the crate root.
pub fn ncu_lint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ncu-lint"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// `check`'s JSON document for `files`, findings not failing the run.
pub fn check_json(files: &[&str]) -> serde_json::Value {
    check_json_and_stderr(files).0
}

/// `check`'s JSON document for `files` and what it said on stderr.
pub fn check_json_and_stderr(files: &[&str]) -> (serde_json::Value, String) {
    let mut args = vec![
        "check",
        "--no-config",
        "--format",
        "json",
        "--fail-on",
        "never",
    ];
    args.extend_from_slice(files);
    let out = ncu_lint(&args);
    assert!(out.status.success(), "{files:?}: {}", stderr(&out));
    (serde_json::from_slice(&out.stdout).unwrap(), stderr(&out))
}

/// The first finding of `doc` (check's JSON) on a kernel whose name
/// starts with `prefix`.
pub fn first_finding<'d>(doc: &'d serde_json::Value, prefix: &str) -> &'d serde_json::Value {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kernel"]["name"].as_str().unwrap().starts_with(prefix))
        .unwrap_or_else(|| panic!("no finding on {prefix}"))
}

/// The text of an xz-compressed file.
pub fn xz_text(path: &str) -> String {
    let mut text = String::new();
    xz2::read::XzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Decompresses an xz fixture to a temporary plain file and returns its path.
pub fn unpacked(relative: &str, dir: &std::path::Path) -> String {
    use std::io::Read;
    let mut text = Vec::new();
    let file = std::fs::File::open(fixture(relative)).unwrap();
    xz2::read::XzDecoder::new(file)
        .read_to_end(&mut text)
        .unwrap();
    let name = relative.rsplit('/').next().unwrap().trim_end_matches(".xz");
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// A fresh temporary directory under target/ for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the built binary with `args` from `dir` (for configuration discovery).
pub fn ncu_lint_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ncu-lint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// A copy of the lab's raw export in which `register_nospill` (result 23)
/// suddenly spills: its two spill counters set to 1,048,576 (a real export
/// with one result edited, to stand for a regression).
pub fn spilling_copy(dir: &std::path::Path) -> String {
    let mut text = String::new();
    xz2::read::XzDecoder::new(std::fs::File::open(fixture("lab/raw.csv.xz")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let header: Vec<&str> = lines[0].split("\",\"").collect();
    let columns: Vec<usize> = [
        "sass__inst_executed_register_spilling",
        "derived__local_spilling_requests",
    ]
    .iter()
    .map(|name| {
        header
            .iter()
            .position(|h| h.trim_matches('"') == *name)
            .unwrap()
    })
    .collect();
    let row = lines.iter().position(|l| l.starts_with("\"23\",")).unwrap();
    let mut cells: Vec<String> = lines[row].split("\",\"").map(str::to_owned).collect();
    for c in columns {
        cells[c] = "1,048,576".into();
    }
    lines[row] = cells.join("\",\"");
    let path = dir.join("raw_spilling.csv");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.to_string_lossy().into_owned()
}
