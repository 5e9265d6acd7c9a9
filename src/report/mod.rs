//! Rendering a lint: one [`Emitter`] per format — text for people
//! ([`human`]), JSON ([`json`]), SARIF ([`sarif`]), GitHub workflow
//! annotations ([`github`]), JUnit XML ([`junit`]), a Markdown summary
//! ([`markdown`]) and a self-contained HTML page ([`html`]) — each writing
//! from one shared [`Context`]. The formats
//! that compare profiles (human, JSON, Markdown) also render a diff.

pub mod github;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
mod overlap;
pub mod sarif;
pub mod units;

use std::io::{self, Write};

use crate::cuda_source::CudaSource;
use crate::diff::DiffResult;
use crate::lint::Linted;
use crate::model::{Report, kernel_name};
use crate::rules::{ActiveRule, CheckResult, FailOn, Finding, Place, Severity};

/// What every format renders from: the report, its findings, the rules in
/// effect, the CUDA text and the failing severity.
pub struct Context<'a> {
    /// The report as imported.
    pub report: &'a Report,
    /// Its findings, skips and measures.
    pub result: &'a CheckResult,
    /// The rules in effect.
    pub rules: &'a [ActiveRule],
    /// The CUDA text of the findings' lines.
    pub cuda: &'a CudaSource<'a>,
    /// The severity that fails the run.
    pub fail_on: FailOn,
}

impl<'a> Context<'a> {
    /// The context of a lint.
    pub fn new(
        linted: &'a Linted,
        cuda: &'a CudaSource<'a>,
        rules: &'a [ActiveRule],
        fail_on: FailOn,
    ) -> Context<'a> {
        Context {
            report: &linted.report,
            result: &linted.result,
            rules,
            cuda,
            fail_on,
        }
    }

    /// The rule in effect with this id.
    pub fn rule(&self, id: &str) -> Option<&'a ActiveRule> {
        self.rules.iter().find(|r| r.rule.id == id)
    }

    /// Where a finding is shown in a file: its CUDA line, else the export
    /// row its kernel was read from.
    pub fn anchor(&self, finding: &'a Finding) -> (&'a str, u64) {
        match finding.place() {
            Place::Line(location) => (&location.file, u64::from(location.line)),
            _ => (
                self.report.export_path(&finding.origin),
                finding.origin.line.max(1),
            ),
        }
    }

    /// Whether any finding fails the run.
    pub fn failed(&self) -> bool {
        self.result
            .findings
            .iter()
            .any(|f| self.fail_on.fails(f.severity))
    }
}

/// An output format.
pub trait Emitter {
    /// Writes a lint's findings.
    fn emit(&self, context: &Context<'_>, out: &mut dyn Write) -> io::Result<()>;

    /// Writes a comparison of two profiles; formats without one refuse.
    fn emit_diff(&self, diff: &DiffResult, out: &mut dyn Write) -> io::Result<()> {
        let _ = (diff, out);
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "this format has no diff form",
        ))
    }
}

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Text for people.
    Human,
    /// The stable JSON document.
    Json,
    /// SARIF 2.1.0.
    Sarif,
    /// GitHub workflow annotations.
    Github,
    /// JUnit XML.
    Junit,
    /// A Markdown summary.
    Markdown,
    /// One self-contained HTML page: ranked places, charts, CUDA lines.
    Html,
}

impl Format {
    /// The emitter of this format; `style` applies to human output.
    pub fn emitter(self, style: human::Style) -> Box<dyn Emitter> {
        match self {
            Format::Human => Box::new(human::Human { style }),
            Format::Json => Box::new(json::Json),
            Format::Sarif => Box::new(sarif::Sarif),
            Format::Github => Box::new(github::Github),
            Format::Junit => Box::new(junit::Junit),
            Format::Markdown => Box::new(markdown::Markdown),
            Format::Html => Box::new(html::Html),
        }
    }
}

/// Findings counted by severity: (errors, warnings, notes).
pub fn count_by_severity(result: &CheckResult) -> (usize, usize, usize) {
    let count = |s: Severity| result.findings.iter().filter(|f| f.severity == s).count();
    (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Note),
    )
}

/// The one-line summary every format ends with.
pub fn summary_line(result: &CheckResult) -> String {
    let (errors, warnings, notes) = count_by_severity(result);
    format!(
        "{} kernels, {} findings ({errors} errors, {warnings} warnings, {notes} notes), {} rules skipped",
        result.kernels,
        result.findings.len(),
        result.skipped.len()
    )
}

/// Text safe in XML and HTML content and attribute values; control
/// characters XML cannot hold are dropped.
pub(crate) fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// A number as messages print it.
pub(crate) fn format_number(value: f64) -> String {
    crate::rules::template::format_number(value, crate::rules::template::Format::Auto)
}

/// A finding's identity, stable across re-profiling and reordering: its
/// rule, the kernel's normalised name and its place (CUDA line or SASS
/// offset), never a measured value or a result ID.
pub fn identity(finding: &Finding) -> String {
    format!(
        "{}|{}|{}",
        finding.rule,
        kernel_name::normalize(&finding.kernel_name),
        finding.place()
    )
}

/// A short stable hash of [`identity`], for SARIF fingerprints.
///
/// FNV-1a, written here because std's hasher is not stable across Rust
/// releases and a fingerprint must be.
pub fn fingerprint(finding: &Finding) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in identity(finding).bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}
