//! Nsight Compute's own rule results (the details page's `ERR`/`WRN`/`INF`
//! rows) as findings, for the `ncu/*` rules a configuration selects.

use indexmap::IndexMap;

use crate::config::Settings;
use crate::model::Report;
use crate::rules::{Finding, Severity};

/// Nsight Compute's rule results as findings, for the `ncu/*` rules selected.
pub(super) fn findings(report: &Report, settings: &Settings) -> Vec<Finding> {
    let mut out = Vec::new();
    for (index, kernel) in report.kernels.iter().enumerate() {
        for rule in &kernel.ncu_rules {
            let id = format!("ncu/{}", rule.name);
            if !settings.selects_ncu_rule(&id) {
                continue;
            }
            let severity = match settings.severity.get(&id) {
                Some((Some(level), _)) => *level,
                _ => Severity::of_ncu_kind(&rule.kind),
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
