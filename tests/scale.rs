//! Large exports built by repeating the lab's kernels with fresh result IDs
//! (as bench/make_large.py does): the findings are the lab's repeated, no
//! kernel lost, none merged, through the streaming path.

mod common;

use std::collections::BTreeMap;
use std::io::Read;

use common::{check_json, fixture, temp_dir};

/// `copies` copies of the lab export `name`, result IDs shifted by 26 per copy.
fn repeated(name: &str, copies: u64, dir: &std::path::Path) -> String {
    let mut text = String::new();
    xz2::read::XzDecoder::new(std::fs::File::open(fixture(name)).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut lines = text.lines();
    let mut out = String::new();
    let header = lines.next().unwrap();
    out.push_str(header);
    out.push('\n');
    let rows: Vec<&str> = lines.collect();
    let (prologue, body): (Vec<&str>, Vec<&str>) = rows.iter().partition(|r| r.starts_with("\"\""));
    for line in prologue {
        out.push_str(line);
        out.push('\n');
    }
    for copy in 0..copies {
        for row in &body {
            let shifted = row
                .strip_prefix('"')
                .and_then(|r| r.split_once("\",\""))
                .filter(|(id, rest)| {
                    id.parse::<u64>().is_ok() && rest.starts_with(|c: char| c.is_ascii_digit())
                })
                .map(|(id, rest)| {
                    format!("\"{}\",\"{rest}", id.parse::<u64>().unwrap() + copy * 26)
                });
            out.push_str(shifted.as_deref().unwrap_or(row));
            out.push('\n');
        }
    }
    let path = dir.join(name.rsplit('/').next().unwrap().trim_end_matches(".xz"));
    std::fs::write(&path, out).unwrap();
    path.to_string_lossy().into_owned()
}

fn findings_by_lab_kernel(path: &str) -> (u64, BTreeMap<(u64, String), usize>) {
    let json = check_json(&[path]);
    let mut counts = BTreeMap::new();
    for f in json["findings"].as_array().unwrap() {
        let id = f["kernel"]["id"].as_u64().unwrap();
        *counts
            .entry((id % 26, f["rule"].as_str().unwrap().to_owned()))
            .or_default() += 1;
    }
    (json["summary"]["kernels"].as_u64().unwrap(), counts)
}

#[test]
fn repeated_exports_give_the_lab_findings_repeated() {
    let dir = temp_dir("scale");
    for name in ["lab/raw.csv.xz", "lab/details_metric_names.csv.xz"] {
        let (kernels_1, once) = findings_by_lab_kernel(&fixture(name));
        let copies = 12;
        let (kernels_n, many) = findings_by_lab_kernel(&repeated(name, copies, &dir));
        assert_eq!(kernels_1, 26);
        assert_eq!(
            kernels_n,
            26 * copies,
            "{name}: no kernel lost, none merged"
        );
        let expected: BTreeMap<(u64, String), usize> = once
            .into_iter()
            .map(|(k, n)| (k, n * copies as usize))
            .collect();
        assert_eq!(many, expected, "{name}");
    }
}

#[test]
fn a_details_page_whose_results_rows_are_not_together_is_read_whole() {
    // The lab's details page (default sections, rule rows and all) with
    // its rows sorted by section and metric, as `sort` on those columns or
    // a spreadsheet leaves an export: each result's rows are spread over
    // the file. Streamed result by result, the rows that come back would be
    // lost; the file is read whole, and the findings are the unsorted
    // page's.
    let dir = temp_dir("not_together");
    let mut text = String::new();
    xz2::read::XzDecoder::new(std::fs::File::open(fixture("lab/details.csv.xz")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let header = lines.remove(0);
    // From the "Section Name" field on: field 11 of each row.
    lines.sort_by_key(|l| l.splitn(12, "\",\"").nth(11).unwrap_or("").to_owned());
    let sorted = dir.join("details_sorted.csv");
    std::fs::write(&sorted, format!("{header}\n{}\n", lines.join("\n"))).unwrap();
    let rules = |doc: &serde_json::Value| -> Vec<(u64, String)> {
        let mut found: Vec<(u64, String)> = doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["kernel"]["id"].as_u64().unwrap(),
                    f["rule"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        found.sort();
        found
    };
    let original = check_json(&[&fixture("lab/details.csv.xz")]);
    let (doc, stderr) = common::check_json_and_stderr(&[&sorted.to_string_lossy()]);
    assert_eq!(rules(&doc), rules(&original));
    assert!(
        stderr.contains("read whole, not result by result"),
        "{stderr}"
    );
}
