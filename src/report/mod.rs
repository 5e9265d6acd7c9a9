//! Rendering a check's outcome: JSON ([`json`]) and text for people ([`human`]).

pub mod human;
pub mod json;

use crate::rules::{CheckResult, Severity};

/// Findings counted by severity: (errors, warnings, notes).
pub fn count_by_severity(result: &CheckResult) -> (usize, usize, usize) {
    let count = |s: Severity| result.findings.iter().filter(|f| f.severity == s).count();
    (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Note),
    )
}
