//! Findings in kernels of libraries users do not write (cuBLAS's `nvjet_*`,
//! cuDNN, CUTLASS, ATen, NCCL, ...; `[[library]]` in the pack): labelled
//! with the library, their fix replaced by what the user controls (shapes,
//! layouts, dtypes, another algorithm), and notes that do not fail the gate
//! unless kept.

use std::collections::HashMap;

use crate::rules::{CheckResult, Library, Severity};

/// Labels the findings of library kernels; `keep` leaves their severity.
pub(super) fn label(result: &mut CheckResult, libraries: &[Library], keep: bool) {
    if libraries.is_empty() {
        return;
    }
    // A run's findings fall on a few kernels: each name is matched once.
    let mut owner: HashMap<String, Option<usize>> = HashMap::new();
    for finding in &mut result.findings {
        let found = match owner.get(&finding.kernel_name) {
            Some(&found) => found,
            None => {
                let found = libraries.iter().position(|l| l.owns(&finding.kernel_name));
                owner.insert(finding.kernel_name.clone(), found);
                found
            }
        };
        let Some(library) = found.map(|i| &libraries[i]) else {
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
