//! JUnit XML: one test case per kernel, its class the export it was read
//! from, one failure per finding at or above the failing severity, notes as
//! system output.

use std::fmt::Write as _;
use std::io;

use super::{Context, Emitter};
use crate::rules::{FailOn, Finding, Place, by_kernel};

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
    let failures = result
        .findings
        .iter()
        .filter(|f| context.fail_on.fails(f.severity))
        .count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"ncu-lint\" tests=\"{}\" failures=\"{failures}\">",
        report.kernels.len()
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"ncu-lint\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">",
        report.kernels.len()
    );
    let grouped = by_kernel(&result.findings, report.kernels.len(), |f| f.kernel);
    for (kernel, findings) in report.kernels.iter().zip(grouped) {
        let name = match kernel.id {
            Some(id) => format!("{} [result {id}]", kernel.name),
            None => kernel.name.clone(),
        };
        let export = report.export_path(&kernel.origin);
        let _ = write!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\"",
            escape(export),
            escape(&name)
        );
        if findings.is_empty() {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        out.push_str(&testcase_body(&findings, context.fail_on));
        out.push_str("    </testcase>\n");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// A kernel's findings: a failure each for those that fail the run, the
/// rest as system output.
fn testcase_body(findings: &[&Finding], fail_on: FailOn) -> String {
    let mut out = String::new();
    let mut notes = String::new();
    for finding in findings {
        let place = match finding.place() {
            Place::Line(l) => format!(" at {}:{}", l.file, l.line),
            _ => String::new(),
        };
        let text = format!(
            "{}[{}]{place}: {}",
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

/// Escapes text for XML attributes and content.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {}
            c => out.push(c),
        }
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
