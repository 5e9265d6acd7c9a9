//! A Markdown summary for pull-request comments: counts, a table of
//! findings (worst first) and the rules skipped.

use std::fmt::Write as _;
use std::io;

use super::{Context, Emitter, count_by_severity, format_number};
use crate::diff::DiffResult;
use crate::rules::{CheckResult, Place};

/// A Markdown summary.
pub struct Markdown;

impl Emitter for Markdown {
    fn emit(&self, context: &Context<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        out.write_all(render(context.result).as_bytes())
    }

    fn emit_diff(&self, diff: &DiffResult, out: &mut dyn io::Write) -> io::Result<()> {
        out.write_all(render_diff(diff).as_bytes())
    }
}

/// The Markdown summary of a check.
pub fn render(result: &CheckResult) -> String {
    let (errors, warnings, notes) = count_by_severity(result);
    let mut out = String::from("## ncu-lint\n\n");
    let _ = writeln!(
        out,
        "{} kernels checked: **{errors}** errors, **{warnings}** warnings, **{notes}** notes; {} rules skipped.\n",
        result.kernels,
        result.skipped.len()
    );
    if !result.findings.is_empty() {
        out.push_str(
            "| severity | rule | kernel | where | finding |\n| --- | --- | --- | --- | --- |\n",
        );
        let mut findings: Vec<_> = result.findings.iter().collect();
        findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
        for f in findings {
            let kernel = match f.kernel_id {
                Some(id) => format!("`{}` (result {id})", cell(&f.kernel_name)),
                None => format!("`{}`", cell(&f.kernel_name)),
            };
            let place = match f.place() {
                Place::Line(l) => format!("`{}:{}`", cell(&l.file), l.line),
                _ => "kernel".to_owned(),
            };
            let _ = writeln!(
                out,
                "| {} | `{}` | {kernel} | {place} | {} |",
                f.severity.name(),
                f.rule,
                cell(&f.message)
            );
        }
        out.push('\n');
    }
    if !result.skipped.is_empty() {
        out.push_str("<details><summary>Rules skipped for lack of data</summary>\n\n");
        for skip in &result.skipped {
            let _ = writeln!(
                out,
                "- `{}` for {} kernel(s): missing {}. {}",
                skip.rule,
                skip.kernels,
                cell(&skip.missing.join(", ")),
                cell(&skip.hint)
            );
        }
        out.push_str("\n</details>\n");
    }
    out
}

/// Text safe inside a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// A diff as Markdown for a pull-request comment.
fn render_diff(result: &DiffResult) -> String {
    let mut out = String::from("## ncu-lint diff\n\n");
    if result.kernels.is_empty() {
        out.push_str("No new findings and no regressions.\n");
        return out;
    }
    out.push_str("| kernel | change | rule | detail |\n| --- | --- | --- | --- |\n");
    for k in &result.kernels {
        let name = format!("`{}` #{}", k.name.replace('|', "\\|"), k.launch + 1);
        for f in &k.new {
            let _ = writeln!(
                out,
                "| {name} | new {} | `{}` | {} |",
                f.severity.name(),
                f.rule,
                f.message.replace('|', "\\|")
            );
        }
        for f in &k.fixed {
            let _ = writeln!(out, "| {name} | fixed | `{}` | at {} |", f.rule, f.place());
        }
        for c in &k.changes {
            let what = if c.regression { "worse" } else { "better" };
            let _ = writeln!(
                out,
                "| {name} | {what} | `{}` | {}: {} → {} |",
                c.rule,
                c.quantity,
                format_number(c.base),
                format_number(c.head)
            );
        }
    }
    out
}
