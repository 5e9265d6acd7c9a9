//! Several independent reports in one run (`check --each`): each is
//! imported and checked on a worker thread of its own, as many at once as
//! there are cores (or `--jobs`), and the outcomes are joined into one
//! report for output, in input order, every origin pointing at its own file.

use std::sync::Mutex;

use super::stream::import_and_check;
use crate::ingest::{IngestError, Input};
use crate::model::{Kernel, Origin, Report};
use crate::rules::{ActiveRule, CheckResult};

/// One report's import and check.
type Outcome = Result<(Report, CheckResult), IngestError>;

/// Imports and checks each report (the exports of one report per entry of
/// `reports`) on up to `jobs` threads, and joins the outcomes. The first
/// report (in input order) that cannot be imported fails the whole run, so
/// that nothing is reported for a run with an unreadable input.
/// `progress` hears the number of reports done.
pub(super) fn import_and_check_each(
    reports: Vec<Vec<Input>>,
    rules: &[ActiveRule],
    ncu_rules: bool,
    jobs: usize,
    progress: &mut dyn FnMut(usize),
) -> Outcome {
    let count = reports.len();
    let queue = Mutex::new(reports.into_iter().enumerate());
    let mut outcomes: Vec<Option<Outcome>> = (0..count).map(|_| None).collect();
    std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::channel::<(usize, Outcome)>();
        for _ in 0..jobs.clamp(1, count.max(1)) {
            let sender = sender.clone();
            let queue = &queue;
            scope.spawn(move || {
                loop {
                    let next = queue.lock().ok().and_then(|mut q| q.next());
                    let Some((i, inputs)) = next else { break };
                    let outcome = import_and_check(inputs, rules, ncu_rules, None, &mut |_| {});
                    if sender.send((i, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (done, (i, outcome)) in receiver.into_iter().enumerate() {
            outcomes[i] = Some(outcome);
            progress(done + 1);
        }
    });
    let mut joined = (Report::default(), CheckResult::default());
    for outcome in outcomes.into_iter().flatten() {
        join(&mut joined, outcome?);
    }
    Ok(joined)
}

/// Appends one report and its check to `into`, moving its file and result
/// indices past those already there.
fn join(into: &mut (Report, CheckResult), (mut report, mut result): (Report, CheckResult)) {
    let (joined, checked) = into;
    let files = joined.files.len();
    let kernels = joined.kernels.len();
    let shift = |origin: &mut Origin| origin.file += files;
    for kernel in &mut report.kernels {
        shift_kernel(kernel, files);
    }
    report
        .unattached
        .iter_mut()
        .for_each(|u| shift(&mut u.origin));
    report
        .warnings
        .iter_mut()
        .for_each(|w| shift(&mut w.origin));
    for finding in &mut result.findings {
        finding.kernel += kernels;
        shift(&mut finding.origin);
    }
    result.measures.iter_mut().for_each(|m| m.kernel += kernels);
    // Joined reports' kernels follow each other; so do their times.
    checked.kernel_ns.resize(kernels, None);
    checked.kernel_ns.append(&mut result.kernel_ns);
    checked.sm_clock_hz.resize(kernels, None);
    checked.sm_clock_hz.append(&mut result.sm_clock_hz);
    checked.utilization.resize(kernels, None);
    checked.utilization.append(&mut result.utilization);
    joined.files.append(&mut report.files);
    joined.kernels.append(&mut report.kernels);
    for (key, value) in report.session {
        joined.session.entry(key).or_insert(value);
    }
    joined.source_files.append(&mut report.source_files);
    joined.unattached.append(&mut report.unattached);
    joined.warnings.append(&mut report.warnings);
    checked.findings.append(&mut result.findings);
    checked.measures.append(&mut result.measures);
    checked.kernels += result.kernels;
    for skip in result.skipped {
        match checked.skipped.iter_mut().find(|s| s.rule == skip.rule) {
            Some(known) => {
                known.kernels += skip.kernels;
                for missing in skip.missing {
                    if !known.missing.contains(&missing) {
                        known.missing.push(missing);
                    }
                }
            }
            None => checked.skipped.push(skip),
        }
    }
}

/// Moves every origin in `kernel` `files` files on.
fn shift_kernel(kernel: &mut Kernel, files: usize) {
    kernel.origin.file += files;
    kernel
        .metrics
        .values_mut()
        .for_each(|m| m.origin.file += files);
    kernel
        .ncu_rules
        .iter_mut()
        .for_each(|r| r.origin.file += files);
    if let Some(view) = &mut kernel.source {
        view.origin.file += files;
        for row in view.lines.iter_mut().chain(view.instructions.iter_mut()) {
            row.origin.file += files;
        }
    }
}
