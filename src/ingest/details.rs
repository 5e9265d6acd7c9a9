//! The details page (`ncu --csv`, the default) and `--metrics` selections:
//! one row per metric, or per rule result, of one profile result.
//!
//! Metric rows are often shorter than the header (ragged: a trailing comma
//! and no rule cells); missing cells read as empty.

use std::io::BufRead;
use std::rc::Rc;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::collect::FileImport;
use super::distribution::SeriesRows;
use super::error::IngestError;
use super::labels::{is_metric_name, metric_name, split_label_name};
use super::launch::LaunchColumns;
use super::records::Records;
use crate::model::{NcuRule, Origin, label_key};
use crate::value::{parse_number, unit_factor};

/// Column positions of one details header.
#[derive(Debug)]
pub struct DetailsTable {
    launch: LaunchColumns,
    section: Option<usize>,
    body: Option<usize>,
    name: usize,
    unit: Option<usize>,
    value: usize,
    rule_name: Option<usize>,
    rule_type: Option<usize>,
    rule_description: Option<usize>,
    speedup_type: Option<usize>,
    speedup: Option<usize>,
    /// Fewest fields a metric row has (through "Metric Value").
    min_fields: usize,
    /// A section table (`--print-details all`) being read: its header, the
    /// section and result it belongs to.
    section_table: Option<SectionTable>,
    /// The last metric row's result and section, which a section table follows.
    last: Option<(u64, String)>,
    /// Resolved keys by section, body item and printed name.
    keys: FxHashMap<Vec<u8>, Option<Rc<Resolved>>>,
    scratch: Vec<u8>,
    /// The section cell of the previous row, so each is noted once per run.
    last_section: String,
    /// The Workload Distribution chart's rows, which one label names four of.
    series: Box<SeriesRows>,
}

/// A table that `--print-details all` prints inside a section, between rows.
#[derive(Debug)]
struct SectionTable {
    header: Vec<String>,
    id: u64,
    section: String,
}

impl DetailsTable {
    /// Whether `header` is a details header (it has "Metric Value").
    pub fn matches(header: &[String]) -> bool {
        header.first().map(String::as_str) == Some("ID")
            && header.iter().any(|h| h == "Metric Value")
    }

    /// The table for `header`, which [`Self::matches`].
    pub fn new(header: &[String]) -> Self {
        let find = |name: &str| header.iter().position(|h| h == name);
        DetailsTable {
            launch: LaunchColumns::from_header(header),
            section: find("Section Name"),
            body: find("Body Item Label"),
            name: find("Metric Name").unwrap_or(usize::MAX),
            unit: find("Metric Unit"),
            value: find("Metric Value").unwrap_or(usize::MAX),
            rule_name: find("Rule Name"),
            rule_type: find("Rule Type"),
            rule_description: find("Rule Description"),
            speedup_type: find("Estimated Speedup Type"),
            speedup: find("Estimated Speedup"),
            min_fields: find("Metric Value").map_or(usize::MAX, |i| i + 1),
            section_table: None,
            last: None,
            keys: FxHashMap::default(),
            scratch: Vec::new(),
            last_section: String::new(),
            series: Box::default(),
        }
    }

    /// Reads one row into its result.
    pub fn row<R: BufRead>(
        &mut self,
        rec: &Records<R>,
        out: &mut FileImport,
    ) -> Result<(), IngestError> {
        if rec.field_count() < self.min_fields && !self.is_rule_row(rec) {
            self.section_table_row(rec, out);
            return Ok(());
        }
        self.section_table = None;
        let Some(id) = self.launch.read_id(rec)? else {
            return Ok(());
        };
        let cell = |col: Option<usize>| col.map_or("", |i| rec.field(i));
        let file = out.file;
        let origin = |col: usize| Origin {
            file,
            line: rec.line(),
            column: rec.column(col),
        };
        // The ID is the row's first field: column 1, with no need to scan.
        let row_origin = Origin {
            file,
            line: rec.line(),
            column: 1,
        };
        if !out.begin_result(id, row_origin) {
            return Ok(());
        }
        let section = cell(self.section);
        if section != self.last_section {
            out.see_section(section);
            self.last_section = section.to_owned();
        }
        let rule_name = cell(self.rule_name);
        if !rule_name.is_empty() && out.wants_ncu_rules() {
            let rule = NcuRule {
                section: section.to_owned(),
                name: rule_name.to_owned(),
                kind: cell(self.rule_type).to_owned(),
                description: cell(self.rule_description).to_owned(),
                speedup_type: Some(cell(self.speedup_type))
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned),
                speedup: parse_number(cell(self.speedup).trim()).and_then(Result::ok),
                origin: row_origin,
            };
            let kernel = out.result(
                id,
                self.launch.name(rec),
                || self.launch.read(rec),
                row_origin,
            );
            kernel.ncu_rules.push(rule);
            return Ok(());
        }
        let printed = rec.field(self.name);
        if printed.is_empty() {
            return Ok(());
        }
        let body = cell(self.body);
        if self
            .last
            .as_ref()
            .is_none_or(|(last_id, last_section)| *last_id != id || last_section != section)
        {
            self.last = Some((id, section.to_owned()));
        }
        let series = self.series.metric(id, section, body, printed);
        let drop = if series.is_some() {
            let number = parse_number(rec.field(self.value).trim())
                .and_then(Result::ok)
                .map(|n| n * unit_factor(cell(self.unit)));
            self.series.record(number)
        } else {
            None
        };
        let resolved = match series {
            Some(name) => out
                .wants(&name)
                .then(|| Rc::new((Arc::from(name), Some(printed.to_owned())))),
            None => self.resolve_cached(section, body, printed, out),
        };
        let metric = resolved.as_deref().map(|(key, label)| {
            let metric = out.metric(
                key,
                rec.field(self.value),
                cell(self.unit),
                label.as_deref(),
                origin(self.value),
            );
            (key.clone(), metric)
        });
        let kernel = out.result(
            id,
            self.launch.name(rec),
            || self.launch.read(rec),
            row_origin,
        );
        if let Some((key, metric)) = metric {
            kernel.metrics.entry(key).or_insert(metric);
        }
        for name in drop.iter().flatten() {
            kernel.metrics.shift_remove(name.as_str());
        }
        Ok(())
    }

    /// The key and label of a metric row, or `None` when the import does not
    /// keep it; remembered per distinct (section, body item, printed name),
    /// since a large export repeats the same few hundred thousands of times.
    fn resolve_cached(
        &mut self,
        section: &str,
        body: &str,
        printed: &str,
        out: &FileImport,
    ) -> Option<Rc<Resolved>> {
        self.scratch.clear();
        for part in [section, "\u{1f}", body, "\u{1f}", printed] {
            self.scratch.extend_from_slice(part.as_bytes());
        }
        if let Some(known) = self.keys.get(self.scratch.as_slice()) {
            return known.clone();
        }
        let (key, label) = resolve_key(section, body, printed);
        let resolved = out
            .wants(&key)
            .then(|| Rc::new((Arc::from(key), label.map(str::to_owned))));
        if self.keys.len() >= KEY_CACHE_LIMIT {
            self.keys.clear();
        }
        self.keys.insert(self.scratch.clone(), resolved.clone());
        resolved
    }
}

