//! A profile-to-profile diff as text.

use std::fmt::Write as _;

use crate::diff::DiffResult;
use crate::report::format_number;
use crate::report::units::duration;

/// A diff as text: per kernel the new and fixed findings and the quantities
/// that moved, then the kernels in one profile only and a count.
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
    out
}
