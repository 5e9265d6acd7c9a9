//! Text for people: findings grouped by kernel, worst kernel first, each with
//! where to look and how to fix it, then a summary line and skipped rules.

use std::fmt::Write as _;

use indexmap::IndexMap;

use super::count_by_severity;
use crate::rules::{ActiveRule, CheckResult, Finding};

/// Renders a check for a terminal or a log.
pub fn render(result: &CheckResult, rules: &[ActiveRule]) -> String {
    let mut by_kernel: IndexMap<usize, Vec<&Finding>> = IndexMap::new();
    for finding in &result.findings {
        by_kernel.entry(finding.kernel).or_default().push(finding);
    }
    let mut kernels: Vec<(usize, Vec<&Finding>)> = by_kernel.into_iter().collect();
    kernels.sort_by(|(a, fa), (b, fb)| {
        let worst = |f: &[&Finding]| f.iter().map(|x| x.severity).max();
        worst(fb)
            .cmp(&worst(fa))
            .then(fb.len().cmp(&fa.len()))
            .then(a.cmp(b))
    });
    let mut out = String::new();
    for (_, findings) in &kernels {
        let first = findings[0];
        let id = first
            .kernel_id
            .map_or_else(|| "result ?".to_owned(), |id| format!("result {id}"));
        let _ = writeln!(out, "{} [{id}]", first.kernel_name);
        let mut sorted = findings.clone();
        sorted.sort_by_key(|f| std::cmp::Reverse(f.severity));
        for finding in sorted {
            let _ = writeln!(
                out,
                "  {}[{}]: {}",
                finding.severity.name(),
                finding.rule,
                finding.message
            );
            if let Some(location) = &finding.location {
                let _ = write!(out, "    --> {}:{}", location.file, location.line);
                if let Some(instruction) = &finding.instruction {
                    let _ = write!(out, "  ({} at {})", instruction.sass, instruction.address);
                }
                out.push('\n');
            }
            if let Some(rule) = rules.iter().find(|r| r.rule.id == finding.rule) {
                let _ = writeln!(out, "    = help: {}", rule.rule.docs.fix);
            }
        }
        out.push('\n');
    }
    let (errors, warnings, notes) = count_by_severity(result);
    let _ = writeln!(
        out,
        "{} kernels, {} findings ({errors} errors, {warnings} warnings, {notes} notes), {} rules skipped",
        result.kernels,
        result.findings.len(),
        result.skipped.len()
    );
    for skip in &result.skipped {
        let _ = writeln!(
            out,
            "  skipped {} for {} kernel(s): missing {}; {}",
            skip.rule,
            skip.kernels,
            skip.missing.join(", "),
            skip.hint
        );
    }
    out
}
