//! Rule-pack errors: each is a diagnostic at the exact span in the TOML file,
//! and a pack with errors is refused (exit 2).

mod common;

use common::{fixture, ncu_lint, stderr};
use ncu_lint::rules::{PackError, ProblemKind, load_pack};

fn load(name: &str) -> Result<ncu_lint::rules::Pack, PackError> {
    let path = fixture(&format!("packs/{name}.toml"));
    let text = std::fs::read_to_string(&path).unwrap();
    load_pack(&format!("packs/{name}.toml"), &text)
}

/// The single error of a broken pack: its kind, line and column, and the text under its span.
fn only_error(name: &str) -> (ProblemKind, (usize, usize), String, String) {
    let err = load(name).expect_err(name);
    let errors: Vec<_> = err.problems.iter().filter(|p| p.is_error()).collect();
    assert_eq!(errors.len(), 1, "{name}: {errors:#?}");
    let problem = errors[0];
    let text = problem.source.inner();
    let span = &text[problem.span.offset()..problem.span.offset() + problem.span.len()];
    (
        problem.kind,
        problem.line_column(),
        span.to_owned(),
        problem.message.clone(),
    )
}

#[test]
fn the_good_pack_loads() {
    let pack = load("good").unwrap();
    assert_eq!(
        (pack.name.as_str(), pack.version.as_str()),
        ("team", "1.0.0")
    );
    assert_eq!(pack.rules.len(), 1);
    assert!(pack.warnings.is_empty());
}

#[test]
fn toml_syntax_error() {
    let (kind, at, _, message) = only_error("bad_syntax");
    assert_eq!((kind, at), (ProblemKind::Syntax, (9, 20)));
    assert!(message.contains("string"), "{message}");
}

#[test]
fn unknown_key() {
    let (kind, at, span, message) = only_error("bad_unknown_key");
    assert_eq!(kind, ProblemKind::Syntax);
    assert!(message.contains("severty"), "{message}");
    assert_eq!(at.0, 10);
    assert!(span.contains("severty"), "{span}");
}

#[test]
fn unknown_input() {
    let (kind, at, span, message) = only_error("bad_unknown_input");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownName, (10, 30), "bytes_per_sectr")
    );
    assert_eq!(message, "unknown name `bytes_per_sectr`");
}

#[test]
fn unknown_function() {
    let (kind, at, span, _) = only_error("bad_unknown_function");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownFunction, (10, 30), "sqrt")
    );
}

#[test]
fn type_error() {
    let (kind, at, span, message) = only_error("bad_type");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::Type, (10, 25), "bytes_per_sector < limit")
    );
    assert_eq!(message, "expected a number, found a truth value");
}

#[test]
fn bad_severity() {
    let (kind, at, span, _) = only_error("bad_severity");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::BadValue, (9, 12), "\"fatal\"")
    );
}

#[test]
fn duplicate_id_points_at_both() {
    let err = load("bad_duplicate_id").unwrap_err();
    let problem = &err.problems[0];
    assert_eq!(problem.kind, ProblemKind::DuplicateId);
    assert_eq!(problem.line_column(), (18, 6));
    let (also, label) = problem.also.as_ref().unwrap();
    assert_eq!(
        &problem.source.inner()[also.offset()..also.offset() + also.len()],
        "\"few-bytes\""
    );
    assert_eq!(label, "first defined here");
}

#[test]
fn id_not_kebab_case() {
    let (kind, at, span, _) = only_error("bad_id");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::BadId, (7, 6), "\"Few_Bytes\"")
    );
}

#[test]
fn deep_nesting_and_huge_numbers_are_errors_not_crashes() {
    let (kind, at, _, message) = only_error("bad_deep_nesting");
    assert_eq!(kind, ProblemKind::Expression);
    assert_eq!(at.0, 10);
    assert!(message.contains("deeper than 64"), "{message}");
    let (kind, at, span, _) = only_error("bad_huge_number");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::Expression, (10, 24), "1e999")
    );
}

#[test]
fn unknown_name_in_a_fix_number() {
    // A fix's numbers may read its inputs, the finding's values and the
    // estimate (kernel_ns); `floor_ns` is none of them.
    let (kind, at, span, _) = only_error("bad_fix_number");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownName, (19, 31), "floor_ns")
    );
}

