//! Kernels whose code comes from several files: CUDA that inlines a
//! header's `__device__` functions and CUB, and Triton kernels that inline
//! `triton/language/standard.py` or Inductor's helpers. The source page
//! gives such a launch one block per file; the report's line table gives
//! each instruction its own file. Findings sit at the file and line of the
//! access, read either way.

mod common;

use common::{fixture, ncu_lint, stderr};
use ncu_lint::model::{Report, kernel_name};

fn import(paths: &[String]) -> Report {
    ncu_lint::ingest::import(paths).unwrap_or_else(|e| panic!("{paths:?}: {e}"))
}

/// The pages of a fixture report: raw and source.
fn pages(dir: &str, name: &str) -> Vec<String> {
    vec![
        fixture(&format!("{dir}/{name}.raw.csv.xz")),
        fixture(&format!("{dir}/{name}.source.csv.xz")),
    ]
}

fn report(dir: &str, name: &str) -> String {
    fixture(&format!("{dir}/{name}.ncu-rep.xz"))
}

/// Each finding as `rule kernel file:line`, with the file's name only,
/// sorted.
fn places(paths: &[String]) -> Vec<String> {
    let mut args = vec!["check", "--no-config", "--format", "json"];
    args.extend(paths.iter().map(String::as_str));
    let out = ncu_lint(&args);
    assert!(out.status.code() != Some(2), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut places: Vec<String> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let kernel = kernel_name::normalize(f["kernel"]["name"].as_str().unwrap());
            let kernel = kernel.split('(').next().unwrap().to_owned();
            let at = match f["location"]["file"].as_str() {
                Some(file) => format!(
                    "{}:{}",
                    file.rsplit('/').next().unwrap(),
                    f["location"]["line"]
                ),
                None => "kernel".to_owned(),
            };
            // To three digits: the raw page rounds what the report holds.
            let value = |name: &str| {
                f["values"][name]
                    .as_f64()
                    .map_or("-".to_owned(), |v| format!("{v:.3}"))
            };
            format!(
                "{} {kernel} {at} {} {}",
                f["rule"].as_str().unwrap(),
                value("efficiency"),
                value("excess")
            )
        })
        .collect();
    places.sort();
    places
}

#[test]
fn every_block_of_a_multi_file_launch_is_attached() {
    for (dir, name) in [
        ("triton", "triton"),
        ("triton", "compiled"),
        ("inline", "inline"),
    ] {
        let report = import(&pages(dir, name));
        assert!(
            report.unattached.is_empty(),
            "{name}: {:?}",
            report.unattached
        );
        let with_lines = report
            .kernels
            .iter()
            .filter(|k| k.source.as_ref().is_some_and(|s| !s.lines.is_empty()))
            .count();
        assert!(with_lines > 0, "{name}");
    }
    let inline = import(&pages("inline", "inline"));
    let block_sum = inline
        .kernels
        .iter()
        .find(|k| k.name.starts_with("block_sum"))
        .unwrap();
    let view = block_sum.source.as_ref().unwrap();
    assert_eq!(view.files.len(), 7, "{:?}", view.files);
    assert!(view.own_file().unwrap().ends_with("/kernels.cu"));
}

#[test]
fn a_launch_repeated_keeps_its_blocks_apart() {
    // Inductor's kernel 4 runs twice in the step: two results, each with
    // its own two blocks (standard.py and its module).
    let report = import(&pages("triton", "compiled"));
    let twice: Vec<_> = report
        .kernels
        .iter()
        .filter(|k| k.name == "triton_per_fused__to_copy__unsafe_view_add_mul_sum_view_4")
        .collect();
    assert_eq!(twice.len(), 2);
    for kernel in twice {
        let view = kernel.source.as_ref().unwrap();
        assert_eq!(view.files.len(), 2, "{:?}", view.files);
        assert!(view.files[0].ends_with("triton/language/standard.py"));
    }
}

#[test]
fn findings_sit_at_the_header_line_of_the_access() {
    let found = places(&pages("inline", "inline"));
    let at = |rule: &str, kernel: &str, place: &str| {
        found
            .iter()
            .any(|f| f.starts_with(&format!("{rule} {kernel} {place} ")))
    };
    // The row walk of util.cuh:18, inlined into sum_rows.
    assert!(
        at("global-load-efficiency", "sum_rows", "util.cuh:18"),
        "{found:#?}"
    );
    // The column read of util.cuh:24, inlined into tile_transpose.
    assert!(
        at("shared-bank-conflict", "tile_transpose", "util.cuh:24"),
        "{found:#?}"
    );
    // Not line 18 or 24 of kernels.cu, which the kernel's own file would give.
    assert!(
        !found
            .iter()
            .any(|f| f.contains("kernels.cu:18") || f.contains("kernels.cu:24"))
    );
    // The same walk one column per thread is coalesced.
    assert!(
        !found.iter().any(|f| f.contains(" sum_columns ")),
        "{found:#?}"
    );
}

#[test]
fn a_triton_reduction_is_placed_in_standard_py() {
    let found = places(&pages("triton", "triton"));
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("shared-bank-conflict column_sum_f32 standard.py:")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("global-load-efficiency load_stride2_bf16 kernels.py:27 ")),
        "{found:#?}"
    );
}

#[test]
fn natively_and_through_the_pages_the_same_findings_at_the_same_places() {
    for (dir, name) in [
        ("triton", "triton"),
        ("triton", "compiled"),
        ("inline", "inline"),
    ] {
        let native = places(&[report(dir, name)]);
        assert!(!native.is_empty(), "{name}");
        assert_eq!(native, places(&pages(dir, name)), "{name}");
    }
}
