//! What fixing a finding is worth: the kernel's duration times the share of
//! it the waste costs, as the rule's `[[rule.impact]]` estimates it (the
//! busy fraction of the unit the waste loads times the waste's share of
//! that unit's traffic, as Nsight Compute's memory rules estimate their
//! speedups), held to the most the fix shown saves where the fix says
//! (`saves_at_most`). A finding under its rule's `min_speedup` is a note.

use super::engine::{Context, resolve};
use super::expr::Outcome;
use super::finding::{Ceiling, Estimate};
use super::pack::{CEILING_GATES, Candidate, Impact, MIN_SPEEDUP};
use super::{ActiveRule, Finding, Severity, template};
use crate::model::Kernel;

/// Where a kernel's duration is read from: the raw page's metric, or the
/// Speed Of Light section's "Duration" on the details page.
pub(super) fn kernel_time_candidates() -> [Candidate; 2] {
    [
        Candidate::Metric("gpu__time_duration.sum".to_owned()),
        Candidate::Label {
            section: "GPU Speed Of Light Throughput".to_owned(),
            label: "Duration".to_owned(),
        },
    ]
}

/// The kernel's GPU time in nanoseconds, where the export has it.
pub(super) fn kernel_ns(kernel: &Kernel, context: &Context<'_>) -> Option<f64> {
    resolve(kernel, &kernel_time_candidates(), context).filter(|ns| *ns >= 0.0)
}

/// The estimate of the first impact whose inputs the kernel has; `values`
/// are the finding's.
pub(super) fn estimate(
    kernel: &Kernel,
    active: &ActiveRule,
    values: &crate::rules::finding::Values,
    kernel_ns: Option<f64>,
    context: &Context<'_>,
) -> Estimate {
    let mut estimate = Estimate {
        kernel_ns,
        ..Estimate::default()
    };
    for impact in &active.rule.impact {
        let Some(own) = inputs(kernel, impact, context) else {
            continue;
        };
        let own = with_optional_and_derived(own, kernel, impact, values, context);
        let lookup = |name: &str| value_of(name, &own, values);
        let number = |outcome: Outcome| outcome.as_number();
        estimate.speedup = impact
            .speedup
            .as_ref()
            .and_then(|s| number(s.eval(&lookup)))
            .map(|s| s.clamp(0.0, 1.0));
        estimate.bytes = impact
            .bytes
            .as_ref()
            .and_then(|b| number(b.eval(&lookup)))
            .map(|b| b.max(0.0));
        estimate.ceiling = impact.ceiling.as_ref().and_then(|c| {
            let share = number(c.speedup.eval(&lookup))?.clamp(0.0, 1.0);
            Some(Ceiling {
                speedup: share.max(estimate.speedup.unwrap_or(0.0)),
                when: c.when.clone(),
                held: false,
            })
        });
        estimate.basis = Some(impact.name.clone());
        // The derived numbers are the last of the impact's own, in order.
        estimate.terms = own[own.len() - impact.derived.len()..]
            .iter()
            .filter_map(|(name, value)| Some((context.names.get(name), (*value)?)))
            .collect();
        break;
    }
    estimate.saved_ns = match (estimate.kernel_ns, estimate.speedup) {
        (Some(ns), Some(share)) => Some(ns * share),
        _ => None,
    };
    estimate
}

/// The impact's own inputs for this kernel, or `None` when one is missing.
fn inputs<'i>(
    kernel: &Kernel,
    impact: &'i Impact,
    context: &Context<'_>,
) -> Option<Vec<(&'i str, Option<f64>)>> {
    // Room for the optional inputs and derived numbers that follow.
    let mut own =
        Vec::with_capacity(impact.inputs.len() + impact.optional.len() + impact.derived.len());
    for (name, candidates) in &impact.inputs {
        own.push((name.as_str(), Some(resolve(kernel, candidates, context)?)));
    }
    Some(own)
}

