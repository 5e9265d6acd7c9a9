//! The raw page (`--page raw`): one row per profile result, metric names as
//! columns (some prefixed, `SM_A.TriageCompute.` or `warpsampling:`), and a
//! units row second, whose identity cells are empty.

use std::io::BufRead;
use std::sync::Arc;

use super::collect::FileImport;
use super::error::IngestError;
use super::launch::{IDENTITY_COLUMNS, LaunchColumns, is_nvtx_column};
use super::records::Records;
use crate::model::Origin;

/// One raw header and the units row under it.
#[derive(Debug)]
pub struct RawTable {
    launch: LaunchColumns,
    /// (column index, metric name) of every metric column.
    metrics: Vec<(usize, Arc<str>)>,
    units: Vec<String>,
    /// Whether `metrics` has been narrowed to the keys the import keeps.
    narrowed: bool,
    /// The column of the GPU's name, where the page has one.
    device_name: Option<usize>,
}

impl RawTable {
    /// Whether `header` is a raw header: it starts with "ID" and has no
    /// "Metric Value" column.
    pub fn matches(header: &[String]) -> bool {
        header.first().map(String::as_str) == Some("ID")
            && !header.iter().any(|h| h == "Metric Value")
    }

    /// The table for `header`.
    pub fn new(header: &[String]) -> Self {
        RawTable {
            launch: LaunchColumns::from_header(header),
            metrics: header
                .iter()
                .enumerate()
                .filter(|(_, h)| !IDENTITY_COLUMNS.contains(&h.as_str()) && !is_nvtx_column(h))
                .map(|(i, h)| (i, Arc::from(h.as_str())))
                .collect(),
            units: Vec::new(),
            narrowed: false,
            device_name: header
                .iter()
                .position(|h| h == "device__attribute_display_name"),
        }
    }

    /// Reads one row: the units row, or a result.
    pub fn row<R: BufRead>(
        &mut self,
        rec: &Records<R>,
        out: &mut FileImport,
    ) -> Result<(), IngestError> {
        if self.launch.id_cell(rec).trim().is_empty() {
            if self.units.is_empty() {
                self.units = rec.fields();
            }
            return Ok(());
        }
        let Some(id) = self.launch.read_id(rec)? else {
            return Ok(());
        };
        let row_origin = Origin {
            file: out.file,
            line: rec.line(),
            column: 1,
        };
        if let Some(i) = self.device_name {
            out.see_device(rec.field(i));
        }
        if !self.narrowed {
            self.metrics.retain(|(_, name)| out.wants(name));
            self.narrowed = true;
        }
        if !out.begin_result(id, row_origin) {
            return Ok(());
        }
        let mut metrics = Vec::with_capacity(self.metrics.len());
        for (i, name) in &self.metrics {
            let unit = self.units.get(*i).map_or("", String::as_str);
            let origin = Origin {
                column: rec.column(*i),
                ..row_origin
            };
            metrics.push((
                name.clone(),
                out.metric(name, rec.field(*i), unit, None, origin),
            ));
        }
        let kernel = out.result(
            id,
            self.launch.name(rec),
            || self.launch.read(rec),
            row_origin,
        );
        kernel.metrics.reserve(metrics.len());
        for (name, metric) in metrics {
            kernel.metrics.entry(name).or_insert(metric);
        }
        Ok(())
    }
}
