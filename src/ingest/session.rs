//! The session page (`--page session`): small two-column tables of launch
//! settings, session attributes, processes and device attributes.

use std::io::BufRead;

use super::collect::FileImport;
use super::records::Records;

/// Header first cells that open a session-page table.
pub const SESSION_HEADERS: [&str; 4] = [
    "Launch Attribute",
    "Session Attribute",
    "Process Id",
    "Device Attribute",
];

/// One session-page table.
#[derive(Debug)]
pub struct SessionTable {
    /// Prefix for keys: `Device 0.` for device attributes, `process.` for processes.
    prefix: String,
}

impl SessionTable {
    /// Whether `header` opens a session-page table.
    pub fn matches(header: &[String]) -> bool {
        header.len() >= 2 && SESSION_HEADERS.contains(&header[0].as_str())
    }

    /// The table for `header`.
    pub fn new(header: &[String]) -> Self {
        let prefix = match header[0].as_str() {
            "Device Attribute" => format!("{}.", header[1]),
            "Process Id" => "process.".to_owned(),
            _ => String::new(),
        };
        SessionTable { prefix }
    }

    /// Reads one attribute row.
    pub fn row<R: BufRead>(&self, rec: &Records<R>, out: &mut FileImport) {
        let key = format!("{}{}", self.prefix, rec.field(0));
        out.session
            .entry(key)
            .or_insert_with(|| rec.field(1).trim().to_owned());
    }
}
