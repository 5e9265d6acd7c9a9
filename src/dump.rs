//! `ncu-lint dump`: the imported model as JSON (stable) or text.
//!
//! The JSON shape: `{"kernels": [{"id", "name", "device", "cc", "block",
//! "grid", "metrics": {"<name>": {"value", "unit", "raw", ...}}, "source":
//! {"lines": N, ...} | null, ...}], "files": [{"path", "form"}], ...}`.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value as Json, json};

use crate::model::{InputFile, Kernel, Metric, Origin, Report};
use crate::value::Value;

/// The report as the stable JSON document.
pub fn to_json(report: &Report) -> Json {
    json!({
        "kernels": report.kernels.iter().map(kernel_json).collect::<Vec<_>>(),
        "files": report.files,
        "session": report.session,
        "source_files": source_files_json(report),
        "unattached": report.unattached,
        "warnings": report.warnings,
    })
}

/// Writes [`to_json`]'s document to `out`, pretty-printed, ending in a
/// newline, building one kernel's JSON at a time: a large profile's whole
/// tree would take several times the memory of the model itself.
pub fn write_json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &Document(report))?;
    out.write_all(b"\n")
}

/// The document, serialised field by field.
struct Document<'a>(&'a Report);

/// The kernels, serialised one at a time.
struct Kernels<'a>(&'a [Kernel]);

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.0;
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("kernels", &Kernels(&report.kernels))?;
        map.serialize_entry("files", &report.files)?;
        map.serialize_entry("session", &report.session)?;
        map.serialize_entry("source_files", &source_files_json(report))?;
        map.serialize_entry("unattached", &report.unattached)?;
        map.serialize_entry("warnings", &report.warnings)?;
        map.end()
    }
}

impl Serialize for Kernels<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for kernel in self.0 {
            seq.serialize_element(&kernel_json(kernel))?;
        }
        seq.end()
    }
}

fn source_files_json(report: &Report) -> Vec<Json> {
    report
        .source_files
        .iter()
        .map(|f| json!({"path": f.path, "lines": f.lines.len()}))
        .collect()
}

fn kernel_json(kernel: &Kernel) -> Json {
    let launch = &kernel.launch;
    let mut out = Map::new();
    out.insert("id".into(), json!(kernel.id));
    out.insert("name".into(), json!(kernel.name));
    out.insert("device".into(), json!(launch.device));
    out.insert("cc".into(), json!(launch.cc));
    out.insert("block".into(), json!(launch.block));
    out.insert("grid".into(), json!(launch.grid));
    out.insert(
        "process".into(),
        json!({"id": launch.process_id, "name": launch.process_name, "host": launch.host}),
    );
    out.insert("context".into(), json!(launch.context));
    out.insert("stream".into(), json!(launch.stream));
    if let Some(time) = &launch.kernel_time {
        out.insert("kernel_time".into(), json!(time));
    }
    if !launch.nvtx.is_empty() {
        out.insert("nvtx".into(), json!(launch.nvtx));
    }
    if let Some(n) = kernel.invocations {
        out.insert("invocations".into(), json!(n));
    }
    let metrics: Map<String, Json> = kernel
        .metrics
        .iter()
        .map(|(key, metric)| (key.to_string(), metric_json(metric)))
        .collect();
    out.insert("metrics".into(), Json::Object(metrics));
    if !kernel.ncu_rules.is_empty() {
        out.insert("ncu_rules".into(), json!(kernel.ncu_rules));
    }
    out.insert(
        "source".into(),
        kernel.source.as_ref().map_or(Json::Null, |s| {
            json!({
                "file": s.own_file(),
                "files": s.files,
                "function": s.function,
                "lines": s.lines.len(),
                "instructions": s.instructions.len(),
                "columns": s.columns,
            })
        }),
    );
    out.insert("origin".into(), origin_json(kernel.origin));
    Json::Object(out)
}

