//! A profile-to-profile diff as text.

use std::fmt::Write as _;

use crate::diff::DiffResult;
use crate::report::format_number;
use crate::report::units::duration;
use crate::timing::{Timing, words};

/// A diff as text: per kernel the new and fixed findings and the quantities
/// that moved, then the kernels in one profile only and a count, then each
/// kernel's time beside what its fixes were estimated to save.
pub(super) fn render_diff(result: &DiffResult) -> String {
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
    for g in &result.groups {
        let place = g.location.as_ref().map_or("the kernel".to_owned(), |l| {
            format!("{}:{}", l.file, l.line)
        });
        let what = if g.regression { "worse" } else { "better" };
        let _ = writeln!(
            out,
            "{what}: est. time to gain at {} {place}: {} -> {}",
            g.kernel,
            duration(g.base_ns),
            duration(g.head_ns)
        );
    }
    let tally = result.tally();
    let _ = writeln!(
        out,
        "{} new findings, {} fixed, {} regressions in {} kernels",
        tally.new,
        tally.fixed,
        tally.worse_quantities,
        result.kernels.len()
    );
    if let Some(timing) = &result.timing {
        out.push('\n');
        out.push_str(&render_timing(timing));
    }
    out
}

/// Each kernel's time in both profiles, the estimates beside it, the
/// conditions and the totals.
fn render_timing(timing: &Timing) -> String {
    let header = [
        "kernel",
        "launches",
        "base",
        "head",
        "saved",
        "estimated",
        "agrees",
    ];
    let rows: Vec<[String; 7]> = timing
        .kernels
        .iter()
        .map(|k| {
            let (estimated, agrees) = words::estimate(k);
            [
                k.kernel.clone(),
                words::launches(k),
                words::total(k.base.as_ref()),
                words::total(k.head.as_ref()),
                words::saved(k),
                estimated,
                agrees,
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::from("time per kernel (gpu__time_duration.sum over its launches):\n");
    let mut line = |cells: [&str; 7]| {
        let mut text = String::from(" ");
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            let pad = w - cell.chars().count();
            // Names and words left, numbers right.
            if i == 0 || i == 4 {
                let _ = write!(text, " {cell}{}", " ".repeat(pad));
            } else {
                let _ = write!(text, " {}{cell}", " ".repeat(pad));
            }
        }
        let _ = writeln!(out, "{}", text.trim_end());
    };
    line(header);
    for row in &rows {
        line(row.each_ref().map(String::as_str));
    }
    for k in &timing.kernels {
        if !k.launch_changes.is_empty() {
            let _ = writeln!(out, "  {}: {}", k.kernel, k.launch_changes.join(", "));
        }
        if let Some(sentence) = words::shortfall(k) {
            let _ = writeln!(out, "  {}: {sentence}", k.kernel);
        }
    }
    for sentence in words::conditions(timing)
        .into_iter()
        .chain(words::summary(timing))
    {
        let _ = writeln!(out, "{sentence}");
    }
    out
}
