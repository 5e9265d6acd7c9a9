//! The real `.ncu-rep` reports people published (fixtures/reports, pages
//! exported by ncu 2025.3.1; SOURCES.tsv names each): every one checks, and
//! each metric-name drift between ncu 2020 and today has its test, named
//! after it.

mod common;

use common::{fixture, ncu_lint, stderr, stdout, temp_dir};
use serde_json::Value as Json;

/// The reports in fixtures/reports, by name without the page suffix.
fn reports() -> Vec<String> {
    let dir = std::path::PathBuf::from(fixture("reports"));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".raw.csv.xz").map(str::to_owned))
        .collect();
    names.sort();
    names
}

fn page(report: &str, page: &str) -> String {
    fixture(&format!("reports/{report}.{page}.csv.xz"))
}

/// The report whose name starts with `prefix` (`"04_"`).
fn report(prefix: &str) -> String {
    reports()
        .into_iter()
        .find(|r| r.starts_with(prefix))
        .unwrap_or_else(|| panic!("no report {prefix}"))
}

/// `check --format json` over `files`: exit code and document.
fn check_json(files: &[String]) -> (i32, Json) {
    let mut args = vec!["check", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let out = ncu_lint(&args);
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "{files:?} exited {code}: {}",
        stderr(&out)
    );
    (code, serde_json::from_str(&stdout(&out)).unwrap())
}

/// How many kernels `rule` was skipped for.
fn skipped(doc: &Json, rule: &str) -> u64 {
    doc["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["rule"] == rule)
        .map_or(0, |s| s["kernels"].as_u64().unwrap())
}

fn findings<'a>(doc: &'a Json, rule: &str) -> Vec<&'a Json> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == rule)
        .collect()
}

fn kernels(doc: &Json) -> u64 {
    doc["summary"]["kernels"].as_u64().unwrap()
}

#[test]
fn every_report_checks_on_its_raw_page_and_with_its_source_page() {
    let all = reports();
    assert_eq!(all.len(), 20);
    for report in &all {
        let (_, raw) = check_json(&[page(report, "raw")]);
        let (_, both) = check_json(&[page(report, "raw"), page(report, "source")]);
        assert_eq!(kernels(&raw), kernels(&both), "{report}");
        let (_, _) = check_json(&[page(report, "details")]);
    }
}

