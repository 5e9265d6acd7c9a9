//! A Markdown summary for pull-request comments: counts, the places worth
//! fixing ranked by estimated time saved, and the rules skipped.

use std::fmt::Write as _;
use std::io;

use super::units::{duration, share};
use super::{Context, Emitter, count_by_severity, format_number};
use crate::diff::DiffResult;
use crate::rules::CheckResult;
use crate::timing::{Timing, words};
use crate::triage::{Group, groups};

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

/// The Markdown summary of a check: the places worth fixing, ranked, then
/// a count of the notes and the rules skipped.
pub fn render(result: &CheckResult) -> String {
    let (errors, warnings, notes) = count_by_severity(result);
    let mut out = String::from("## ncu-lint\n\n");
    let _ = writeln!(
        out,
        "{} kernels checked: **{errors}** errors, **{warnings}** warnings, **{notes}** notes; {} rules skipped.\n",
        result.kernels,
        result.skipped.len()
    );
    let groups = groups(result);
    let (shown, notes): (Vec<&Group>, Vec<&Group>) = groups.iter().partition(|g| !g.is_note());
    if !shown.is_empty() {
        out.push_str(&groups_table(result, &shown));
    }
    if !notes.is_empty() {
        let count: usize = notes.iter().map(|g| g.findings.len()).sum();
        let _ = writeln!(
            out,
            "{count} note(s) in {} place(s): under their rule's worth-it threshold, or informational.\n",
            notes.len()
        );
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
/// One row per place, ranked by the time a fix is estimated to save.
fn groups_table(result: &CheckResult, groups: &[&Group]) -> String {
    let mut out = String::from(
        "| # | est. saved | of profile | kernel | where | launches | rules | finding |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let profile_ns = result.profile_ns();
    for (rank, g) in groups.iter().enumerate() {
        let place = match &g.location {
            Some(l) => format!("`{}:{}`", cell(&l.file), l.line),
            None => "kernel".to_owned(),
        };
        let worst = g.worst_findings(result);
        let message = worst
            .iter()
            .max_by_key(|f| f.severity)
            .map_or("", |f| f.message.as_str());
        let _ = writeln!(
            out,
            "| {} | {} | {} | `{}` | {place} | {} | {} | {} |",
            rank + 1,
            g.saved_ns.map_or("-".to_owned(), duration),
            share(g.saved_ns, profile_ns).unwrap_or_else(|| "-".to_owned()),
            cell(&g.kernel),
            g.launches,
            g.rules
                .iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", "),
            cell(message)
        );
    }
    out.push('\n');
    out
}

/// Each kernel's time in both profiles, as a table, and the sentences on
/// the conditions and the totals.
fn render_timing(timing: &Timing) -> String {
    let mut out = String::from(
        "| kernel | launches | base | head | saved | estimated | agrees |\n| --- | ---: | ---: | ---: | --- | ---: | --- |\n",
    );
    for k in &timing.kernels {
        let (estimated, agrees) = words::estimate(k);
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {estimated} | {agrees} |",
            cell(&k.kernel),
            words::launches(k),
            words::total(k.base.as_ref()),
            words::total(k.head.as_ref()),
            words::saved(k)
        );
    }
    out.push('\n');
    for k in timing
        .kernels
        .iter()
        .filter(|k| !k.launch_changes.is_empty())
    {
        let _ = writeln!(
            out,
            "- `{}`: {}",
            cell(&k.kernel),
            k.launch_changes.join(", ")
        );
    }
    for k in &timing.kernels {
        if let Some(sentence) = words::shortfall(k) {
            let _ = writeln!(out, "- `{}`: {sentence}", cell(&k.kernel));
        }
    }
    for sentence in words::conditions(timing)
        .into_iter()
        .chain(words::summary(timing))
    {
        let _ = writeln!(out, "- {sentence}");
    }
    out.push('\n');
    out
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// A diff as Markdown for a pull-request comment: the time each kernel
/// took before and after, beside what its fixes were estimated to save,
/// then the findings that changed.
fn render_diff(result: &DiffResult) -> String {
    let mut out = String::from("## ncu-lint diff\n\n");
    if let Some(timing) = &result.timing {
        out.push_str(&render_timing(timing));
    }
    if result.kernels.is_empty() && result.groups.is_empty() {
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
    for g in &result.groups {
        let place = g.location.as_ref().map_or("kernel".to_owned(), |l| {
            format!("`{}:{}`", cell(&l.file), l.line)
        });
        let what = if g.regression { "worse" } else { "better" };
        let _ = writeln!(
            out,
            "| `{}` at {place} | {what} | est. time to gain | {} → {} |",
            cell(&g.kernel),
            duration(g.base_ns),
            duration(g.head_ns)
        );
    }
    out
}
