//! A self-contained HTML report (`--format html`): one file with its CSS,
//! script and SVG inline, nothing fetched, for a CI artifact a reviewer
//! opens. The places worth fixing, ranked, as a table; bar charts of the
//! estimated time saved per place and per rule; and per place its CUDA
//! lines with the findings and fixes beside them. Rules and kernels can be
//! filtered. `diff --format html` renders a comparison of two profiles
//! the same way ([`diff`]).

mod chart;
mod diff;

use std::fmt::Write as _;
use std::io;

use super::units::{bytes, duration, share};
use super::{Context, Emitter, escape_markup as escape, overlap, summary_line};
use crate::coverage::Coverage;
use crate::diff::DiffResult;
use crate::rules::Finding;
use crate::triage::{Group, groups};
use chart::Bar;

/// Places drawn in the chart of time saved, at most: the first in rank.
pub const MAX_BARS: usize = 20;
/// CUDA lines shown on each side of a finding's line.
const CONTEXT_LINES: u32 = 3;

/// The HTML report.
pub struct Html;

impl Emitter for Html {
    fn emit(&self, context: &Context<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        out.write_all(render(context).as_bytes())
    }

    fn emit_diff(&self, diff: &DiffResult, out: &mut dyn io::Write) -> io::Result<()> {
        out.write_all(diff::render(diff).as_bytes())
    }
}

/// The whole document.
pub fn render(context: &Context<'_>) -> String {
    let result = context.result;
    let groups = groups(result);
    let worth: Vec<&Group> = groups.iter().filter(|g| !g.is_note()).collect();
    let mut out = page_start(&format!("ncu-lint: {} places worth fixing", worth.len()));
    out.push_str(&header(context));
    out.push_str(&filters(&groups));
    out.push_str("<section class=\"charts\">\n");
    out.push_str(&places_chart(&groups));
    out.push_str(&rules_chart(context, &groups));
    out.push_str("</section>\n");
    out.push_str(&table(context, &groups));
    out.push_str("<section id=\"places\">\n");
    for (rank, group) in groups.iter().enumerate() {
        out.push_str(&place(context, rank, group));
    }
    out.push_str("</section>\n");
    out.push_str(&skipped(context));
    let _ = writeln!(out, "<script>\n{}</script>", include_str!("script.js"));
    out.push_str(PAGE_END);
    out
}

/// The page up to its body's first element: `title`, the styles.
fn page_start(title: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n",
        escape(title),
        include_str!("style.css")
    )
}

const PAGE_END: &str = "</body>\n</html>\n";

fn header(context: &Context<'_>) -> String {
    let result = context.result;
    let coverage = Coverage::of(context.report, context.rules, result);
    let mut out = String::from("<header>\n<h1>ncu-lint</h1>\n");
    let _ = writeln!(
        out,
        "<p class=\"summary\">{}</p>",
        escape(&summary_line(result))
    );
    if let Some(profile) = result.profile_ns() {
        let _ = writeln!(
            out,
            "<p>GPU time of all results: {}</p>",
            escape(&duration(profile))
        );
    }
    let _ = writeln!(out, "<p>{}</p>", escape(&coverage.describe()));
    out.push_str("</header>\n");
    out
}

/// The rule menu (the rules of the places, in order of first appearance),
/// the kernel box and the count of places shown.
fn filters(groups: &[Group]) -> String {
    let mut rules: Vec<&str> = Vec::new();
    for rule in groups.iter().flat_map(|g| &g.rules) {
        if !rules.contains(&rule.as_str()) {
            rules.push(rule);
        }
    }
    let mut out = String::from(
        "<nav class=\"filters\">\n<label>Rule <select id=\"rule-filter\"><option value=\"\">all rules</option>",
    );
    for rule in rules {
        let _ = write!(out, "<option value=\"{0}\">{0}</option>", escape(rule));
    }
    out.push_str(
        "</select></label>\n<label>Kernel <input id=\"kernel-filter\" type=\"search\" \
         placeholder=\"part of a kernel name\"></label>\n<span id=\"shown-count\" class=\"muted\"></span>\n</nav>\n",
    );
    out
}