/// A metric row's key and printed label.
type Resolved = (Arc<str>, Option<String>);

/// Distinct metric rows remembered at most; a hostile file cannot make the
/// cache grow without bound.
const KEY_CACHE_LIMIT: usize = 65_536;

impl DetailsTable {
    /// Rule rows are as long as the header; shorter rows are metric rows
    /// (ragged) or section-table rows.
    fn is_rule_row<R: BufRead>(&self, rec: &Records<R>) -> bool {
        self.rule_name
            .is_some_and(|i| i < rec.field_count() && !rec.field(i).is_empty())
    }

    /// A row shorter than any metric row: a section table's header, or its
    /// data, stored as `Section: Column` metrics of the result it follows.
    fn section_table_row<R: BufRead>(&mut self, rec: &Records<R>, out: &mut FileImport) {
        let Some(table) = &self.section_table else {
            if let Some((id, section)) = self.last.clone() {
                self.section_table = Some(SectionTable {
                    header: rec.fields(),
                    id,
                    section,
                });
            }
            return;
        };
        let mut metrics = Vec::new();
        for (i, column) in table.header.iter().enumerate() {
            let key = label_key(&table.section, "", column);
            if !out.wants(&key) {
                continue;
            }
            let origin = Origin {
                file: out.file,
                line: rec.line(),
                column: rec.column(i),
            };
            metrics.push((
                Arc::<str>::from(key.as_str()),
                out.metric(&key, rec.field(i), "", Some(column), origin),
            ));
        }
        if let Some(kernel) = out.kernel_mut(table.id) {
            for (key, metric) in metrics {
                kernel.metrics.entry(key).or_insert(metric);
            }
        }
    }
}

/// The metric key of a details row and its label, if it printed one.
fn resolve_key<'a>(section: &str, body: &str, printed: &'a str) -> (String, Option<&'a str>) {
    if let Some((label, name)) = split_label_name(printed) {
        return (name.to_owned(), Some(label));
    }
    if is_metric_name(printed) {
        return (printed.to_owned(), None);
    }
    match metric_name(section, body, printed) {
        Some(name) => (name.to_owned(), Some(printed)),
        None => (label_key(section, body, printed), Some(printed)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_prefer_names() {
        assert_eq!(
            resolve_key(
                "Memory Workload Analysis",
                "",
                "Local Memory Spilling Requests"
            ),
            (
                "derived__local_spilling_requests".into(),
                Some("Local Memory Spilling Requests")
            )
        );
        assert_eq!(
            resolve_key(
                "x",
                "",
                "Local Memory Spilling Requests (derived__local_spilling_requests)"
            ),
            (
                "derived__local_spilling_requests".into(),
                Some("Local Memory Spilling Requests")
            )
        );
        assert_eq!(
            resolve_key("Command line profiler metrics", "", "dram__bytes.sum"),
            ("dram__bytes.sum".into(), None)
        );
        assert_eq!(
            resolve_key("GPU Speed Of Light", "", "SOL FB"),
            ("GPU Speed Of Light: SOL FB".into(), Some("SOL FB"))
        );
        assert_eq!(
            resolve_key(
                "Compute Workload Analysis",
                "Pipe Utilization (% of elapsed cycles)",
                "FMA"
            ),
            (
                "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed".into(),
                Some("FMA")
            )
        );
        assert_eq!(
            resolve_key(
                "Compute Workload Analysis",
                "Pipe Utilization (% of elapsed cycles)",
                "New Pipe"
            ),
            (
                "Compute Workload Analysis: Pipe Utilization (% of elapsed cycles): New Pipe"
                    .into(),
                Some("New Pipe")
            )
        );
    }
}
