//! Import of `ncu --csv` exports, every form, into one [`Report`].
//!
//! Each file is read as a stream of lines. CSV rows are told from program
//! output and profiler lines by their leading quote; each table's form is
//! detected from its header (never from the file name); files of one report
//! merge by result ID, and source-page blocks are tied to results by order
//! and normalised name.
//!
//! ```no_run
//! let report = ncu_lint::ingest::import(&["raw.csv".into(), "source.csv".into()]).unwrap();
//! println!("{} kernels", report.kernels.len());
//! ```

mod collect;
mod details;
mod distribution;
mod error;
mod labels;
mod launch;
pub mod limits;
mod merge;
pub mod ncu_rep;
mod open;
pub mod outline;
mod quoted;
mod raw;
mod read_ahead;
mod records;
mod sections;
mod session;
mod source_page;
mod summary;

use std::io::BufRead;
use std::sync::Arc;

pub use collect::{FileImport, Needed, RowUse};
pub use error::{IngestError, Snippet};
pub use labels::{is_metric_name, metric_name};
pub use records::MAX_RECORD_BYTES;

use crate::model::{Form, Kernel, ProfilerMessage, Report, SourceView};
use details::DetailsTable;
use raw::RawTable;
use records::Records;
use session::SessionTable;
use source_page::SourcePageParser;
use summary::SummaryTable;

/// Imports `paths` (exports of one report) into one model.
pub fn import(paths: &[String]) -> Result<Report, IngestError> {
    import_needed(paths, None)
}

/// Imports `paths`, keeping only the metric keys in `needed` (all if `None`).
pub fn import_needed(paths: &[String], needed: Option<Arc<Needed>>) -> Result<Report, IngestError> {
    let imports = paths
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let out = FileImport::new(path, i).with_needed(needed.clone());
            read_path(path, out, &mut |_| {})
        })
        .collect::<Result<Vec<_>, _>>()?;
    merge::merge(imports)
}

/// Imports one export held in memory (tests and fuzzing), named `name`.
pub fn import_bytes(name: &str, bytes: &[u8]) -> Result<Report, IngestError> {
    let input = open::prepare(name, Box::new(std::io::Cursor::new(bytes.to_vec())))?;
    let out = FileImport::new(name, 0);
    let import = read(Records::new(input, name), out, &mut |_| {})?;
    merge::merge(vec![import])
}

/// Imports an `.ncu-rep` report held in memory (tests and fuzzing), named `name`.
pub fn import_report_bytes(name: &str, bytes: &[u8]) -> Result<Report, IngestError> {
    merge::merge(vec![ncu_rep::read_bytes(name, bytes)?])
}

/// Where an export comes from: a file, or a command whose standard output
/// is the export (`ncu -i report.ncu-rep --csv ...`).
pub enum Input {
    /// A file (plain or xz), or `-` for standard input.
    Path(String),
    /// A command and the name it goes by in messages.
    Command {
        /// The name in messages.
        name: String,
        /// The command.
        command: std::process::Command,
    },
}

