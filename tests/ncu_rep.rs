//! `.ncu-rep` reports read natively, without ncu: the same kernels and
//! metric values as the raw page ncu 2025.3.1 exported from each report
//! (`--page raw --print-units base`), for every published report and the lab.

mod common;

use std::path::Path;

use common::{fixture, ncu_lint, stderr, stdout, temp_dir};
use ncu_lint::model::Report;

fn reports() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/reports");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ncu-rep.xz"))
        .map(|n| n.trim_end_matches(".ncu-rep.xz").to_owned())
        .collect();
    names.sort();
    names
}

fn import(path: &str) -> Report {
    ncu_lint::ingest::import(&[path.to_owned()]).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Whether `native` is the number the raw page printed as `printed`, to
/// the digits it printed.
fn same(printed: &str, csv: f64, native: f64) -> bool {
    let decimals = printed.split_once('.').map_or(0, |(_, f)| {
        f.chars().take_while(char::is_ascii_digit).count()
    });
    let tolerance = 0.5 * 10f64.powi(-(decimals as i32)) + 1e-9 * csv.abs();
    (csv - native).abs() <= tolerance * 1.0001
}

/// Compares a native import with its raw page's, kernel by kernel and
/// metric by metric; returns the number of values compared.
fn compare(name: &str, native: &Report, csv: &Report) -> usize {
    assert_eq!(native.kernels.len(), csv.kernels.len(), "{name}: kernels");
    let mut compared = 0;
    for (n, c) in native.kernels.iter().zip(&csv.kernels) {
        assert_eq!(n.id, c.id, "{name}");
        // ncu's raw page prints names through its own demangler (casts and
        // namespaces dropped); the report stores the demangled symbol.
        assert_eq!(
            n.normalized_name(),
            c.normalized_name(),
            "{name}: result {:?}",
            c.id
        );
        assert_eq!(n.launch.grid, c.launch.grid, "{name}: {}", c.name);
        assert_eq!(n.launch.block, c.launch.block, "{name}: {}", c.name);
        for (key, metric) in &c.metrics {
            let Some(theirs) = metric.value.as_number() else {
                continue;
            };
            let ours = n.metrics.get(key).and_then(|m| m.value.as_number());
            let Some(ours) = ours else {
                panic!("{name}: {} lacks {key} = {}", c.name, metric.raw);
            };
            assert!(
                same(&metric.raw, theirs, ours),
                "{name}: {} {key}: raw page {} ({theirs}), report {ours}",
                c.name,
                metric.raw
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn every_published_report_reads_as_its_raw_page() {
    let mut total = 0;
    for name in reports() {
        let native = import(&fixture(&format!("reports/{name}.ncu-rep.xz")));
        let csv = import(&fixture(&format!("reports/{name}.raw.csv.xz")));
        assert!(!native.kernels.is_empty(), "{name}");
        total += compare(&name, &native, &csv);
        // The session: ncu's version and the GPU.
        assert!(
            native.session.contains_key("Nsight Compute Target") || name.starts_with("01_"),
            "{name}: {:?}",
            native.session
        );
        assert!(!native.files[0].devices.is_empty(), "{name}");
    }
    assert!(total > 50_000, "{total} values compared");
}

#[test]
fn the_lab_report_reads_as_its_raw_page_in_base_units() {
    let native = import(&fixture("lab/lab_full.ncu-rep.xz"));
    let csv = import(&fixture("lab/raw_units_base.csv.xz"));
    assert_eq!(native.kernels.len(), 26);
    let compared = compare("lab", &native, &csv);
    assert!(compared > 50_000, "{compared}");
    assert_eq!(native.files[0].devices, ["NVIDIA H200"]);
    assert!(
        native.files[0]
            .sections
            .contains(&"SourceCounters".to_owned())
    );
}

#[test]
fn check_reads_a_report_without_ncu() {
    // No ncu anywhere: PATH emptied and NCU unset.
    let report = fixture("lab/lab_full.ncu-rep.xz");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ncu-lint"))
        .args(["check", "--no-config", "--format", "json", &report])
        .env("PATH", "")
        .env_remove("NCU")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["kernels"], 26);
    let csv = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        &fixture("lab/raw.csv.xz"),
        &fixture("lab/source_cuda_sass.csv.xz"),
    ]);
    let csv: serde_json::Value = serde_json::from_slice(&csv.stdout).unwrap();
    let rules_on = |d: &serde_json::Value| {
        let mut v: Vec<(String, String)> = d["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let name = f["kernel"]["name"].as_str().unwrap();
                let kernel = ncu_lint::model::kernel_name::normalize(name);
                (
                    f["rule"].to_string(),
                    format!("{kernel} {}", f["location"]["line"]),
                )
            })
            .collect();
        v.sort();
        v
    };
    let native = rules_on(&doc);
    assert_eq!(
        native,
        rules_on(&csv),
        "the same findings, at the same lines, as the pages'"
    );
    assert!(
        native.iter().any(|(_, at)| at.ends_with(" 87")),
        "{native:?}"
    );
}

#[test]
fn a_truncated_or_corrupt_report_is_a_clear_error() {
    let dir = temp_dir("ncu_rep_broken");
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut xz2::read::XzDecoder::new(
            std::fs::File::open(fixture("reports/04_thedavidchu-profile.ncu-rep.xz")).unwrap(),
        ),
        &mut bytes,
    )
    .unwrap();
    let truncated = dir.join("truncated.ncu-rep");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    // Cut: the results before the cut are linted and shown, the damage is
    // named with its offset, and the run fails.
    let out = ncu_lint(&["check", "--no-config", &truncated.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("truncated.ncu-rep is damaged at byte ")
            && err.contains("the report ends inside"),
        "{err}"
    );
    assert!(
        err.contains("kernel result(s) were read before it"),
        "{err}"
    );
    assert!(stdout(&out).contains(" kernels, "), "{}", stdout(&out));

    // A block header whose length prefix claims more than the file holds,
    // and a header that is not protobuf.
    let header = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
    let first_block = 8 + header;
    let mut corrupt = bytes.clone();
    corrupt[first_block..first_block + 4].copy_from_slice(&0x7fff_0000u32.to_le_bytes());
    let mut garbage = bytes[..first_block].to_vec();
    garbage.extend_from_slice(&[4, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]);
    for (name, content) in [("corrupt.ncu-rep", corrupt), ("garbage.ncu-rep", garbage)] {
        let path = dir.join(name);
        std::fs::write(&path, &content).unwrap();
        let out = ncu_lint(&["check", "--no-config", &path.to_string_lossy()]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("{name} is damaged at byte ")),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn any_cut_or_flipped_byte_is_an_error_or_a_report_never_a_panic() {
    // Report 09 (ncu 2021, 5 kernels): cut at every 997th byte, and flip
    // every 499th; each read ends in a report or an error.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut xz2::read::XzDecoder::new(
            std::fs::File::open(fixture("reports/09_RottenFishbone-profile.ncu-rep.xz")).unwrap(),
        ),
        &mut bytes,
    )
    .unwrap();
    let mut errors = 0;
    for cut in (0..bytes.len()).step_by(997) {
        if ncu_lint::ingest::import_report_bytes("cut.ncu-rep", &bytes[..cut]).is_err() {
            errors += 1;
        }
    }
    assert!(errors > 0);
    for at in (0..bytes.len()).step_by(499) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0xA5;
        let _ = ncu_lint::ingest::import_report_bytes("flipped.ncu-rep", &flipped);
    }
}

#[test]
fn a_kernel_level_finding_names_its_result_in_the_report() {
    let out = ncu_lint(&["check", "--no-config", &fixture("lab/lab_full.ncu-rep.xz")]);
    let text = stdout(&out);
    assert!(text.contains("lab_full.ncu-rep.xz (result 22)"), "{text}");
    assert!(
        !text.contains("lab_full.ncu-rep.xz:"),
        "no line numbers in a report: {text}"
    );
}
