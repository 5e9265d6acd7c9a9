//! Text for people, rendered with miette: findings grouped by kernel, worst
//! kernel first; a line-level finding shows its CUDA line (from the `.cu`
//! file or the export's own source text) with a label, or the SASS
//! instruction where there is no line information; a kernel-level finding
//! shows the values that decided it and the export row. Each carries the
//! rule's fix. A summary line closes the report, and the skipped rules in a
//! few lines: what the report holds, what they need, how to collect it.

use std::fmt::{self, Write as _};
use std::io;

use indexmap::IndexMap;
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, Severity as MietteSeverity,
    SourceCode,
};

use super::{Context, Emitter, format_number, summary_line};
use crate::coverage::{Coverage, skip_lines};
use crate::cuda_source::CudaSource;
use crate::diff::DiffResult;
use crate::ingest::Snippet;
use crate::model::Report;
use crate::rules::{Finding, Location, Severity};

/// How the report is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Use colour.
    pub color: bool,
    /// Wrap at this width.
    pub width: usize,
    /// Say what the report holds, and what each skipped rule missed.
    pub verbose: bool,
}

impl Default for Style {
    /// No colour, 100 columns: what logs and snapshots want.
    fn default() -> Self {
        Style {
            color: false,
            width: 100,
            verbose: false,
        }
    }
}

/// Text for people, drawn in `style`.
pub struct Human {
    /// How it is drawn.
    pub style: Style,
}

impl Emitter for Human {
    fn emit(&self, context: &Context<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        out.write_all(render(context, self.style).as_bytes())
    }

    fn emit_diff(&self, diff: &DiffResult, out: &mut dyn io::Write) -> io::Result<()> {
        out.write_all(render_diff(diff).as_bytes())
    }
}

/// Renders a check.
pub fn render(context: &Context<'_>, style: Style) -> String {
    let (report, result) = (context.report, context.result);
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_wrap_lines(false)
        .with_context_lines(1);
    let mut by_kernel: IndexMap<usize, Vec<&Finding>> = IndexMap::new();
    for finding in &result.findings {
        by_kernel.entry(finding.kernel).or_default().push(finding);
    }
    let mut kernels: Vec<(usize, Vec<&Finding>)> = by_kernel.into_iter().collect();
    kernels.sort_by(|(a, fa), (b, fb)| {
        let worst = |f: &[&Finding]| f.iter().map(|x| x.severity).max();
        worst(fb)
            .cmp(&worst(fa))
            .then(fb.len().cmp(&fa.len()))
            .then(a.cmp(b))
    });
    let mut out = String::new();
    for (_, mut findings) in kernels {
        let first = findings[0];
        let id = first
            .kernel_id
            .map_or_else(|| "result ?".to_owned(), |id| format!("result {id}"));
        let _ = writeln!(out, "── {} [{id}]", first.kernel_name);
        findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
        for finding in findings {
            let help = context.rule(&finding.rule).map(|r| r.rule.docs.fix.clone());
            let diagnostic = FindingDiagnostic::new(report, finding, help, context.cuda);
            let _ = handler.render_report(&mut out, &diagnostic);
        }
    }
    let coverage = Coverage::of(report, context.rules, result);
    let _ = writeln!(out, "{}", summary_line(result));
    if style.verbose && result.skipped.is_empty() {
        let _ = writeln!(out, "  the report holds: {}", coverage.describe());
    }
    for line in skip_lines(&coverage, result, style.verbose) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// One finding as a miette diagnostic.
#[derive(Debug)]
struct FindingDiagnostic {
    message: String,
    code: String,
    severity: Severity,
    help: Option<String>,
    snippet: Option<Snippet>,
    label: Option<(usize, usize, String)>,
    footer: String,
}

impl FindingDiagnostic {
    fn new(
        report: &Report,
        finding: &Finding,
        help: Option<String>,
        sources: &CudaSource<'_>,
    ) -> Self {
        let mut diagnostic = FindingDiagnostic {
            message: finding.message.clone(),
            code: finding.rule.clone(),
            severity: finding.severity,
            help,
            snippet: None,
            label: None,
            footer: String::new(),
        };
        let instruction = finding
            .instruction
            .as_ref()
            .map(|i| format!("{} at {}", i.sass, i.address));
        match &finding.location {
            Some(location) => diagnostic.at_line(location, instruction, sources),
            None => diagnostic.at_kernel(report, finding, instruction),
        }
        diagnostic
    }

    /// The CUDA line with the worst instruction as its label; where the
    /// text is not at hand, the place in the footer.
    fn at_line(
        &mut self,
        location: &Location,
        instruction: Option<String>,
        sources: &CudaSource<'_>,
    ) {
        let Some(text) = sources.line(&location.file, location.line) else {
            let instruction = instruction.map(|i| format!(" ({i})")).unwrap_or_default();
            self.footer = format!("at {}:{}{instruction}", location.file, location.line);
            return;
        };
        let start = text.len() - text.trim_start().len();
        let label = instruction.unwrap_or_else(|| "here".to_owned());
        self.label = Some((start, text.trim().len().max(1), label));
        self.snippet = Some(Snippet::new(
            location.file.clone(),
            text,
            0,
            u64::from(location.line),
        ));
    }

    /// The values that decided a kernel-level finding and the export row.
    fn at_kernel(&mut self, report: &Report, finding: &Finding, instruction: Option<String>) {
        let values: Vec<String> = finding
            .values
            .iter()
            .filter_map(|(k, v)| v.map(|v| format!("{k} = {}", format_number(v))))
            .collect();
        let export = report.export_path(&finding.origin);
        self.footer = format!(
            "decided by {}\nread from {export}:{}",
            values.join(", "),
            finding.origin.line
        );
        if let Some(i) = instruction {
            self.footer.push_str(&format!("\nworst instruction: {i}"));
        }
    }
}

impl fmt::Display for FindingDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.footer.is_empty() {
            write!(f, "\n{}", self.footer)?;
        }
        Ok(())
    }
}

