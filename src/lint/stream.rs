//! Import and check of one report's pages. One file is streamed: each
//! result is checked as its rows complete and then kept only as its
//! identity, so memory does not grow with the metrics of thousands of
//! kernels. Several files are pages of one report, merged in memory,
//! keeping only the metrics the rules read.

use std::collections::HashSet;
use std::sync::Arc;

use crate::ingest::outline::Prefetched;
use crate::ingest::{IngestError, Input};
use crate::model::{Kernel, Metrics, Report};
use crate::rules::{ActiveRule, CheckResult, Checker, check, needed};

/// Results handed from the reading thread to the checking one at a time.
const BATCH: usize = 16;
/// Batches the reader may run ahead of the checker. A result carries its
/// source view until checked (a GEMM's is megabytes): 8 batches of 64 held
/// a whole 330-launch step, 78 MB at peak; 2 of 16 hold 43 MB and lose no
/// overlap.
const BATCHES_AHEAD: usize = 2;

/// Imports exports of one report and checks them. One file is streamed:
/// each result is checked as its rows complete and then kept only as its
/// identity (name, launch, and Nsight Compute's rule rows where `ncu_rules`
/// asks for them), so memory does not grow with the metrics of thousands of
/// kernels. Several files are pages
/// of one report, merged in memory, keeping only the metrics the rules read.
/// `progress` hears the number of results checked so far, once per batch.
pub(super) fn import_and_check(
    mut inputs: Vec<Input>,
    rules: &[ActiveRule],
    ncu_rules: bool,
    outline: Option<Prefetched>,
    progress: &mut dyn FnMut(usize),
) -> Result<(Report, CheckResult), IngestError> {
    let needed = Some(Arc::new(crate::ingest::Needed {
        skip_ncu_rules: !ncu_rules,
        ..needed(rules)
    }));
    let single = match inputs.as_slice() {
        [Input::Path(path)] => Some(path.clone()),
        _ => None,
    };
    let Some(path) = single else {
        if let (Some((source, others)), Some(needed)) = (super::pages::plan(&inputs), &needed) {
            let source = (source.0, source.1.as_str());
            let outline = outline.filter(|o| o.path() == source.1);
            let streamed =
                super::pages::import_and_check(source, &others, rules, needed, outline, progress)?;
            if let Some(done) = streamed {
                return Ok(done);
            }
        }
        let report = crate::ingest::import_inputs(std::mem::take(&mut inputs), needed)?;
        let result = check(&report, rules);
        return Ok((report, result));
    };
    let mut checker = Checker::new(rules, HashSet::new());
    let mut streamed: Vec<Kernel> = Vec::new();
    // Parsing and checking overlap: one thread reads and hands over
    // complete results in batches, this one checks and strips them.
    let path = &path;
    let streaming = needed.clone();
    let mut report = std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::sync_channel::<Vec<Kernel>>(BATCHES_AHEAD);
        let reader = scope.spawn(move || {
            let mut batch = Vec::with_capacity(BATCH);
            let report = crate::ingest::stream(path, streaming, &mut |kernel: Kernel| {
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
                // Findings carry their instructions; the CUDA rows stay for
                // the text of the lines.
                if let Some(view) = &mut kernel.source {
                    view.instructions = Vec::new();
                }
                streamed.push(kernel);
            }
            progress(streamed.len());
        }
        reader
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })?;
    // ncu writes a result's rows together; where a file does not, the rows
    // that came back were left out of a result already checked: the file is
    // read whole instead, and says so.
    if let Some(origin) = report.results_apart {
        let mut whole = crate::ingest::import_inputs(vec![Input::Path(path.clone())], needed)?;
        whole.warnings.push(crate::model::ImportWarning {
            message: "the rows of some results are not together (the first that comes back is here): read whole, not result by result".to_owned(),
            origin,
            count: 1,
        });
        let result = check(&whole, rules);
        return Ok((whole, result));
    }
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
