//! Hostile and broken input: properties over values and imports, truncation
//! and mutation of every fixture, each limit, and partial exports.

mod common;

use std::io::Read;

use common::{corpus, fixture, ncu_lint, stderr};
use ncu_lint::ingest::{IngestError, import_bytes, limits};
use ncu_lint::model::Report;
use ncu_lint::value::{Value, parse_value};
use proptest::prelude::*;

fn bytes(relative: &str) -> Vec<u8> {
    let mut data = Vec::new();
    let file = std::fs::File::open(fixture(relative)).unwrap();
    if relative.ends_with(".xz") {
        xz2::read::XzDecoder::new(file)
            .read_to_end(&mut data)
            .unwrap();
    } else {
        std::io::BufReader::new(file)
            .read_to_end(&mut data)
            .unwrap();
    }
    data
}

/// Every text fixture, whole (the small ones) or its first 64 KiB.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for dir in ["lab", "corpus"] {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(dir);
        let mut names: Vec<String> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".csv"))
            .collect();
        names.sort();
        for name in names {
            let mut data = bytes(&format!("{dir}/{name}"));
            data.truncate(64 << 10);
            out.push((format!("{dir}/{name}"), data));
        }
    }
    out
}

fn value_of(report: &Report, id: Option<u64>, key: &str) -> Option<Value> {
    report
        .kernels
        .iter()
        .find(|k| k.id == id)
        .and_then(|k| k.metrics.get(key))
        .map(|m| m.value.clone())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn grouped_thousands_parse_to_the_number(n in 0u64..1_000_000_000_000, frac in 0u32..100) {
        let digits = n.to_string();
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        let text = format!("{grouped}.{frac:02}");
        let expected = format!("{n}.{frac:02}").parse::<f64>().unwrap();
        prop_assert_eq!(parse_value(&text), Ok(Value::Number(expected)));
    }

    #[test]
    fn any_cell_parses_without_panic(text in "\\PC{0,40}") {
        let _ = parse_value(&text);
    }

    #[test]
    fn line_endings_do_not_change_an_import(choices in proptest::collection::vec(any::<bool>(), 64)) {
        let original = bytes("lab/metrics_stdout.csv");
        let text = String::from_utf8(original.clone()).unwrap();
        let mut mixed = String::from("\u{feff}");
        for (i, line) in text.split_inclusive('\n').enumerate() {
            if choices[i % choices.len()] {
                mixed.push_str(&line.replace('\n', "\r\n"));
            } else {
                mixed.push_str(line);
            }
        }
        let a = ncu_lint::dump::to_json(&import_bytes("x.csv", &original).unwrap());
        let b = ncu_lint::dump::to_json(&import_bytes("x.csv", mixed.as_bytes()).unwrap());
        prop_assert_eq!(a, b);
    }

    #[test]
    fn a_truncated_export_never_gives_a_wrong_number(cut in 0usize..61_559) {
        let original = bytes("lab/metrics_stdout.csv");
        let whole = import_bytes("x.csv", &original).unwrap();
        let cut = cut.min(original.len());
        match import_bytes("x.csv", &original[..cut]) {
            Err(IngestError::NoCsv { .. } | IngestError::Empty { .. }) => {}
            Err(other) => prop_assert!(false, "unexpected error {other}"),
            Ok(part) => {
                prop_assert!(part.kernels.len() <= whole.kernels.len());
                for kernel in &part.kernels {
                    for (key, metric) in &kernel.metrics {
                        prop_assert_eq!(Some(metric.value.clone()), value_of(&whole, kernel.id, key));
                    }
                }
                if !original[..cut].ends_with(b"\n") && part.kernels.len() < whole.kernels.len() && cut > 400 {
                    prop_assert!(part.warnings.iter().any(|w| w.message.contains("cut short")));
                }
            }
        }
    }
}

#[test]
fn a_header_cut_short_is_not_read_as_a_table() {
    // Found by the truncation property above: the lab export cut at byte
    // 401, inside its header row, was read as a raw page with a partial
    // header and no warning.
    let original = bytes("lab/metrics_stdout.csv");
    let header = original.windows(5).position(|w| w == b"\"ID\",").unwrap();
    let cut = &original[..header + 60];
    match import_bytes("x.csv", cut) {
        Err(IngestError::NoCsv { .. }) => {}
        Err(other) => panic!("unexpected error {other}"),
        Ok(part) => assert!(
            part.warnings
                .iter()
                .any(|w| w.message.contains("cut short")),
            "{:?}",
            part.warnings
        ),
    }
}