#[test]
fn unknown_name_in_what_a_fix_saves_at_most() {
    // `saves_at_most` reads what the fix's numbers read, and the numbers
    // themselves (kept_share); `ramp_share` is an impact's, not the fix's.
    let (kind, at, span, _) = only_error("bad_saves_at_most");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownName, (20, 35), "ramp_share")
    );
}

#[test]
fn a_fix_that_names_no_set_of_numbers_the_pack_has() {
    let (kind, at, span, message) = only_error("unknown_numbers");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownName, (22, 12), "\"keep\"")
    );
    assert_eq!(message, "the pack has no `[numbers.keep]`");
}

#[test]
fn an_impact_that_names_no_set_of_numbers_the_pack_has() {
    let (kind, at, span, message) = only_error("unknown_impact_numbers");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownName, (23, 12), "\"wait\"")
    );
    assert_eq!(message, "the pack has no `[numbers.wait]`");
}

#[test]
fn a_fix_that_names_no_fix_clause_the_pack_has() {
    let (kind, at, span, message) = only_error("unknown_fix_clause");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownName, (22, 12), "\"vectorise\"")
    );
    assert_eq!(message, "the pack has no `[fix_clauses.vectorise]`");
}

#[test]
fn two_rules_add_one_fix_clause() {
    // The shorts' conversion advice lives once, as
    // `[fix_clauses.halves_through_float_bits]` and, for fields nvcc
    // converts with I2F, `[fix_clauses.narrow_through_float_bits]`, and so
    // does the word on a loop that reloads its address from the constant
    // bank; each load rule shows each once, each added to its two fixes of
    // a structure read a field at a time.
    for rule in ["global-load-efficiency", "sector-waste"] {
        let out = ncu_lint(&["explain", rule]);
        let text = String::from_utf8(out.stdout).unwrap();
        let clause = text
            .split("\n## Advice a fix adds\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{rule}: {text}"));
        assert!(
            clause.starts_with(
                "halves_through_float_bits (where access_bytes == 2 and known_or(halves_to_float, 0) == 1):"
            ),
            "{rule}: {clause}"
        );
        assert!(
            clause.contains(
                "\nnarrow_through_float_bits (where access_bytes <= 2 and known_or(narrow_to_float, 0) == 1):"
            ),
            "{rule}: {clause}"
        );
        assert!(
            clause.contains(
                "\naddress_from_the_constant_bank (where known_or(address_reloads, 0) >= 0.5):"
            ),
            "{rule}: {clause}"
        );
        assert_eq!(
            clause.matches("  added to the fix where ").count(),
            6,
            "{rule}: {clause}"
        );
    }
    let out = ncu_lint(&["explain", "global-store-efficiency"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("## Advice a fix adds"), "{text}");
}

#[test]
fn an_input_names_only_a_sass_count_ncu_lint_makes() {
    let (kind, at, span, message) = only_error("unknown_sass_count");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownName, (14, 29), "\"vector_store\"")
    );
    assert_eq!(message, "no SASS count is named `vector_store`");
}

#[test]
fn an_impact_derives_only_from_names_it_has() {
    // `optional` inputs and earlier derived numbers are names; `stores` is
    // neither.
    let (kind, at, span, message) = only_error("impact_derived_unknown");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownName, (23, 47), "stores")
    );
    assert!(message.contains("`stores`"), "{message}");
}

