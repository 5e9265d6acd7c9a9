//! SARIF 2.1.0 for GitHub code scanning and other SARIF consumers.
//!
//! Every rule in effect is described in the driver; each finding is a result
//! at its CUDA line where known, else at the export row its kernel was read
//! from. `partialFingerprints` hash the rule, the kernel's normalised name and
//! the place, never a measured value, so they survive re-profiling.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::{Value as Json, json};

use super::{Context, Emitter, fingerprint};
use crate::rules::{ActiveRule, Finding};

/// SARIF 2.1.0.
pub struct Sarif;

impl Emitter for Sarif {
    fn emit(&self, context: &Context<'_>, out: &mut dyn Write) -> io::Result<()> {
        write_sarif(context, out)
    }
}

/// Writes the SARIF log for a check to `out`, pretty-printed, ending in a
/// newline. Results are serialised straight from the findings, without a
/// JSON tree or the whole text in memory: large profiles have tens of
/// thousands of them.
pub fn write_sarif(context: &Context<'_>, out: &mut dyn Write) -> io::Result<()> {
    let rules = context.rules;
    let log = Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [Run {
            tool: json!({"driver": {
                "name": "ncu-lint",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules.iter().map(rule_json).collect::<Vec<_>>(),
            }}),
            results: context
                .result
                .findings
                .iter()
                .map(|f| SarifResult::new(context, f))
                .collect(),
            column_kind: "utf16CodeUnits",
        }],
    };
    super::json::write_pretty(&log, out)
}

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Json,
    results: Vec<SarifResult<'a>>,
    column_kind: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    /// 0-100: the share of the profile (else of its kernel) a fix is
    /// estimated to save, as a percentage.
    #[serde(skip_serializing_if = "Option::is_none")]
    rank: Option<f64>,
    message: Text,
    locations: [Location<'a>; 1],
    partial_fingerprints: Fingerprints,
    properties: Properties<'a>,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    physical_location: PhysicalLocation,
    logical_locations: [LogicalLocation<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u64,
}

#[derive(Serialize)]
struct LogicalLocation<'a> {
    name: &'a str,
    kind: &'static str,
}

#[derive(Serialize)]
struct Fingerprints {
    #[serde(rename = "ncuLintFinding/v1")]
    finding: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Properties<'a> {
    kernel_id: Option<u64>,
    values: &'a crate::rules::finding::Values,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<&'a str>,
}

impl<'a> SarifResult<'a> {
    /// A finding as a result at its CUDA line where known, else at the
    /// export row its kernel was read from.
    fn new(context: &Context<'a>, finding: &'a Finding) -> Self {
        let (path, line) = context.anchor(finding);
        let uri = file_uri(path);
        let rules = context.rules;
        SarifResult {
            rule_id: &finding.rule,
            rule_index: rules.iter().position(|r| r.rule.id == finding.rule),
            level: finding.severity.name(),
            rank: rank(finding, context.result.profile_ns()),
            message: Text {
                text: match &finding.fix {
                    Some(fix) => {
                        format!("{}: {}\nFix: {fix}", finding.kernel_name, finding.message)
                    }
                    None => format!("{}: {}", finding.kernel_name, finding.message),
                },
            },
            locations: [Location {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation { uri },
                    region: Region { start_line: line },
                },
                logical_locations: [LogicalLocation {
                    name: &finding.kernel_name,
                    kind: "function",
                }],
            }],
            partial_fingerprints: Fingerprints {
                finding: fingerprint(finding),
            },
            properties: Properties {
                kernel_id: finding.kernel_id,
                values: &finding.values,
                fix: finding.fix.as_deref(),
            },
        }
    }
}

/// SARIF's `rank` of a finding: its estimated saving as a percentage of
/// the profile's time where both are known, else of its kernel's.
fn rank(finding: &Finding, profile_ns: Option<f64>) -> Option<f64> {
    let estimate = &finding.estimate;
    let share = match (estimate.saved_ns, profile_ns) {
        (Some(saved), Some(total)) if total > 0.0 => saved / total,
        _ => estimate.speedup?,
    };
    Some((share * 100.0).clamp(0.0, 100.0))
}

fn rule_json(active: &ActiveRule) -> Json {
    let rule = &active.rule;
    let docs = &rule.docs;
    let mut help = format!("{}\n\nWhy: {}\n\nFix: {}", docs.what, docs.why, docs.fix);
    let mut markdown = format!(
        "{}\n\n**Why.** {}\n\n**Fix.** {}",
        docs.what, docs.why, docs.fix
    );
    if !docs.example.trim().is_empty() {
        help.push_str(&format!("\n\nExample:\n{}", docs.example.trim_end()));
        markdown.push_str(&format!("\n\n```cuda\n{}\n```", docs.example.trim()));
    }
    json!({
        "id": rule.id,
        "name": pascal_case(&rule.id),
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": docs.what},
        "help": {"text": help, "markdown": markdown},
        "defaultConfiguration": {"level": active.severity.name()},
        "properties": {"tags": ["performance", "cuda", rule.pack.as_str()]},
    })
}

/// A path as a SARIF URI: relative paths stay relative (with `/`),
/// absolute ones become `file://` URIs; unsafe characters are escaped.
pub fn file_uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let escaped: String = path
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'.' | b'-' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect();
    if escaped.starts_with('/') {
        format!("file://{escaped}")
    } else {
        escaped
    }
}

fn pascal_case(id: &str) -> String {
    id.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(file_uri("/tmp/w/lab.cu"), "file:///tmp/w/lab.cu");
        assert_eq!(file_uri("src/a b.cu"), "src/a%20b.cu");
        assert_eq!(file_uri("fixtures\\lab\\raw.csv"), "fixtures/lab/raw.csv");
    }

    #[test]
    fn names() {
        assert_eq!(pascal_case("shared-bank-conflict"), "SharedBankConflict");
    }
}
