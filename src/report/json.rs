//! The stable JSON document of `ncu-lint check --format json`:
//! `{"version": 1, "findings": [...], "skipped": [...], "summary": {...}}`.

use serde_json::{Value as Json, json};

use super::count_by_severity;
use crate::rules::{CheckResult, Finding};

/// The JSON document for a check.
pub fn to_json(result: &CheckResult) -> Json {
    let (errors, warnings, notes) = count_by_severity(result);
    json!({
        "version": 1,
        "findings": result.findings.iter().map(finding_json).collect::<Vec<_>>(),
        "skipped": result.skipped,
        "summary": {
            "kernels": result.kernels,
            "findings": result.findings.len(),
            "by_severity": {"error": errors, "warning": warnings, "note": notes},
        },
    })
}

fn finding_json(finding: &Finding) -> Json {
    json!({
        "rule": finding.rule,
        "severity": finding.severity,
        "kernel": {"id": finding.kernel_id, "name": finding.kernel_name},
        "location": finding.location,
        "instruction": finding.instruction,
        "message": finding.message,
        "values": finding.values,
        "variant": finding.variant,
    })
}
