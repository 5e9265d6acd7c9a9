//! Triage: what each finding is worth, the places findings gather at, the
//! ranking, the worth-it threshold, and a report of hundreds of launches
//! that a person reads in one sitting.

mod common;

use std::io::Read;

use common::{RULES, first_finding, fixture, ncu_lint, stdout, temp_dir};
use serde_json::Value;

const LAB: [&str; 2] = ["lab/raw.csv.xz", "lab/source_cuda_sass.csv.xz"];

fn report(name: &str) -> String {
    fixture(&format!("reports/{name}"))
}

fn json(args: &[&str]) -> Value {
    let mut all = vec!["check", "--no-config", "--format", "json"];
    all.extend_from_slice(args);
    let out = ncu_lint(&all);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The lab's raw export as text.
fn lab_raw() -> String {
    let mut text = String::new();
    xz2::read::XzDecoder::new(std::fs::File::open(fixture("lab/raw.csv.xz")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// The lab's raw export with each result repeated `times` times under new
/// IDs, in launch order: a training-step-like profile of many launches of
/// few kernels, every row a real one.
fn repeated_lab(dir: &std::path::Path, times: usize) -> String {
    let text = lab_raw();
    let mut lines = text.lines();
    let mut out = format!("{}\n{}\n", lines.next().unwrap(), lines.next().unwrap());
    let rows: Vec<&str> = lines.collect();
    let mut id = 0;
    for _ in 0..times {
        for row in &rows {
            let rest = &row[row.find("\",").unwrap()..];
            out.push_str(&format!("\"{id}{rest}\n"));
            id += 1;
        }
    }
    let path = dir.join(format!("lab_x{times}.csv"));
    std::fs::write(&path, out).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn every_finding_carries_what_a_fix_is_worth() {
    let lab: Vec<String> = LAB.iter().map(|f| fixture(f)).collect();
    let doc = json(&[&lab[0], &lab[1]]);
    let findings = doc["findings"].as_array().unwrap();
    for f in findings {
        let impact = &f["impact"];
        let (kernel, speedup, saved) = (
            impact["kernel_ns"].as_f64().unwrap(),
            impact["speedup"].as_f64().unwrap(),
            impact["saved_ns"].as_f64().unwrap(),
        );
        assert!((0.0..=1.0).contains(&speedup), "{f}");
        assert!((saved - kernel * speedup).abs() < 1e-6 * kernel, "{f}");
    }
    // The 32-way conflicts cost nearly all of their kernels; the misaligned
    // load, one sector in nine, a few percent of its kernel.
    let speedup = |name: &str, rule: &str| {
        findings
            .iter()
            .find(|f| f["kernel"]["name"].as_str().unwrap().contains(name) && f["rule"] == rule)
            .map(|f| f["impact"]["speedup"].as_f64().unwrap())
            .unwrap()
    };
    assert!(speedup("smem_stride<float, 32>", "shared-bank-conflict") > 0.9);
    assert!(speedup("load_misaligned", "sector-waste") < 0.1);
    let profile = doc["summary"]["profile_ns"].as_f64().unwrap();
    assert!(
        (profile - 4_969_312.0).abs() < 1.0,
        "26 lab kernels: {profile}"
    );
}

#[test]
fn without_a_duration_the_impact_is_null() {
    // The lab's source page alone: findings at their lines, and no duration.
    let doc = json(&[&fixture("lab/source_cuda_sass.csv.xz")]);
    let findings = doc["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    assert!(findings.iter().all(|f| f["impact"].is_null()), "{doc}");
    assert!(doc["summary"]["profile_ns"].is_null());
    // Ranked by the bytes wasted instead.
    let bytes: Vec<f64> = doc["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["bytes"].as_f64().unwrap_or(-1.0))
        .collect();
    assert!(bytes.windows(2).all(|w| w[0] >= w[1]), "{bytes:?}");
}

#[test]
fn groups_hold_every_finding_once_ranked_and_their_sums_add_up() {
    let dir = temp_dir("triage_groups");
    let profile = repeated_lab(&dir, 3);
    let doc = json(&[&profile]);
    let findings = doc["findings"].as_array().unwrap();
    let groups = doc["groups"].as_array().unwrap();
    let mut seen = vec![0; findings.len()];
    for g in groups {
        for i in g["findings"].as_array().unwrap() {
            seen[i.as_u64().unwrap() as usize] += 1;
        }
        assert_eq!(
            g["launches"], 3,
            "each lab kernel launched three times: {g}"
        );
    }
    assert!(
        seen.iter().all(|&n| n == 1),
        "each finding in exactly one group"
    );
    let saved: Vec<f64> = groups
        .iter()
        .map(|g| g["saved_ns"].as_f64().unwrap())
        .collect();
    assert!(saved.windows(2).all(|w| w[0] >= w[1]), "ranked: {saved:?}");
    for g in groups {
        // Per launch the largest estimate at the place, summed over launches.
        let mut per_launch: std::collections::BTreeMap<u64, f64> = Default::default();
        for i in g["findings"].as_array().unwrap() {
            let f = &findings[i.as_u64().unwrap() as usize];
            let ns = f["impact"]["saved_ns"].as_f64().unwrap();
            let launch = per_launch
                .entry(f["kernel"]["id"].as_u64().unwrap())
                .or_default();
            *launch = launch.max(ns);
        }
        let sum: f64 = per_launch.values().sum();
        assert!(
            (sum - g["saved_ns"].as_f64().unwrap()).abs() <= 1e-6 * sum,
            "{g}"
        );
    }
    let one = json(&[&fixture("lab/raw.csv.xz")]);
    let total = |d: &Value| d["summary"]["profile_ns"].as_f64().unwrap();
    assert!((total(&doc) - 3.0 * total(&one)).abs() < 1.0);
}

#[test]
fn a_short_kernels_small_waste_is_a_note_and_a_large_one_a_warning() {
    // init_borders runs 2.6 µs on an RTX 4090 (report 19); its strided
    // stores cost a quarter of a percent of it: a note, below min_speedup.
    // (Its one block on 128 SMs is the launch pack's, worth its 0.6 µs over
    // the launch's floor.)
    let doc = json(&[
        "--ignore",
        "launch/*",
        &report("19_victor-lvsy-profile.raw.csv.xz"),
    ]);
    let small: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["kernel"]["name"]
                .as_str()
                .unwrap()
                .starts_with("init_borders")
        })
        .collect();
    assert!(!small.is_empty());
    for f in &small {
        assert_eq!(f["severity"], "note", "{f}");
        assert!(f["impact"]["kernel_ns"].as_f64().unwrap() < 3000.0);
        assert!(f["impact"]["speedup"].as_f64().unwrap() < 0.01);
        assert!(
            f["message"].as_str().unwrap().contains("worth failing for"),
            "{f}"
        );
    }
    // sum_rows walks one row per thread on 16 blocks of a 132-SM H200: its
    // busy L1s spend 32 wavefronts on each request a warp per row serves
    // in one. A large waste: a warning (fixtures/twins/rows.cu measures its
    // class: fixes save 72-79% on 8 to 132 blocks).
    let inline = json(&[&fixture("inline/inline.raw.csv.xz")]);
    let row_walk = first_finding(&inline, "sum_rows");
    assert_eq!(row_walk["severity"], "warning", "{row_walk}");
    assert!(
        row_walk["impact"]["speedup"].as_f64().unwrap() > 0.5,
        "{row_walk}"
    );
    // register_nospill runs 6.6 µs on the H200 with its busiest L1 42%
    // busy over the cycles its SM worked: a warning, as its twin measured
    // (gathers_blind.cu's gather3 on the same 4,096 blocks saved 1.0 µs of
    // 6.7 with the loads at unit stride).
    let lab = json(&[&fixture("lab/raw.csv.xz")]);
    let gather = first_finding(&lab, "register_nospill");
    assert_eq!(gather["severity"], "warning", "{gather}");
    assert!(gather["impact"]["kernel_ns"].as_f64().unwrap() < 10_000.0);
    let speedup = gather["impact"]["speedup"].as_f64().unwrap();
    assert!((0.05..0.2).contains(&speedup), "{gather}");
    // A structure of three floats read a field at a time on the same grid
    // (gathers_blind.cu's aos3_fields, 5.9 µs): the L1 serves the second
    // and third fields' reads of the sectors the first wasted, so as
    // profiled a fix saves nothing (three arrays ran 0.2 µs slower); where
    // the L1 does not catch them they cost an eighth of it: a note that
    // says both, which fails the gate by that most only where the rule's
    // ceiling_gates asks.
    let structs = fixture("twins/gathers_blind.raw.csv.xz");
    let of_result = |doc: &Value, id: u64| -> Value {
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["kernel"]["id"] == id && f["rule"] == "global-load-efficiency")
            .unwrap_or_else(|| panic!("no finding on result {id}"))
            .clone()
    };
    let note = of_result(&json(&[&structs]), 3);
    assert!(
        note["kernel"]["name"]
            .as_str()
            .unwrap()
            .starts_with("aos3_fields")
    );
    assert_eq!(note["severity"], "note");
    assert!(note["impact"]["speedup"].as_f64().unwrap() < 0.01, "{note}");
    assert!(
        note["impact"]["speedup_ceiling"].as_f64().unwrap() > 0.05,
        "{note}"
    );
    let message = note["message"].as_str().unwrap();
    assert!(
        message.contains("as profiled, under the 1.0% worth failing for; up to")
            && message.contains("where the L1 does not catch"),
        "{message}"
    );
    let gated = [
        "--param",
        "global-load-efficiency.ceiling_gates=1",
        "--param",
        "sector-waste.ceiling_gates=1",
    ];
    let mut args = gated.to_vec();
    args.push(&structs);
    let structs_gated = json(&args);
    let large = of_result(&structs_gated, 3);
    assert_eq!(large["severity"], "warning");
    assert!(
        large["message"]
            .as_str()
            .unwrap()
            .contains("as profiled; up to"),
        "{large}"
    );
    let group = structs_gated["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kernel"] == "aos3_fields" && g["ceiling_ns"].is_number())
        .unwrap();
    let ceiling_ns = group["ceiling_ns"].as_f64().unwrap();
    assert!(
        ceiling_ns > group["saved_ns"].as_f64().unwrap() && ceiling_ns > 500.0,
        "{group}"
    );
    let mut args = vec!["check", "--no-config"];
    args.extend_from_slice(&gated);
    args.push(&structs);
    let text = stdout(&ncu_lint(&args));
    assert!(
        text.contains("rank by what a fix saves as profiled and fail the gate by what it saves where the L1 does not catch"),
        "{text}"
    );
    // The threshold is a parameter: lowered, the small one is a warning.
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        "--param",
        "global-store-efficiency.min_speedup=0",
        &report("19_victor-lvsy-profile.raw.csv.xz"),
    ]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let store = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "global-store-efficiency")
        .unwrap();
    assert_eq!(store["severity"], "warning", "{store}");
}

#[test]
fn notes_are_counted_unless_all_is_asked_for() {
    // The memory pack's notes on report 19 (its launch findings aside).
    let raw = report("19_victor-lvsy-profile.raw.csv.xz");
    let out = ncu_lint(&["check", "--no-config", "--ignore", "launch/*", &raw]);
    let text = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "notes do not fail the gate: {text}"
    );
    assert!(!text.contains("init_borders"), "{text}");
    assert!(
        text.contains("note(s) in 2 place(s) not shown") && text.contains("--all"),
        "{text}"
    );
    let all = stdout(&ncu_lint(&[
        "check",
        "--no-config",
        "--ignore",
        "launch/*",
        "--all",
        &raw,
    ]));
    assert!(all.contains("init_borders"), "{all}");
    assert!(!all.contains("not shown"), "{all}");
}

