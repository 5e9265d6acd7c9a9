//! The stable JSON document of `ncu-lint check --format json`:
//! `{"version": 1, "findings": [...], "groups": [...], "skipped": [...],
//! "coverage": {...}, "summary": {...}}`. Each finding carries its `impact`
//! (`kernel_ns`, `speedup`, `saved_ns`, `bytes`, and `speedup_ceiling` where
//! the estimate counts on an L1 that caught the waste's re-reads; `basis`,
//! the estimate the data allowed, and `terms`, the numbers it derived for
//! the whole kernel; `null` without a duration);
//! `groups` gather the findings of one kernel at one place, ranked by
//! `saved_ns`, and `summary.profile_ns` is the GPU time of all results;
//! `coverage` says what the report holds and, when rules were skipped, the
//! sections they need and the command to profile.
//!
//! It is serialised straight from the findings, without an intermediate
//! JSON tree: large profiles have tens of thousands of findings.

use std::io::{self, Write};

use serde::Serialize;

use super::{Context, Emitter, count_by_severity};
use crate::coverage::Coverage;
use crate::diff::DiffResult;
use crate::rules::finding::Instruction;
use crate::rules::{Finding, Location, Severity, Skip};
use crate::triage::{Group, groups};

/// The JSON document.
pub struct Json;

impl Emitter for Json {
    fn emit(&self, context: &Context<'_>, out: &mut dyn Write) -> io::Result<()> {
        write_json(context, out)
    }

    fn emit_diff(&self, diff: &DiffResult, out: &mut dyn Write) -> io::Result<()> {
        write_pretty(&diff_json(diff), out)
    }
}

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    findings: Vec<FindingJson<'a>>,
    groups: Vec<GroupJson>,
    skipped: &'a [Skip],
    coverage: Coverage,
    summary: Summary,
}

#[derive(Serialize)]
struct FindingJson<'a> {
    rule: &'a str,
    severity: Severity,
    kernel: KernelJson<'a>,
    location: Option<&'a Location>,
    instruction: Option<&'a Instruction>,
    message: &'a str,
    values: &'a crate::rules::finding::Values,
    variant: &'a str,
    export: ExportJson<'a>,
    impact: Option<ImpactJson<'a>>,
    fix: Option<&'a str>,
    /// The library of the kernel, where users do not write it.
    #[serde(skip_serializing_if = "Option::is_none")]
    library: Option<&'a str>,
}

/// A place with findings, ranked by what a fix is worth.
#[derive(Serialize)]
struct GroupJson {
    kernel: String,
    name: String,
    location: Option<Location>,
    rules: Vec<String>,
    launches: usize,
    findings: Vec<usize>,
    saved_ns: Option<f64>,
    bytes: Option<f64>,
    severity: Severity,
    /// Where the place fails the gate only by the most a fix can save (the
    /// L1 caught the waste's re-reads as profiled): that most, over all
    /// launches.
    #[serde(skip_serializing_if = "Option::is_none")]
    ceiling_ns: Option<f64>,
}

impl From<Group> for GroupJson {
    fn from(g: Group) -> GroupJson {
        GroupJson {
            kernel: g.kernel,
            name: g.name,
            location: g.location,
            rules: g.rules,
            launches: g.launches,
            findings: g.findings,
            saved_ns: g.saved_ns,
            bytes: g.bytes,
            severity: g.severity,
            ceiling_ns: g.ceiling.map(|c| c.saved_ns),
        }
    }
}

/// What a fix is worth; absent (`null`) where the export has no duration.
#[derive(Serialize)]
struct ImpactJson<'a> {
    kernel_ns: f64,
    speedup: Option<f64>,
    saved_ns: Option<f64>,
    bytes: Option<f64>,
    /// The most a fix can save where `speedup` counts on what the profiled
    /// run happened to do (an L1 that caught the waste's re-reads).
    #[serde(skip_serializing_if = "Option::is_none")]
    speedup_ceiling: Option<f64>,
    /// Which of the rule's estimates the kernel's data allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    basis: Option<&'a str>,
    /// The numbers that estimate derived for the whole kernel, by name.
    #[serde(skip_serializing_if = "Terms::is_empty")]
    terms: Terms<'a>,
}

/// An estimate's derived numbers, written as a JSON object in their order.
struct Terms<'a>(&'a [(crate::rules::finding::Name, f64)]);

impl Terms<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Terms<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(&**name, value)?;
        }
        map.end()
    }
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
    /// What Inductor recorded of a kernel it generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    inductor: Option<std::rc::Rc<crate::inductor::Provenance>>,
}

#[derive(Serialize)]
struct Summary {
    kernels: usize,
    findings: usize,
    by_severity: BySeverity,
    /// The GPU time of all results, where every one has a duration.
    profile_ns: Option<f64>,
}

#[derive(Serialize)]
struct BySeverity {
    error: usize,
    warning: usize,
    note: usize,
}

impl<'a> FindingJson<'a> {
    fn new(f: &'a Finding, context: &Context<'a>) -> Self {
        let report = context.report;
        FindingJson {
            rule: &f.rule,
            severity: f.severity,
            kernel: KernelJson {
                id: f.kernel_id,
                name: &f.kernel_name,
                inductor: report
                    .kernels
                    .get(f.kernel)
                    .and_then(|k| context.cuda.inductor(k)),
            },
            location: f.location.as_deref(),
            instruction: f.instruction.as_deref(),
            message: &f.message,
            values: &f.values,
            variant: &f.variant,
            library: f.library.as_deref(),
            export: ExportJson {
                path: report.export_path(&f.origin),
                line: f.origin.line,
            },
            fix: f.fix.as_deref(),
            impact: f.estimate.kernel_ns.map(|kernel_ns| ImpactJson {
                kernel_ns,
                speedup: f.estimate.speedup,
                saved_ns: f.estimate.saved_ns,
                bytes: f.estimate.bytes,
                speedup_ceiling: f.estimate.ceiling.as_ref().map(|c| c.speedup),
                basis: f.estimate.basis.as_deref(),
                terms: Terms(&f.estimate.terms),
            }),
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
            .map(|f| FindingJson::new(f, context))
            .collect(),
        groups: groups(result).into_iter().map(GroupJson::from).collect(),
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
            profile_ns: result.profile_ns(),
        },
    };
    write_pretty(&document, out)
}

/// Writes `value` as pretty-printed JSON and a newline. The serializer
/// writes a few bytes at a time; it writes them into a buffer of its own
/// type, not through `out`'s dynamic dispatch one call each.
pub fn write_pretty<T: serde::Serialize + ?Sized>(
    value: &T,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut buffered = io::BufWriter::with_capacity(1 << 16, out);
    serde_json::to_writer_pretty(&mut buffered, value)?;
    buffered.write_all(b"\n")?;
    buffered.flush()
}

/// A diff as JSON: `{"version": 1, "kernels": [...], "only_base": [...],
/// "only_head": [...], "groups": [...], "timing": {...}}`; `groups` are the
/// places whose estimated time to gain moved (`base_ns`, `head_ns`,
/// `regression`); `timing` has each kernel's durations in both profiles
/// (`kernels[]`: `base` and `head` with `count`, `total_ns`, `median_ns`;
/// `saved_ns`, `noise`, `verdict`, `estimated_ns`, `agrees`,
/// `launch_changes`, and `shortfall`: what a fixed kernel that saved less
/// than estimated waits on), the two profiles' conditions, what differs
/// (`differences`) and the totals (`summary`).
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
        "groups": result.groups,
        "timing": result.timing,
    })
}
