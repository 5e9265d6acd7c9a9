//! Real profiles end to end. These tests need Nsight Compute (`ncu`) and, for
//! the kernels, an NVIDIA GPU and `nvcc`; where those are missing they say
//! so on stderr and pass without asserting, so CI (which has no GPU) skips
//! them cleanly.

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

#[test]
fn the_lab_report_gives_what_its_exports_give() {
    if !have("ncu", "--version") {
        eprintln!(
            "skipped: no `ncu` on PATH (Nsight Compute); this test runs where it is installed"
        );
        return;
    }
    let report = ncu_lint(&[
        "check",
        "--no-config",
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
fn gpu_kernels_have_their_known_findings() {
    if !(have("nvidia-smi", "-L") && have("nvcc", "--version") && have("ncu", "--version")) {
        eprintln!(
            "skipped: needs an NVIDIA GPU (nvidia-smi), nvcc and ncu; run fixtures/kernels/run.sh where they are"
        );
        return;
    }
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