#[test]
fn explain_shows_an_impacts_derived_numbers_and_optional_inputs() {
    let out = ncu_lint(&["explain", "sector-waste"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  store_past_l1 = known_or(min(max(store_to_l2"),
        "{text}"
    );
    assert!(
        text.contains("  store_requests: metric `l1tex__t_requests_pipe_lsu_mem_global_op_st.sum`")
    );
    assert!(text.contains(
        "  speedup = min(min(max(max(max(served_cost, max(max(known_or(walk_pipe_cost, l1_cost), known_or(walk_convert_cost, 0)), known_or(walk_queue_cost, 0)) + known_or(walk_reload_cost, 0)), store_path_cost), store_wait_cost), most_a_fix_saves), scatter_bound)"
    ));
    assert!(text.contains("  warps_per_sm: metric `sm__warps_active.avg.per_cycle_active`"));
    assert!(text.contains("  fixed_store_sectors: source page SASS: `fixed_store_sectors`"));
}

#[test]
fn two_rules_quote_one_set_of_numbers() {
    // The built-in pack's row-walk numbers live once, in
    // `[numbers.row_at_a_time]`; both rules' fixes quote them.
    for rule in ["global-load-efficiency", "sector-waste"] {
        let out = ncu_lint(&["explain", rule]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("  row_lane_round_trips = max(ceil(min(row_lane_loads, 4)"),
            "{rule}: {text}"
        );
        assert!(text.contains("  dram_peak: metric `dram__bytes.sum.peak_sustained`"));
    }
}

#[test]
fn two_rules_estimate_with_one_set_of_numbers() {
    // The store path's numbers live once, in `[numbers.store_path]`; both
    // store rules' impacts read its optional inputs and derived numbers
    // before their own.
    for rule in ["global-store-efficiency", "sector-waste"] {
        let out = ncu_lint(&["explain", rule]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains(
                "  store_path_cost = known_or(min(request_cut * min(max(store_path_share"
            ),
            "{rule}: {text}"
        );
        assert!(text.contains(
            "  drain_stall: metric `smsp__average_warps_issue_stalled_drain_per_issue_active.ratio`"
        ));
    }
}

#[test]
fn a_set_of_numbers_explains_itself_once_for_every_impact_that_names_it() {
    // The store path's history is written once, as `[numbers.store_path]`'s
    // `why`; `explain` shows it under each store impact that names the set
    // (three of global-store-efficiency's, two of sector-waste's), and
    // under no load impact.
    let why = |rule: &str| {
        let out = ncu_lint(&["explain", rule]);
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .filter(|l| l.starts_with("  why ([numbers.store_path]): A misaligned warp's request"))
            .count()
    };
    assert_eq!(why("global-store-efficiency"), 3);
    assert_eq!(why("sector-waste"), 2);
    assert_eq!(why("global-load-efficiency"), 0);
    let out = ncu_lint(&["explain", "global-store-efficiency", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &doc["impact"][0]["numbers_why"];
    assert!(
        first["store_path"]
            .as_str()
            .unwrap()
            .contains("Judged on stores_blind14.cu"),
        "{first}"
    );
    assert!(first.get("served_traffic").is_none(), "{first}");
}

#[test]
fn unknown_name_in_message() {
    let (kind, at, span, _) = only_error("bad_message_name");
    assert_eq!(
        (kind, at, span.as_str()),
        (ProblemKind::UnknownName, (11, 55), "total")
    );
}

#[test]
fn missing_docs() {
    let (kind, at, _, message) = only_error("bad_missing_docs");
    assert_eq!((kind, at.0), (ProblemKind::MissingDocs, 15));
    assert!(message.ends_with("lacks documentation: fix"), "{message}");
}

#[test]
fn unknown_metric_is_a_warning_with_did_you_mean() {
    let pack = load("warn_unknown_metric").unwrap();
    assert_eq!(pack.warnings.len(), 1);
    let warning = &pack.warnings[0];
    assert_eq!(warning.kind, ProblemKind::UnknownMetric);
    assert_eq!(warning.line_column(), (12, 28));
    assert_eq!(
        warning.help.as_deref(),
        Some("did you mean `smsp__sass_average_data_bytes_per_sector_mem_global_op_ld`?")
    );
}

#[test]
fn division_by_zero_is_undefined_at_run_time_not_a_crash() {
    let out = ncu_lint(&[
        "check",
        "--no-default-rules",
        "--rules",
        &fixture("packs/division_by_zero.toml"),
        &fixture("lab/raw.csv.xz"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_broken_pack_is_refused_with_exit_2_and_a_rendered_span() {
    let out = ncu_lint(&[
        "check",
        "--rules",
        "fixtures/packs/bad_type.toml",
        "fixtures/lab/raw.csv.xz",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("rule pack fixtures/packs/bad_type.toml has 1 error(s); it was not loaded"),
        "{err}"
    );
    assert!(
        err.contains("fixtures/packs/bad_type.toml:10:25: expected a number, found a truth value"),
        "{err}"
    );
    assert!(
        err.contains("10 │ condition = \"sectors + (bytes_per_sector < limit)\""),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing half-written");
}

#[test]
fn a_team_pack_runs_beside_the_default_one() {
    let out = ncu_lint(&[
        "check",
        "--format",
        "json",
        "--rules",
        "fixtures/packs/good.toml",
        "fixtures/lab/raw.csv.xz",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let few: Vec<u64> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "few-bytes")
        .map(|f| f["kernel"]["id"].as_u64().unwrap())
        .collect();
    assert_eq!(few, [2, 5, 22, 23], "loads below 16 bytes per sector");
}

#[test]
fn a_rule_id_defined_by_two_packs_is_refused() {
    let out = ncu_lint(&[
        "check",
        "--rules",
        "fixtures/packs/good.toml",
        "--rules",
        "fixtures/packs/good.toml",
        "fixtures/lab/raw.csv.xz",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("rule `few-bytes` is defined by both pack `team` and pack `team`")
    );
}

#[test]
fn the_default_pack_is_clean_and_documented() {
    let packs = ncu_lint::rules::builtin_packs().unwrap();
    // A run loads the built-in pack without looking its metrics up in the
    // catalogs; here they are, every one.
    for (name, text) in ncu_lint::rules::BUILTIN {
        let checked = ncu_lint::rules::load_pack(name, text).unwrap();
        assert!(
            checked.warnings.is_empty(),
            "{name}: {:?}",
            checked.warnings
        );
    }
    let ids: Vec<&str> = packs[0].rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "shared-bank-conflict",
            "global-load-efficiency",
            "global-store-efficiency",
            "sector-waste",
            "register-spill",
            "local-memory",
            "atomic-contention"
        ]
    );
    for rule in &packs[0].rules {
        assert!(
            !rule.docs.example.trim().is_empty(),
            "{} lacks a CUDA example",
            rule.id
        );
    }
}

#[test]
fn every_metric_name_a_real_raw_page_carries_is_known_to_pack_validation() {
    // A team pack naming a metric a report really carries is not warned.
    use std::io::Read;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut pages: Vec<std::path::PathBuf> = Vec::new();
    for sub in ["lab", "reports", "step", "triton", "twins", "inline"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.to_string_lossy().ends_with("raw.csv.xz") {
                pages.push(path);
            }
        }
    }
    assert!(pages.len() > 20);
    let mut checked = 0;
    for page in pages {
        let mut text = String::new();
        xz2::read::XzDecoder::new(std::fs::File::open(&page).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        let header = text.lines().find(|l| l.starts_with("\"ID\"")).unwrap();
        for name in header.split("\",\"").map(|n| n.trim_matches('"')) {
            if name.contains("__") {
                assert!(
                    ncu_lint::rules::catalog::is_known(name),
                    "{}: {name}",
                    page.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn profile_asks_ncu_for_the_sections_the_selected_rules_read() {
    // An ncu that only fails: `profile` names the command it ran, and the
    // memory pack alone asks for the sections its estimates read, the
    // warps an SM of the store path's waits (Occupancy) among them.
    let dir = common::temp_dir("profile_sections");
    let ncu = dir.join("ncu");
    std::fs::write(&ncu, "#!/bin/sh\nexit 3\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ncu, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let report = dir.join("report");
    let out = ncu_lint(&[
        "profile",
        "--no-config",
        "--select",
        "memory/*",
        "--ncu",
        ncu.to_str().unwrap(),
        "-o",
        report.to_str().unwrap(),
        "--",
        "./app",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for section in [
        "SourceCounters",
        "MemoryWorkloadAnalysis_Tables",
        "WarpStateStats",
        "Occupancy",
    ] {
        assert!(
            err.contains(&format!("--section {section} ")),
            "{section}: {err}"
        );
    }
    assert!(!err.contains("--set full"), "{err}");
}
