//! Inline suppressions in CUDA source: `// ncu-lint: allow(rule-id, ...)` on
//! a finding's line or the line above silences that rule there. A
//! suppression that silences nothing is itself reported, as a note, so stale
//! ones do not pile up.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use indexmap::IndexMap;
use regex::Regex;

use crate::cuda_source::CudaSource;
use crate::model::Report;
use crate::rules::{CheckResult, Finding, Location, Severity};

/// The rule id of the note for a suppression that silences nothing.
pub const UNUSED: &str = "unused-suppression";

static ALLOW: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern, compiled by the unit tests: it cannot fail at run time.
    #[allow(clippy::expect_used)]
    let regex = Regex::new(r"ncu-lint:\s*allow\(([^)]*)\)").expect("the allow pattern is valid");
    regex
});

/// The rule ids an `allow(...)` comment on this line names.
pub fn allowed(line: &str) -> Option<Vec<String>> {
    let captures = ALLOW.captures(line)?;
    Some(
        captures[1]
            .split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

/// Removes suppressed findings and adds a note for each unused suppression.
pub fn apply(result: &mut CheckResult, report: &Report, sources: &CudaSource<'_>) {
    let mut used: BTreeSet<(String, u32)> = BTreeSet::new();
    result.findings.retain(|finding| {
        let Some(location) = &finding.location else {
            return true;
        };
        for line in [location.line, location.line.saturating_sub(1)] {
            let Some(text) = (line > 0)
                .then(|| sources.line(&location.file, line))
                .flatten()
            else {
                continue;
            };
            if let Some(rules) = allowed(&text) {
                if rules.iter().any(|r| r == &finding.rule || r == "all") {
                    used.insert((location.file.clone(), line));
                    return false;
                }
            }
        }
        true
    });
    let files: BTreeSet<&str> = report
        .kernels
        .iter()
        .filter_map(|k| k.source.as_ref())
        .flat_map(|s| s.files.iter().map(String::as_str))
        .collect();
    let mut unused: IndexMap<(String, u32), Vec<String>> = IndexMap::new();
    for file in files {
        for (line, text) in sources.all_lines(file) {
            if let Some(rules) = allowed(&text) {
                if !used.contains(&(file.to_owned(), line)) {
                    unused.insert((file.to_owned(), line), rules);
                }
            }
        }
    }
    for ((file, line), rules) in unused {
        result.findings.push(Finding {
            rule: UNUSED.to_owned(),
            cause: "ncu-lint".into(),
            library: None,
            library_note: false,
            severity: Severity::Note,
            kernel: usize::MAX,
            kernel_id: None,
            kernel_name: file.clone(),
            location: Some(Box::new(Location {
                file,
                line,
                called_from: None,
                inlined_from: None,
            })),
            instruction: None,
            message: format!("`allow({})` silences no finding here", rules.join(", ")),
            values: Default::default(),
            variant: "suppressions".to_owned(),
            origin: crate::model::Origin::default(),
            estimate: Default::default(),
            fix: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_comments() {
        assert_eq!(
            allowed("x = tile[a][b]; // ncu-lint: allow(shared-bank-conflict, sector-waste)"),
            Some(vec!["shared-bank-conflict".into(), "sector-waste".into()])
        );
        assert_eq!(
            allowed("/* ncu-lint:allow(all) */"),
            Some(vec!["all".into()])
        );
        assert_eq!(allowed("// nothing here"), None);
    }
}
