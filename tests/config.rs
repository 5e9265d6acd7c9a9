//! Configuration (`ncu-lint.toml` discovery, overrides, per-kernel ignores),
//! command-line overrides, inline suppressions, and the `rules`/`explain`
//! commands, on the lab exports.

mod common;

use common::{fixture, ncu_lint, ncu_lint_in, stderr, stdout, temp_dir};
use serde_json::Value;

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(out)))
}

fn rules_of(json: &Value) -> Vec<(u64, String, String)> {
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kernel"]["id"].as_u64().unwrap_or(u64::MAX),
                f["rule"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn config_is_discovered_from_a_parent_directory() {
    let dir = temp_dir("config_discovery");
    std::fs::write(
        dir.join("ncu-lint.toml"),
        "ignore = [\"sector-waste\"]\n\n[severity]\nglobal-load-efficiency = \"note\"\n",
    )
    .unwrap();
    let nested = dir.join("a/b");
    std::fs::create_dir_all(&nested).unwrap();
    let raw = fixture("lab/raw.csv.xz");
    let out = ncu_lint_in(&nested, &["check", "--format", "json", &raw]);
    let found = rules_of(&json(&out));
    assert!(found.iter().all(|(_, rule, _)| rule != "sector-waste"));
    let load: Vec<_> = found
        .iter()
        .filter(|(_, r, _)| r == "global-load-efficiency")
        .collect();
    assert_eq!(load.len(), 5);
    assert!(load.iter().all(|(_, _, severity)| severity == "note"));

    let bypass = ncu_lint_in(&nested, &["check", "--no-config", "--format", "json", &raw]);
    assert!(
        rules_of(&json(&bypass))
            .iter()
            .any(|(_, r, _)| r == "sector-waste")
    );
}

#[test]
fn parameters_and_command_line_overrides() {
    let dir = temp_dir("config_params");
    let config = dir.join("ncu-lint.toml");
    std::fs::write(&config, "[params.sector-waste]\nmin_waste_share = 0.5\n").unwrap();
    let raw = fixture("lab/raw.csv.xz");
    let cfg = config.to_string_lossy().into_owned();
    let out = ncu_lint(&["check", "--config", &cfg, "--format", "json", &raw]);
    let waste: Vec<u64> = rules_of(&json(&out))
        .into_iter()
        .filter(|(_, r, _)| r == "sector-waste")
        .map(|(k, _, _)| k)
        .collect();
    assert_eq!(
        waste,
        [2, 3, 5, 7, 22, 23],
        "only kernels with half or more of their sectors wasted"
    );

    // The command line overrides the file.
    let out = ncu_lint(&[
        "check",
        "--config",
        &cfg,
        "--param",
        "sector-waste.min_waste_share=0.7",
        "--format",
        "json",
        &raw,
    ]);
    let waste: Vec<u64> = rules_of(&json(&out))
        .into_iter()
        .filter(|(_, r, _)| r == "sector-waste")
        .map(|(k, _, _)| k)
        .collect();
    assert_eq!(waste, [2, 3, 7]);

    let out = ncu_lint(&[
        "check",
        "--config",
        &cfg,
        "--select",
        "register-spill",
        "--severity",
        "register-spill=error",
        "--format",
        "json",
        &raw,
    ]);
    assert_eq!(
        rules_of(&json(&out)),
        [(22, "register-spill".to_owned(), "error".to_owned())]
    );

    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--select",
        "shared-*",
        "--fail-on",
        "error",
        &raw,
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "warnings do not fail at --fail-on error"
    );
}

#[test]
fn per_kernel_ignores_by_glob_and_regex() {
    let dir = temp_dir("config_kernels");
    let config = dir.join("ncu-lint.toml");
    std::fs::write(
        &config,
        "[[kernels]]\nname = \"void smem_stride<*\"\n\n[[kernels]]\nregex = \"^transpose_\"\nignore = [\"shared-bank-conflict\"]\n",
    )
    .unwrap();
    let out = ncu_lint(&[
        "check",
        "--config",
        &config.to_string_lossy(),
        "--format",
        "json",
        &fixture("lab/raw.csv.xz"),
    ]);
    let found = rules_of(&json(&out));
    assert!(
        !found.iter().any(|(k, _, _)| [11, 12, 15].contains(k)),
        "smem_stride kernels ignored"
    );
    assert!(
        !found
            .iter()
            .any(|(k, r, _)| *k == 8 && r == "shared-bank-conflict")
    );
    assert!(
        found
            .iter()
            .any(|(k, r, _)| *k == 7 && r == "global-store-efficiency"),
        "other rules still run on transpose_naive"
    );
    assert!(
        found.iter().any(|(k, _, _)| *k == 19),
        "smem_store_stride32 is not a smem_stride<...> kernel"
    );
}

#[test]
fn config_errors_point_into_the_file() {
    let dir = temp_dir("config_errors");
    let config = dir.join("ncu-lint.toml");
    std::fs::write(&config, "[params.sector-waste]\nmin_share = 0.5\n").unwrap();
    let out = ncu_lint(&[
        "check",
        "--config",
        &config.to_string_lossy(),
        &fixture("lab/raw.csv.xz"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("rule `sector-waste` has no parameter `min_share` (it has: min_waste_share, min_line_share, latency_knee, port_saturation, store_path_bound, scatter_dram_share, wave_floor_ns, launch_ramp_ns, round_trip_ns, flight_first_ns, flight_row_ns, flight_row_ns_all_sms, flight_pass_ns, flight_pass_ns_per_mb, flight_row_ns_per_mb, flight_launch_ns, walk_round_trip_ns, queue_ns, convert_cycles, convert_kept, constant_reload_cycles, pipe_overlap, row_tail_ns, loads_in_flight_bytes, dram_reachable_share, min_speedup, ceiling_gates)"), "{err}");
    assert!(err.contains("ncu-lint.toml:2:13"), "{err}");

    std::fs::write(&config, "[severity]\nno-such-rule = \"off\"\n").unwrap();
    let out = ncu_lint(&[
        "check",
        "--config",
        &config.to_string_lossy(),
        &fixture("lab/raw.csv.xz"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no rule `no-such-rule` to set the severity of"));
}

/// A copy of lab.cu with suppression comments appended to lines (so that
/// line numbers stay those of the profile).
fn annotated_source(name: &str, comments: &[(usize, &str)]) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let text = std::fs::read_to_string(fixture("lab/lab.cu")).unwrap();
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(
            |(i, line)| match comments.iter().find(|(n, _)| *n == i + 1) {
                Some((_, comment)) => format!("{line} {comment}"),
                None => line.to_owned(),
            },
        )
        .collect();
    std::fs::write(dir.join("lab.cu"), lines.join("\n")).unwrap();
    dir
}

#[test]
fn inline_suppressions_silence_their_line_and_report_unused_ones() {
    let root = annotated_source(
        "suppress",
        &[
            (62, "// ncu-lint: allow(shared-bank-conflict)"),
            (
                49,
                "// ncu-lint: allow(global-store-efficiency, sector-waste)",
            ),
            (15, "// ncu-lint: allow(register-spill)"),
        ],
    );
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        "--source-root",
        &root.to_string_lossy(),
        &fixture("lab/raw.csv.xz"),
        &fixture("lab/source_cuda_sass.csv.xz"),
    ]);
    let found = rules_of(&json(&out));
    assert!(
        !found
            .iter()
            .any(|(k, r, _)| *k == 8 && r == "shared-bank-conflict"),
        "same-line allow"
    );
    assert!(
        !found.iter().any(|(k, _, _)| *k == 7),
        "allow on the line above (49 for line 50)"
    );
    assert!(
        found
            .iter()
            .any(|(k, r, _)| *k == 12 && r == "shared-bank-conflict"),
        "others stand"
    );
    let report = json(&out);
    let unused: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "unused-suppression")
        .collect();
    assert_eq!(unused.len(), 1, "{unused:?}");
    assert_eq!(unused[0]["location"]["line"], 15);
    assert_eq!(unused[0]["severity"], "note");
    assert!(
        unused[0]["message"]
            .as_str()
            .unwrap()
            .contains("allow(register-spill)")
    );
}

#[test]
fn nsight_compute_rules_are_off_by_default_and_selectable() {
    let details = fixture("lab/details.csv.xz");
    let off = json(&ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        &details,
    ]));
    assert!(!rules_of(&off).iter().any(|(_, r, _)| r.starts_with("ncu/")));
    let on = json(&ncu_lint(&[
        "check",
        "--no-config",
        "--select",
        "ncu/UncoalescedSharedAccess",
        "--format",
        "json",
        &details,
    ]));
    let kernels: Vec<u64> = rules_of(&on).into_iter().map(|(k, _, _)| k).collect();
    assert_eq!(
        kernels,
        [8, 11, 12, 15, 19, 20],
        "ncu's own rule agrees with EXPECTED.tsv on bank conflicts"
    );
}