impl std::error::Error for FindingDiagnostic {}

impl Diagnostic for FindingDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<MietteSeverity> {
        Some(self.severity.into())
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.snippet.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (start, len, label) = self.label.as_ref()?;
        let snippet = self.snippet.as_ref()?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(label.clone()), snippet.span(*start, *len)),
        )))
    }
}

/// A diff as text: per kernel the new and fixed findings and the quantities
/// that moved, then the kernels in one profile only and a count.
fn render_diff(result: &DiffResult) -> String {
    let mut out = String::new();
    for k in &result.kernels {
        let _ = writeln!(out, "{}", k.title());
        for f in &k.new {
            let _ = writeln!(
                out,
                "  new      {}[{}] at {}: {}",
                f.severity.name(),
                f.rule,
                f.place(),
                f.message
            );
        }
        for f in &k.fixed {
            let _ = writeln!(
                out,
                "  fixed    {}[{}] at {}",
                f.severity.name(),
                f.rule,
                f.place()
            );
        }
        for c in &k.changes {
            let what = if c.regression { "worse" } else { "better" };
            let _ = writeln!(
                out,
                "  {what:<8} {} {}: {} -> {}",
                c.rule,
                c.quantity,
                format_number(c.base),
                format_number(c.head)
            );
        }
    }
    for name in &result.only_base {
        let _ = writeln!(out, "only in base: {name}");
    }
    for name in &result.only_head {
        let _ = writeln!(out, "only in head: {name}");
    }
    let new: usize = result.kernels.iter().map(|k| k.new.len()).sum();
    let fixed: usize = result.kernels.iter().map(|k| k.fixed.len()).sum();
    let worse = result
        .kernels
        .iter()
        .flat_map(|k| &k.changes)
        .filter(|c| c.regression)
        .count();
    let _ = writeln!(
        out,
        "{new} new findings, {fixed} fixed, {worse} regressions in {} kernels",
        result.kernels.len()
    );
    out
}
