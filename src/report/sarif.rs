//! SARIF 2.1.0 for GitHub code scanning and other SARIF consumers.
//!
//! Every rule in effect is described in the driver; each finding is a result
//! at its CUDA line where known, else at the export row its kernel was read
//! from. `partialFingerprints` hash the rule, the kernel's normalised name and
//! the place, never a measured value, so they survive re-profiling.

use serde_json::{Value as Json, json};

use super::fingerprint;
use crate::model::Report;
use crate::rules::{ActiveRule, CheckResult, Finding, Severity};

/// The SARIF log for a check.
pub fn to_sarif(report: &Report, result: &CheckResult, rules: &[ActiveRule]) -> Json {
    let driver_rules: Vec<Json> = rules.iter().map(rule_json).collect();
    let results: Vec<Json> = result
        .findings
        .iter()
        .map(|f| result_json(report, f, rules))
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "ncu-lint",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": driver_rules,
            }},
            "results": results,
            "columnKind": "utf16CodeUnits",
        }],
    })
}

/// The SARIF level of a severity.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
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
        "defaultConfiguration": {"level": level(active.severity)},
        "properties": {"tags": ["performance", "cuda", rule.pack.as_str()]},
    })
}

fn result_json(report: &Report, finding: &Finding, rules: &[ActiveRule]) -> Json {
    let (uri, line) = match &finding.location {
        Some(location) => (file_uri(&location.file), u64::from(location.line)),
        None => {
            let path = report
                .files
                .get(finding.origin.file)
                .map_or("", |f| f.path.as_str());
            (file_uri(path), finding.origin.line.max(1))
        }
    };
    let rule_index = rules.iter().position(|r| r.rule.id == finding.rule);
    let mut result = json!({
        "ruleId": finding.rule,
        "level": level(finding.severity),
        "message": {"text": format!("{}: {}", finding.kernel_name, finding.message)},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": uri},
                "region": {"startLine": line},
            },
            "logicalLocations": [{"name": finding.kernel_name, "kind": "function"}],
        }],
        "partialFingerprints": {"ncuLintFinding/v1": fingerprint(finding)},
        "properties": {"kernelId": finding.kernel_id, "values": finding.values},
    });
    if let Some(index) = rule_index {
        result["ruleIndex"] = json!(index);
    }
    result
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