#[test]
fn rules_and_explain() {
    let out = ncu_lint(&["rules", "--no-config"]);
    let text = stdout(&out);
    assert!(text.lines().any(|l| l.starts_with("shared-bank-conflict")
        && l.contains("warning")
        && l.contains("memory")));
    assert!(
        text.lines()
            .any(|l| l.starts_with("small-grid") && l.contains("warning") && l.contains("launch"))
    );
    // Seven memory rules and three launch rules.
    assert_eq!(text.lines().count(), 10);
    let out = ncu_lint(&["rules", "--no-config", "--severity", "sector-waste=off"]);
    assert_eq!(stdout(&out).lines().count(), 9);

    let out = ncu_lint(&["explain", "--no-config", "shared-bank-conflict"]);
    let text = stdout(&out);
    assert!(text.starts_with("# Shared-memory bank conflicts (shared-bank-conflict)"));
    for part in [
        "## What it finds",
        "## Why it matters",
        "## How to fix it",
        "## Example",
        "tile[32][33]",
        "min_excess_share = 0.1",
        "metric `derived__memory_l1_wavefronts_shared_excessive`",
    ] {
        assert!(text.contains(part), "{part}");
    }
    let out = ncu_lint(&["explain", "--no-config", "--format", "json", "local-memory"]);
    let doc = json(&out);
    assert_eq!(doc["id"], "local-memory");
    assert!(
        doc["docs"]["fix"]
            .as_str()
            .unwrap()
            .contains("compile-time")
    );

    let out = ncu_lint(&["explain", "--no-config", "no-such-rule"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no rule `no-such-rule` is in effect"));
}