/// Imports exports of one report from files or commands, keeping only the
/// metric keys in `needed` (all if `None`). The pages are read at once, one
/// thread each (the exports of an `.ncu-rep` are `ncu` processes that take
/// seconds each), their output streamed into the importer, and merged in
/// input order; the first page (in that order) that fails is the error.
pub fn import_inputs(
    inputs: Vec<Input>,
    needed: Option<Arc<Needed>>,
) -> Result<Report, IngestError> {
    let import_one = |i: usize, input: Input| match input {
        Input::Path(path) => {
            let out = FileImport::new(&path, i).with_needed(needed.clone());
            read_path(&path, out, &mut |_| {})
        }
        Input::Command { name, mut command } => run_command(&name, &mut command, i, needed.clone()),
    };
    let imports = std::thread::scope(|scope| {
        let pages: Vec<_> = inputs
            .into_iter()
            .enumerate()
            .map(|(i, input)| scope.spawn(move || import_one(i, input)))
            .collect();
        pages
            .into_iter()
            .map(|page| {
                page.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    merge::merge(imports)
}

/// Runs `command` and imports its standard output as the `index`-th input.
fn run_command(
    name: &str,
    command: &mut std::process::Command,
    index: usize,
    needed: Option<Arc<Needed>>,
) -> Result<FileImport, IngestError> {
    let described = std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let failed = |reason: String| IngestError::Command {
        command: described.clone(),
        reason,
    };
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| failed(e.to_string()))?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| failed("no standard output".into()))?;
    let mut stderr = child
        .stderr
        .take()
        .ok_or_else(|| failed("no standard error".into()))?;
    // Drained on its own thread so that a chatty stderr cannot stall stdout.
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let imported = open::prepare(name, Box::new(stdout)).and_then(|input| {
        let out = FileImport::new(name, index).with_needed(needed);
        read(Records::new(input, name), out, &mut |_| {})
    });
    let status = child.wait().map_err(|e| failed(e.to_string()))?;
    let stderr = errors.join().unwrap_or_default();
    if !status.success() {
        // ncu prints its own errors as `==ERROR==` lines on stdout; quote them.
        if let Err(e @ IngestError::NoCsv { found: Some(_), .. }) = imported {
            return Err(e);
        }
        let last: Vec<&str> = stderr.lines().rev().take(3).collect();
        let last: Vec<&str> = last.into_iter().rev().collect();
        return Err(failed(format!("{status}: {}", last.join(" / "))));
    }
    imported
}

/// Streams one export: each result goes to `on_kernel` as soon as its rows
/// are complete, and is not kept. The report returned holds everything else
/// (files, session, source listings, warnings, and results from a source
/// page, whose blocks are complete only at the end).
pub fn stream(
    path: &str,
    needed: Option<Arc<Needed>>,
    on_kernel: &mut dyn FnMut(Kernel),
) -> Result<Report, IngestError> {
    let out = FileImport::new(path, 0).with_needed(needed).streaming();
    let import = read_path(path, out, on_kernel)?;
    merge::merge(vec![import])
}

/// Reads the file at `path` whole (a page of several), keeping the metric
/// keys in `needed`; it is the `file`-th input.
pub fn read_file(
    path: &str,
    file: usize,
    needed: Option<Arc<Needed>>,
) -> Result<FileImport, IngestError> {
    read_path(
        path,
        FileImport::new(path, file).with_needed(needed),
        &mut |_| {},
    )
}

/// Merges per-file imports into one report, results by ID.
pub fn merge_imports(imports: Vec<FileImport>) -> Result<Report, IngestError> {
    merge::merge(imports)
}

/// Adds a streamed source page's file (the `at`-th input), listings and
/// warnings to `report`; its blocks were handed on as they were read.
pub fn add_streamed_page(report: &mut Report, mut import: FileImport, at: usize) {
    let file = merge::input_file(&mut import);
    report.files.insert(at.min(report.files.len()), file);
    for (key, value) in import.session {
        report.session.entry(key).or_insert(value);
    }
    report.source_files.extend(import.source_files);
    report.warnings.extend(import.warnings);
}

/// Reads a source page, handing each block to `on_block` as soon as it is
/// complete; it is the `file`-th input. The import returned holds the rest
/// (listings, messages, warnings).
pub fn stream_source_page(
    path: &str,
    file: usize,
    needed: Option<Arc<Needed>>,
    on_block: &mut dyn FnMut(SourceView),
) -> Result<FileImport, IngestError> {
    let input = open::open_to_read(path)?;
    let out = FileImport::new(path, file)
        .with_needed(needed)
        .streaming_blocks();
    read_with(Records::new(input, path), out, &mut |_| {}, on_block)
}

/// Whether the file at `path` is a source page: its first table row opens
/// a block. Only the start of the file is read.
pub fn is_source_page(path: &str) -> bool {
    let Ok(mut input) = open::open(path) else {
        return false;
    };
    let mut line = String::new();
    while input.read_line(&mut line).is_ok_and(|n| n > 0) {
        if let Some(rest) = line.strip_prefix('"') {
            let first = rest.split('"').next().unwrap_or("");
            return source_page::BLOCK_INTROS.contains(&first);
        }
        line.clear();
    }
    false
}

/// Reads the file at `path` into `out`: an `.ncu-rep` report natively, any
/// other file as a CSV export.
fn read_path(
    path: &str,
    out: FileImport,
    on_kernel: &mut dyn FnMut(Kernel),
) -> Result<FileImport, IngestError> {
    if path != "-" && ncu_rep::is_report(path) {
        return ncu_rep::read(path, out, on_kernel);
    }
    let input = open::open_to_read(path)?;
    read(Records::new(input, path), out, on_kernel)
}

/// The table being read.
enum Table {
    None,
    Details(DetailsTable),
    Raw(RawTable),
    Summary(SummaryTable),
    Session(SessionTable),
    Source(SourcePageParser),
}

impl Table {
    /// Whether rows of this table may hold quoted fields that span lines.
    fn joins_lines(&self) -> bool {
        matches!(self, Table::Details(_) | Table::Raw(_) | Table::Summary(_))
    }

    fn finish(&mut self, out: &mut FileImport) {
        if let Table::Source(parser) = self {
            parser.finish(out);
        }
    }
}

/// Reads all records of one file into `out`, handing complete results to
/// `on_kernel` when `out` is streaming.
fn read<R: BufRead>(
    rec: Records<R>,
    out: FileImport,
    on_kernel: &mut dyn FnMut(Kernel),
) -> Result<FileImport, IngestError> {
    read_with(rec, out, on_kernel, &mut |_| {})
}

/// [`read`], handing complete source blocks to `on_block` when `out`
/// streams them.
fn read_with<R: BufRead>(
    mut rec: Records<R>,
    mut out: FileImport,
    on_kernel: &mut dyn FnMut(Kernel),
    on_block: &mut dyn FnMut(SourceView),
) -> Result<FileImport, IngestError> {
    let mut table = Table::None;
    let mut first_error: Option<(String, u64, u64)> = None;
    while rec.next(table.joins_lines())? {
        if !rec.is_csv() {
            note_text_line(&rec, &mut out, &mut first_error);
            continue;
        }
        match &table {
            Table::Source(parser) => {
                rec.split_source(parser.width(), parser.text_column(), parser.fields_read())
            }
            _ => rec.split_csv(),
        }
        rec.check_limits()?;
        // A header cut short is a cut too: its columns are not all there.
        if rec.cut_short() && (table.joins_lines() || matches!(table, Table::None)) {
            drop_cut_row(&rec, &mut out);
            break;
        }
        let first = rec.field(0);
        if (source_page::BLOCK_INTROS.contains(&first) && rec.field_count() <= 3)
            || source_page::BLOCK_HEADERS.contains(&first)
        {
            if !matches!(table, Table::Source(_)) {
                table.finish(&mut out);
                table = Table::Source(SourcePageParser::default());
                out.saw(Form::Source);
            }
            if let Table::Source(parser) = &mut table {
                parser.record(&rec, &mut out);
            }
            continue;
        }
        if first == "ID" || first == "Process ID" || session::SESSION_HEADERS.contains(&first) {
            let header = rec.fields();
            let next = if DetailsTable::matches(&header) {
                out.saw(Form::Details);
                Some(Table::Details(DetailsTable::new(&header)))
            } else if RawTable::matches(&header) {
                out.saw(Form::Raw);
                out.see_raw_header(&header);
                Some(Table::Raw(RawTable::new(&header)))
            } else if SummaryTable::matches(&header) {
                out.saw(Form::Summary);
                Some(Table::Summary(SummaryTable::new(&header)))
            } else if SessionTable::matches(&header) {
                out.saw(Form::Session);
                Some(Table::Session(SessionTable::new(&header)))
            } else {
                None
            };
            if let Some(next) = next {
                table.finish(&mut out);
                table = next;
                continue;
            }
        }
        match &mut table {
            Table::None => {}
            Table::Details(t) => t.row(&rec, &mut out)?,
            Table::Raw(t) => t.row(&rec, &mut out)?,
            Table::Summary(t) => t.row(&rec, &mut out)?,
            Table::Session(t) => t.row(&rec, &mut out),
            Table::Source(p) => p.record(&rec, &mut out),
        }
        for kernel in out.ready.drain(..) {
            on_kernel(kernel);
        }
        for block in out.ready_blocks.drain(..) {
            on_block(block);
        }
    }
    table.finish(&mut out);
    for block in out.ready_blocks.drain(..) {
        on_block(block);
    }
    if out.is_streaming() {
        out.flush();
        for kernel in out.ready.drain(..) {
            on_kernel(kernel);
        }
    }
    if out.forms.is_empty() {
        if first_error.is_none() && is_source_page_without_lineinfo(&out) {
            // ncu's source page of a binary built without -lineinfo: its
            // warnings and no table. The page is empty, not wrong.
            out.saw(Form::Source);
        } else {
            return Err(no_csv(&out.path, first_error));
        }
    }
    Ok(out)
}

/// Whether a file with no table holds ncu's "No lineinfo available"
/// warnings: what `--page source` prints for a binary without `-lineinfo`.
fn is_source_page_without_lineinfo(out: &FileImport) -> bool {
    !crate::model::InputFile::kernels_without_lineinfo(&out.messages).is_empty()
}

/// A row the file ends in the middle of: its result is left out, since what
/// was cut is unknown, and a warning says so.
fn drop_cut_row<R: BufRead>(rec: &Records<R>, out: &mut FileImport) {
    let id = rec.field(0).trim().parse::<u64>().ok();
    if let Some(id) = id {
        out.remove_result(id);
    }
    let dropped = id.map_or(String::new(), |id| format!("; result {id} is left out"));
    let origin = crate::model::Origin {
        file: out.file,
        line: rec.line(),
        column: 1,
    };
    out.warn(
        format!("the file ends in the middle of a row: it looks cut short{dropped}"),
        origin,
    );
}

/// Keeps `==PROF==`, `==WARNING==` and `==ERROR==` lines; skips program output.
fn note_text_line<R: BufRead>(
    rec: &Records<R>,
    out: &mut FileImport,
    first_error: &mut Option<(String, u64, u64)>,
) {
    let text = rec.text().trim_end();
    let Some(rest) = text.strip_prefix("==") else {
        return;
    };
    let Some((level, _)) = rest.split_once("==") else {
        return;
    };
    if !matches!(level, "PROF" | "WARNING" | "ERROR") {
        return;
    }
    if level == "ERROR" && first_error.is_none() {
        *first_error = Some((text.to_owned(), rec.line(), rec.offset()));
    }
    out.messages.push(ProfilerMessage {
        level: level.to_owned(),
        text: text.to_owned(),
        line: rec.line(),
    });
}

fn no_csv(path: &str, first_error: Option<(String, u64, u64)>) -> IngestError {
    match first_error {
        Some((text, line, offset)) => {
            let snippet = Snippet::new(path, text.clone(), offset, line);
            let at = snippet.span(0, text.len());
            IngestError::NoCsv {
                path: path.to_owned(),
                found: Some(text),
                snippet: Some(snippet),
                at: Some(at),
            }
        }
        None => IngestError::NoCsv {
            path: path.to_owned(),
            found: None,
            snippet: None,
            at: None,
        },
    }
}