/// The impact's inputs, then its optional inputs (`None` where the export
/// lacks one) and its derived numbers, each over those before it and the
/// finding's values.
fn with_optional_and_derived<'i>(
    mut own: Vec<(&'i str, Option<f64>)>,
    kernel: &Kernel,
    impact: &'i Impact,
    values: &crate::rules::finding::Values,
    context: &Context<'_>,
) -> Vec<(&'i str, Option<f64>)> {
    for (name, candidates) in &impact.optional {
        own.push((name.as_str(), resolve(kernel, candidates, context)));
    }
    for number in &impact.derived {
        let value = number
            .expr
            .eval(&|name| value_of(name, &own, values))
            .as_number();
        own.push((number.name.as_str(), value));
    }
    own
}

/// A name's value: the impact's own (inputs and derived numbers) first,
/// then the finding's.
fn value_of(
    name: &str,
    own: &[(&str, Option<f64>)],
    values: &crate::rules::finding::Values,
) -> Option<f64> {
    own.iter()
        .find(|(n, _)| *n == name)
        .map_or_else(|| values.get(name).copied().flatten(), |(_, v)| *v)
}

/// Lowers a finding worth less than its rule's `min_speedup` of its kernel
/// to a note, saying so. Where the estimate counts on what the profiled run
/// happened to do (an L1 that caught the waste's re-reads), the message
/// gives the most a fix can save too; that most keeps the finding at its
/// severity only where the rule's `ceiling_gates` is 1.
pub(super) fn apply_threshold(finding: &mut Finding, active: &ActiveRule) {
    let (Some(speedup), Some(&least)) = (finding.estimate.speedup, active.params.get(MIN_SPEEDUP))
    else {
        return;
    };
    if speedup >= least || finding.severity == Severity::Note {
        return;
    }
    let gates = active.params.get(CEILING_GATES).is_some_and(|&g| g >= 1.0);
    let ceiling = finding
        .estimate
        .ceiling
        .as_mut()
        .filter(|c| c.speedup >= least);
    match ceiling {
        Some(ceiling) if gates => {
            ceiling.held = true;
            finding.message.push_str(&format!(
                " (a fix is worth about {} of the kernel's time as profiled; up to {} {})",
                percent(speedup),
                percent(ceiling.speedup),
                ceiling.when
            ));
            return;
        }
        Some(ceiling) => finding.message.push_str(&format!(
            " (a fix is worth about {} of the kernel's time as profiled, under the {} worth failing for; up to {} {})",
            percent(speedup),
            percent(least),
            percent(ceiling.speedup),
            ceiling.when
        )),
        None => finding.message.push_str(&format!(
            " (a fix is worth about {} of the kernel's time, under the {} worth failing for)",
            percent(speedup),
            percent(least)
        )),
    }
    finding.severity = Severity::Note;
}

/// Lowers a finding's estimate to the most the fix it shows saves (the
/// fix's `saves_at_most`, a share of the kernel's time) where that is
/// less, says so in its basis, and judges its worth again.
pub(super) fn hold_to_what_the_fix_saves(finding: &mut Finding, active: &ActiveRule, most: f64) {
    let most = most.clamp(0.0, 1.0);
    let estimate = &mut finding.estimate;
    let Some(speedup) = estimate.speedup.filter(|s| most < *s) else {
        return;
    };
    estimate.speedup = Some(most);
    estimate.saved_ns = estimate.kernel_ns.map(|ns| ns * most);
    if let Some(basis) = &mut estimate.basis {
        basis.push_str(&format!(
            ", held to what its fix saves: {} of the kernel's time, not {}",
            percent(most),
            percent(speedup)
        ));
    }
    apply_threshold(finding, active);
}

/// A share as the report prints it: a percentage to one decimal.
fn percent(share: f64) -> String {
    template::format_number(share, template::Format::Percent(1))
}
