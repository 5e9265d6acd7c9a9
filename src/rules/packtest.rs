//! Pack tests: `[[test]]` tables name exports (relative to the pack file)
//! and the findings the pack must (`expect`) and must not (`reject`)
//! produce on them, so a team can change a threshold and see what moves.
//! A test may name several export sets (the same profile exported as
//! different pages, say); the expectations hold on each. Tests lint through
//! an [`ExportChecker`] the caller gives: `check`'s own linter, made of the
//! pack's rules alone at their defaults.
//!
//! ```toml
//! [[test]]
//! name = "strided loads"
//! files = [["../fixtures/lab/raw.csv.xz"], ["../fixtures/lab/details_all.csv.xz"]]
//! expect = [{ rule = "global-load-efficiency", kernel = "load_stride2*" }]
//! reject = [{ rule = "global-load-efficiency", kernel = "load_misaligned*" }]
//! ```

use std::path::Path;

use super::CheckResult;
use super::error::{PackError, PackProblem, ProblemKind};
use super::pack::{Expectation, Pack, PackTest, Severity};
use crate::vocab::Pattern;

/// What runs a pack's rules over a set of exports for its tests: the
/// findings of the files given together as one report, or why they could
/// not be read.
pub trait ExportChecker {
    /// Checks `files`, pages of one report.
    fn check_exports(&self, files: &[String]) -> Result<CheckResult, String>;
}

/// What one test found.
#[derive(Debug, Clone)]
pub struct TestOutcome {
    /// The test's name.
    pub name: String,
    /// What did not hold; empty when the test passed.
    pub failures: Vec<String>,
}

impl TestOutcome {
    /// `test NAME ... ok`, or `FAILED` and each failure indented.
    pub fn to_text(&self) -> String {
        let status = if self.failures.is_empty() {
            "ok"
        } else {
            "FAILED"
        };
        let mut text = format!("test {} ... {status}\n", self.name);
        for failure in &self.failures {
            text.push_str(&format!("    {failure}\n"));
        }
        text
    }
}

/// Refuses a pack whose tests name missing files, unknown rules or
/// unknown severities.
pub fn validate_tests(pack: &Pack, dir: &Path) -> Result<(), PackError> {
    let problems = check_tests(pack, dir);
    if problems.is_empty() {
        return Ok(());
    }
    Err(PackError {
        path: pack.source.name().to_owned(),
        problems,
    })
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
        if test.exports.iter().all(Vec::is_empty) {
            problems.push(problem(
                pack,
                test,
                ProblemKind::BadValue,
                format!("test `{}` names no files", test.name),
            ));
        }
        for file in test.exports.iter().flatten() {
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

/// Runs a pack's tests through `checker`, which holds the pack's rules
/// alone, at their defaults; files are relative to `dir`.
pub fn run_tests(pack: &Pack, dir: &Path, checker: &dyn ExportChecker) -> Vec<TestOutcome> {
    let mut outcomes = Vec::new();
    for test in &pack.tests {
        let several = test.exports.len() > 1;
        let mut failures = Vec::new();
        for set in &test.exports {
            let files: Vec<String> = set
                .iter()
                .map(|f| dir.join(f).display().to_string())
                .collect();
            let on = if several {
                format!(" (on {})", set.join(" + "))
            } else {
                String::new()
            };
            match checker.check_exports(&files) {
                Ok(result) => {
                    failures.extend(expectations(test, &result).into_iter().map(|f| f + &on))
                }
                Err(e) => failures.push(format!("cannot import{on}: {e}")),
            }
        }
        outcomes.push(TestOutcome {
            name: test.name.clone(),
            failures,
        });
    }
    outcomes
}

/// What a test expects that `result` does not bear out.
fn expectations(test: &PackTest, result: &CheckResult) -> Vec<String> {
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
    failures
}
