//! `diff --format html`: what changed between two profiles, as a page for a
//! pull request's artifacts: the places whose estimated time to gain moved,
//! then per kernel its new and fixed findings (with their fixes) and the
//! deciding quantities that moved, regressions marked.

use std::fmt::Write as _;

use super::chart::{self, Bar};
use super::{PAGE_END, escape, file_name, page_start};
use crate::diff::{DiffResult, GroupChange, KernelDiff};
use crate::report::format_number;
use crate::report::units::duration;
use crate::timing::{Timing, words};

/// The whole page.
pub fn render(diff: &DiffResult) -> String {
    let tally = diff.tally();
    let (new, fixed) = (tally.new, tally.fixed);
    let worse = tally.worse_quantities + tally.worse_places;
    let mut out = page_start(&format!("ncu-lint diff: {new} new, {worse} worse"));
    let _ = writeln!(
        out,
        "<header>\n<h1>ncu-lint diff</h1>\n<p class=\"summary\">{} kernel(s) changed: \
         <span id=\"new-count\">{new}</span> new finding(s), <span id=\"fixed-count\">{fixed}</span> fixed, \
         <span id=\"worse-count\">{worse}</span> regression(s)</p>\n</header>",
        diff.kernels.len()
    );
    if let Some(timing) = &diff.timing {
        out.push_str(&timing_section(timing));
    }
    if diff.kernels.is_empty() && diff.groups.is_empty() {
        out.push_str("<p id=\"no-change\">No new findings and no regressions.</p>\n");
    }
    if !diff.groups.is_empty() {
        out.push_str(&places(&diff.groups));
    }
    for kernel in &diff.kernels {
        out.push_str(&kernel_changes(kernel));
    }
    for (id, title, names) in [
        (
            "only-base",
            "Kernels only in the base profile",
            &diff.only_base,
        ),
        (
            "only-head",
            "Kernels only in the new profile",
            &diff.only_head,
        ),
    ] {
        if names.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<section id=\"{id}\">\n<h2>{title}</h2>\n<ul>");
        for name in names {
            let _ = writeln!(out, "<li class=\"kernel\">{}</li>", escape(name));
        }
        out.push_str("</ul>\n</section>\n");
    }
    out.push_str(PAGE_END);
    out
}

/// Each kernel's time before and after: a chart of both, a table with the
/// estimates beside the time saved, the conditions and the totals.
fn timing_section(timing: &Timing) -> String {
    let mut bars = Vec::new();
    for k in &timing.kernels {
        for (side, launches) in [("base", &k.base), ("head", &k.head)] {
            let Some(ns) = launches.as_ref().and_then(|l| l.total_ns) else {
                continue;
            };
            bars.push(Bar {
                label: format!("{} · {side}", k.kernel),
                value: ns,
                shown: duration(ns),
                title: format!("{} ({side}): {}", k.name, duration(ns)),
                data: vec![("side", side.to_owned())],
            });
        }
    }
    let mut out = String::from("<section id=\"timing\">\n<h2>Time per kernel</h2>\n");
    out.push_str(&chart::bars(
        "time-chart",
        "Each kernel's time over its launches, before (base) and after (head)",
        &bars,
    ));
    out.push_str(
        "<table id=\"time-table\">\n<thead><tr><th>kernel</th><th>launches</th><th>base</th><th>head</th>\
         <th>saved</th><th>estimated</th><th>agrees</th></tr></thead>\n<tbody>\n",
    );
    for k in &timing.kernels {
        let (estimated, agrees) = words::estimate(k);
        let _ = writeln!(
            out,
            "<tr class=\"{:?}\"><td class=\"kernel\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            k.verdict,
            escape(&k.kernel),
            escape(&words::launches(k)),
            words::total(k.base.as_ref()),
            words::total(k.head.as_ref()),
            escape(&words::saved(k)),
            estimated,
            agrees
        );
    }
    out.push_str("</tbody>\n</table>\n<ul class=\"timing-summary\">\n");
    let launch_changes = timing
        .kernels
        .iter()
        .filter(|k| !k.launch_changes.is_empty())
        .map(|k| format!("{}: {}", k.kernel, k.launch_changes.join(", ")));
    let shortfalls = timing
        .kernels
        .iter()
        .filter_map(|k| Some(format!("{}: {}", k.kernel, words::shortfall(k)?)));
    for sentence in launch_changes
        .chain(shortfalls)
        .chain(words::conditions(timing))
        .chain(words::summary(timing))
    {
        let _ = writeln!(out, "<li>{}</li>", escape(&sentence));
    }
    out.push_str("</ul>\n</section>\n");
    out
}

/// The places whose estimated time to gain moved beyond the tolerance.
fn places(groups: &[GroupChange]) -> String {
    let mut out = String::from(
        "<table id=\"place-changes\">\n<thead><tr><th>kernel</th><th>where</th><th>est. time to gain, base</th>\
         <th>new</th><th>change</th></tr></thead>\n<tbody>\n",
    );
    for g in groups {
        let place = g.location.as_ref().map_or("kernel".to_owned(), |l| {
            format!("{}:{}", file_name(&l.file), l.line)
        });
        let change = g.head_ns - g.base_ns;
        let _ = writeln!(
            out,
            "<tr class=\"{}\"><td class=\"kernel\">{}</td><td><code>{}</code></td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num severity-{}\">{}{} ({})</td></tr>",
            verdict(g.regression),
            escape(&g.kernel),
            escape(&place),
            duration(g.base_ns),
            duration(g.head_ns),
            if g.regression { "error" } else { "note" },
            if change >= 0.0 { "+" } else { "−" },
            duration(change.abs()),
            verdict(g.regression)
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

fn verdict(regression: bool) -> &'static str {
    if regression { "worse" } else { "better" }
}

fn kernel_changes(kernel: &KernelDiff) -> String {
    let mut out = format!(
        "<article class=\"group kernel-change\">\n<h2 class=\"kernel\">{}</h2>\n<ul class=\"findings\">\n",
        escape(&kernel.title())
    );
    for f in &kernel.new {
        let _ = write!(
            out,
            "<li class=\"new\"><span class=\"severity-{}\">new {}</span> <span class=\"rule\">{}</span> at {}: {}",
            f.severity,
            f.severity,
            escape(&f.rule),
            escape(&f.place().to_string()),
            escape(&f.message)
        );
        if let Some(fix) = &f.fix {
            let _ = write!(out, "<div class=\"fix\">{}</div>", escape(fix));
        }
        out.push_str("</li>\n");
    }
    for f in &kernel.fixed {
        let _ = writeln!(
            out,
            "<li class=\"fixed\"><span class=\"severity-note\">fixed</span> <span class=\"rule\">{}</span> at {}</li>",
            escape(&f.rule),
            escape(&f.place().to_string())
        );
    }
    for c in &kernel.changes {
        let _ = writeln!(
            out,
            "<li class=\"{}\"><span class=\"severity-{}\">{}</span> <span class=\"rule\">{}</span> {}: {} → {}</li>",
            verdict(c.regression),
            if c.regression { "error" } else { "note" },
            verdict(c.regression),
            escape(&c.rule),
            escape(&c.quantity),
            format_number(c.base),
            format_number(c.head)
        );
    }
    out.push_str("</ul>\n</article>\n");
    out
}