#[test]
fn every_fixture_survives_truncation_and_mutation() {
    let mut rng_state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        rng_state
    };
    for (name, data) in fixtures() {
        for _ in 0..24 {
            let cut = (next() as usize) % (data.len() + 1);
            let _ = import_bytes(&name, &data[..cut]);
            let mut mutated = data.clone();
            for _ in 0..4 {
                if mutated.is_empty() {
                    break;
                }
                let at = (next() as usize) % mutated.len();
                mutated[at] = match next() % 4 {
                    0 => b'"',
                    1 => b',',
                    2 => b'\n',
                    _ => next() as u8,
                };
            }
            let _ = import_bytes(&name, &mutated);
        }
    }
}

fn limit_error(data: &[u8]) -> String {
    match import_bytes("limit.csv", data) {
        Err(e @ IngestError::LimitExceeded { .. }) => e.to_string(),
        Err(e @ IngestError::RecordTooLong { .. }) => e.to_string(),
        other => panic!(
            "expected a limit error, got {:?}",
            other.map(|r| r.kernels.len())
        ),
    }
}

/// The header of the real lab export metrics_stdout.csv, to hang oversized rows on.
fn header() -> String {
    String::from_utf8(bytes("lab/metrics_stdout.csv"))
        .unwrap()
        .lines()
        .find(|l| l.starts_with("\"ID\""))
        .unwrap()
        .to_owned()
}

#[test]
fn each_limit_is_a_clear_error() {
    let mut wide = header();
    wide.push('\n');
    wide.push_str(&vec!["\"1\""; limits::MAX_FIELDS + 1].join(","));
    assert!(limit_error(wide.as_bytes()).contains(&format!(
        "more fields in one record than the limit of {}",
        limits::MAX_FIELDS
    )));

    let long_field = format!(
        "{}\n\"0\",\"{}\"\n",
        header(),
        "x".repeat(limits::MAX_FIELD_BYTES + 1)
    );
    assert!(limit_error(long_field.as_bytes()).contains(&format!(
        "more bytes in one field than the limit of {}",
        limits::MAX_FIELD_BYTES
    )));

    let open_quote = format!(
        "{}\n\"0\",\"{}",
        header(),
        "y\n".repeat(limits::MAX_RECORD_BYTES / 2 + 1)
    );
    assert!(
        limit_error(open_quote.as_bytes())
            .contains(&format!("runs past {} bytes", limits::MAX_RECORD_BYTES))
    );

    let instances = vec!["1"; limits::MAX_INSTANCES + 1].join("; ");
    assert!(matches!(parse_value(&instances), Ok(Value::Text(_))));

    let source = format!(
        "\"File Name\",\"a.cu\"\n\"Line No\",\"Source\"\n\"{}\",\"x\"\n\"0\",\"y\"\n\"2\",\"z\"\n",
        limits::MAX_SOURCE_LINE + 1
    );
    let report = import_bytes("listing.csv", source.as_bytes()).unwrap();
    assert_eq!(
        report.source_files[0].lines,
        ["", "z"],
        "out-of-range line numbers are ignored"
    );
}

#[test]
fn expression_limits_are_clear_errors() {
    let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
    assert!(
        ncu_lint::rules::expr::parse(&deep)
            .unwrap_err()
            .message
            .contains("deeper than 64 levels")
    );
    let long = vec!["1"; 3000].join("+");
    assert!(
        ncu_lint::rules::expr::parse(&long)
            .unwrap_err()
            .message
            .contains("longer than 4096 bytes")
    );
}

#[test]
fn a_partial_export_is_linted_and_its_errors_said() {
    let out = ncu_lint(&["check", "--no-config", &corpus("07_")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(":4: the profiler reported an error; results it failed to profile are missing: ==ERROR== Failed to profile \"gemm_shared_tile\""), "{err}");
    assert!(
        common::stdout(&out).starts_with("3 kernels"),
        "{}",
        common::stdout(&out)
    );
}
