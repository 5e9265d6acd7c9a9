//! The launch pack (rules/launch.toml): grids smaller than the GPU, partial
//! last waves and occupancy held down by registers, shared memory or block
//! size, on real profiles. Its estimates against measured fixes are in
//! tests/twins.rs (launch.cu).

mod common;

use common::{check_json, fixture, ncu_lint, stdout};
use serde_json::Value;

fn launch_findings(doc: &Value) -> Vec<&Value> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            ["small-grid", "tail-wave", "occupancy-limit"].contains(&f["rule"].as_str().unwrap())
        })
        .collect()
}

#[test]
fn the_launch_pack_passes_its_own_tests() {
    let out = ncu_lint(&["rules", "test", "rules/launch.toml"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("pack launch 1.0.0: 3 rules, 2 tests: valid"),
        "{text}"
    );
}

#[test]
fn a_small_grid_names_its_blocks_and_the_sms_and_what_spreading_it_saves() {
    let doc = check_json(&[&fixture("twins/launch.raw.csv.xz")]);
    let eight = launch_findings(&doc)
        .into_iter()
        .find(|f| f["rule"] == "small-grid" && f["kernel"]["id"] == 0)
        .unwrap();
    let message = eight["message"].as_str().unwrap();
    assert!(
        message.starts_with("8 blocks on a GPU of 132 SMs that hold 1,056 at once (8 per SM)"),
        "{message}"
    );
    assert_eq!(eight["severity"], "warning");
    // Measured: spread over 1,056 blocks it saves 96%.
    assert!(
        eight["impact"]["speedup"].as_f64().unwrap() > 0.9,
        "{eight}"
    );
    assert!(
        eight["fix"]
            .as_str()
            .unwrap()
            .contains("124 of 132 SMs idle")
    );
}

#[test]
fn more_blocks_do_not_shorten_a_queue_the_warps_already_wait_in() {
    // stores_blind28.cu's four floats scattered a field at a time by 132
    // blocks (result 0) took 518 us, as the same work did on 528 blocks:
    // its loads wait ten round trips behind the stores' requests, a queue
    // busy 90% of the time, so spreading it saves at most the rest. The 8
    // blocks of launch.cu's streaming scale wait about a round trip: no
    // queue, and most of the kernel is saved.
    let doc = check_json(&[
        &fixture("twins/stores_blind28.raw.csv.xz"),
        &fixture("twins/stores_blind28.source.csv.xz"),
    ]);
    let scatter = launch_findings(&doc)
        .into_iter()
        .find(|f| f["rule"] == "small-grid" && f["kernel"]["id"] == 0)
        .unwrap();
    let queued = scatter["impact"]["terms"]["queued_share"].as_f64().unwrap();
    assert!((0.85..0.95).contains(&queued), "{queued}");
    let speedup = scatter["impact"]["speedup"].as_f64().unwrap();
    assert!(speedup <= 1.0 - queued + 1e-9, "{speedup}");
    let doc = check_json(&[&fixture("twins/launch.raw.csv.xz")]);
    let stream = launch_findings(&doc)
        .into_iter()
        .find(|f| f["rule"] == "small-grid" && f["kernel"]["id"] == 0)
        .unwrap();
    let queued = stream["impact"]["terms"]["queued_share"].as_f64().unwrap();
    assert!(queued < 0.1, "{queued}");
}

#[test]
fn nothing_is_flagged_on_kernels_that_fill_the_gpu() {
    // The lab's 26 kernels fill the H200 (the smem_stride kernels' 1,024
    // blocks give each SM 7 or 8: a 3% tail, under min_tail_share).
    for paths in [
        vec![fixture("lab/raw.csv.xz")],
        vec![fixture("lab/details_all.csv.xz")],
        vec![fixture("lab/lab_full.ncu-rep.xz")],
    ] {
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let mut args = vec!["--all"];
        args.extend(paths.iter().copied());
        let doc = check_json(&args);
        assert!(launch_findings(&doc).is_empty(), "{paths:?}");
        // Evaluated, not skipped for want of data.
        assert!(doc["skipped"].as_array().unwrap().is_empty(), "{paths:?}");
    }
    // launch.cu's fixed build: every grid fills the GPU.
    let fixed = check_json(&["--all", &fixture("twins/launch_fixed.raw.csv.xz")]);
    let rules: Vec<&str> = launch_findings(&fixed)
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(
        !rules.contains(&"small-grid") && !rules.contains(&"tail-wave"),
        "{rules:?}"
    );
}

#[test]
fn the_public_reports_small_grids_are_single_blocks() {
    // Of the published reports, two launch kernels of one block: a shared
    // memory teaching example (7 kernels on a 30-SM GPU) and a matrix fill
    // on an RTX 4090's 128 SMs. Every other kernel fills its GPU's half.
    let mut flagged = Vec::new();
    for entry in std::fs::read_dir(fixture("reports")).unwrap() {
        let path = entry.unwrap().path().to_string_lossy().into_owned();
        if !path.ends_with(".raw.csv.xz") {
            continue;
        }
        let doc = check_json(&["--all", "--select", "small-grid", &path]);
        for f in launch_findings(&doc) {
            assert_eq!(f["values"]["blocks"].as_f64(), Some(1.0), "{f}");
            let report = path.rsplit('/').next().unwrap()[..3].to_owned();
            flagged.push(report);
        }
    }
    flagged.sort();
    let expected: Vec<String> = ["16_"; 7]
        .iter()
        .chain(&["19_"; 2])
        .map(|s| (*s).to_owned())
        .collect();
    assert_eq!(flagged, expected);
}

#[test]
fn a_pack_is_selected_or_ignored_by_its_name() {
    let raw = fixture("twins/launch.raw.csv.xz");
    let rules = |args: &[&str]| -> Vec<String> {
        let mut all = args.to_vec();
        all.push(&raw);
        let doc = check_json(&all);
        let mut rules: Vec<String> = doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap().to_owned())
            .collect();
        rules.sort();
        rules.dedup();
        rules
    };
    assert_eq!(
        rules(&["--select", "launch/*"]),
        ["occupancy-limit", "small-grid", "tail-wave"]
    );
    assert_eq!(
        rules(&["--ignore", "launch/*"]),
        ["global-load-efficiency", "sector-waste"]
    );
    assert_eq!(rules(&["--select", "launch/tail-wave"]), ["tail-wave"]);
}
