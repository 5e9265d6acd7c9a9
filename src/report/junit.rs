//! JUnit XML: one test case per place with findings (a kernel at a CUDA
//! line, or the kernel), its launches folded, its class the export it was
//! read from, one failure per finding of its worst launch that fails the
//! run, notes as system output; then one passing case per kernel name
//! without findings.

use std::fmt::Write as _;
use std::io;

use super::escape_markup as escape;
use super::{Context, Emitter};
use std::collections::HashSet;

use crate::model::kernel_name;
use crate::rules::{FailOn, Finding};
use crate::triage::{Group, groups};

/// JUnit XML.
pub struct Junit;

impl Emitter for Junit {
    fn emit(&self, context: &Context<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        out.write_all(render(context).as_bytes())
    }
}

/// The JUnit document for a check; `fail_at` is the least failing severity.
pub fn render(context: &Context<'_>) -> String {
    let (report, result) = (context.report, context.result);
    let groups = groups(result);
    let clean = clean_kernels(context, &groups);
    let failures = groups
        .iter()
        .filter(|g| context.fail_on.fails(g.severity))
        .count();
    let tests = groups.len() + clean.len();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"ncu-lint\" tests=\"{tests}\" failures=\"{failures}\">"
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"ncu-lint\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">"
    );
    for group in &groups {
        let worst = group.worst_findings(result);
        let export = report.export_path(&worst[0].origin);
        let place = match &group.location {
            Some(l) => format!(" at {}:{}", l.file, l.line),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\">",
            escape(export),
            escape(&format!("{}{place}", group.name))
        );
        out.push_str(&testcase_body(&worst, group.launches, context.fail_on));
        out.push_str("    </testcase>\n");
    }
    for (name, export) in clean {
        let _ = writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\"/>",
            escape(export),
            escape(name)
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// Kernel names with no finding anywhere, once each, with their export.
fn clean_kernels<'a>(context: &Context<'a>, groups: &[Group]) -> Vec<(&'a str, &'a str)> {
    let with_findings: HashSet<String> = groups
        .iter()
        .map(|g| kernel_name::normalize(&g.name))
        .collect();
    let mut seen = HashSet::new();
    context
        .report
        .kernels
        .iter()
        .filter(|k| {
            let name = k.normalized_name();
            !with_findings.contains(&name) && seen.insert(name)
        })
        .map(|k| (k.name.as_str(), context.report.export_path(&k.origin)))
        .collect()
}

/// A place's findings on its worst launch: a failure each for those that
/// fail the run, the rest as system output.
fn testcase_body(findings: &[&Finding], launches: usize, fail_on: FailOn) -> String {
    let mut out = String::new();
    let mut notes = String::new();
    let folded = if launches > 1 {
        format!(" ({launches} launches)")
    } else {
        String::new()
    };
    for finding in findings {
        let text = format!(
            "{}[{}]{folded}: {}",
            finding.severity.name(),
            finding.rule,
            finding.message
        );
        if fail_on.fails(finding.severity) {
            let _ = writeln!(
                out,
                "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                escape(&finding.rule),
                escape(&finding.message),
                escape(&text)
            );
        } else {
            notes.push_str(&text);
            notes.push('\n');
        }
    }
    if !notes.is_empty() {
        let _ = writeln!(out, "      <system-out>{}</system-out>", escape(&notes));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escaping() {
        assert_eq!(
            escape("smem_stride<float, 32>(float *, int) & \"x\""),
            "smem_stride&lt;float, 32&gt;(float *, int) &amp; &quot;x&quot;"
        );
        assert_eq!(escape("a\u{1}b"), "ab");
    }
}
