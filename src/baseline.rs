//! Baselines: findings a team has accepted, so that CI fails only on new
//! ones.
//!
//! An entry is a finding's identity: rule, kernel name and place (CUDA line,
//! SASS offset, or the kernel as a whole), with how many times it occurs
//! (one kernel launched many times). Never a measured value or a result ID,
//! so a baseline survives re-profiling and reordering. The file is TOML,
//! sorted, one entry per table, for readable diffs.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::model::kernel_name;
use crate::rules::{CheckResult, Finding};

/// One accepted finding identity.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The kernel's name as printed.
    pub kernel: String,
    /// The rule id.
    pub rule: String,
    /// `file:line`, `+0xOFFSET` (a SASS offset) or `kernel`.
    pub place: String,
    /// How many findings share this identity.
    #[serde(default = "one")]
    pub count: usize,
}

fn one() -> usize {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    #[serde(default)]
    finding: Vec<Entry>,
}

/// Accepted findings by identity.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Baseline {
    entries: BTreeMap<(String, String, String), Entry>,
}

/// Why a baseline could not be read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("baseline {path}: {message}")]
#[diagnostic(
    code(ncu_lint::baseline::invalid),
    help("write a fresh one with `ncu-lint check --write-baseline FILE ...`")
)]
pub struct BaselineError {
    /// The file.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// The key that matches findings: rule, normalised kernel name, place.
fn key(rule: &str, kernel: &str, place: &str) -> (String, String, String) {
    (
        kernel_name::normalize(kernel),
        rule.to_owned(),
        place.to_owned(),
    )
}

impl Baseline {
    /// The baseline of a check's findings.
    pub fn from_findings(findings: &[Finding]) -> Baseline {
        let mut baseline = Baseline::default();
        for f in findings {
            let place = f.place().to_string();
            baseline
                .entries
                .entry(key(&f.rule, &f.kernel_name, &place))
                .and_modify(|e| e.count += 1)
                .or_insert_with(|| Entry {
                    kernel: f.kernel_name.clone(),
                    rule: f.rule.clone(),
                    place,
                    count: 1,
                });
        }
        baseline
    }

    /// The entries, sorted.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.values()
    }

    /// The baseline as TOML.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# ncu-lint baseline: findings accepted as they are.\n# Made by `ncu-lint check --write-baseline`; checked with `--baseline`.\nversion = 1\n",
        );
        for entry in self.entries.values() {
            out.push_str("\n[[finding]]\n");
            out.push_str(&format!("rule = {}\n", toml_string(&entry.rule)));
            out.push_str(&format!("kernel = {}\n", toml_string(&entry.kernel)));
            out.push_str(&format!("place = {}\n", toml_string(&entry.place)));
            if entry.count != 1 {
                out.push_str(&format!("count = {}\n", entry.count));
            }
        }
        out
    }

    /// Reads a baseline file.
    pub fn load(path: &Path) -> Result<Baseline, BaselineError> {
        let error = |message: String| BaselineError {
            path: path.display().to_string(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
        let file: File = toml::from_str(&text).map_err(|e| error(e.to_string()))?;
        if file.version != 1 {
            return Err(error(format!(
                "version {} is not known (this ncu-lint reads 1)",
                file.version
            )));
        }
        let mut baseline = Baseline::default();
        for entry in file.finding {
            baseline
                .entries
                .insert(key(&entry.rule, &entry.kernel, &entry.place), entry);
        }
        Ok(baseline)
    }

    /// Removes the findings the baseline accepts from `result` and returns
    /// the entries no finding matched any more (stale).
    pub fn filter(&self, result: &mut CheckResult) -> Vec<Entry> {
        let mut left: BTreeMap<&(String, String, String), usize> =
            self.entries.iter().map(|(k, e)| (k, e.count)).collect();
        result.findings.retain(|f| {
            let k = key(&f.rule, &f.kernel_name, &f.place().to_string());
            match left.get_mut(&k) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            }
        });
        left.into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| Entry {
                count: n,
                ..self.entries[k].clone()
            })
            .collect()
    }
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// Writes `text` to `path` through a temporary file and a rename, so a
/// failure leaves no half-written baseline behind.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp-ncu-lint");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
