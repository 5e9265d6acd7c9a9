//! What one export file yields before files are merged: its results by ID,
//! its source blocks, session attributes, profiler messages and warnings.

use std::collections::HashMap;

use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

use indexmap::IndexMap;

use crate::model::{
    Form, ImportWarning, Kernel, Launch, Metric, Origin, ProfilerMessage, SourceFile, SourceView,
};
use crate::value::{Value, normalize_unit, parse_value, unit_factor};

/// The contents of one file.
#[derive(Debug, Default)]
pub struct FileImport {
    /// The path as given.
    pub path: String,
    /// Index of this file in the report's file list.
    pub file: usize,
    /// Forms found, in order of first appearance.
    pub forms: Vec<Form>,
    /// Results, in order of first appearance.
    pub kernels: Vec<Kernel>,
    by_id: FxHashMap<u64, usize>,
    /// Source-page blocks, not yet tied to results.
    pub blocks: Vec<SourceView>,
    /// Session page attributes.
    pub session: IndexMap<String, String>,
    /// Whole-file source listings.
    pub source_files: Vec<SourceFile>,
    /// Profiler lines found among the rows.
    pub messages: Vec<ProfilerMessage>,
    /// Problems that did not stop the import, grouped by message.
    pub warnings: Vec<ImportWarning>,
    /// Where rows of a result first came back after other results' rows,
    /// when streaming: its later rows are left out.
    pub results_apart: Option<Origin>,
    /// Section identifiers the file shows (named, or inferred from a raw header).
    pub sections: Vec<String>,
    /// Whether [`Self::sections`] was inferred from metric names alone.
    pub sections_inferred: bool,
    /// GPU names the file shows (`device__attribute_display_name`).
    pub devices: Vec<String>,
    /// Whether the file is an `.ncu-rep` report read natively.
    pub report: bool,
    /// Damage that stopped the report's reading (results before it kept).
    pub damage: Option<crate::model::Damage>,
    warning_index: HashMap<String, usize>,
    /// Metric keys to keep; `None` keeps all.
    needed: Option<Arc<Needed>>,
    /// Whether complete results move to [`Self::ready`] as rows arrive.
    streaming: bool,
    /// Complete results, for the reader to hand on and drop.
    pub ready: Vec<Kernel>,
    /// Whether complete source blocks move to [`Self::ready_blocks`].
    stream_blocks: bool,
    /// Complete source blocks, for the reader to hand on.
    pub ready_blocks: Vec<SourceView>,
    emitted: FxHashSet<u64>,
    current: Option<u64>,
}

/// The metric keys the rules in effect read: names, and `Section: Label`
/// keys of details labels. Values under other keys are neither parsed nor
/// stored, and of the values kept only the number and where it was are: the
/// printed text, units and labels are for `dump`, which imports everything.
#[derive(Debug, Clone, Default)]
pub struct Needed {
    /// The keys.
    pub keys: FxHashSet<String>,
    /// The source-page columns (by label) the rules read; the cells of other
    /// columns are neither parsed nor kept.
    pub source_columns: FxHashSet<String>,
    /// The source-page sums the rules read over instructions, when every
    /// read of an instruction row is one: an instruction row none of them
    /// counts is not kept. `None` keeps every row.
    pub source_rows: Option<Vec<RowUse>>,
    /// Whether Nsight Compute's rule rows (their descriptions are most of a
    /// details page's text) are left out: no `ncu/*` rule is selected.
    pub skip_ncu_rules: bool,
}

/// A sum over a source page's instruction rows: a row counts only where
/// its `column` is not zero and its cells equal the `filter`'s values.
#[derive(Debug, Clone, PartialEq)]
pub struct RowUse {
    /// The column summed.
    pub column: String,
    /// (column, value) pairs a row must match.
    pub filter: Vec<(String, String)>,
    /// The SASS opcodes (`LEA`, `IADD3`: before the first `.`) of the rows
    /// it counts; empty counts every instruction.
    pub opcodes: Vec<String>,
}

impl FileImport {
    /// An empty import of `path`, the `file`-th input.
    pub fn new(path: &str, file: usize) -> Self {
        FileImport {
            path: path.to_owned(),
            file,
            ..FileImport::default()
        }
    }

    /// Keeps only the metric keys in `needed`.
    pub fn with_needed(mut self, needed: Option<Arc<Needed>>) -> Self {
        self.needed = needed;
        self
    }

    /// Hands results on as soon as they are complete (see [`Self::ready`]).
    pub fn streaming(mut self) -> Self {
        self.streaming = true;
        self
    }

    /// Hands source blocks on as soon as they are complete (see
    /// [`Self::ready_blocks`]), instead of keeping them to tie at the merge.
    pub fn streaming_blocks(mut self) -> Self {
        self.stream_blocks = true;
        self
    }

    /// Whether source blocks are handed on as they complete.
    pub fn streams_blocks(&self) -> bool {
        self.stream_blocks
    }

    /// The metric keys kept; `None` keeps all.
    pub fn needed(&self) -> Option<&Needed> {
        self.needed.as_deref()
    }

    /// Whether complete results are handed on as they are read.
    pub fn is_streaming(&self) -> bool {
        self.streaming
    }

    /// Whether Nsight Compute's rule rows are kept.
    pub fn wants_ncu_rules(&self) -> bool {
        self.needed.as_ref().is_none_or(|n| !n.skip_ncu_rules)
    }

    /// Whether values under `key` are kept.
    pub fn wants(&self, key: &str) -> bool {
        self.needed.as_ref().is_none_or(|n| n.keys.contains(key))
    }

