//! One fixture pair per rule, cut from the lab's real exports
//! (`fixtures/rules/slice.py`): a result the rule fires on, whose report is
//! a snapshot, and a clean twin that differs in the one way that matters
//! (a padded tile, a unit stride, no spills), on which it must not fire.

mod common;

use common::{RULES, ncu_lint, stdout};

/// The exports of one case, relative to the crate root.
fn exports(rule: &str, case: &str) -> Vec<String> {
    let dir = format!("fixtures/rules/{rule}/{case}");
    let mut files: Vec<String> = std::fs::read_dir(format!("{}/{dir}", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .map(|e| format!("{dir}/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    files.sort();
    files
}

fn check(rule: &str, case: &str) -> std::process::Output {
    let files = exports(rule, case);
    let mut args = vec!["check", "--no-config", "--select", rule];
    args.extend(files.iter().map(String::as_str));
    ncu_lint(&args)
}

#[test]
fn each_rule_fires_on_its_case() {
    for rule in RULES {
        let out = check(rule, "fires");
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{rule}: {text}");
        let headings = text.lines().filter(|l| l.trim() == rule).count();
        assert_eq!(headings, 1, "{rule}: {text}");
        // A line-scoped rule given the source page points at the CUDA line,
        // with no other rule selected to bring its columns along.
        if exports(rule, "fires").iter().any(|f| f.contains("source")) {
            assert!(text.contains("╭─[/tmp/w/lab.cu:"), "{rule}: {text}");
        }
        insta::assert_snapshot!(rule, text);
    }
}

#[test]
fn each_rule_is_quiet_on_its_clean_twin() {
    for rule in RULES {
        let out = check(rule, "clean");
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{rule}: {text}");
        assert!(
            text.contains("1 kernels, 0 findings") && text.contains("0 rules skipped"),
            "{rule} ran and passed: {text}"
        );
    }
}
