//! `diff` closes the loop: each kernel's measured time before and after a
//! fix, beside what `check` had estimated the fix to save. The profiles are
//! before/after builds of one file (fixtures/twins/rows.cu and launch.cu,
//! as is and with -DFIXED), profiled on an H200: every kernel keeps its
//! name, so the two profiles' kernels match.

mod common;

use common::{fixture, ncu_lint, stdout};
use serde_json::Value;

fn diff(args: &[&str]) -> std::process::Output {
    let mut all = vec!["diff", "--no-config"];
    all.extend_from_slice(args);
    ncu_lint(&all)
}

fn diff_json(base: &[String], head: &[String]) -> Value {
    let mut args: Vec<&str> = vec!["--format", "json"];
    args.extend(base.iter().map(String::as_str));
    args.push("--against");
    args.extend(head.iter().map(String::as_str));
    let out = diff(&args);
    assert_ne!(out.status.code(), Some(2), "{}", common::stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn pages(name: &str) -> Vec<String> {
    vec![
        fixture(&format!("twins/{name}.raw.csv.xz")),
        fixture(&format!("twins/{name}.source.csv.xz")),
    ]
}

fn kernel<'d>(doc: &'d Value, short: &str) -> &'d Value {
    doc["timing"]["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kernel"] == short)
        .unwrap_or_else(|| panic!("no {short}"))
}

/// The raw page's durations of the results of `name` whose kernel name
/// starts with `prefix`, added up (ns).
fn raw_total(name: &str, prefix: &str) -> f64 {
    let text = common::xz_text(&fixture(&format!("twins/{name}.raw.csv.xz")));
    let mut rows = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    let column = |h: &str| rows[0].iter().position(|c| c == h).unwrap();
    let (kernel, duration) = (column("Kernel Name"), column("gpu__time_duration.sum"));
    rows[2..]
        .iter()
        .filter(|r| r[kernel].starts_with(prefix))
        .map(|r| r[duration].replace(',', "").parse::<f64>().unwrap())
        .sum()
}

#[test]
fn each_fixed_kernel_shows_its_time_before_and_after_beside_the_estimate() {
    let doc = diff_json(&pages("rows"), &pages("rows_fixed"));
    let walk = kernel(&doc, "row_sum<4096>");
    // Four launches (8 to 132 blocks), summed on each side as profiled.
    assert_eq!(walk["base"]["count"], 4);
    let base = walk["base"]["total_ns"].as_f64().unwrap();
    let head = walk["head"]["total_ns"].as_f64().unwrap();
    assert_eq!(base, raw_total("rows", "void row_sum<4096>"));
    assert_eq!(head, raw_total("rows_fixed", "void row_sum<4096>"));
    assert_eq!(walk["saved_ns"].as_f64().unwrap(), base - head);
    assert_eq!(walk["verdict"], "faster");
    // The estimate came from the base profile's findings, all fixed.
    let estimated = walk["estimated_ns"].as_f64().unwrap();
    assert!(estimated > 0.6 * base, "{estimated} of {base}");
    assert_eq!(walk["agrees"], true);
    // Two 16-byte loads 32 bytes apart: the L1 serves the second, and the
    // fix changes nothing measurable.
    // Its busiest L1, 32% busy over the elapsed cycles and 34% over its
    // SM's own, is just past the latency knee: said at 1.1 µs of 46, where
    // the fix changed nothing measurable: more than the 2% of the kernel's
    // time an estimate may be off by.
    let pair = kernel(&doc, "vec_pair");
    assert_eq!(pair["verdict"], "unchanged");
    assert_eq!(pair["agrees"], false);
    let summary = &doc["timing"]["summary"];
    assert_eq!(summary["judged"], 9);
    assert_eq!(summary["agree"], 8);
    assert!(summary["saved_ns"].as_f64().unwrap() > 3.0e6);
    let conditions = &doc["timing"]["base"];
    assert_eq!(conditions["gpus"][0], "NVIDIA H200");
    assert!(conditions["sm_clock_hz"].as_f64().unwrap() > 1.9e9);
    assert_eq!(doc["timing"]["differences"].as_array().unwrap().len(), 0);
}

#[test]
fn a_fix_that_saved_less_than_estimated_says_what_its_kernel_waits_on() {
    // walks_heldout.cu fixes one row walk two ways: one float a lane, a row
    // at a time (37% saved of 56.4 us estimated), and 16 bytes a lane with
    // loads in flight (72%, agrees).
    let doc = diff_json(&pages("walks_heldout"), &pages("walks_heldout_fixed"));
    let scalar = kernel(&doc, "row_norm<float, 512, 0>");
    assert_eq!(scalar["agrees"], false);
    let why = scalar["shortfall"].as_str().unwrap();
    assert!(why.contains("waits on latency"), "{why}");
    assert!(why.contains("keep more loads in flight"), "{why}");
    assert!(why.contains("7.9 warps an SM"), "{why}");
    let vector = kernel(&doc, "row_norm<float, 512, 1>");
    assert_eq!(vector["agrees"], true);
    assert!(vector["shortfall"].is_null());
    // A misaligned store whose fix saved nothing measurable, now estimated
    // at what the L2's merge of the shared sector leaves of it.
    let store = kernel(&doc, "store_offset<float, 3>");
    assert_eq!(store["agrees"], true, "{store}");
    assert!(store["shortfall"].is_null());
}

