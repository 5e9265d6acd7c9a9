//! Findings in kernels of libraries users do not write (cuBLAS's `nvjet_*`,
//! cuDNN, CUTLASS, ATen, NCCL, ...; `[[library]]` in the pack): labelled
//! with the library, their fix replaced by what the user controls (shapes,
//! layouts, dtypes, another algorithm), and notes that do not fail the gate
//! unless kept.

use crate::rules::{CheckResult, Library, Severity};

/// Labels the findings of library kernels; `keep` leaves their severity.
pub(super) fn label(result: &mut CheckResult, libraries: &[Library], keep: bool) {
    if libraries.is_empty() {
        return;
    }
    for finding in &mut result.findings {
        let Some(library) = libraries.iter().find(|l| l.owns(&finding.kernel_name)) else {
            continue;
        };
        finding.library = Some(library.name.clone());
        finding.fix = Some(library.fix.clone());
        if !keep && finding.severity > Severity::Note {
            finding.severity = Severity::Note;
            finding.message.push_str(&format!(
                " (a {} kernel: code you do not write; a note unless library findings are kept)",
                library.name
            ));
        }
    }
}
