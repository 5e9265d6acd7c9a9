//! The CI gate: baselines, profile-to-profile diffs, and packs as units
//! (extends, overrides, `rules check`, `rules test`).

mod common;

use common::{corpus, fixture, ncu_lint, spilling_copy, stderr, stdout, temp_dir};

#[test]
fn a_baseline_silences_its_own_profile_and_lets_others_through() {
    let dir = temp_dir("baseline");
    let baseline = dir.join("baseline.toml");
    let raw = fixture("lab/raw.csv.xz");
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--write-baseline",
        &baseline.to_string_lossy(),
        &raw,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&baseline).unwrap();
    assert!(text.starts_with("# ncu-lint baseline"));
    assert_eq!(text.matches("[[finding]]").count(), 25);
    assert!(
        !text.contains("25,853,952") && !text.contains("result"),
        "no measured values or result IDs"
    );
    let entries: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("kernel = "))
        .collect();
    let mut sorted = entries.clone();
    sorted.sort();
    assert_eq!(entries, sorted, "sorted for diffs");

    let base = baseline.to_string_lossy().into_owned();
    let same = ncu_lint(&["check", "--no-config", "--baseline", &base, &raw]);
    assert_eq!(same.status.code(), Some(0), "{}", stdout(&same));
    assert!(stdout(&same).contains("0 findings"));

    // Re-profiled in other units: same findings, same identities.
    let units = ncu_lint(&[
        "check",
        "--no-config",
        "--baseline",
        &base,
        &fixture("lab/raw_units_base.csv.xz"),
    ]);
    assert_eq!(units.status.code(), Some(0));

    let other = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        "--baseline",
        &base,
        &spilling_copy(&dir),
    ]);
    assert_eq!(other.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&other.stdout).unwrap();
    let found: Vec<(&str, &str)> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap(),
                f["kernel"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [(
            "register-spill",
            "register_nospill(const float *, float *, int)"
        )]
    );
}

