//! One finding as a miette diagnostic: a line-level finding shows its CUDA
//! line (from the `.cu` file or the export's own source text) labelled with
//! its worst instruction; a kernel-level finding shows the values that
//! decided it and the export row. Each carries the rule's fix as help.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, Severity as MietteSeverity, SourceCode};

use crate::cuda_source::CudaSource;
use crate::ingest::Snippet;
use crate::model::Report;
use crate::report::format_number;
use crate::rules::{ActiveRule, Finding, Location, Severity};

/// One finding as a miette diagnostic.
#[derive(Debug)]
pub(super) struct FindingDiagnostic {
    message: String,
    code: String,
    severity: Severity,
    help: Option<String>,
    snippet: Option<Snippet>,
    label: Option<(usize, usize, String)>,
    footer: String,
}

impl FindingDiagnostic {
    /// The diagnostic of `finding` of `rule` (its fix is the help; its
    /// parameters are left out of the values that decided it).
    pub(super) fn new(
        report: &Report,
        finding: &Finding,
        rule: Option<&ActiveRule>,
        sources: &CudaSource<'_>,
    ) -> Self {
        let help = finding
            .fix
            .clone()
            .or_else(|| rule.map(|r| r.rule.docs.fix.clone()));
        let mut diagnostic = FindingDiagnostic {
            message: finding.message.clone(),
            code: finding.rule.clone(),
            severity: finding.severity,
            help,
            snippet: None,
            label: None,
            footer: String::new(),
        };
        let instruction = finding.instruction.as_ref().map(|i| match i.sass.as_str() {
            "" => format!("the instruction at {}", i.address),
            sass => format!("{sass} at {}", i.address),
        });
        match &finding.location {
            Some(location) => diagnostic.at_line(location, instruction, sources),
            None => diagnostic.at_kernel(report, finding, rule, instruction),
        }
        diagnostic
    }

    /// The CUDA line with the worst instruction as its label; where the
    /// text is not at hand, the place in the footer.
    fn at_line(
        &mut self,
        location: &Location,
        instruction: Option<String>,
        sources: &CudaSource<'_>,
    ) {
        let Some(text) = sources.line(&location.file, location.line) else {
            let instruction = instruction.map(|i| format!(" ({i})")).unwrap_or_default();
            self.footer = format!("at {}:{}{instruction}", location.file, location.line);
            if let Some(call) = &location.called_from {
                self.footer
                    .push_str(&format!(", inlined at {}:{}", call.file, call.line));
            }
            return;
        };
        let start = text.len() - text.trim_start().len();
        let mut label = instruction.unwrap_or_else(|| "here".to_owned());
        if let Some(call) = &location.called_from {
            label.push_str(&format!(", inlined at {}:{}", call.file, call.line));
        }
        self.label = Some((start, text.trim().len().max(1), label));
        self.snippet = Some(Snippet::new(
            location.file.clone(),
            text,
            0,
            u64::from(location.line),
        ));
    }

    /// The values that decided a kernel-level finding and the export row.
    fn at_kernel(
        &mut self,
        report: &Report,
        finding: &Finding,
        rule: Option<&ActiveRule>,
        instruction: Option<String>,
    ) {
        let is_param = |name: &str| rule.is_some_and(|r| r.params.contains_key(name));
        let values: Vec<String> = finding
            .values
            .iter()
            .filter(|(k, _)| !is_param(k))
            .filter_map(|(k, v)| v.map(|v| format!("{k} = {}", format_number(v))))
            .collect();
        self.footer = format!(
            "decided by {}\nread from {}",
            values.join(", "),
            report.describe_origin(&finding.origin)
        );
        if let Some(i) = instruction {
            self.footer.push_str(&format!("\nworst instruction: {i}"));
        }
    }
}

impl fmt::Display for FindingDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.footer.is_empty() {
            write!(f, "\n{}", self.footer)?;
        }
        Ok(())
    }
}

impl std::error::Error for FindingDiagnostic {}

impl Diagnostic for FindingDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<MietteSeverity> {
        Some(self.severity.into())
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.snippet.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (start, len, label) = self.label.as_ref()?;
        let snippet = self.snippet.as_ref()?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(label.clone()), snippet.span(*start, *len)),
        )))
    }
}
