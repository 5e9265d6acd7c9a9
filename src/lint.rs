//! The whole lint of one report: the rules in effect, Nsight Compute's own
//! rule results where selected (`ncu/<RuleName>`), per-kernel ignores from
//! the configuration, and inline suppressions in CUDA source.

use std::collections::HashSet;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::config::Settings;
use crate::ingest::{IngestError, Source};
use crate::model::{Kernel, Metrics, Report};
use crate::rules::{ActiveRule, CheckResult, Checker, Finding, Severity, check, needed};
use crate::sources::SourceLookup;
use crate::suppress;

/// Results handed from the reading thread to the checking one at a time.
const BATCH: usize = 64;

/// Runs everything and returns the findings that stand.
pub fn lint(
    report: &Report,
    rules: &[ActiveRule],
    settings: &Settings,
    sources: &SourceLookup<'_>,
) -> CheckResult {
    finish(report, check(report, rules), settings, sources)
}

/// Imports exports of one report and checks them. One file is streamed:
/// each result is checked as its rows complete and then kept only as its
/// identity (name, launch, Nsight Compute's rule rows), so memory does not
/// grow with the metrics of thousands of kernels. Several files are pages
/// of one report, merged in memory, keeping only the metrics the rules read.
/// `progress` hears the number of results checked so far, once per batch.
pub fn import_and_check(
    mut sources: Vec<Source>,
    rules: &[ActiveRule],
    progress: &mut dyn FnMut(usize),
) -> Result<(Report, CheckResult), IngestError> {
    let needed = Some(Arc::new(needed(rules)));
    let single = match sources.as_slice() {
        [Source::Path(path)] => Some(path.clone()),
        _ => None,
    };
    let Some(path) = single else {
        let report = crate::ingest::import_sources(std::mem::take(&mut sources), needed)?;
        let result = check(&report, rules);
        return Ok((report, result));
    };
    let mut checker = Checker::new(rules, HashSet::new());
    let mut streamed: Vec<Kernel> = Vec::new();
    // Parsing and checking overlap: one thread reads and hands over
    // complete results in batches, this one checks and strips them.
    let path = &path;
    let mut report = std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::sync_channel::<Vec<Kernel>>(8);
        let reader = scope.spawn(move || {
            let mut batch = Vec::with_capacity(BATCH);
            let report = crate::ingest::stream(path, needed, &mut |kernel: Kernel| {
                batch.push(kernel);
                if batch.len() == BATCH {
                    let _ = sender.send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)));
                }
            });
            let _ = sender.send(batch);
            report
        });
        for batch in receiver {
            for mut kernel in batch {
                if let Some(form) = kernel.form {
                    checker.see_form(form);
                }
                checker.kernel(&kernel, streamed.len());
                kernel.metrics = Metrics::default();
                streamed.push(kernel);
            }
            progress(streamed.len());
        }
        reader
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })?;
    for form in report.files.iter().map(|f| f.form) {
        checker.see_form(form);
    }
    for kernel in &report.kernels {
        checker.see_columns(kernel);
    }
    for (i, kernel) in report.kernels.iter().enumerate() {
        checker.kernel(kernel, streamed.len() + i);
    }
    streamed.append(&mut report.kernels);
    report.kernels = streamed;
    Ok((report, checker.finish()))
}

/// Adds Nsight Compute's rule results where selected, then applies the
/// per-kernel ignores and inline suppressions.
pub fn finish(
    report: &Report,
    mut result: CheckResult,
    settings: &Settings,
    sources: &SourceLookup<'_>,
) -> CheckResult {
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
