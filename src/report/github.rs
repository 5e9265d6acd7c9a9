//! GitHub Actions workflow commands: one `::error`, `::warning` or `::notice`
//! annotation per finding, at its CUDA line or at the export row.

use std::fmt::Write as _;
use std::io;

use super::{Context, Emitter, summary_line};
use crate::rules::Severity;

/// GitHub workflow annotations.
pub struct Github;

impl Emitter for Github {
    fn emit(&self, context: &Context<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        out.write_all(render(context).as_bytes())
    }
}

/// The annotations for a check, then the summary line.
pub fn render(context: &Context<'_>) -> String {
    let mut out = String::new();
    for finding in &context.result.findings {
        let command = match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let (file, line) = context.anchor(finding);
        let _ = writeln!(
            out,
            "::{command} file={},line={line},title={}::{}",
            escape_property(file),
            escape_property(&format!("{} ({})", finding.rule, finding.kernel_name)),
            escape_data(&finding.message)
        );
    }
    let _ = writeln!(out, "{}", summary_line(context.result));
    out
}

/// Escapes a message as workflow commands require.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value, where `:` and `,` also separate.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("50% a\nb"), "50%25 a%0Ab");
        assert_eq!(escape_property("f(a, b): x"), "f(a%2C b)%3A x");
    }
}
