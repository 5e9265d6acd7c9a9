//! The imported profile: kernels (profile results), their metrics, and the
//! per-line and per-instruction source views that point findings at code.
//!
//! A kernel is one profile result, identified by its result ID, never by its
//! name: one kernel launched 2,000 times is 2,000 kernels here.

pub mod kernel_name;

use std::sync::Arc;

use indexmap::IndexMap;
use serde::Serialize;

use crate::value::Value;

/// The metric of the SM clock a kernel ran at: what a profile's clock
/// control decided, and what durations compare by.
pub const SM_CLOCK: &str = "sm__cycles_elapsed.avg.per_second";

/// The metrics [`Utilization`] reads: the memory system's, the busiest
/// L1's and the SMs' shares of their peaks, and the warps an SM held.
pub const UTILIZATION_METRICS: [&str; 4] = [
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__data_pipe_lsu_wavefronts.max.pct_of_peak_sustained_elapsed",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.per_cycle_active",
];

/// How busy a kernel kept the units a fix of its memory access relieves:
/// what `diff` reads of a fixed kernel that saved less than estimated.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Utilization {
    /// The busiest memory unit's share of its peak (percent).
    pub memory_pct: f64,
    /// The busiest SM's L1 data pipe, share of its peak (percent).
    pub l1_pct: f64,
    /// The SMs' busiest pipe or issue slots, share of peak (percent).
    pub sm_pct: f64,
    /// Warps an SM held while active, where the export has them.
    pub warps_per_sm: Option<f64>,
}

/// Everything imported from one or more export files of one report.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// The files read, in the order given.
    pub files: Vec<InputFile>,
    /// Profile results, in result-ID order where IDs are known, then in file order.
    pub kernels: Vec<Kernel>,
    /// Session page attributes (`--page session`), first occurrence wins.
    pub session: IndexMap<String, String>,
    /// Whole-file source listings (`--print-source cuda` without metrics).
    pub source_files: Vec<SourceFile>,
    /// Source-page blocks that could not be tied to one result with confidence.
    pub unattached: Vec<Unattached>,
    /// Problems that did not stop the import (a `nan` cell, say).
    pub warnings: Vec<ImportWarning>,
    /// Where rows of a result first came back after other results' rows in
    /// a streamed export: the rows there were left out of the result.
    pub results_apart: Option<Origin>,
}

impl Report {
    /// The path of the export file `origin` points into (`?` for an origin
    /// of another report).
    pub fn export_path(&self, origin: &Origin) -> &str {
        self.files.get(origin.file).map_or("?", |f| f.path.as_str())
    }

    /// Where `origin` is, for people: `file:line`, or `report (result N)`
    /// in a report read natively.
    pub fn describe_origin(&self, origin: &Origin) -> String {
        let path = self.export_path(origin);
        match self.files.get(origin.file) {
            Some(file) if file.report => {
                format!("{path} (result {})", origin.line.saturating_sub(1))
            }
            _ => format!("{path}:{}", origin.line),
        }
    }
}

/// One input file and what was found in it.
#[derive(Debug, Clone, Serialize)]
pub struct InputFile {
    /// The path as given on the command line.
    pub path: String,
    /// The export form detected from the content.
    pub form: Form,
    /// `==PROF==`, `==WARNING==` and `==ERROR==` lines found among the rows.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<ProfilerMessage>,
    /// Section identifiers the file shows: named by a details page, or
    /// inferred from a raw page's metric names ([`Self::sections_inferred`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<String>,
    /// Whether the sections were inferred from metric names.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sections_inferred: bool,
    /// GPU names the file shows.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<String>,
    /// Kernels whose CUDA lines ncu could not show: the binary was built
    /// without `-lineinfo` (its "No lineinfo available" warnings).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub no_lineinfo: Vec<String>,
    /// Whether it is an `.ncu-rep` report read natively: its origins'
    /// "lines" are result numbers.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub report: bool,
    /// Where a damaged or cut report stopped being readable; the results
    /// before it were read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<Damage>,
}

/// Damage that stopped a report's reading, or that its content shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Damage {
    /// What is wrong.
    pub message: String,
    /// Bytes from the start of the (decompressed) report.
    pub offset: u64,
    /// Kernel results read before it.
    pub results: usize,
}

impl InputFile {
    /// The kernel named by each "No lineinfo available to show CUDA-C source
    /// related to 'NAME'." warning among `messages`.
    pub fn kernels_without_lineinfo(messages: &[ProfilerMessage]) -> Vec<String> {
        messages
            .iter()
            .filter(|m| m.level == "WARNING" && m.text.contains("No lineinfo available"))
            .filter_map(|m| {
                let start = m.text.find('\'')? + 1;
                let end = m.text.rfind('\'')?;
                (end > start).then(|| m.text[start..end].to_owned())
            })
            .collect()
    }
}