#[test]
fn a_profile_of_hundreds_of_launches_reads_in_one_screenful_per_place() {
    let dir = temp_dir("triage_large");
    // 26 lab kernels launched 13 times and more: 345 launches.
    let profile = repeated_lab(&dir, 14);
    let lines: Vec<String> = {
        let text = lab_raw();
        let mut kept: Vec<String> = text.lines().map(str::to_owned).collect();
        let content = std::fs::read_to_string(&profile).unwrap();
        kept.clear();
        kept.extend(content.lines().take(2 + 345).map(str::to_owned));
        kept
    };
    std::fs::write(&profile, lines.join("\n") + "\n").unwrap();
    let out = ncu_lint(&["check", "--no-config", &profile]);
    let text = stdout(&out);
    assert!(
        text.contains("345 kernels"),
        "{}",
        text.lines().last().unwrap()
    );
    let count = text.lines().count();
    assert!(count <= 200, "{count} lines:\n{text}");
    assert!(
        text.contains("launches, same finding; worst: result"),
        "{text}"
    );
    insta::assert_snapshot!(table(&text));
}

/// The ranked table at the top of a human report.
fn table(text: &str) -> String {
    text.lines()
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_lab_table_ranks_by_time_to_gain() {
    let lab: Vec<String> = LAB.iter().map(|f| fixture(f)).collect();
    let text = stdout(&ncu_lint(&["check", "--no-config", &lab[0], &lab[1]]));
    insta::assert_snapshot!(table(&text));
}

#[test]
fn explain_shows_each_rules_impact_formula() {
    for rule in RULES {
        let text = stdout(&ncu_lint(&["explain", "--no-config", rule]));
        assert!(text.contains("## What a fix is worth"), "{rule}: {text}");
        assert!(text.contains("  speedup = "), "{rule}: {text}");
        assert!(text.contains("min_speedup = 0.01"), "{rule}: {text}");
    }
    // The global rules' served-traffic estimates name their ceiling, and the
    // JSON form carries it.
    for rule in ["global-load-efficiency", "sector-waste"] {
        let text = stdout(&ncu_lint(&["explain", "--no-config", rule]));
        assert!(
            text.contains("  at most, where the L1 does not catch re-reads of the wasted sectors"),
            "{rule}: {text}"
        );
        let json: Value = serde_json::from_str(&stdout(&ncu_lint(&[
            "explain",
            "--no-config",
            "--format",
            "json",
            rule,
        ])))
        .unwrap();
        let first = &json["impact"][0];
        assert!(first["ceiling"]["speedup"].is_string(), "{rule}: {first}");
    }
}

#[test]
fn sarif_ranks_findings_by_their_share_of_the_profile() {
    let lab: Vec<String> = LAB.iter().map(|f| fixture(f)).collect();
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "sarif",
        &lab[0],
        &lab[1],
    ]);
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let top = results
        .iter()
        .max_by(|a, b| {
            a["rank"]
                .as_f64()
                .unwrap()
                .total_cmp(&b["rank"].as_f64().unwrap())
        })
        .unwrap();
    assert!(
        top["message"]["text"]
            .as_str()
            .unwrap()
            .contains("smem_stride<float, 32>")
    );
    assert!((top["rank"].as_f64().unwrap() - 20.0).abs() < 0.1, "{top}");
}

