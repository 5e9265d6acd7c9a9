//! Merging the files of one report: results by ID, and source-page blocks
//! (which carry no ID) to results by order and normalised name.
//!
//! Attachment is conservative: a block is tied to a result only when the
//! blocks of its name in that file pair one-to-one, in order, with the
//! results of that name. Anything else stays unattached, with the reason,
//! rather than risk describing the wrong launch.

use std::collections::HashMap;

use indexmap::IndexMap;

use super::collect::FileImport;
use super::error::IngestError;
use crate::model::kernel_name;
use crate::model::{InputFile, Kernel, Report, SourceView, Unattached};

/// Merges per-file imports into one report.
pub fn merge(imports: Vec<FileImport>) -> Result<Report, IngestError> {
    let mut report = Report::default();
    let mut by_id: HashMap<u64, usize> = HashMap::new();
    let mut source_of_id: HashMap<u64, String> = HashMap::new();
    let mut pending_blocks = Vec::new();
    for mut import in imports {
        report.files.push(input_file(&mut import));
        for kernel in import.kernels {
            let Some(id) = kernel.id else {
                report.kernels.push(kernel);
                continue;
            };
            match by_id.get(&id) {
                Some(&index) => {
                    let existing = &mut report.kernels[index];
                    check_same_result(existing, &kernel, &import.path, &source_of_id[&id])?;
                    absorb(existing, kernel);
                }
                None => {
                    by_id.insert(id, report.kernels.len());
                    source_of_id.insert(id, import.path.clone());
                    report.kernels.push(kernel);
                }
            }
        }
        for (key, value) in import.session {
            report.session.entry(key).or_insert(value);
        }
        report.source_files.extend(import.source_files);
        report.warnings.extend(import.warnings);
        report.results_apart = report.results_apart.or(import.results_apart);
        pending_blocks.push(import.blocks);
    }
    report
        .kernels
        .sort_by_key(|k| (k.id.is_none(), k.id.unwrap_or(0)));
    for blocks in pending_blocks {
        attach(&mut report, blocks);
    }
    Ok(report)
}

/// What the report says of one file: its form, messages, sections, GPUs
/// (taken out of `import`).
pub fn input_file(import: &mut FileImport) -> InputFile {
    let messages = std::mem::take(&mut import.messages);
    InputFile {
        path: import.path.clone(),
        form: import
            .forms
            .first()
            .copied()
            .unwrap_or(crate::model::Form::Source),
        no_lineinfo: InputFile::kernels_without_lineinfo(&messages),
        messages,
        sections: std::mem::take(&mut import.sections),
        sections_inferred: import.sections_inferred,
        devices: std::mem::take(&mut import.devices),
        report: import.report,
        damage: import.damage.take(),
    }
}

fn check_same_result(
    existing: &Kernel,
    new: &Kernel,
    path: &str,
    other_path: &str,
) -> Result<(), IngestError> {
    let same_name = existing.normalized_name() == new.normalized_name();
    let same_process = match (existing.launch.process_id, new.launch.process_id) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    if same_name && same_process {
        return Ok(());
    }
    let describe = |k: &Kernel| match k.launch.process_id {
        Some(p) => format!("{} (process {p})", k.name),
        None => k.name.clone(),
    };
    Err(IngestError::DifferentReports {
        path: path.to_owned(),
        id: new.id.unwrap_or(0),
        name: describe(new),
        other_path: other_path.to_owned(),
        other_name: describe(existing),
    })
}

/// Adds what `other` knows of the same result; values already present win.
fn absorb(kernel: &mut Kernel, other: Kernel) {
    for (key, metric) in other.metrics {
        kernel.metrics.entry(key).or_insert(metric);
    }
    kernel.ncu_rules.extend(other.ncu_rules);
    let launch = &mut kernel.launch;
    let more = other.launch;
    launch.process_id = launch.process_id.or(more.process_id);
    launch.process_name = launch.process_name.take().or(more.process_name);
    launch.host = launch.host.take().or(more.host);
    launch.context = launch.context.or(more.context);
    launch.stream = launch.stream.or(more.stream);
    launch.device = launch.device.or(more.device);
    launch.cc = launch.cc.take().or(more.cc);
    launch.block = launch.block.or(more.block);
    launch.grid = launch.grid.or(more.grid);
    launch.kernel_time = launch.kernel_time.take().or(more.kernel_time);
    for (key, value) in more.nvtx {
        launch.nvtx.entry(key).or_insert(value);
    }
}

/// Ties one file's source blocks to results.
fn attach(report: &mut Report, blocks: Vec<SourceView>) {
    if blocks.is_empty() {
        return;
    }
    if !report.kernels.iter().any(|k| k.id.is_some()) {
        if report.kernels.is_empty() {
            // A source page alone: each block is a result whose ID is unknown.
            report
                .kernels
                .extend(blocks.into_iter().map(|block| Kernel {
                    id: None,
                    name: block.function.clone(),
                    origin: block.origin,
                    source: Some(Box::new(block)),
                    ..Kernel::default()
                }));
        } else {
            report
                .unattached
                .extend(blocks.into_iter().map(|b| Unattached {
                    reason: "the other inputs carry no result IDs to tie it to".into(),
                    function: b.function,
                    origin: b.origin,
                }));
        }
        return;
    }
    let mut results: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, kernel) in report
        .kernels
        .iter()
        .enumerate()
        .filter(|(_, k)| k.id.is_some())
    {
        results.entry(kernel.normalized_name()).or_default().push(i);
    }
    let mut grouped: IndexMap<String, Vec<SourceView>> = IndexMap::new();
    for block in blocks {
        grouped
            .entry(kernel_name::normalize(&block.function))
            .or_default()
            .push(block);
    }
    for (name, group) in grouped {
        let targets = results.get(&name).map_or(&[][..], Vec::as_slice);
        if targets.len() == group.len() {
            for (&index, block) in targets.iter().zip(group) {
                let kernel = &mut report.kernels[index];
                let richer = kernel
                    .source
                    .as_ref()
                    .is_none_or(|s| s.lines.is_empty() && !block.lines.is_empty());
                if richer {
                    kernel.source = Some(Box::new(block));
                }
            }
            continue;
        }
        let reason = if targets.is_empty() {
            "no profile result has this name".to_owned()
        } else {
            format!(
                "{} source blocks for {} results of this name: cannot tell which launch each belongs to",
                group.len(),
                targets.len()
            )
        };
        report
            .unattached
            .extend(group.into_iter().map(|b| Unattached {
                reason: reason.clone(),
                function: b.function,
                origin: b.origin,
            }));
    }
}