/// The export forms of `ncu --csv`, detected from a file's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// The details page (default): one row per metric; also `--metrics` selections.
    Details,
    /// The raw page: one row per result, metric names as columns.
    Raw,
    /// The source page: per-kernel blocks of SASS and/or CUDA rows.
    Source,
    /// The session page: launch settings, session and device attributes.
    Session,
    /// `--print-summary per-kernel`: one row per kernel and metric over launches.
    Summary,
}

impl Form {
    /// The form's name as JSON and messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            Form::Details => "details",
            Form::Raw => "raw",
            Form::Source => "source",
            Form::Session => "session",
            Form::Summary => "summary",
        }
    }
}

/// A line the profiler printed among the CSV rows.
#[derive(Debug, Clone, Serialize)]
pub struct ProfilerMessage {
    /// `PROF`, `WARNING` or `ERROR`.
    pub level: String,
    /// The line as printed.
    pub text: String,
    /// Its 1-based line number in the file.
    pub line: u64,
}

/// Where a value came from: file index (into [`Report::files`]), 1-based line
/// and byte column.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// Index into [`Report::files`].
    pub file: usize,
    /// 1-based line number.
    pub line: u64,
    /// 1-based byte column of the field.
    pub column: u32,
}

/// A result's metrics by key. Keys are shared (a large export repeats the
/// same few hundred for every result) and hashed with FxHash, since rules
/// look up every key of every result.
pub type Metrics = IndexMap<Arc<str>, Metric, rustc_hash::FxBuildHasher>;

/// One profile result: a single kernel launch.
#[derive(Debug, Clone, Default)]
pub struct Kernel {
    /// The profile result ID; `None` where the form has none (source-only, summary).
    pub id: Option<u64>,
    /// The demangled name as printed, commas, templates and lambdas whole.
    pub name: String,
    /// Launch identity columns.
    pub launch: Box<Launch>,
    /// Launches aggregated into this entry (`--print-summary per-kernel` only).
    pub invocations: Option<u64>,
    /// Metrics keyed by metric name, or `Section: Label` where no name is known.
    pub metrics: Metrics,
    /// Nsight Compute's own rule results from the details page.
    pub ncu_rules: Vec<NcuRule>,
    /// The source page block of this result, if one was exported and attached.
    pub source: Option<Box<SourceView>>,
    /// The first row this result was read from.
    pub origin: Origin,
    /// The form of the export that first gave this result.
    pub form: Option<Form>,
}

impl Kernel {
    /// The numeric value of a metric, if present and a number.
    pub fn number(&self, key: &str) -> Option<f64> {
        self.metrics.get(key).and_then(|m| m.value.as_number())
    }

    /// The SM clock the kernel ran at (Hz), where the export has it.
    pub fn sm_clock_hz(&self) -> Option<f64> {
        self.number(SM_CLOCK)
    }

    /// How busy the kernel kept its units, where the export has the
    /// throughputs.
    pub fn utilization(&self) -> Option<Utilization> {
        let [memory, l1, sm, warps] = UTILIZATION_METRICS;
        Some(Utilization {
            memory_pct: self.number(memory)?,
            l1_pct: self.number(l1)?,
            sm_pct: self.number(sm)?,
            warps_per_sm: self.number(warps),
        })
    }
}

/// Launch identity columns; each is absent where the export lacks it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Launch {
    /// Process ID.
    pub process_id: Option<u64>,
    /// Process name.
    pub process_name: Option<String>,
    /// Host name.
    pub host: Option<String>,
    /// CUDA context.
    pub context: Option<u64>,
    /// CUDA stream.
    pub stream: Option<u64>,
    /// Device index.
    pub device: Option<u64>,
    /// Compute capability, as printed (`9.0`).
    pub cc: Option<String>,
    /// Block size.
    pub block: Option<[u64; 3]>,
    /// Grid size.
    pub grid: Option<[u64; 3]>,
    /// The "Kernel Time" column of older exports (a timestamp).
    pub kernel_time: Option<String>,
    /// NVTX columns (`--nvtx`), by column name.
    pub nvtx: IndexMap<String, String>,
}

/// One metric value of one result.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// The value in base units (`byte`, `ns`, `hz`, `byte/s`, ...).
    pub value: Value,
    /// The base unit.
    pub unit: String,
    /// The cell as printed.
    pub raw: String,
    /// The unit as printed.
    pub raw_unit: String,
    /// The details-page label, where the row had one.
    pub label: Option<String>,
    /// Where the cell is.
    pub origin: Origin,
}

