//! `ncu-lint dump`: the stable JSON shape and the text form.

mod common;

use common::{corpus, fixture, ncu_lint, stdout};

#[test]
fn json_shape_is_stable() {
    let out = ncu_lint(&["dump", "--format", "json", &corpus("16_")]);
    assert_eq!(out.status.code(), Some(0));
    let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["files"][0]["path"] =
        "16_goml-rtxpro6000bw-sourcecounters-uncoalesced-preamble.csv".into();
    insta::assert_json_snapshot!(json);
}

#[test]
fn json_carries_the_documented_keys() {
    let out = ncu_lint(&[
        "dump",
        &fixture("lab/raw.csv.xz"),
        &fixture("lab/source_cuda_sass.csv.xz"),
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kernel = &json["kernels"][8];
    assert_eq!(kernel["id"], 8);
    assert_eq!(
        kernel["name"],
        "transpose_tiled(const float *, float *, int)"
    );
    assert_eq!(kernel["device"], 0);
    assert_eq!(kernel["cc"], "9.0");
    assert_eq!(kernel["block"], serde_json::json!([32, 8, 1]));
    let metric = &kernel["metrics"]["derived__memory_l1_wavefronts_shared_excessive"];
    assert_eq!(metric["value"], 16_252_928.0);
    assert!(metric["raw"].is_string() && metric["unit"].is_string());
    assert_eq!(kernel["source"]["lines"], 9);
    assert_eq!(json["files"][1]["form"], "source");
}

#[test]
fn text_form_lists_kernels_and_metrics() {
    let out = ncu_lint(&["dump", "--format", "text", &corpus("16_")]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(stdout(&out).replace(&corpus("16_"), "16.csv"));
}

#[test]
fn written_json_is_the_document_byte_for_byte() {
    let paths = [
        fixture("lab/raw.csv.xz"),
        fixture("lab/source_cuda_sass.csv.xz"),
    ];
    let report = ncu_lint::ingest::import(&paths).unwrap();
    let mut written = Vec::new();
    ncu_lint::dump::write_json(&report, &mut written).unwrap();
    let whole = serde_json::to_string_pretty(&ncu_lint::dump::to_json(&report)).unwrap() + "\n";
    assert!(report.kernels.len() == 26 && !report.kernels[8].metrics.is_empty());
    assert_eq!(String::from_utf8(written).unwrap(), whole);
}
