//! The stable JSON document of `ncu-lint check --format json`:
//! `{"version": 1, "findings": [...], "skipped": [...], "coverage": {...},
//! "summary": {...}}`; `coverage` says what the report holds and, when
//! rules were skipped, the sections they need and the command to profile.
//!
//! It is serialised straight from the findings, without an intermediate
//! JSON tree: large profiles have tens of thousands of findings.

use std::io::{self, Write};

use indexmap::IndexMap;
use serde::Serialize;

use super::{Context, Emitter, count_by_severity};
use crate::coverage::Coverage;
use crate::diff::DiffResult;
use crate::model::Report;
use crate::rules::finding::Instruction;
use crate::rules::{Finding, Location, Severity, Skip};

/// The JSON document.
pub struct Json;

impl Emitter for Json {
    fn emit(&self, context: &Context<'_>, out: &mut dyn Write) -> io::Result<()> {
        write_json(context, out)
    }

    fn emit_diff(&self, diff: &DiffResult, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, &diff_json(diff))?;
        out.write_all(b"\n")
    }
}

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    findings: Vec<FindingJson<'a>>,
    skipped: &'a [Skip],
    coverage: Coverage,
    summary: Summary,
}

#[derive(Serialize)]
struct FindingJson<'a> {
    rule: &'a str,
    severity: Severity,
    kernel: KernelJson<'a>,
    location: &'a Option<Location>,
    instruction: &'a Option<Instruction>,
    message: &'a str,
    values: &'a IndexMap<String, Option<f64>>,
    variant: &'a str,
    export: ExportJson<'a>,
}

/// The export row a finding was read from: which profile, when several
/// reports are checked together (`--each`).
#[derive(Serialize)]
struct ExportJson<'a> {
    path: &'a str,
    line: u64,
}

#[derive(Serialize)]
struct KernelJson<'a> {
    id: Option<u64>,
    name: &'a str,
}

#[derive(Serialize)]
struct Summary {
    kernels: usize,
    findings: usize,
    by_severity: BySeverity,
}

#[derive(Serialize)]
struct BySeverity {
    error: usize,
    warning: usize,
    note: usize,
}

impl<'a> FindingJson<'a> {
    fn new(f: &'a Finding, report: &'a Report) -> Self {
        FindingJson {
            rule: &f.rule,
            severity: f.severity,
            kernel: KernelJson {
                id: f.kernel_id,
                name: &f.kernel_name,
            },
            location: &f.location,
            instruction: &f.instruction,
            message: &f.message,
            values: &f.values,
            variant: &f.variant,
            export: ExportJson {
                path: report.export_path(&f.origin),
                line: f.origin.line,
            },
        }
    }
}

/// Writes the JSON document for a check to `out`, pretty-printed, ending in
/// a newline, without building it in memory first.
pub fn write_json(context: &Context<'_>, out: &mut dyn Write) -> io::Result<()> {
    let (report, result) = (context.report, context.result);
    let (error, warning, note) = count_by_severity(result);
    let document = Document {
        version: 1,
        findings: result
            .findings
            .iter()
            .map(|f| FindingJson::new(f, report))
            .collect(),
        skipped: &result.skipped,
        coverage: Coverage::of(report, context.rules, result),
        summary: Summary {
            kernels: result.kernels,
            findings: result.findings.len(),
            by_severity: BySeverity {
                error,
                warning,
                note,
            },
        },
    };
    serde_json::to_writer_pretty(&mut *out, &document)?;
    out.write_all(b"\n")
}

/// A diff as JSON: `{"version": 1, "kernels": [...], "only_base": [...],
/// "only_head": [...]}`.
fn diff_json(result: &DiffResult) -> serde_json::Value {
    let finding = |f: &Finding| serde_json::json!({"rule": f.rule, "severity": f.severity, "place": f.place().to_string(), "message": f.message});
    serde_json::json!({
        "version": 1,
        "kernels": result.kernels.iter().map(|k| serde_json::json!({
            "name": k.name,
            "launch": k.launch,
            "base_id": k.base_id,
            "head_id": k.head_id,
            "new": k.new.iter().map(finding).collect::<Vec<_>>(),
            "fixed": k.fixed.iter().map(finding).collect::<Vec<_>>(),
            "changes": k.changes,
        })).collect::<Vec<_>>(),
        "only_base": result.only_base,
        "only_head": result.only_head,
    })
}