#[test]
fn stale_baseline_entries_are_listed() {
    let dir = temp_dir("baseline_stale");
    let baseline = dir.join("baseline.toml");
    let spilling = spilling_copy(&dir);
    ncu_lint(&[
        "check",
        "--no-config",
        "--write-baseline",
        &baseline.to_string_lossy(),
        &spilling,
    ]);
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--baseline",
        &baseline.to_string_lossy(),
        &fixture("lab/raw.csv.xz"),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("stale baseline entry: register-spill on `register_nospill(const float *, float *, int)` at kernel no longer occurs"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn diff_of_a_profile_against_itself_passes() {
    let raw = fixture("lab/raw.csv.xz");
    let out = ncu_lint(&["diff", "--no-config", &raw, "--against", &raw]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.starts_with("0 new findings, 0 fixed, 0 regressions in 0 kernels\n"),
        "{text}"
    );
    // The same durations: every kernel the same time, nothing estimated.
    assert!(
        text.contains("over 26 kernels in both (+0%): 0 faster, 0 slower, 26 no measurable change"),
        "{text}"
    );
    assert!(!text.contains("estimates:"), "{text}");
    // Adding the source page moves findings onto lines; that is not a change.
    let out = ncu_lint(&[
        "diff",
        "--no-config",
        &raw,
        &fixture("lab/source_cuda_sass.csv.xz"),
        "--against",
        &raw,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn diff_catches_a_kernel_that_starts_to_spill() {
    let dir = temp_dir("diff_spill");
    let raw = fixture("lab/raw.csv.xz");
    let spilling = spilling_copy(&dir);
    let out = ncu_lint(&["diff", "--no-config", &raw, "--against", &spilling]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "register_nospill(const float *, float *, int) (launch 1, result 23 -> 23)"
        ),
        "{text}"
    );
    assert!(text.contains("new      warning[register-spill]"));
    assert!(text.contains("worse    register-spill spills: 0 -> 1,048,576"));

    let out = ncu_lint(&[
        "diff",
        "--no-config",
        "--format",
        "json",
        &raw,
        "--against",
        &spilling,
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["kernels"][0]["name"],
        "register_nospill(const float *, float *, int)"
    );
    assert_eq!(json["kernels"][0]["changes"][0]["regression"], true);

    let out = ncu_lint(&[
        "diff",
        "--no-config",
        "--format",
        "markdown",
        &spilling,
        "--against",
        &raw,
    ]);
    assert_eq!(out.status.code(), Some(0), "the reverse is an improvement");
    assert!(
        stdout(&out).contains("| fixed | `register-spill` |"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn diff_tolerance_has_a_relative_and_an_absolute_part() {
    // raw and raw_units_base print the same profile with different rounding.
    let raw = fixture("lab/raw.csv.xz");
    let base_units = fixture("lab/raw_units_base.csv.xz");
    let strict = ncu_lint(&[
        "diff",
        "--no-config",
        "--tolerance-rel",
        "0",
        "--tolerance-abs",
        "0",
        &raw,
        "--against",
        &base_units,
    ]);
    let lenient = ncu_lint(&["diff", "--no-config", &raw, "--against", &base_units]);
    assert_eq!(
        strict.status.code(),
        Some(1),
        "rounding differences count at zero tolerance"
    );
    assert!(
        stdout(&strict).contains(" 1 regressions"),
        "{}",
        stdout(&strict)
    );
    assert_eq!(lenient.status.code(), Some(0));
    assert!(
        stdout(&lenient).contains("0 regressions in 0 kernels\n"),
        "{}",
        stdout(&lenient)
    );
}

#[test]
fn the_default_pack_passes_its_own_tests() {
    let out = ncu_lint(&["rules", "test", "rules/memory.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("pack memory 1.0.0: 7 rules, 1 tests: valid"));
    assert!(text.contains("test lab answers ... ok"), "{text}");
}

#[test]
fn a_test_over_several_export_sets_names_the_set_that_fails() {
    let dir = temp_dir("pack_sets");
    let pack = dir.join("team.toml");
    let memory = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/memory.toml");
    let details = fixture("lab/details_all.csv.xz");
    let other = corpus("02_leleucas-a100-shared-table-metrics.csv");
    std::fs::write(
        &pack,
        format!(
            r#"[pack]
name = "team"
extends = ["{}"]

[[test]]
name = "strided loads"
files = [["{details}"], ["{other}"]]
expect = [{{ rule = "global-load-efficiency", kernel = "load_stride2*" }}]
"#,
            memory.display(),
        ),
    )
    .unwrap();
    let out = ncu_lint(&["rules", "test", &pack.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    let failures: Vec<&str> = text.lines().filter(|l| l.starts_with("    ")).collect();
    assert_eq!(
        failures.len(),
        1,
        "only the other profile lacks the kernel: {text}"
    );
    assert!(failures[0].contains(&format!("(on {other})")), "{text}");
}

#[test]
fn a_changed_threshold_shows_what_moves() {
    let dir = temp_dir("pack_extends");
    let pack = dir.join("team.toml");
    let memory = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/memory.toml");
    std::fs::write(
        &pack,
        format!(
            r#"[pack]
name = "team"
version = "2.0.0"
extends = ["{}"]

[overrides.sector-waste]
params = {{ min_waste_share = 0.5 }}

[[test]]
name = "misaligned loads are no longer waste"
files = ["{}"]
reject = [{{ rule = "sector-waste", kernel = "load_misaligned*" }}]
expect = [{{ rule = "sector-waste", kernel = "load_stride32*" }}, {{ rule = "sector-waste", kernel = "load_stride2(*" }}]
"#,
            memory.display(),
            fixture("lab/raw.csv.xz")
        ),
    )
    .unwrap();
    let out = ncu_lint(&["rules", "test", &pack.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("pack team 2.0.0: 7 rules, 1 tests: valid"),
        "{text}"
    );
    assert!(text.contains("test misaligned loads are no longer waste ... FAILED"));
    assert!(
        text.contains("expected sector-waste on `load_stride2(*`, found none"),
        "33% waste is now below 50%: {text}"
    );
}

#[test]
fn overrides_of_unknown_rules_and_broken_packs_fail_rules_check() {
    let dir = temp_dir("pack_check");
    let pack = dir.join("team.toml");
    std::fs::write(&pack, "[pack]\nname = \"team\"\nextends = [\"builtin:memory\"]\n\n[overrides.sector-wast]\nseverity = \"note\"\n").unwrap();
    let out = ncu_lint(&["rules", "check", &pack.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("team.toml:5:1: no extended rule `sector-wast` to override"),
        "{}",
        stderr(&out)
    );

    let out = ncu_lint(&["rules", "check", "fixtures/packs/bad_type.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("fixtures/packs/bad_type.toml:10:25: expected a number, found a truth value")
    );

    let out = ncu_lint(&["rules", "check", "fixtures/packs/good.toml"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn packs_are_referenced_from_the_config() {
    let dir = temp_dir("config_packs");
    std::fs::copy(fixture("packs/good.toml"), dir.join("good.toml")).unwrap();
    std::fs::write(
        dir.join("ncu-lint.toml"),
        "packs = [\"good.toml\"]\nselect = [\"few-bytes\"]\n",
    )
    .unwrap();
    let out = common::ncu_lint_in(&dir, &["rules"]);
    assert_eq!(stdout(&out).lines().count(), 1);
    assert!(stdout(&out).starts_with("few-bytes"));
}
