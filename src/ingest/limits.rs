//! Bounds that keep a hostile or broken export from taking unbounded time
//! or memory. Each is far above what Nsight Compute writes; reaching one is
//! an error that names it.

/// Longest logical record (a line, or lines joined by an open quote).
pub const MAX_RECORD_BYTES: usize = 16 << 20;
/// Longest single field.
pub const MAX_FIELD_BYTES: usize = 1 << 20;
/// Most fields in one record (ncu's raw page has a few thousand).
pub const MAX_FIELDS: usize = 1 << 16;
/// Most values in one instanced cell (`1; 2; 3; ...`), where cells are parsed.
pub use crate::value::MAX_INSTANCES;
/// Highest CUDA line number a source listing may give.
pub const MAX_SOURCE_LINE: usize = 10_000_000;