/// The attributes the filters read.
fn data(group: &Group) -> Vec<(&'static str, String)> {
    vec![
        ("rules", group.rules.join(" ")),
        ("kernel", group.name.clone()),
    ]
}

/// `data` as ` data-NAME="VALUE"` attributes, values escaped.
fn attributes(data: &[(&'static str, String)]) -> String {
    data.iter()
        .map(|(name, value)| format!(" data-{name}=\"{}\"", escape(value)))
        .collect()
}

/// A place as labels show it: the file's name (a long generated one, such
/// as Inductor's, shortened in the middle) and the line.
fn place_label(group: &Group) -> String {
    match &group.location {
        Some(l) => format!("{}:{}", middle_cut(file_name(&l.file), 24), l.line),
        None => "kernel".to_owned(),
    }
}

/// `text` cut to `most` characters by leaving out its middle.
fn middle_cut(text: &str, most: usize) -> String {
    let count = text.chars().count();
    if count <= most {
        return text.to_owned();
    }
    let head = (most - 1) / 2;
    let tail = most - 1 - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The places worth fixing with an estimate, the first [`MAX_BARS`].
pub fn charted(groups: &[Group]) -> impl Iterator<Item = (usize, &Group)> {
    groups
        .iter()
        .enumerate()
        .filter(|(_, g)| !g.is_note() && g.saved_ns.is_some_and(|ns| ns > 0.0))
        .take(MAX_BARS)
}

/// A place's bar label: its rank, the kernel shortened so that the place
/// (its file and line) always shows, as one kernel's places differ by it.
fn bar_label(rank: usize, g: &Group) -> String {
    let place = place_label(g);
    let prefix = format!("#{} ", rank + 1);
    let room = chart::LABEL_CHARS
        .saturating_sub(prefix.chars().count() + place.chars().count() + 1)
        .max(8);
    let kernel: String = if g.kernel.chars().count() > room {
        let kept: String = g.kernel.chars().take(room - 1).collect();
        format!("{kept}…")
    } else {
        g.kernel.clone()
    };
    format!("{prefix}{kernel} {place}")
}

fn places_chart(groups: &[Group]) -> String {
    let bars: Vec<Bar> = charted(groups)
        .map(|(rank, g)| {
            let saved = g.saved_ns.unwrap_or(0.0);
            let mut data = data(g);
            data.push(("group", rank.to_string()));
            Bar {
                label: bar_label(rank, g),
                value: saved,
                shown: duration(saved),
                title: format!("{} at {}: {}", g.name, place_label(g), g.rules.join(", ")),
                data,
            }
        })
        .collect();
    if bars.is_empty() {
        return "<p class=\"muted\" id=\"chart-places\">No place has an estimate of the time a fix saves \
                (the export has no kernel durations, or every finding is a note).</p>\n"
            .to_owned();
    }
    chart::bars("chart-places", &places_caption(groups), &bars)
}

/// The places chart's caption; it says so where notes with an estimate
/// (library kernels, fixes under the worth-it threshold) are left out, as
/// the table lists them in rank among the rest.
fn places_caption(groups: &[Group]) -> String {
    match notes_with_estimate(groups) {
        0 => "Estimated time saved per place (top places, over all launches)".to_owned(),
        n => format!(
            "Estimated time saved per place (top places that can fail the gate, over all launches; \
             {n} note{} with an estimate left out)",
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// Groups left out of the charts though they have an estimate: notes.
fn notes_with_estimate(groups: &[Group]) -> usize {
    groups
        .iter()
        .filter(|g| g.is_note() && g.saved_ns.is_some_and(|ns| ns > 0.0))
        .count()
}

/// Time saved by rule: each place's worth (per launch, the largest
/// estimate among its rules, as the ranking counts it) given to the rule of
/// that estimate, so that the bars add up to the places' total: rules that
/// share a cause (low load efficiency, wasted sectors) are not counted twice.
fn rules_chart(context: &Context<'_>, groups: &[Group]) -> String {
    let mut by_rule: Vec<(&str, f64)> = Vec::new();
    for group in groups.iter().filter(|g| !g.is_note()) {
        let mut launches: Vec<(usize, &Finding)> = Vec::new();
        for finding in group.findings.iter().map(|&i| &context.result.findings[i]) {
            let saved = finding.estimate.saved_ns.unwrap_or(0.0);
            match launches.iter_mut().find(|(k, _)| *k == finding.kernel) {
                Some((_, best)) if best.estimate.saved_ns.unwrap_or(0.0) >= saved => {}
                Some((_, best)) => *best = finding,
                None => launches.push((finding.kernel, finding)),
            }
        }
        for (_, finding) in launches {
            let Some(saved) = finding.estimate.saved_ns.filter(|&ns| ns > 0.0) else {
                continue;
            };
            match by_rule
                .iter_mut()
                .find(|(r, _)| *r == finding.rule.as_str())
            {
                Some((_, total)) => *total += saved,
                None => by_rule.push((&finding.rule, saved)),
            }
        }
    }
    if by_rule.is_empty() {
        return String::new();
    }
    by_rule.sort_by(|a, b| b.1.total_cmp(&a.1));
    let bars: Vec<Bar> = by_rule
        .iter()
        .map(|&(rule, saved)| Bar {
            label: rule.to_owned(),
            value: saved,
            shown: duration(saved),
            title: format!(
                "{rule}: {} over the places where its estimate is the largest",
                duration(saved)
            ),
            data: vec![("rules", rule.to_owned()), ("ns", format!("{saved:.0}"))],
        })
        .collect();
    let caption = if notes_with_estimate(groups) > 0 {
        "Estimated time saved per rule (places that can fail the gate)"
    } else {
        "Estimated time saved per rule"
    };
    chart::bars("chart-rules", caption, &bars)
}

fn table(context: &Context<'_>, groups: &[Group]) -> String {
    let profile_ns = context.result.profile_ns();
    let mut out = String::from(
        "<table id=\"groups\">\n<thead><tr><th>#</th><th>severity</th><th>est. saved</th><th>of profile</th>\
         <th>kernel</th><th>where</th><th>launches</th><th>rules</th><th>finding</th></tr></thead>\n<tbody>\n",
    );
    for (rank, g) in groups.iter().enumerate() {
        let worst = g.worst_findings(context.result);
        let message = worst
            .iter()
            .max_by_key(|f| f.severity)
            .map_or("", |f| f.message.as_str());
        let attributes = attributes(&data(g));
        let _ = writeln!(
            out,
            "<tr class=\"{}\" data-group=\"{rank}\"{attributes}><td class=\"num\">{}</td>\
             <td class=\"severity-{}\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"kernel\" title=\"{}\"><a href=\"#place-{rank}\">{}</a></td><td><code>{}</code></td>\
             <td class=\"num\">{}</td><td class=\"rules\">{}</td>\
             <td class=\"finding\" title=\"{}\"><div>{}</div></td></tr>",
            if g.is_note() { "note" } else { "worth" },
            rank + 1,
            g.severity,
            g.severity,
            g.saved_ns.map_or("-".to_owned(), duration),
            share(g.saved_ns, profile_ns).unwrap_or_else(|| "-".to_owned()),
            escape(&g.name),
            escape(&middle_cut(&g.kernel, 40)),
            escape(&place_label(g)),
            g.launches,
            g.rules
                .iter()
                .map(|r| escape(r))
                .collect::<Vec<_>>()
                .join("<br>"),
            escape(message),
            escape(message)
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// One place: its CUDA lines (where it has a line) beside its findings.
fn place(context: &Context<'_>, rank: usize, g: &Group) -> String {
    let attributes = attributes(&data(g));
    let mut out = format!("<article class=\"group\" id=\"place-{rank}\"{attributes}>\n");
    let _ = writeln!(
        out,
        "<h2>#{} <span class=\"kernel\">{}</span> <span class=\"muted\">{} · {} launch(es) · {}</span></h2>",
        rank + 1,
        escape(&g.kernel),
        escape(&place_label(g)),
        g.launches,
        escape(&g.saved_ns.map_or("no time estimate".to_owned(), |ns| {
            format!("{} to save", duration(ns))
        }))
    );
    let findings = g.worst_findings(context.result);
    if let Some(overlap) = findings
        .first()
        .and_then(|f| overlap::sentence(context.result, f.kernel))
    {
        let _ = writeln!(out, "<p class=\"overlap\">{}</p>", escape(&overlap));
    }
    let source = g
        .location
        .as_ref()
        .map(|l| cuda_lines(context, &l.file, l.line));
    let _ = writeln!(
        out,
        "<div class=\"body{}\">",
        if source.is_none() { " kernel-wide" } else { "" }
    );
    if let Some(source) = source {
        out.push_str(&source);
    }
    out.push_str("<ul class=\"findings\">\n");
    for finding in findings {
        out.push_str(&finding_item(finding));
    }
    out.push_str("</ul>\n</div>\n</article>\n");
    out
}

/// The line `line` of `file` and a few around it, the line itself marked.
fn cuda_lines(context: &Context<'_>, file: &str, line: u32) -> String {
    let first = line.saturating_sub(CONTEXT_LINES).max(1);
    let mut out = format!("<pre class=\"cuda\" title=\"{}\">", escape(file));
    let mut any = false;
    for n in first..=line + CONTEXT_LINES {
        let Some(text) = context.cuda.line(file, n) else {
            continue;
        };
        any = true;
        let _ = write!(
            out,
            "<span class=\"cuda-line{}\" data-line=\"{n}\"><span class=\"no\">{n}</span>{}</span>",
            if n == line { " hot" } else { "" },
            escape(&text)
        );
    }
    if !any {
        let _ = write!(
            out,
            "<span class=\"cuda-line hot\" data-line=\"{line}\"><span class=\"no\">{line}</span>\
             <span class=\"muted\">(the source of {} is not at hand: --source-root)</span></span>",
            escape(file_name(file))
        );
    }
    out.push_str("</pre>\n");
    out
}

fn finding_item(finding: &Finding) -> String {
    let mut out = format!(
        "<li class=\"finding\" data-severity=\"{}\"><span class=\"rule\">{}</span> <span class=\"severity-{}\">{}</span>: {}",
        finding.severity,
        escape(&finding.rule),
        finding.severity,
        finding.severity,
        escape(&finding.message)
    );
    if let Some(instruction) = &finding.instruction {
        let _ = write!(
            out,
            "<div class=\"muted\"><code>{}</code> at {}</div>",
            escape(&instruction.sass),
            escape(&instruction.address)
        );
    }
    let estimate = &finding.estimate;
    if let (Some(speedup), Some(kernel_ns)) = (estimate.speedup, estimate.kernel_ns) {
        let _ = write!(
            out,
            "<div class=\"muted\">worth {:.1}% of a {} launch{}</div>",
            100.0 * speedup,
            duration(kernel_ns),
            estimate.bytes.map_or(String::new(), |b| format!(
                ", {} moved for nothing",
                bytes(b)
            ))
        );
    }
    if let Some(fix) = &finding.fix {
        let _ = write!(out, "<div class=\"fix\">{}</div>", escape(fix));
    }
    out.push_str("</li>\n");
    out
}

fn skipped(context: &Context<'_>) -> String {
    let skipped = &context.result.skipped;
    if skipped.is_empty() {
        return String::new();
    }
    let mut out =
        String::from("<section id=\"skipped\">\n<h2>Rules skipped for lack of data</h2>\n<ul>\n");
    for skip in skipped {
        let _ = writeln!(
            out,
            "<li><span class=\"rule\">{}</span> for {} kernel(s): missing {}. {}</li>",
            escape(&skip.rule),
            skip.kernels,
            escape(&skip.missing.join(", ")),
            escape(&skip.hint)
        );
    }
    out.push_str("</ul>\n</section>\n");
    out
}
