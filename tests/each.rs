//! `check --each`: several independent reports in one run, checked at once,
//! their findings reported together, each naming the export it came from.

mod common;

use std::collections::BTreeSet;

use common::{corpus, fixture, ncu_lint, stderr};

/// A finding by export path, rule, result ID and CUDA line.
type Found = (String, String, u64, Option<u64>);

/// The exit code and findings of a JSON check.
fn findings(args: &[&str]) -> (Option<i32>, BTreeSet<Found>) {
    let mut argv = vec!["check", "--no-config", "--format", "json"];
    argv.extend_from_slice(args);
    let out = ncu_lint(&argv);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let set = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["export"]["path"].as_str().unwrap().to_owned(),
                f["rule"].as_str().unwrap().to_owned(),
                f["kernel"]["id"].as_u64().unwrap(),
                f["location"]["line"].as_u64(),
            )
        })
        .collect();
    (out.status.code(), set)
}

#[test]
fn each_file_is_checked_as_its_own_report() {
    let raw = fixture("lab/raw.csv.xz");
    let details = fixture("lab/details_all.csv.xz");
    let (_, alone_raw) = findings(&[&raw]);
    let (_, alone_details) = findings(&[&details]);
    assert!(!alone_raw.is_empty() && !alone_details.is_empty());
    let (code, both) = findings(&["--each", &raw, &details]);
    assert_eq!(code, Some(1));
    let expected: BTreeSet<_> = alone_raw.union(&alone_details).cloned().collect();
    assert_eq!(both, expected);
    // One worker gives the same report, in the same order.
    let with_jobs = |jobs: &str| {
        let args = [
            "check",
            "--no-config",
            "--format",
            "json",
            "--each",
            "-j",
            jobs,
        ];
        ncu_lint(&[&args[..], &[raw.as_str(), details.as_str()]].concat()).stdout
    };
    assert_eq!(with_jobs("1"), with_jobs("2"));
}

#[test]
fn exports_of_different_reports_need_each() {
    let lab = fixture("lab/raw.csv.xz");
    let other = corpus("13_");
    let together = ncu_lint(&["check", "--no-config", &lab, &other]);
    assert_eq!(together.status.code(), Some(2), "{}", stderr(&together));
    let (code, each) = findings(&["--each", "--fail-on", "never", &lab, &other]);
    assert_eq!(code, Some(0));
    let paths: BTreeSet<&str> = each.iter().map(|f| f.0.as_str()).collect();
    assert!(paths.contains(lab.as_str()), "{paths:?}");
}

#[test]
fn an_unreadable_report_fails_the_run_with_nothing_written() {
    let lab = fixture("lab/raw.csv.xz");
    let failed = corpus("08_");
    let out = ncu_lint(&["check", "--no-config", "--each", &lab, &failed]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("ERR_NVGPUCTRPERM"),
        "{}",
        stderr(&out)
    );
}
