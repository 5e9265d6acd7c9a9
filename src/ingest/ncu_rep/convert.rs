//! A kernel result of the container as the model's [`Kernel`]: its name,
//! launch, and every metric by name (through the string table), in the base
//! units the raw page prints with `--print-units base`; `derived__*`
//! metrics a section defines but the result does not store are computed.

use std::collections::HashMap;
use std::sync::Arc;

use super::derived;
use prost::Message;

use super::messages::{
    MetricResult, MetricValue, ProfileResult, Section, SectionId, Uint64x3, text,
};
use crate::ingest::Needed;
use crate::model::{Form, Kernel, Launch, Metric, Metrics, Origin};
use crate::value::Value;

/// The kernel of the `index`-th result, read from file `file`; only the
/// metrics in `needed` are kept (all when `None`, as for `dump`, which also
/// keeps each value's text).
pub fn kernel(
    result: &ProfileResult,
    index: u64,
    strings: &[String],
    needed: Option<&Needed>,
    file: usize,
) -> Kernel {
    let origin = Origin {
        file,
        line: index + 1,
        column: 0,
    };
    let keep = |name: &str| needed.is_none_or(|n| n.keys.contains(name));
    let name_of = |m: &MetricResult| m.name_id.and_then(|i| strings.get(i as usize));
    let with_text = needed.is_none();
    let mut metrics = Metrics::default();
    let mut launch_values = LaunchValues::default();
    for m in &result.metrics {
        let Some(name) = name_of(m) else { continue };
        launch_values.note(name, m);
        if keep(name) {
            metrics.insert(Arc::from(name.as_str()), metric(read(m), origin, with_text));
        }
    }
    add_derived(result, strings, &mut metrics, &keep, origin, with_text);
    Kernel {
        id: Some(index),
        name: name(result),
        launch: Box::new(launch_values.launch(result)),
        invocations: None,
        metrics,
        ncu_rules: Vec::new(),
        source: None,
        origin,
        form: Some(Form::Raw),
    }
}

/// A metric's value: its number or text, else its instances.
fn read(m: &MetricResult) -> Value {
    match &m.value {
        Some(v) => value(v),
        None if !m.raw_instances.is_empty() => Value::Instances(
            m.instances()
                .filter_map(|i| i.value.as_ref()?.number())
                .collect(),
        ),
        None => Value::Missing,
    }
}

/// The metrics the launch columns are read from, as they pass.
#[derive(Default)]
struct LaunchValues {
    device: Option<f64>,
    major: Option<f64>,
    minor: Option<f64>,
}

impl LaunchValues {
    fn note(&mut self, name: &str, m: &MetricResult) {
        let slot = match name {
            "launch__device_id" => &mut self.device,
            "device__attribute_compute_capability_major" => &mut self.major,
            "device__attribute_compute_capability_minor" => &mut self.minor,
            _ => return,
        };
        *slot = read(m).as_number();
    }

    /// The launch columns of the raw page.
    fn launch(&self, result: &ProfileResult) -> Launch {
        let dims = |d: &Option<Uint64x3>| {
            d.as_ref()
                .map(|d| [d.x.unwrap_or(1), d.y.unwrap_or(1), d.z.unwrap_or(1)])
        };
        Launch {
            context: result.context_id,
            stream: result.stream_id,
            device: self.device.map(|d| d as u64),
            cc: self
                .major
                .zip(self.minor)
                .map(|(major, minor)| format!("{major}.{minor}")),
            block: dims(&result.block),
            grid: dims(&result.grid),
            ..Launch::default()
        }
    }
}

/// The name as the raw page prints it: renamed, else demangled, else the
/// function's, else the mangled symbol.
fn name(result: &ProfileResult) -> String {
    [
        &result.renamed_name,
        &result.demangled_name,
        &result.function_name,
        &result.mangled_name,
    ]
    .into_iter()
    .find_map(|n| text(n).filter(|t| !t.is_empty()))
    .unwrap_or_default()
}

fn value(v: &MetricValue) -> Value {
    match (v.number(), v.as_text()) {
        (Some(n), _) if n.is_finite() => Value::Number(n),
        (Some(_), _) => Value::Missing,
        (None, Some(s)) if s.is_empty() => Value::Missing,
        (None, Some(s)) => Value::Text(s),
        (None, None) => Value::Missing,
    }
}

fn metric(value: Value, origin: Origin, with_text: bool) -> Metric {
    let raw = match &value {
        _ if !with_text => String::new(),
        Value::Number(n) => n.to_string(),
        Value::Text(t) => t.clone(),
        _ => String::new(),
    };
    Metric {
        value,
        unit: String::new(),
        raw,
        raw_unit: String::new(),
        label: None,
        origin,
    }
}

/// Derived metrics the result's sections define and it does not store,
/// computed from the ones it does, where they are kept.
fn add_derived(
    result: &ProfileResult,
    strings: &[String],
    metrics: &mut Metrics,
    keep: &dyn Fn(&str) -> bool,
    origin: Origin,
    with_text: bool,
) {
    let mut stored: Option<HashMap<&str, &MetricResult>> = None;
    let sections: Vec<Section> = result
        .sections
        .iter()
        .filter_map(|s| Section::decode(s.clone()).ok())
        .collect();
    let definitions = sections
        .iter()
        .filter_map(|s| s.metric_definitions.as_ref())
        .flat_map(|d| d.definitions.iter());
    for definition in definitions {
        let (Some(name), Some(expression)) = (text(&definition.name), text(&definition.expression))
        else {
            continue;
        };
        if !keep(&name) || metrics.contains_key(name.as_str()) {
            continue;
        }
        // Built once, and only when a kept derived metric is not stored.
        let stored = stored.get_or_insert_with(|| {
            result
                .metrics
                .iter()
                .filter_map(|m| Some((strings.get(m.name_id? as usize)?.as_str(), m)))
                .collect()
        });
        if stored.contains_key(name.as_str()) {
            continue;
        }
        let lookup = |n: &str| stored.get(n).and_then(|m| read(m).as_number());
        if let Some(v) = derived::evaluate(&expression, &lookup).filter(|v| v.is_finite()) {
            let value = metric(Value::Number(v), origin, with_text);
            metrics.insert(Arc::from(name.as_str()), value);
        }
    }
}

/// The section identifiers a result was collected with.
pub fn sections(result: &ProfileResult) -> Vec<String> {
    result
        .sections
        .iter()
        .filter_map(|s| text(&SectionId::decode(s.clone()).ok()?.identifier))
        .collect()
}