#[test]
fn diff_compares_the_time_to_gain_at_each_place() {
    // load_stride2's duration doubled: the same strided loads cost twice
    // the time (the lab's raw export with one cell changed).
    let dir = temp_dir("triage_diff");
    let text = lab_raw();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let header: Vec<&str> = lines[0].split("\",\"").collect();
    let column = header
        .iter()
        .position(|h| h.trim_matches('"') == "gpu__time_duration.sum")
        .unwrap();
    let row = lines.iter().position(|l| l.starts_with("\"1\",")).unwrap();
    let mut cells: Vec<String> = lines[row].split("\",\"").map(str::to_owned).collect();
    assert_eq!(cells[column], "0.027840");
    cells[column] = "0.055680".into();
    lines[row] = cells.join("\",\"");
    let slower = dir.join("raw_slower.csv");
    std::fs::write(&slower, lines.join("\n") + "\n").unwrap();
    let raw = fixture("lab/raw.csv.xz");
    let out = ncu_lint(&[
        "diff",
        "--no-config",
        &raw,
        "--against",
        &slower.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("worse: est. time to gain at load_stride2 the kernel: 4.8 µs -> 9.5 µs"),
        "{text}"
    );
    let same = ncu_lint(&["diff", "--no-config", &raw, "--against", &raw]);
    assert_eq!(same.status.code(), Some(0));
}

/// The pages of a real training step (`fixtures/step/`): 235 launches.
fn training_step() -> Vec<String> {
    [
        "step/raw.csv.xz",
        "step/source.csv.xz",
        "step/session.csv.xz",
    ]
    .iter()
    .map(|f| fixture(f))
    .collect()
}

#[test]
fn a_training_step_reads_in_one_sitting() {
    // Every kernel of an eager step is PyTorch's, cuBLAS's or cuDNN's:
    // their findings are notes unless kept, as here.
    let step = training_step();
    let mut args = vec!["check", "--no-config", "--library-findings", "keep"];
    args.extend(step.iter().map(String::as_str));
    let out = ncu_lint(&args);
    let text = stdout(&out);
    assert!(text.contains("235 kernels"), "{text}");
    assert!(
        text.lines().count() <= 200,
        "{} lines",
        text.lines().count()
    );
    insta::assert_snapshot!(table(&text));
}

#[test]
fn waste_on_a_tma_gemms_sliver_of_lsu_traffic_is_a_note() {
    // cuBLAS's nvjet_sm90 GEMMs move their tiles with TMA; their LSU loads
    // (the bias) are inefficient, and a sliver of the L2's sectors: worth a
    // fraction of a percent of the kernel, so a note.
    let step = training_step();
    let mut args: Vec<&str> = step.iter().map(String::as_str).collect();
    args.push("--all");
    let doc = json(&args);
    let gemms: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["kernel"]["name"]
                .as_str()
                .unwrap()
                .starts_with("nvjet_sm90")
        })
        .collect();
    assert!(gemms.len() >= 4, "{}", gemms.len());
    for f in gemms {
        assert_eq!(f["severity"], "note", "{f}");
        assert!(f["impact"]["speedup"].as_f64().unwrap() < 0.005, "{f}");
    }
}

