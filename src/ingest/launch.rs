//! The launch identity columns that the details, raw and summary pages share
//! ("ID", "Kernel Name", "Block Size", ...), found by header name so that
//! old layouts ("Kernel Time", no Block/Grid/Device/CC) and NVTX columns read
//! the same way.

use std::io::BufRead;

use super::error::{IngestError, Snippet};
use super::records::Records;
use crate::model::Launch;

/// Where each identity column sits in a header.
#[derive(Debug, Default, Clone)]
pub struct LaunchColumns {
    id: Option<usize>,
    process_id: Option<usize>,
    process_name: Option<usize>,
    host: Option<usize>,
    kernel_name: Option<usize>,
    kernel_time: Option<usize>,
    context: Option<usize>,
    stream: Option<usize>,
    block: Option<usize>,
    grid: Option<usize>,
    device: Option<usize>,
    cc: Option<usize>,
    nvtx: Vec<(usize, String)>,
}

/// Header names of the identity columns.
pub const IDENTITY_COLUMNS: [&str; 12] = [
    "ID",
    "Process ID",
    "Process Name",
    "Host Name",
    "Kernel Name",
    "Kernel Time",
    "Context",
    "Stream",
    "Block Size",
    "Grid Size",
    "Device",
    "CC",
];

/// Whether a header names an NVTX column (`--nvtx`): its name lists the
/// range fields, such as `thread Domain:Push/Pop_Range:PL_Type:...`.
pub fn is_nvtx_column(name: &str) -> bool {
    name.contains("Domain:") && name.contains("_Range")
}

impl LaunchColumns {
    /// Finds the identity columns of `header`.
    pub fn from_header(header: &[String]) -> Self {
        let find = |name: &str| header.iter().position(|h| h == name);
        LaunchColumns {
            id: find("ID"),
            process_id: find("Process ID"),
            process_name: find("Process Name"),
            host: find("Host Name"),
            kernel_name: find("Kernel Name"),
            kernel_time: find("Kernel Time"),
            context: find("Context"),
            stream: find("Stream"),
            block: find("Block Size"),
            grid: find("Grid Size"),
            device: find("Device"),
            cc: find("CC"),
            nvtx: header
                .iter()
                .enumerate()
                .filter(|(_, h)| is_nvtx_column(h))
                .map(|(i, h)| (i, h.clone()))
                .collect(),
        }
    }

    /// The raw "ID" cell of the current row ("" when absent).
    pub fn id_cell<'r, R: BufRead>(&self, rec: &'r Records<R>) -> &'r str {
        self.id.map_or("", |i| rec.field(i))
    }

    /// Reads the result ID of the current row; a row without an integer ID
    /// is refused, since identity rests on it.
    pub fn read_id<R: BufRead>(&self, rec: &Records<R>) -> Result<Option<u64>, IngestError> {
        let Some(i) = self.id else { return Ok(None) };
        let cell = rec.field(i).trim();
        cell.parse::<u64>()
            .map(Some)
            .map_err(|_| bad_field(rec, i, "ID", "a result ID (a whole number)"))
    }

    /// The kernel name of the current row.
    pub fn name<'r, R: BufRead>(&self, rec: &'r Records<R>) -> &'r str {
        self.kernel_name.map_or("", |i| rec.field(i))
    }

    /// Reads the launch identity of the current row. Cells that do not parse
    /// are left absent: they identify, they are not measured.
    pub fn read<R: BufRead>(&self, rec: &Records<R>) -> Launch {
        let text = |col: Option<usize>| {
            col.map(|i| rec.field(i).trim())
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let int = |col: Option<usize>| col.and_then(|i| rec.field(i).trim().parse::<u64>().ok());
        let dims = |col: Option<usize>| col.and_then(|i| parse_dims(rec.field(i)));
        Launch {
            process_id: int(self.process_id),
            process_name: text(self.process_name),
            host: text(self.host),
            context: int(self.context),
            stream: int(self.stream),
            device: int(self.device),
            cc: text(self.cc),
            block: dims(self.block),
            grid: dims(self.grid),
            kernel_time: text(self.kernel_time),
            nvtx: self
                .nvtx
                .iter()
                .map(|(i, name)| (name.clone(), rec.field(*i).to_owned()))
                .collect(),
        }
    }
}

/// Parses `(256, 1, 1)`.
pub fn parse_dims(cell: &str) -> Option<[u64; 3]> {
    let inner = cell.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut parts = inner.split(',').map(|p| p.trim().parse::<u64>());
    let dims = [
        parts.next()?.ok()?,
        parts.next()?.ok()?,
        parts.next()?.ok()?,
    ];
    parts.next().is_none().then_some(dims)
}

/// A diagnostic for cell `i` of the current row.
pub fn bad_field<R: BufRead>(
    rec: &Records<R>,
    i: usize,
    column_name: &str,
    expected: &'static str,
) -> IngestError {
    let snippet = Snippet::new(rec.path(), rec.text(), rec.offset(), rec.line());
    let start = rec.column(i) as usize - 1;
    let len = rec.field(i).len().max(1) + 2;
    IngestError::BadField {
        path: rec.path().to_owned(),
        line: rec.line(),
        column: u64::from(rec.column(i)),
        column_name: column_name.to_owned(),
        expected,
        found: rec.field(i).to_owned(),
        at: snippet.span(start, len),
        snippet,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_parse() {
        assert_eq!(parse_dims("(256, 1, 1)"), Some([256, 1, 1]));
        assert_eq!(parse_dims("(640, 1280, 1)"), Some([640, 1280, 1]));
        assert_eq!(parse_dims("256"), None);
        assert_eq!(parse_dims("(1, 2)"), None);
    }

    #[test]
    fn nvtx_columns_are_recognised() {
        assert!(is_nvtx_column(
            "thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg"
        ));
        assert!(is_nvtx_column(
            "Id:Domain:Start/Stop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg"
        ));
        assert!(!is_nvtx_column("Kernel Name"));
    }
}