#[test]
fn a_source_page_without_lineinfo_is_a_warning_naming_lineinfo() {
    let report = report("01_");
    let out = ncu_lint(&["check", &page(&report, "raw"), &page(&report, "source")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("warning: no CUDA line information for 1 kernel(s)"),
        "{err}"
    );
    assert!(err.contains("`-lineinfo`"), "{err}");
    for rule in [
        "shared-bank-conflict",
        "global-load-efficiency",
        "global-store-efficiency",
        "sector-waste",
    ] {
        assert!(err.contains(rule), "{rule} is line-scoped: {err}");
    }
    assert!(!err.contains("register-spill"), "{err}");
}

#[test]
fn a_source_page_without_lineinfo_imports_as_an_empty_source_page() {
    let report = report("01_");
    let imported = ncu_lint::ingest::import(&[page(&report, "source")]).unwrap();
    assert_eq!(imported.kernels.len(), 0);
    assert_eq!(imported.files[0].form, ncu_lint::model::Form::Source);
    assert_eq!(
        imported.files[0].no_lineinfo,
        ["jacobi(float const*, float*, float*, int)"]
    );
}

#[test]
fn a_report_with_every_rule_skipped_says_so_in_at_most_12_lines_with_the_command() {
    // 105 results profiled with the default sections (ncu 2023.2, A10).
    let report = report("15_");
    let out = ncu_lint(&["check", &page(&report, "raw")]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 12, "{} lines:\n{text}", lines.len());
    assert!(text.contains("105 kernels, 0 findings"), "{text}");
    assert!(
        text.contains("skipped for lack of data on every kernel: shared-bank-conflict"),
        "{text}"
    );
    assert!(
        text.contains("sections LaunchStats, Occupancy, SpeedOfLight (inferred"),
        "{text}"
    );
    assert!(
        text.contains(
            "the rules need sections SourceCounters, MemoryWorkloadAnalysis_Tables, MemoryWorkloadAnalysis"
        ),
        "{text}"
    );
    assert!(
        text.contains("ncu --import-source yes --section SourceCounters"),
        "{text}"
    );
    assert!(text.contains("ncu-lint profile -- ./app"), "{text}");
}

#[test]
fn a_details_page_missing_a_metric_its_sections_collect_points_at_the_raw_page() {
    // Thirteen atomics kernels profiled with --set full (fixtures/twins,
    // ncu 2025.3.1): the details page prints the L2 slices' average atomic
    // unit alone, the raw page also the busiest slice's, which
    // atomic-contention reads. Four kernels' atomic sectors fit in one
    // slice's cycles, and their share of them stands in for it; the other
    // nine span several slices, and four of those are read from the
    // Workload Distribution chart, where the busiest slice was active twice
    // the average's cycles or more. The five whose slices were alike are not.
    let details = fixture("twins/launch_atomics3.details.csv.xz");
    let text = stdout(&ncu_lint(&["check", &details]));
    assert!(
        text.contains("skipped for lack of data: atomic-contention (5 of 13 kernels)"),
        "{text}"
    );
    assert!(
        text.contains("a details or summary page prints part of what ncu collected"),
        "{text}"
    );
    assert!(
        text.contains("export it with: ncu -i report.ncu-rep --csv --page raw"),
        "{text}"
    );
    assert!(
        !text.contains("profile with:"),
        "no new run is needed: {text}"
    );
    assert!(!text.contains("this ncu version lacks"), "{text}");

    let raw = fixture("twins/launch_atomics3.raw.csv.xz");
    let both = stdout(&ncu_lint(&["check", &raw, &details]));
    assert!(
        !both.contains("skipped for lack of data on every kernel: atomic-contention"),
        "the raw page holds the busiest slice: {both}"
    );
}

#[test]
fn verbose_names_the_gpu_the_sections_and_what_each_rule_missed() {
    let report = report("29_");
    let out = ncu_lint(&["check", "--verbose", &page(&report, "details")]);
    let text = stdout(&out);
    assert!(
        text.contains("NVIDIA GH200 120GB") || text.contains("GPU not named"),
        "{text}"
    );
    assert!(text.contains("sections SpeedOfLight"), "{text}");
    assert!(
        !text.contains("(inferred"),
        "the details page names its sections: {text}"
    );
    assert!(
        text.contains(
            "sector-waste: missing derived__memory_l2_theoretical_sectors_global_excessive"
        ),
        "{text}"
    );
    let raw = ncu_lint(&["check", "--verbose", &page(&report, "raw")]);
    assert!(
        stdout(&raw).contains("NVIDIA GH200 120GB"),
        "{}",
        stdout(&raw)
    );
}

#[test]
fn verbose_names_the_ncu_version_from_a_session_page() {
    let out = ncu_lint(&[
        "check",
        "--verbose",
        &fixture("lab/raw.csv.xz"),
        &fixture("lab/session.csv"),
    ]);
    let text = stdout(&out);
    assert!(text.contains("ncu 2025.3.1.0"), "{text}");
    assert!(text.contains("NVIDIA H200"), "{text}");
}

#[test]
fn pre_2021_2_l2_sector_names_run_sector_waste() {
    // ncu 2020.3: memory_l2_sectors_global, _ideal and the derived excess.
    let (_, doc) = check_json(&[page(&report("04_"), "raw")]);
    assert_eq!(skipped(&doc, "sector-waste"), 0);
    // 17,770 of 2,766,869 sectors: 0.6%, under the 10% threshold.
    assert!(findings(&doc, "sector-waste").is_empty());
    let (_, details) = check_json(&[page(&report("04_"), "details")]);
    assert_eq!(skipped(&details, "sector-waste"), 0, "the old labels too");
}

#[test]
fn pre_2021_2_shared_sector_names_run_bank_conflicts() {
    // ncu 2020.3 and 2021.1: memory_l1_sectors_shared and its ideal.
    for prefix in ["04_", "05_"] {
        let (_, doc) = check_json(&[page(&report(prefix), "raw")]);
        let results_with_data = if prefix == "05_" { 2 } else { 1 };
        assert_eq!(
            kernels(&doc) - skipped(&doc, "shared-bank-conflict"),
            results_with_data,
            "{prefix}"
        );
        assert!(
            findings(&doc, "shared-bank-conflict").is_empty(),
            "{prefix}"
        );
    }
}

#[test]
fn percent_form_of_bytes_per_sector_runs_load_and_store_efficiency() {
    // ncu 2023.1 with hand-picked --metrics: only the .pct of the ratio.
    let (_, doc) = check_json(&[page(&report("12_"), "raw")]);
    assert_eq!(kernels(&doc), 36);
    assert_eq!(skipped(&doc, "global-load-efficiency"), 0);
    assert_eq!(skipped(&doc, "global-store-efficiency"), 0);
    assert!(
        findings(&doc, "global-load-efficiency").is_empty(),
        "100% is clean"
    );
}

/// Report 12's raw page with one column's cells replaced on every result,
/// written under `dir`: one quirk of that real file isolated.
fn report_12_with(dir: &std::path::Path, column: &str, value: &str) -> String {
    use std::io::Read;
    let mut text = String::new();
    xz2::read::XzDecoder::new(std::fs::File::open(page(&report("12_"), "raw")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let at = rows[0].iter().position(|h| h == column).unwrap();
    let path = dir.join("12_edited.raw.csv");
    let mut writer = csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Always)
        .from_path(&path)
        .unwrap();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| if i >= 2 && c == at { value } else { cell })
            .collect();
        writer.write_record(&cells).unwrap();
    }
    writer.flush().unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn percent_form_converts_to_bytes_per_sector_of_32() {
    let dir = temp_dir("percent_form");
    let edited = report_12_with(
        &dir,
        "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
        "40",
    );
    let (code, doc) = check_json(&[edited]);
    assert_eq!(code, 1);
    let found = findings(&doc, "global-load-efficiency");
    assert_eq!(found.len(), 36);
    let values = &found[0]["values"];
    assert_eq!(values["bytes_per_sector"].as_f64().unwrap(), 12.8);
    assert_eq!(values["efficiency"].as_f64().unwrap(), 0.4);
    assert_eq!(found[0]["variant"], "percent form");
}

#[test]
fn sectors_and_ideal_without_the_derived_excess_run_sector_waste() {
    // A --metrics selection has the counters but not ncu's derived value;
    // report 19 (ncu 2024.2) with its derived column emptied, as such a
    // selection prints it.
    use std::io::Read;
    let mut text = String::new();
    xz2::read::XzDecoder::new(std::fs::File::open(page(&report("19_"), "raw")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let text = text.replace(
        "\"derived__memory_l2_theoretical_sectors_global_excessive\"",
        "\"unrelated__column\"",
    );
    let dir = temp_dir("sectors_and_ideal");
    let path = dir.join("19_no_derived.raw.csv");
    std::fs::write(&path, text).unwrap();
    let (_, doc) = check_json(&[path.to_string_lossy().into_owned()]);
    let found = findings(&doc, "sector-waste");
    let big = found
        .iter()
        .find(|f| f["values"]["sectors"].as_f64() == Some(49_894.0))
        .expect("the 49,894-sector result");
    assert_eq!(big["values"]["excess"].as_f64().unwrap(), 42_470.0);
    assert_eq!(big["variant"], "sectors and ideal");
}

#[test]
fn no_local_memory_instructions_run_spill_and_local_rules_without_spill_counters() {
    // ncu 2021.3 and 2024.x collect no spill counter; every kernel here
    // executed no local-memory instruction.
    for prefix in ["07_", "16_", "18_", "19_", "20_"] {
        let (_, doc) = check_json(&[page(&report(prefix), "raw")]);
        assert_eq!(skipped(&doc, "register-spill"), 0, "{prefix}");
        assert_eq!(skipped(&doc, "local-memory"), 0, "{prefix}");
        assert!(findings(&doc, "register-spill").is_empty(), "{prefix}");
        assert!(findings(&doc, "local-memory").is_empty(), "{prefix}");
    }
}

#[test]
fn local_memory_without_a_spill_counter_is_a_note_and_spills_stay_unknown() {
    // ncu 2020.2: curand states in local memory, 168 million local
    // instructions, and no way to tell spills from arrays.
    // The memory pack's notes do not fail (the launch pack finds initRNG's
    // 107 registers holding it to a third of the warps).
    let (code, doc) = check_json(&[
        "--ignore".to_owned(),
        "launch/*".to_owned(),
        page(&report("02_"), "raw"),
    ]);
    assert_eq!(code, 0, "notes do not fail");
    assert_eq!(skipped(&doc, "register-spill"), 2);
    let notes = findings(&doc, "local-memory");
    assert_eq!(notes.len(), 2);
    assert_eq!(notes[0]["severity"], "note");
    assert_eq!(
        notes[0]["values"]["local_instructions"].as_f64().unwrap(),
        168_413_680.0
    );
    assert!(notes[0]["message"].as_str().unwrap().contains("-Xptxas -v"));
}

#[test]
fn full_set_reports_of_2024_run_every_rule_on_every_kernel() {
    for prefix in ["16_", "18_", "19_", "20_"] {
        let (_, doc) = check_json(&[page(&report(prefix), "raw")]);
        assert!(
            doc["skipped"].as_array().unwrap().is_empty(),
            "{prefix}: {}",
            doc["skipped"]
        );
    }
}

#[test]
fn dump_says_which_sections_and_gpu_each_export_shows() {
    let out = ncu_lint(&["dump", "--format", "text", &page(&report("22_"), "details")]);
    let text = stdout(&out);
    assert!(
        text.contains("sections: SpeedOfLight, LaunchStats, Occupancy, WorkloadDistribution"),
        "{text}"
    );
    let out = ncu_lint(&["dump", "--format", "text", &page(&report("22_"), "raw")]);
    let text = stdout(&out);
    assert!(
        text.contains("GPU: NVIDIA GeForce RTX 2060 with Max-Q Design"),
        "{text}"
    );
    assert!(text.contains("(inferred from its metrics)"), "{text}");
}
