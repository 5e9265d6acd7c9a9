//! The triage table: one row per place, ranked by the time a fix is
//! estimated to save, with its share of the profile, the bytes wasted, the
//! launches folded into it and the rules that fire there.

use std::fmt::Write as _;

use super::Style;
use crate::report::units::{bytes, duration, share};
use crate::triage::Group;

/// The widest a kernel name gets in the table before it is cut.
const NAME_WIDTH: usize = 56;

/// The table of `groups`, in their order.
pub(super) fn render(groups: &[&Group], profile_ns: Option<f64>, style: Style) -> String {
    let rows: Vec<[String; 8]> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let name = if style.full_names {
                g.name.clone()
            } else {
                cut(&g.kernel, NAME_WIDTH)
            };
            let place = g.location.as_ref().map_or("kernel".to_owned(), |l| {
                let file = l.file.rsplit(['/', '\\']).next().unwrap_or(&l.file);
                format!("{file}:{}", l.line)
            });
            [
                format!("{}", i + 1),
                g.saved_ns.map_or("-".to_owned(), duration),
                share(g.saved_ns, profile_ns).unwrap_or_else(|| "-".to_owned()),
                g.bytes.map_or("-".to_owned(), bytes),
                g.launches.to_string(),
                name,
                place,
                match (&g.library, g.library_note) {
                    (Some(library), true) => format!("{} ({library}, note)", g.rules.join(", ")),
                    _ => g.rules.join(", "),
                },
            ]
        })
        .collect();
    let header = [
        "#",
        "est. saved",
        "profile",
        "wasted",
        "launches",
        "kernel",
        "place",
        "rules",
    ];
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, cells: [&str; 8]| {
        let mut text = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            let pad = w.saturating_sub(cell.chars().count());
            // Numbers right-aligned, names and rules left-aligned.
            if i < 5 {
                let _ = write!(text, "{}{cell}  ", " ".repeat(pad));
            } else {
                let _ = write!(text, "{cell}{}  ", " ".repeat(pad));
            }
        }
        let _ = writeln!(out, "{}", text.trim_end());
    };
    line(&mut out, header);
    for row in &rows {
        line(&mut out, row.each_ref().map(String::as_str));
    }
    out
}

/// `est. 995.0 µs (20.0% of the profile)`, where the group has a time.
pub(super) fn worth(group: &Group, profile_ns: Option<f64>) -> Option<String> {
    let saved = group.saved_ns?;
    Some(match share(Some(saved), profile_ns) {
        Some(share) => format!("{} saved ({share} of the profile)", duration(saved)),
        None => format!("{} saved", duration(saved)),
    })
}

/// `text` cut to `width` characters, with `…` where it was cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(width - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_cut() {
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
    }
}
