//! Text for people: triage first. A table ranks the places where findings
//! are (a kernel at a CUDA line, or the kernel as a whole) by the time a fix
//! is estimated to save across the profile; then each place once, its
//! findings on the launch worth the most drawn with miette (the CUDA line or
//! the values that decided it, and the rule's fix), its other launches
//! folded into one line. Notes (under the worth-it threshold, or
//! informational) are counted in one line unless `--all` asks for them. A
//! summary line closes the report, and the skipped rules in a few lines.

mod diagnostic;
mod diff;
mod table;

use std::fmt::Write as _;
use std::io;

use miette::{GraphicalReportHandler, GraphicalTheme};

use super::{Context, Emitter, overlap, summary_line, units};
use crate::coverage::{Coverage, skip_lines};
use crate::diff::DiffResult;
use crate::triage::{Group, GroupCeiling, groups};
use diagnostic::FindingDiagnostic;

/// How the report is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Use colour.
    pub color: bool,
    /// Wrap at this width.
    pub width: usize,
    /// Say what the report holds, and what each skipped rule missed.
    pub verbose: bool,
    /// Show notes in full, not only their count.
    pub all: bool,
    /// Show kernels' full names, not their short ones.
    pub full_names: bool,
}

impl Default for Style {
    /// No colour, 100 columns: what logs and snapshots want.
    fn default() -> Self {
        Style {
            color: false,
            width: 100,
            verbose: false,
            all: false,
            full_names: false,
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
        out.write_all(diff::render_diff(diff).as_bytes())
    }
}

/// Renders a check.
pub fn render(context: &Context<'_>, style: Style) -> String {
    let result = context.result;
    let all_groups = groups(result);
    // Library notes worth their rules' threshold rank with the rest,
    // labelled: where the time goes, whether or not it fails the gate.
    let (shown, hidden): (Vec<&Group>, Vec<&Group>) = all_groups
        .iter()
        .partition(|g| style.all || !g.is_note() || g.library_note);
    let mut out = String::new();
    if !shown.is_empty() {
        out.push_str(&table::render(&shown, result.profile_ns(), style));
        out.push('\n');
    }
    if let Some(line) = ceiling_line(&shown) {
        let _ = writeln!(out, "{line}\n");
    }
    let handler = handler(style);
    for (rank, group) in shown.iter().enumerate() {
        group_details(&mut out, context, &handler, rank + 1, group, style);
    }
    let coverage = Coverage::of(context.report, context.rules, result);
    let _ = writeln!(out, "{}", summary_line(result));
    if !hidden.is_empty() {
        let notes: usize = hidden.iter().map(|g| g.findings.len()).sum();
        let _ = writeln!(
            out,
            "{notes} note(s) in {} place(s) not shown: under their rule's worth-it threshold (min_speedup) or informational; --all shows them",
            hidden.len()
        );
    }
    if style.verbose && result.skipped.is_empty() {
        let _ = writeln!(out, "  the report holds: {}", coverage.describe());
    }
    for line in skip_lines(&coverage, result, style.verbose) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The places whose estimate is under their worth threshold but whose most
/// (where the L1 does not catch what it caught as profiled) is over it:
/// they fail the gate by that most, and the table ranks them by the first.
fn ceiling_line(shown: &[&Group]) -> Option<String> {
    let held: Vec<(usize, &GroupCeiling)> = shown
        .iter()
        .enumerate()
        .filter(|(_, g)| !g.is_note())
        .filter_map(|(i, g)| Some((i + 1, g.ceiling.as_ref()?)))
        .collect();
    let (_, first) = held.first()?;
    let ranks: Vec<String> = held.iter().map(|(rank, _)| format!("#{rank}")).collect();
    let most: Vec<String> = held
        .iter()
        .map(|(_, c)| units::duration(c.saved_ns))
        .collect();
    let (rank, fail) = if held.len() == 1 {
        ("ranks", "fails")
    } else {
        ("rank", "fail")
    };
    Some(format!(
        "{} {rank} by what a fix saves as profiled and {fail} the gate by what it saves {}: up to {}",
        ranks.join(", "),
        first.when,
        most.join(", ")
    ))
}

fn handler(style: Style) -> GraphicalReportHandler {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_wrap_lines(false)
        .with_context_lines(1)
}

/// One place: a header, the findings of its worst launch, and the other
/// launches in one line.
fn group_details(
    out: &mut String,
    context: &Context<'_>,
    handler: &GraphicalReportHandler,
    rank: usize,
    group: &Group,
    style: Style,
) {
    let mut findings = group.worst_findings(context.result);
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let id = findings[0]
        .kernel_id
        .map_or_else(|| "result ?".to_owned(), |id| format!("result {id}"));
    let name = if style.full_names {
        &group.name
    } else {
        &group.kernel
    };
    let worth = table::worth(group, context.result.profile_ns())
        .map(|w| format!(" · est. {w}"))
        .unwrap_or_default();
    let _ = writeln!(out, "── {rank}. {name} [{id}]{worth}");
    if let Some(overlap) = overlap::sentence(context.result, findings[0].kernel) {
        let _ = writeln!(out, "  {overlap}");
    }
    let kernel = context.report.kernels.get(findings[0].kernel);
    if let Some(provenance) = kernel.and_then(|k| context.cuda.inductor(k)) {
        let _ = writeln!(
            out,
            "  Inductor fused: {} ({})",
            provenance.source_nodes.join(", "),
            provenance.aten.join(", ")
        );
    }
    for finding in findings {
        let rule = context.rule(&finding.rule);
        let diagnostic = FindingDiagnostic::new(context.report, finding, rule, context.cuda);
        let _ = handler.render_report(out, &diagnostic);
    }
    if group.launches > 1 {
        let _ = writeln!(
            out,
            "  {} launches, same finding; worst: {id}",
            group.launches
        );
    }
}
