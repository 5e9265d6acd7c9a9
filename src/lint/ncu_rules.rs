//! Nsight Compute's own rule results (the details page's `ERR`/`WRN`/`INF`
//! rows) as findings, for the `ncu/*` rules a configuration selects.

use crate::config::Settings;
use crate::model::Report;
use crate::rules::finding::Estimate;
use crate::rules::{Finding, Severity};

/// Nsight Compute's rule results as findings, for the `ncu/*` rules
/// selected; a result's estimated speedup (in percent of its kernel) is the
/// finding's. `kernel_ns` holds each kernel's time, by index.
pub(super) fn findings(
    report: &Report,
    settings: &Settings,
    kernel_ns: &[Option<f64>],
) -> Vec<Finding> {
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
            let mut values = crate::rules::finding::Values::default();
            if let Some(speedup) = rule.speedup {
                values.insert("estimated_speedup".into(), Some(speedup));
            }
            out.push(Finding {
                rule: id,
                cause: "ncu".into(),
                library: None,
                library_note: false,
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
                estimate: estimate(kernel_ns.get(index).copied().flatten(), rule.speedup),
                fix: None,
            });
        }
    }
    out
}

/// The estimate of a result that Nsight Compute says is worth `percent` of
/// its kernel.
fn estimate(kernel_ns: Option<f64>, percent: Option<f64>) -> Estimate {
    let speedup = percent.map(|p| (p / 100.0).clamp(0.0, 1.0));
    Estimate {
        kernel_ns,
        speedup,
        saved_ns: kernel_ns.zip(speedup).map(|(ns, s)| ns * s),
        bytes: None,
        basis: speedup.map(|_| "Nsight Compute's estimated speedup".to_owned()),
        terms: Default::default(),
        ceiling: None,
    }
}
