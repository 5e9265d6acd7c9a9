//! Bad input: each error is a diagnostic naming file, line and column, exit
//! status 2, nothing on stdout, and never a panic.

mod common;

use common::{fixture, ncu_lint, stderr, stdout, temp_dir};

/// A copy of the real lab export `metrics_stdout.csv` with one edit.
fn mutated(name: &str, edit: impl Fn(&str) -> String) -> String {
    let dir = temp_dir(name);
    let text = std::fs::read_to_string(fixture("lab/metrics_stdout.csv")).unwrap();
    let path = dir.join("export.csv");
    std::fs::write(&path, edit(&text)).unwrap();
    path.to_string_lossy().into_owned()
}

fn assert_input_error(path: &str, needles: &[&str]) {
    let out = ncu_lint(&["dump", path]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(stdout(&out).is_empty(), "nothing half-written");
    assert!(!err.contains("panicked"), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "missing {needle:?} in:\n{err}");
    }
}

#[test]
fn a_result_id_that_is_not_a_number_points_at_the_cell() {
    let path = mutated("bad_id", |text| {
        text.replacen("\n\"0\",\"3193\"", "\n\"zero\",\"3193\"", 1)
    });
    assert_input_error(
        &path,
        &[
            "export.csv:6:1: ID should be a result ID (a whole number), found `zero`",
            "6 │ \"zero\"",
            "expected a result ID",
        ],
    );
}

#[test]
fn invalid_utf8_names_line_and_column() {
    let dir = temp_dir("latin1");
    let mut bytes = std::fs::read(fixture("lab/metrics_stdout.csv")).unwrap();
    let at = bytes.windows(4).position(|w| w == b"lab\"").unwrap();
    bytes[at + 1] = 0xE9;
    let path = dir.join("latin1.csv");
    std::fs::write(&path, bytes).unwrap();
    assert_input_error(
        &path.to_string_lossy(),
        &["latin1.csv:6:", "invalid UTF-8 (byte 0xE9)"],
    );
}

#[test]
fn utf16_is_named_as_utf16() {
    let dir = temp_dir("utf16");
    let text = std::fs::read_to_string(fixture("lab/metrics_stdout.csv")).unwrap();
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let path = dir.join("utf16.csv");
    std::fs::write(&path, bytes).unwrap();
    assert_input_error(&path.to_string_lossy(), &["utf16.csv:1:1", "UTF-16"]);
}

#[test]
fn binary_missing_and_empty_files() {
    let dir = temp_dir("binary");
    let binary = dir.join("lab.ncu-rep");
    std::fs::write(&binary, [0x4e, 0x56, 0x00, 0x01, 0x00, 0x00, 0xff, 0x10]).unwrap();
    // Named a report, binary, but without its magic: a damaged report.
    assert_input_error(
        &binary.to_string_lossy(),
        &["a damaged Nsight Compute report: it starts with 4E 56 00 01"],
    );
    let other = dir.join("lab.bin");
    std::fs::write(&other, [0x7f, b'E', b'L', b'F', 0, 0, 0xff, 0x10]).unwrap();
    assert_input_error(&other.to_string_lossy(), &["binary data"]);
    assert_input_error(
        &dir.join("absent.csv").to_string_lossy(),
        &["cannot read", "absent.csv"],
    );
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, "").unwrap();
    assert_input_error(&empty.to_string_lossy(), &["empty.csv is empty (0 bytes)"]);
    assert_input_error(&dir.to_string_lossy(), &["cannot read"]);
    // The reason is said once.
    let out = ncu_lint(&["dump", &dir.to_string_lossy()]);
    assert_eq!(
        stderr(&out).matches("Is a directory").count(),
        1,
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unclosed_quote_runs_to_the_end_without_harm() {
    let path = mutated("unclosed", |text| {
        text.replacen(
            "\"Command line profiler metrics\"",
            "\"Command line profiler metrics",
            1,
        )
    });
    let out = ncu_lint(&["dump", &path]);
    assert!(matches!(out.status.code(), Some(0 | 2)), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn truncated_exports_keep_the_complete_results() {
    let path = mutated("truncated", |text| {
        let cut = text.find("\"5\",\"3193\"").unwrap();
        text[..cut + 20].to_owned()
    });
    let out = ncu_lint(&["dump", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<u64> = json["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [0, 1, 2, 3, 4], "the cut result is left out");
    let warning = &json["warnings"][0];
    assert!(
        warning["message"]
            .as_str()
            .unwrap()
            .contains("cut short; result 5 is left out"),
        "{warning}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = ncu_lint(&["dump"]);
    assert_eq!(out.status.code(), Some(2));
    let out = ncu_lint(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}
