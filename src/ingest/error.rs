//! Import errors, as miette diagnostics that name the file, line and column.
//!
//! The importer streams and never holds a whole file, so a diagnostic carries
//! only the offending line as a [`Snippet`], which still renders with the
//! file's real line numbers.

use miette::{Diagnostic, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// The offending line(s) of an input file, positioned where they sit in it.
#[derive(Debug, Clone)]
pub struct Snippet {
    name: String,
    text: String,
    /// Byte offset of `text` in the file.
    offset: usize,
    /// 0-based line number of `text`'s first line.
    line: usize,
}

impl Snippet {
    /// A snippet of `text` found at byte `offset`, starting on 1-based `line`.
    pub fn new(name: impl Into<String>, text: impl Into<String>, offset: u64, line: u64) -> Self {
        Snippet {
            name: name.into(),
            text: text.into(),
            offset: offset as usize,
            line: line.saturating_sub(1) as usize,
        }
    }

    /// The span of bytes `start..start + len` of the snippet, in file offsets.
    pub fn span(&self, start: usize, len: usize) -> SourceSpan {
        let start = start.min(self.text.len());
        let len = len
            .min(self.text.len() - start)
            .max(usize::from(self.text.is_empty()));
        SourceSpan::new((self.offset + start).into(), len)
    }
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, miette::MietteError> {
        let local = SourceSpan::new(span.offset().saturating_sub(self.offset).into(), span.len());
        let inner = self
            .text
            .read_span(&local, context_lines_before, context_lines_after)?;
        let start = inner.span().offset();
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            SourceSpan::new((self.offset + start).into(), inner.span().len()),
            self.line + inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// Why an export could not be imported.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[non_exhaustive]
pub enum IngestError {
    /// The file could not be opened or read (the reason is said once, in
    /// the message).
    #[error("cannot read {path}: {reason}")]
    #[diagnostic(code(ncu_lint::ingest::io))]
    Io {
        /// The file.
        path: String,
        /// The operating system's reason.
        reason: std::io::Error,
    },

    /// The file holds no bytes at all.
    #[error("{path} is empty (0 bytes)")]
    #[diagnostic(
        code(ncu_lint::ingest::empty),
        help("a copy or download that did not finish? Export or copy the report again")
    )]
    Empty {
        /// The file.
        path: String,
    },

    /// The file holds no CSV table of any `ncu --csv` form.
    #[error("{path}: no Nsight Compute CSV export found{}", found.as_ref().map(|l| format!("; the profiler reported: {l}")).unwrap_or_default())]
    #[diagnostic(
        code(ncu_lint::ingest::no_csv),
        help(
            "a CSV export starts with a header row such as \"ID\",\"Process ID\",...; export one with `ncu -i report.ncu-rep --csv --page raw > raw.csv`"
        )
    )]
    NoCsv {
        /// The file.
        path: String,
        /// The first `==ERROR==` line, if the profiler printed one.
        found: Option<String>,
        /// That line.
        #[source_code]
        snippet: Option<Snippet>,
        /// Its span.
        #[label("the profiler's error")]
        at: Option<SourceSpan>,
    },

    /// The file is not UTF-8 text.
    #[error("{path}:{line}:{column}: {what}")]
    #[diagnostic(
        code(ncu_lint::ingest::encoding),
        help(
            "ncu writes UTF-8 CSV; re-export the report, or convert the file with `iconv -t UTF-8`"
        )
    )]
    Encoding {
        /// The file.
        path: String,
        /// What the file looks like.
        what: String,
        /// 1-based line.
        line: u64,
        /// 1-based byte column.
        column: u64,
    },

    /// A cell does not hold what its column requires.
    #[error("{path}:{line}:{column}: {column_name} should be {expected}, found `{found}`")]
    #[diagnostic(code(ncu_lint::ingest::bad_field))]
    BadField {
        /// The file.
        path: String,
        /// 1-based line.
        line: u64,
        /// 1-based byte column.
        column: u64,
        /// The column's header.
        column_name: String,
        /// What was expected.
        expected: &'static str,
        /// The cell as found.
        found: String,
        /// The row.
        #[source_code]
        snippet: Snippet,
        /// The cell.
        #[label("expected {expected}")]
        at: SourceSpan,
    },

    /// A record runs past the size limit (an unclosed quote, or not CSV).
    #[error("{path}:{line}: a CSV record runs past {limit} bytes")]
    #[diagnostic(
        code(ncu_lint::ingest::record_too_long),
        help(
            "a quoted field that never closes makes the rest of the file one record; check the file was not cut or edited"
        )
    )]
    RecordTooLong {
        /// The file.
        path: String,
        /// 1-based line where the record starts.
        line: u64,
        /// The limit in bytes.
        limit: usize,
    },

    /// The input reached one of the limits that bound hostile input.
    #[error("{path}:{line}: more {what} than the limit of {limit}")]
    #[diagnostic(
        code(ncu_lint::ingest::limit),
        help("Nsight Compute never writes this much; the file is damaged or not an ncu export")
    )]
    LimitExceeded {
        /// The file.
        path: String,
        /// 1-based line.
        line: u64,
        /// What was counted.
        what: String,
        /// The limit.
        limit: usize,
    },

    /// A command that produces an export (`ncu -i ...`) failed.
    #[error("`{command}` failed: {reason}")]
    #[diagnostic(code(ncu_lint::ingest::command))]
    Command {
        /// The command line.
        command: String,
        /// Its exit status and last error lines.
        reason: String,
    },

    /// Two files claim different kernels for one result ID.
    #[error("{path}: result {id} is `{name}` here but `{other_name}` in {other_path}")]
    #[diagnostic(
        code(ncu_lint::ingest::different_reports),
        help(
            "files given together must be exports of one report; lint exports of different reports in separate runs"
        )
    )]
    DifferentReports {
        /// The later file.
        path: String,
        /// The result ID.
        id: u64,
        /// Its name in the later file.
        name: String,
        /// The earlier file.
        other_path: String,
        /// Its name there.
        other_name: String,
    },

    /// An `.ncu-rep` report that cannot be read: truncated, corrupt, or of
    /// a container version this reader does not know.
    #[error("{path}: {message} (at byte {offset})")]
    #[diagnostic(
        code(ncu_lint::ingest::report),
        help(
            "an .ncu-rep is Nsight Compute's protobuf container; a truncated download or a partial copy is read up to where it breaks. With ncu installed, --ncu-export reads it through `ncu -i` instead"
        )
    )]
    Report {
        /// The report.
        path: String,
        /// What is wrong.
        message: String,
        /// Where, in bytes from the start (of the decompressed stream).
        offset: u64,
    },
}