fn metric_json(metric: &Metric) -> Json {
    let mut out = Map::new();
    out.insert("value".into(), json!(metric.value));
    out.insert("unit".into(), json!(metric.unit));
    out.insert("raw".into(), json!(metric.raw));
    if metric.raw_unit != metric.unit {
        out.insert("raw_unit".into(), json!(metric.raw_unit));
    }
    if let Some(label) = &metric.label {
        out.insert("label".into(), json!(label));
    }
    out.insert("origin".into(), origin_json(metric.origin));
    Json::Object(out)
}

fn origin_json(origin: Origin) -> Json {
    json!({"file": origin.file, "line": origin.line, "column": origin.column})
}

/// The report as text for reading in a terminal.
pub fn to_text(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "report: {}",
        crate::coverage::Coverage::of_report(report).describe()
    );
    for (i, file) in report.files.iter().enumerate() {
        file_text(&mut out, i, file);
    }
    for kernel in &report.kernels {
        kernel_text(&mut out, kernel);
    }
    for block in &report.unattached {
        let _ = writeln!(
            out,
            "\nunattached source block `{}` (file {}, line {}): {}",
            block.function, block.origin.file, block.origin.line, block.reason
        );
    }
    for warning in &report.warnings {
        let _ = writeln!(
            out,
            "\nwarning: {} (file {}, line {}, {} time(s))",
            warning.message, warning.origin.file, warning.origin.line, warning.count
        );
    }
    out
}

/// One export file: its form, sections, GPU, and what ncu said in it.
fn file_text(out: &mut String, index: usize, file: &InputFile) {
    let _ = writeln!(out, "file {index}: {} ({})", file.path, file.form.name());
    if !file.sections.is_empty() {
        let inferred = if file.sections_inferred {
            " (inferred from its metrics)"
        } else {
            ""
        };
        let _ = writeln!(out, "  sections: {}{inferred}", file.sections.join(", "));
    }
    if !file.devices.is_empty() {
        let _ = writeln!(out, "  GPU: {}", file.devices.join(", "));
    }
    if !file.no_lineinfo.is_empty() {
        let _ = writeln!(
            out,
            "  no lineinfo (built without -lineinfo): {} kernel(s)",
            file.no_lineinfo.len()
        );
    }
    for message in &file.messages {
        let _ = writeln!(out, "  line {}: {}", message.line, message.text);
    }
}

/// One result: its launch, its source view, and every metric.
fn kernel_text(out: &mut String, kernel: &Kernel) {
    let id = kernel
        .id
        .map_or_else(|| "-".to_owned(), |id| id.to_string());
    let _ = writeln!(out, "\nkernel {id}: {}", kernel.name);
    let launch = &kernel.launch;
    let dims =
        |d: Option<[u64; 3]>| d.map_or("?".to_owned(), |[x, y, z]| format!("({x}, {y}, {z})"));
    let _ = writeln!(
        out,
        "  block {} grid {} device {} cc {}",
        dims(launch.block),
        dims(launch.grid),
        launch.device.map_or("?".to_owned(), |d| d.to_string()),
        launch.cc.as_deref().unwrap_or("?")
    );
    if let Some(source) = &kernel.source {
        let file = match source.files.as_slice() {
            [] => String::new(),
            [one] => format!(" in {one}"),
            files => format!(
                " in {} (and {} more files)",
                source.own_file().unwrap_or_default(),
                files.len() - 1
            ),
        };
        let _ = writeln!(
            out,
            "  source: {} CUDA lines, {} instructions{file}",
            source.lines.len(),
            source.instructions.len(),
        );
    }
    let _ = writeln!(
        out,
        "  {} metrics, {} ncu rule results",
        kernel.metrics.len(),
        kernel.ncu_rules.len()
    );
    for (key, metric) in &kernel.metrics {
        let _ = writeln!(
            out,
            "    {key} = {}",
            value_text(&metric.value, &metric.unit)
        );
    }
}

fn value_text(value: &Value, unit: &str) -> String {
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    match value {
        Value::Number(n) => format!("{n}{unit}"),
        Value::Instances(v) => format!("{v:?}{unit}"),
        Value::Text(t) => format!("{t:?}"),
        Value::Missing => "(no data)".to_owned(),
    }
}