    /// Whether the import keeps the source-page column labelled `label`.
    pub fn wants_source_column(&self, label: &str) -> bool {
        self.needed
            .as_ref()
            .is_none_or(|n| n.source_columns.contains(label))
    }

    /// Called before each row of result `id`. When streaming, a row of a new
    /// result completes the ones before it; a result whose rows come back
    /// after others is refused (false), with a warning, since its first part
    /// is gone.
    pub fn begin_result(&mut self, id: u64, origin: Origin) -> bool {
        if !self.streaming || self.current == Some(id) {
            return true;
        }
        self.flush();
        if !self.emitted.insert(id) {
            self.results_apart.get_or_insert(origin);
            self.warn(
                format!("rows of result {id} are not together; the later ones are left out"),
                origin,
            );
            return false;
        }
        self.current = Some(id);
        true
    }

    /// Called when a new entry without an ID (per-kernel summary) begins:
    /// when streaming, the ones before it are complete.
    pub fn next_entry(&mut self) {
        if self.streaming {
            self.flush();
        }
    }

    /// Moves every complete result to [`Self::ready`].
    pub fn flush(&mut self) {
        self.ready.append(&mut self.kernels);
        self.by_id.clear();
        self.current = None;
    }

    /// Records that a table of `form` was found.
    pub fn saw(&mut self, form: Form) {
        if !self.forms.contains(&form) {
            self.forms.push(form);
        }
    }

    /// Notes a section the details page names (display name or identifier);
    /// custom sections keep their printed name.
    pub fn see_section(&mut self, name: &str) {
        let id = super::sections::identifier(name).unwrap_or(name);
        if !id.is_empty() && !self.sections.iter().any(|s| s == id) {
            if self.sections_inferred {
                self.sections.clear();
                self.sections_inferred = false;
            }
            self.sections.push(id.to_owned());
        }
    }

    /// Notes the sections a raw header implies, unless a details page of
    /// this file already named them.
    pub fn see_raw_header(&mut self, header: &[String]) {
        if !self.sections.is_empty() && !self.sections_inferred {
            return;
        }
        for id in super::sections::infer(header) {
            if !self.sections.iter().any(|s| s == id) {
                self.sections.push(id.to_owned());
            }
        }
        self.sections_inferred = true;
    }

    /// Notes a GPU name.
    pub fn see_device(&mut self, name: &str) {
        let name = name.trim();
        if !name.is_empty() && !self.devices.iter().any(|d| d == name) {
            self.devices.push(name.to_owned());
        }
    }

    /// The result with `id`, created from this row's identity when new.
    pub fn result(
        &mut self,
        id: u64,
        name: &str,
        launch: impl FnOnce() -> Launch,
        origin: Origin,
    ) -> &mut Kernel {
        let form = self.forms.last().copied();
        let index = *self.by_id.entry(id).or_insert_with(|| {
            self.kernels.push(Kernel {
                id: Some(id),
                name: name.to_owned(),
                launch: Box::new(launch()),
                origin,
                form,
                ..Kernel::default()
            });
            self.kernels.len() - 1
        });
        &mut self.kernels[index]
    }

    /// The result with `id`, if seen.
    pub fn kernel_mut(&mut self, id: u64) -> Option<&mut Kernel> {
        self.by_id.get(&id).map(|&i| &mut self.kernels[i])
    }

    /// Removes the result with `id`; whether there was one.
    pub fn remove_result(&mut self, id: u64) -> bool {
        let Some(index) = self.by_id.remove(&id) else {
            return false;
        };
        self.kernels.remove(index);
        for i in self.by_id.values_mut() {
            if *i > index {
                *i -= 1;
            }
        }
        true
    }

    /// Adds a warning, or counts one more of the same message.
    pub fn warn(&mut self, message: String, origin: Origin) {
        if let Some(&i) = self.warning_index.get(&message) {
            self.warnings[i].count += 1;
            return;
        }
        self.warning_index
            .insert(message.clone(), self.warnings.len());
        self.warnings.push(ImportWarning {
            message,
            origin,
            count: 1,
        });
    }

    /// One metric cell: its value parsed and brought to base units, with a
    /// warning (and a missing value) where the cell is not a value. Without
    /// a [`Needed`] set (`dump`) the printed text, units and label are kept
    /// too; a check reads only the number and where it was, so it skips them.
    pub fn metric(
        &mut self,
        key: &str,
        raw: &str,
        raw_unit: &str,
        label: Option<&str>,
        origin: Origin,
    ) -> Metric {
        if raw.len() > crate::ingest::limits::MAX_INSTANCES
            && raw.bytes().filter(|&b| b == b';').count() >= crate::ingest::limits::MAX_INSTANCES
        {
            self.warn(
                format!(
                    "`{key}`: more instanced values than the limit of {}; kept as text",
                    crate::ingest::limits::MAX_INSTANCES
                ),
                origin,
            );
        }
        let (unit, factor) = if self.needed.is_some() {
            (String::new(), unit_factor(raw_unit))
        } else {
            let unit = normalize_unit(raw_unit);
            (unit.unit, unit.factor)
        };
        let value = match parse_value(raw) {
            Ok(v) => v.scaled(factor),
            Err(e) => {
                self.warn(format!("`{key}`: {e}; treated as missing"), origin);
                Value::Missing
            }
        };
        if self.needed.is_some() {
            return Metric {
                value,
                unit,
                raw: String::new(),
                raw_unit: String::new(),
                label: None,
                origin,
            };
        }
        Metric {
            value,
            unit,
            raw: raw.to_owned(),
            raw_unit: raw_unit.to_owned(),
            label: label.map(str::to_owned),
            origin,
        }
    }
}
