//! Pack tests: `[[test]]` tables name exports (relative to the pack file)
//! and the findings the pack must (`expect`) and must not (`reject`)
//! produce on them, so a team can change a threshold and see what moves.
//!
//! ```toml
//! [[test]]
//! name = "strided loads"
//! files = ["../fixtures/lab/raw.csv.xz"]
//! expect = [{ rule = "global-load-efficiency", kernel = "load_stride2*" }]
//! reject = [{ rule = "global-load-efficiency", kernel = "load_misaligned*" }]
//! ```

use std::path::Path;

use super::error::{PackProblem, ProblemKind};
use super::pack::{Expectation, Pack, PackTest, Severity};
use super::{RulesError, activate, check};
use crate::config::Pattern;

/// What one test found.
#[derive(Debug, Clone)]
pub struct TestOutcome {
    /// The test's name.
    pub name: String,
    /// What did not hold; empty when the test passed.
    pub failures: Vec<String>,
}

fn problem(pack: &Pack, test: &PackTest, kind: ProblemKind, message: String) -> PackProblem {
    PackProblem::error(
        kind,
        message,
        pack.source.clone(),
        test.span.clone(),
        "in this test",
    )
}

/// Checks a pack's tests without running them: their files exist and
/// their rules and severities are the pack's.
pub fn check_tests(pack: &Pack, dir: &Path) -> Vec<PackProblem> {
    let mut problems = Vec::new();
    for test in &pack.tests {
        if test.files.is_empty() {
            problems.push(problem(
                pack,
                test,
                ProblemKind::BadValue,
                format!("test `{}` names no files", test.name),
            ));
        }
        for file in &test.files {
            if !dir.join(file).is_file() {
                problems.push(problem(
                    pack,
                    test,
                    ProblemKind::BadValue,
                    format!("test `{}`: no file {file}", test.name),
                ));
            }
        }
        for e in test.expect.iter().chain(&test.reject) {
            let rule = Pattern::glob(&e.rule);
            if !pack.rules.iter().any(|r| rule.matches(&r.id)) && !e.rule.starts_with("ncu/") {
                problems.push(problem(
                    pack,
                    test,
                    ProblemKind::UnknownName,
                    format!("test `{}`: the pack has no rule `{}`", test.name, e.rule),
                ));
            }
            if let Some(level) = &e.severity {
                if Severity::parse(level).is_none() {
                    problems.push(problem(
                        pack,
                        test,
                        ProblemKind::BadValue,
                        format!("test `{}`: unknown severity `{level}`", test.name),
                    ));
                }
            }
        }
    }
    problems
}

/// Runs a pack's tests with the pack's rules alone, at their defaults.
pub fn run_tests(pack: &Pack, dir: &Path) -> Result<Vec<TestOutcome>, RulesError> {
    let rules = activate(std::slice::from_ref(pack))?;
    let mut outcomes = Vec::new();
    for test in &pack.tests {
        let files: Vec<String> = test
            .files
            .iter()
            .map(|f| dir.join(f).display().to_string())
            .collect();
        let report = match crate::ingest::import(&files) {
            Ok(report) => report,
            Err(e) => {
                outcomes.push(TestOutcome {
                    name: test.name.clone(),
                    failures: vec![format!("cannot import: {e}")],
                });
                continue;
            }
        };
        let result = check(&report, &rules);
        let matches = |e: &Expectation| {
            let kernel = Pattern::glob(&e.kernel);
            let rule = Pattern::glob(&e.rule);
            let least = e
                .severity
                .as_deref()
                .and_then(Severity::parse)
                .unwrap_or(Severity::Note);
            result
                .findings
                .iter()
                .filter(|f| {
                    rule.matches(&f.rule) && f.severity >= least && kernel.matches(&f.kernel_name)
                })
                .count()
        };
        let mut failures = Vec::new();
        for e in &test.expect {
            if matches(e) == 0 {
                failures.push(format!("expected {} on `{}`, found none", e.rule, e.kernel));
            }
        }
        for e in &test.reject {
            let n = matches(e);
            if n > 0 {
                failures.push(format!(
                    "{n} unexpected {} finding(s) on `{}`",
                    e.rule, e.kernel
                ));
            }
        }
        outcomes.push(TestOutcome {
            name: test.name.clone(),
            failures,
        });
    }
    Ok(outcomes)
}
