//! Real profiles end to end. These tests need Nsight Compute (`ncu`) and, for
//! the kernels, an NVIDIA GPU and `nvcc`, so they are ignored by default and
//! `cargo test` reports them as such; on a machine that has them:
//!
//! ```sh
//! cargo test --locked --test gpu -- --ignored
//! ```
//!
//! Run that way, a missing tool fails the test with its name.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use common::{fixture, ncu_lint, stderr, temp_dir};

fn have(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn findings(json: &serde_json::Value) -> BTreeSet<(u64, String, Option<u64>)> {
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "note")
        .map(|f| {
            (
                f["kernel"]["id"].as_u64().unwrap(),
                f["rule"].as_str().unwrap().to_owned(),
                f["location"]["line"].as_u64(),
            )
        })
        .collect()
}

/// Fails, naming what is missing, where a tool the test needs is absent.
fn require(tools: &[(&str, &str)]) {
    let missing: Vec<&str> = tools
        .iter()
        .filter(|(program, arg)| !have(program, arg))
        .map(|(program, _)| *program)
        .collect();
    assert!(
        missing.is_empty(),
        "this test needs {missing:?} on PATH; run it on a machine with an NVIDIA GPU, nvcc and Nsight Compute"
    );
}

#[test]
#[ignore = "needs Nsight Compute (ncu); run with `cargo test --test gpu -- --ignored` where it is installed"]
fn the_lab_report_gives_what_its_exports_give() {
    require(&[("ncu", "--version")]);
    // Through `ncu -i` (the native reader has its own test in ncu_rep.rs).
    let report = ncu_lint(&[
        "check",
        "--no-config",
        "--ncu-export",
        "--format",
        "json",
        &fixture("lab/lab_full.ncu-rep.xz"),
    ]);
    assert_eq!(report.status.code(), Some(1), "{}", stderr(&report));
    let exports = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        &fixture("lab/raw.csv.xz"),
        &fixture("lab/source_cuda_sass.csv.xz"),
    ]);
    let from_report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    let from_exports: serde_json::Value = serde_json::from_slice(&exports.stdout).unwrap();
    assert_eq!(findings(&from_report), findings(&from_exports));
    assert_eq!(from_report["summary"]["findings"], 25);
}

#[test]
#[ignore = "needs an NVIDIA GPU, nvcc and ncu; run with `cargo test --test gpu -- --ignored` on a GPU machine"]
fn gpu_kernels_have_their_known_findings() {
    require(&[
        ("nvidia-smi", "-L"),
        ("nvcc", "--version"),
        ("ncu", "--version"),
    ]);
    let out = temp_dir("gpu_kernels");
    let run = Command::new("bash")
        .arg(fixture("kernels/run.sh"))
        .arg(&out)
        .env("NCU_LINT", env!("CARGO_BIN_EXE_ncu-lint"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "run.sh failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let versions = std::fs::read_to_string(out.join("versions.txt")).unwrap_or_default();
    eprintln!("{versions}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("findings.json")).unwrap()).unwrap();
    let mut found: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "note")
    {
        let name = f["kernel"]["name"].as_str().unwrap();
        let short = name
            .trim_start_matches("void ")
            .split(['(', '<'])
            .next()
            .unwrap()
            .to_owned();
        found
            .entry(short)
            .or_default()
            .insert(f["rule"].as_str().unwrap().to_owned());
        eprintln!(
            "{name}: {} at {}: {}",
            f["rule"], f["location"], f["message"]
        );
    }
    let expected = std::fs::read_to_string(fixture("kernels/EXPECTED.tsv")).unwrap();
    let mut mismatches = Vec::new();
    for row in expected.lines().skip(1) {
        let cells: Vec<&str> = row.split('\t').collect();
        let want: BTreeSet<String> = match cells[1] {
            "-" => BTreeSet::new(),
            list => list.split(',').map(str::to_owned).collect(),
        };
        let got = found.remove(cells[0]).unwrap_or_default();
        if got != want {
            mismatches.push(format!("{}: expected {want:?}, found {got:?}", cells[0]));
        }
    }
    assert!(
        mismatches.is_empty() && found.is_empty(),
        "{mismatches:#?}\nunexpected kernels: {found:?}"
    );
    assert_eq!(json["summary"]["kernels"], 10);
}
