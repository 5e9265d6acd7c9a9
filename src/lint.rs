//! The whole lint of one report: the rules in effect, Nsight Compute's own
//! rule results where selected (`ncu/<RuleName>`), per-kernel ignores from
//! the configuration, and inline suppressions in CUDA source.

use indexmap::IndexMap;

use crate::config::Settings;
use crate::model::Report;
use crate::rules::{ActiveRule, CheckResult, Finding, Severity, check};
use crate::sources::SourceLookup;
use crate::suppress;

/// Runs everything and returns the findings that stand.
pub fn lint(
    report: &Report,
    rules: &[ActiveRule],
    settings: &Settings,
    sources: &SourceLookup<'_>,
) -> CheckResult {
    let mut result = check(report, rules);
    result.findings.extend(ncu_findings(report, settings));
    result.findings.sort_by_key(|f| f.kernel);
    result
        .findings
        .retain(|f| !settings.ignores(&f.kernel_name, &f.rule));
    suppress::apply(&mut result, report, sources);
    result
}

/// Nsight Compute's rule results as findings, for the `ncu/*` rules selected.
fn ncu_findings(report: &Report, settings: &Settings) -> Vec<Finding> {
    let mut out = Vec::new();
    for (index, kernel) in report.kernels.iter().enumerate() {
        for rule in &kernel.ncu_rules {
            let id = format!("ncu/{}", rule.name);
            if !settings.selects_ncu_rule(&id) {
                continue;
            }
            let default = match rule.kind.as_str() {
                "ERR" => Severity::Error,
                "INF" => Severity::Note,
                _ => Severity::Warning,
            };
            let severity = match settings.severity.get(&id) {
                Some((Some(level), _)) => *level,
                _ => default,
            };
            let mut values = IndexMap::new();
            if let Some(speedup) = rule.speedup {
                values.insert("estimated_speedup".to_owned(), Some(speedup));
            }
            out.push(Finding {
                rule: id,
                severity,
                kernel: index,
                kernel_id: kernel.id,
                kernel_name: kernel.name.clone(),
                location: None,
                instruction: None,
                message: rule
                    .description
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
                values,
                variant: format!("Nsight Compute {} rule", rule.kind),
                origin: rule.origin,
            });
        }
    }
    out
}