#[test]
fn a_launch_whose_fixes_overlap_says_their_estimates_do_not_add_up() {
    // stores_blind17.cu's eight floats stored a field at a time on 16
    // blocks: writing each structure whole saves 558.8 µs alone and more
    // blocks 494.4 µs alone, of a 645.1 µs launch.
    let set = [
        fixture("twins/stores_blind17.raw.csv.xz"),
        fixture("twins/stores_blind17.source.csv.xz"),
    ];
    let text = stdout(&ncu_lint(&["check", "--no-config", &set[0], &set[1]]));
    let headed: Vec<(&str, Option<&str>)> = text
        .lines()
        .zip(text.lines().skip(1))
        .filter(|(line, _)| line.starts_with("── "))
        .map(|(head, next)| (head, next.strip_prefix("  fixes overlap: ")))
        .collect();
    let first = headed
        .iter()
        .find(|(head, _)| head.contains("fill_struct_walk<float, 8>"))
        .unwrap();
    assert_eq!(
        first.1,
        Some(
            "this launch's 2 places are estimated at 1.05 ms together, past its 645.1 µs; each estimate is of its fix alone"
        )
    );
    // The line is there exactly where a launch's places add up past its time.
    let doc = json(&[&set[0], &set[1]]);
    for (head, overlap) in &headed {
        let id: u64 = head
            .split("[result ")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let findings = doc["findings"].as_array().unwrap();
        let mut places = Vec::new();
        let mut kernel_ns = 0.0;
        for group in doc["groups"].as_array().unwrap() {
            let saved = group["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| &findings[i.as_u64().unwrap() as usize])
                .filter(|f| f["kernel"]["id"].as_u64() == Some(id))
                .filter_map(|f| {
                    kernel_ns = f["impact"]["kernel_ns"].as_f64().unwrap_or(kernel_ns);
                    f["impact"]["saved_ns"].as_f64()
                })
                .reduce(f64::max);
            places.extend(saved);
        }
        let together: f64 = places.iter().sum();
        assert_eq!(
            overlap.is_some(),
            places.len() > 1 && together > kernel_ns,
            "{head}"
        );
    }
    assert!(headed.iter().any(|(_, overlap)| overlap.is_none()));
    // The HTML report says it under the same places' headers.
    let html = stdout(&ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "html",
        &set[0],
        &set[1],
    ]));
    let said = html.matches("<p class=\"overlap\">fixes overlap: ").count();
    let expected = headed
        .iter()
        .filter(|(_, overlap)| overlap.is_some())
        .count();
    assert!(expected > 0);
    assert_eq!(said, expected);
    assert!(html.contains(
        "<p class=\"overlap\">fixes overlap: this launch&apos;s 2 places are estimated at 1.05 ms together, past its 645.1 µs; each estimate is of its fix alone</p>"
    ));
}
