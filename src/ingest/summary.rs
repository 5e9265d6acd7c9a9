//! `--print-summary per-kernel`: one row per kernel and metric, aggregated
//! over its launches (minimum, maximum, average). Entries have no result ID;
//! each becomes a kernel whose metrics are the averages.

use std::io::BufRead;

use super::collect::FileImport;
use super::error::IngestError;
use super::launch::LaunchColumns;
use super::records::Records;
use crate::model::{Kernel, Origin, label_key};

/// Column positions of one summary header.
#[derive(Debug)]
pub struct SummaryTable {
    launch: LaunchColumns,
    invocations: Option<usize>,
    section: Option<usize>,
    name: usize,
    unit: Option<usize>,
    average: usize,
    /// The identity cells of the entry being read, to tell where the next begins.
    current: Option<String>,
}

impl SummaryTable {
    /// Whether `header` is a per-kernel summary header.
    pub fn matches(header: &[String]) -> bool {
        header.first().map(String::as_str) == Some("Process ID")
            && header.iter().any(|h| h == "Invocations")
    }

    /// The table for `header`.
    pub fn new(header: &[String]) -> Self {
        let find = |name: &str| header.iter().position(|h| h == name);
        SummaryTable {
            launch: LaunchColumns::from_header(header),
            invocations: find("Invocations"),
            section: find("Section Name"),
            name: find("Metric Name").unwrap_or(usize::MAX),
            unit: find("Metric Unit"),
            average: find("Average").unwrap_or(usize::MAX),
            current: None,
        }
    }

    /// Reads one row into the entry it belongs to.
    pub fn row<R: BufRead>(
        &mut self,
        rec: &Records<R>,
        out: &mut FileImport,
    ) -> Result<(), IngestError> {
        let identity_end = self.section.unwrap_or(self.name).min(rec.field_count());
        let identity: String = (0..identity_end)
            .map(|i| rec.field(i))
            .collect::<Vec<_>>()
            .join("\u{1f}");
        let origin = Origin {
            file: out.file,
            line: rec.line(),
            column: 1,
        };
        if self.current.as_deref() != Some(identity.as_str()) {
            out.next_entry();
            out.kernels.push(Kernel {
                id: None,
                name: self.launch.name(rec).to_owned(),
                launch: Box::new(self.launch.read(rec)),
                invocations: self
                    .invocations
                    .and_then(|i| rec.field(i).trim().parse().ok()),
                origin,
                ..Kernel::default()
            });
            self.current = Some(identity);
        }
        let label = rec.field(self.name);
        let section = self.section.map_or("", |i| rec.field(i));
        let key = if super::labels::is_metric_name(label) {
            label.to_owned()
        } else {
            super::labels::metric_name(section, "", label)
                .map_or_else(|| label_key(section, "", label), str::to_owned)
        };
        if !out.wants(&key) {
            return Ok(());
        }
        let unit = self.unit.map_or("", |i| rec.field(i));
        let metric = out.metric(
            &key,
            rec.field(self.average),
            unit,
            Some(label),
            Origin {
                column: rec.column(self.average),
                ..origin
            },
        );
        if let Some(kernel) = out.kernels.last_mut() {
            kernel.metrics.entry(key.into()).or_insert(metric);
        }
        Ok(())
    }
}