/// A rule result Nsight Compute itself printed (details page rule rows).
#[derive(Debug, Clone, Serialize)]
pub struct NcuRule {
    /// Section the rule belongs to (`SourceCounters`).
    pub section: String,
    /// Rule name (`UncoalescedSharedAccess`).
    pub name: String,
    /// Rule type (`OPT`, `WRN`, `INF`, `ERR`).
    pub kind: String,
    /// The rule's text.
    pub description: String,
    /// `global` or `local`, where printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speedup_type: Option<String>,
    /// Estimated speedup in percent, where printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speedup: Option<f64>,
    /// Where the row is.
    pub origin: Origin,
}

/// One launch's part of the source page: its blocks, one per source file
/// its code comes from (the kernel's own file and the headers or library
/// modules inlined into it).
#[derive(Debug, Clone, Default)]
pub struct SourceView {
    /// The source files its rows are in (`File Path` of each block), in the
    /// page's order; [`SourceRow::file`] indexes them.
    pub files: Vec<String>,
    /// The function name as the block printed it.
    pub function: String,
    /// Metric column labels; [`SourceRow::cells`] follow this order.
    pub columns: Vec<String>,
    /// CUDA source rows (with `-lineinfo`), each aggregating its instructions.
    pub lines: Vec<SourceRow>,
    /// SASS rows, each once.
    pub instructions: Vec<SourceRow>,
    /// Where the block starts.
    pub origin: Origin,
}

impl SourceView {
    /// The index of a metric column by its label.
    pub fn column(&self, label: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == label)
    }

    /// The file a row is in, where known.
    pub fn file_of(&self, row: &SourceRow) -> Option<&str> {
        self.files.get(row.file as usize).map(String::as_str)
    }

    /// The kernel's own file: where its first instruction is (code inlined
    /// from headers follows the entry), else the first file listed.
    pub fn own_file(&self) -> Option<&str> {
        let entry = self
            .instructions
            .iter()
            .filter(|r| r.line.is_some())
            .filter_map(|r| Some((address_number(r.address.as_deref()?)?, r)))
            .min_by_key(|(address, _)| *address)
            .map(|(_, row)| row);
        entry
            .and_then(|row| self.file_of(row))
            .or_else(|| self.files.first().map(String::as_str))
    }

    /// The index of `path` in [`SourceView::files`], added if new.
    pub fn file_index(&mut self, path: &str) -> u32 {
        match self.files.iter().position(|f| f == path) {
            Some(i) => i as u32,
            None => {
                self.files.push(path.to_owned());
                (self.files.len() - 1) as u32
            }
        }
    }
}

/// An instruction address as printed (`0x7f9b0d7a3d50`) as a number.
pub fn address_number(address: &str) -> Option<u64> {
    u64::from_str_radix(address.trim().trim_start_matches("0x"), 16).ok()
}

/// One row of a source view: a CUDA line or a SASS instruction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SourceRow {
    /// The source file of [`SourceRow::line`], an index into
    /// [`SourceView::files`].
    pub file: u32,
    /// The CUDA line this row is, or the line the instruction sits under.
    pub line: Option<u32>,
    /// Where the code of [`SourceRow::line`] was inlined into the kernel's
    /// own code: the file (an index into [`SourceView::files`]) and line of
    /// the call, where the line table records it.
    pub call_site: Option<(u32, u32)>,
    /// The SASS address (instructions only).
    pub address: Option<String>,
    /// The CUDA source text or SASS instruction, as printed.
    pub text: String,
    /// Metric cells in [`SourceView::columns`] order.
    pub cells: Vec<Value>,
    /// Where the row is.
    pub origin: Origin,
}

/// A whole source file as the source page listed it.
#[derive(Debug, Clone, Serialize)]
pub struct SourceFile {
    /// The file's path on the profiling machine.
    pub path: String,
    /// Its lines, 1-based line `n` at index `n - 1`.
    pub lines: Vec<String>,
}

/// A source block that was not attached to any result, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Unattached {
    /// The block's function name.
    pub function: String,
    /// Why it could not be tied to one result.
    pub reason: String,
    /// Where the block starts.
    pub origin: Origin,
}

/// A problem that did not stop the import.
#[derive(Debug, Clone, Serialize)]
pub struct ImportWarning {
    /// What happened.
    pub message: String,
    /// Where (the first place, when it repeats).
    pub origin: Origin,
    /// How many times it happened.
    pub count: u64,
}

/// The `Section: Label` key of a details metric that has no metric name.
pub fn label_key(section: &str, body: &str, label: &str) -> String {
    if body.is_empty() {
        format!("{section}: {label}")
    } else {
        format!("{section}: {body}: {label}")
    }
}
