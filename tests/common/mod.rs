//! Helpers shared by the integration tests: fixture paths and running the binary.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The rules of the built-in pack.
pub const RULES: [&str; 6] = [
    "shared-bank-conflict",
    "global-load-efficiency",
    "global-store-efficiency",
    "sector-waste",
    "register-spill",
    "local-memory",
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