#[test]
fn the_terminal_shows_the_times_and_how_the_estimates_did() {
    let (base, head) = (pages("rows"), pages("rows_fixed"));
    let out = diff(&[&base[0], &base[1], "--against", &head[0], &head[1]]);
    let text = stdout(&out);
    let timing = &text[text.find("time per kernel").unwrap()..];
    insta::assert_snapshot!(timing);
}

#[test]
fn read_natively_the_reports_give_the_same_times_and_their_conditions() {
    let native = diff_json(
        &[fixture("twins/rows.ncu-rep.xz")],
        &[fixture("twins/rows_fixed.ncu-rep.xz")],
    );
    let paged = diff_json(&pages("rows"), &pages("rows_fixed"));
    for short in ["row_sum<4096>", "row_sum<16>", "embed<768>", "vec_pair"] {
        let (n, p) = (kernel(&native, short), kernel(&paged, short));
        assert_eq!(n["base"]["total_ns"], p["base"]["total_ns"], "{short}");
        assert_eq!(n["head"]["total_ns"], p["head"]["total_ns"], "{short}");
        assert_eq!(n["verdict"], p["verdict"], "{short}");
    }
    // The report holds the session: ncu's version and its command line.
    let base = &native["timing"]["base"];
    assert_eq!(base["clock_control"], "none");
    assert!(
        base["ncu_version"]
            .as_str()
            .unwrap()
            .starts_with("2025.3.1")
    );
}

#[test]
fn a_grid_that_changed_is_named_and_repeats_of_other_work_are_not_noise() {
    // launch.cu's fix spreads stream_scale's three launches (8, 32 and 132
    // blocks) over 1,056 blocks: they are different work, so their spread
    // says nothing of the noise, and the 92% saving is a saving.
    let doc = diff_json(&pages("launch"), &pages("launch_fixed"));
    let scale = kernel(&doc, "stream_scale");
    assert_eq!(scale["verdict"], "faster");
    let changes: Vec<&str> = scale["launch_changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(
        changes.contains(&"grid (8, 1, 1) -> (1056, 1, 1)"),
        "{changes:?}"
    );
    assert_eq!(kernel(&doc, "occupancy_gather")["verdict"], "unchanged");
}

#[test]
fn fail_on_slower_fails_only_a_kernel_slower_than_it_allows() {
    // launch_fixed -> launch, the memory pack's findings (the same on
    // both): stream_scale 12x slower.
    let (fixed, slow) = (pages("launch_fixed"), pages("launch"));
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut all: Vec<String> = vec!["--ignore".to_owned(), "launch/*".to_owned()];
        all.extend(fixed.iter().cloned());
        all.push("--against".to_owned());
        all.extend(slow.iter().cloned());
        all.extend(extra.iter().map(|s| (*s).to_owned()));
        all
    };
    let run = |extra: &[&'static str]| {
        let all = args(extra);
        diff(&all.iter().map(String::as_str).collect::<Vec<_>>())
    };
    assert_eq!(run(&[]).status.code(), Some(0));
    let gated = run(&["--fail-on-slower", "10"]);
    assert_eq!(gated.status.code(), Some(1));
    assert!(stdout(&gated).contains("stream_scale is slower than --fail-on-slower allows"));
    assert_eq!(run(&["--fail-on-slower", "2000"]).status.code(), Some(0));
    let bad = run(&["--fail-on-slower", "fast"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(common::stderr(&bad).contains("is not a percentage"));
}

#[test]
fn profiles_of_different_gpus_say_their_durations_compare_only_in_part() {
    // The lab (H200) against report 19 (an RTX 4090).
    let doc = diff_json(
        &[fixture("lab/raw.csv.xz")],
        &[fixture("reports/19_victor-lvsy-profile.raw.csv.xz")],
    );
    let differences: Vec<&str> = doc["timing"]["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert!(
        differences
            .iter()
            .any(|d| d.starts_with("GPUs differ: NVIDIA H200 against")),
        "{differences:?}"
    );
}

#[test]
fn markdown_and_html_carry_the_times_for_a_pull_request() {
    let (base, head) = (pages("rows"), pages("rows_fixed"));
    let markdown = stdout(&diff(&[
        "--format",
        "markdown",
        &base[0],
        "--against",
        &head[0],
    ]));
    assert!(markdown.contains("| kernel | launches | base | head | saved | estimated | agrees |"));
    assert!(markdown.contains("| `row_sum<4096>` | 4 |"), "{markdown}");
    assert!(markdown.contains("- estimates: 9 kernels had findings fixed or improved"));
    let html = stdout(&diff(&[
        "--format",
        "html",
        &base[0],
        "--against",
        &head[0],
    ]));
    assert!(html.contains("<section id=\"timing\">"));
    // A bar before and after for each of the nine kernels.
    assert_eq!(
        html.matches("<g class=\"bar\" data-side=\"base\"").count(),
        9
    );
    assert_eq!(
        html.matches("<g class=\"bar\" data-side=\"head\"").count(),
        9
    );
}
