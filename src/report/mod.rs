//! Rendering a check's outcome: JSON ([`json`]), text for people
//! ([`human`]), SARIF ([`sarif`]), GitHub workflow annotations ([`github`]),
//! JUnit XML ([`junit`]) and a Markdown summary ([`markdown`]).

pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod sarif;

use crate::ingest::normalize_kernel_name;
use crate::rules::{CheckResult, Finding, Severity};

/// Findings counted by severity: (errors, warnings, notes).
pub fn count_by_severity(result: &CheckResult) -> (usize, usize, usize) {
    let count = |s: Severity| result.findings.iter().filter(|f| f.severity == s).count();
    (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Note),
    )
}

/// The one-line summary every format ends with.
pub fn summary_line(result: &CheckResult) -> String {
    let (errors, warnings, notes) = count_by_severity(result);
    format!(
        "{} kernels, {} findings ({errors} errors, {warnings} warnings, {notes} notes), {} rules skipped",
        result.kernels,
        result.findings.len(),
        result.skipped.len()
    )
}

/// A finding's identity, stable across re-profiling and reordering: its
/// rule, the kernel's normalised name and its place (CUDA line or SASS
/// address), never a measured value or a result ID.
pub fn identity(finding: &Finding) -> String {
    format!(
        "{}|{}|{}",
        finding.rule,
        normalize_kernel_name(&finding.kernel_name),
        crate::baseline::place(finding)
    )
}

/// A short stable hash of [`identity`], for SARIF fingerprints.
///
/// FNV-1a, written here because std's hasher is not stable across Rust
/// releases and a fingerprint must be.
pub fn fingerprint(finding: &Finding) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in identity(finding).bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}
