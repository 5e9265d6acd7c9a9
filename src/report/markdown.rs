//! A Markdown summary for pull-request comments: counts, a table of
//! findings (worst first) and the rules skipped.

use std::fmt::Write as _;

use super::count_by_severity;
use crate::rules::CheckResult;

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
            let place = f.location.as_ref().map_or("kernel".to_owned(), |l| {
                format!("`{}:{}`", cell(&l.file), l.line)
            });
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
