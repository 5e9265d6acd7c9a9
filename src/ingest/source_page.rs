//! The source page (`--page source`): one block per kernel, opened by a
//! "Kernel Name" line (SASS view) or "File Path"/"Function Name" lines (CUDA
//! views), then a header starting "Address" or "Line No" whose columns vary
//! from kernel to kernel and repeat ("Source" twice in `cuda,sass`).
//!
//! In the `cuda,sass` view each CUDA line row aggregates the SASS rows listed
//! under it, and ncu lists those rows twice around a `...` row; each
//! instruction is kept once. Blocks that repeat verbatim are kept once.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashSet, FxHasher};
use std::io::BufRead;

use super::collect::FileImport;
use super::limits::MAX_SOURCE_LINE;
use super::records::Records;
use crate::model::{Origin, SourceFile, SourceRow, SourceView};
use crate::value::parse_value;

/// First cells of the lines that open a block.
pub const BLOCK_INTROS: [&str; 4] = ["Kernel Name", "Function Name", "File Path", "File Name"];
/// First cells of a block's header.
pub const BLOCK_HEADERS: [&str; 2] = ["Address", "Line No"];

/// Layout of the current block's header.
#[derive(Debug, Default)]
struct Layout {
    width: usize,
    line_no: Option<usize>,
    cuda_text: Option<usize>,
    address: Option<usize>,
    sass_text: Option<usize>,
    metrics: Vec<usize>,
}

/// The source-page parser's state between records.
#[derive(Debug, Default)]
pub struct SourcePageParser {
    file_path: Option<String>,
    function: Option<String>,
    layout: Layout,
    block: Option<SourceView>,
    listing: Option<SourceFile>,
    current_line: Option<u32>,
    /// Instructions already kept under the current CUDA line, by address.
    seen: FxHashSet<(Option<u32>, u64)>,
    /// Hashes the block's rows, to tell a verbatim repeat (FxHash: fast,
    /// and a repeat must also have the same function to count).
    hasher: RowHash,
    last_block_hash: Option<u64>,
    /// The function of the last block kept.
    last_kept: Option<String>,
}

impl SourcePageParser {
    /// Fields a row of the current block has.
    pub fn width(&self) -> usize {
        self.layout.width
    }

    /// The free-text column (CUDA source text, else SASS).
    pub fn text_column(&self) -> usize {
        self.layout.cuda_text.or(self.layout.sass_text).unwrap_or(1)
    }

    /// Reads one record of the source page.
    pub fn record<R: BufRead>(&mut self, rec: &Records<R>, out: &mut FileImport) {
        let first = rec.field(0);
        let origin = Origin {
            file: out.file,
            line: rec.line(),
            column: 1,
        };
        match first {
            "File Path" | "File Name" => {
                self.finish(out);
                self.file_path = Some(rec.field(1).to_owned());
                self.function = None;
            }
            "Kernel Name" | "Function Name" => {
                self.finish(out);
                self.function = Some(rec.field(1).to_owned());
                self.block = Some(SourceView {
                    file: self.file_path.clone(),
                    function: rec.field(1).to_owned(),
                    origin,
                    ..SourceView::default()
                });
                rec.raw().hash(&mut self.hasher.0);
            }
            "Address" | "Line No" => self.header(rec, out),
            _ => self.row(rec, out, origin),
        }
    }

    fn header<R: BufRead>(&mut self, rec: &Records<R>, out: &FileImport) {
        let header = rec.fields();
        let find_from = |name: &str, from: usize| {
            header
                .iter()
                .skip(from)
                .position(|h| h == name)
                .map(|i| i + from)
        };
        let line_no = find_from("Line No", 0);
        let address = find_from("Address", 0);
        let first_source = find_from("Source", 0);
        let (cuda_text, sass_text) = match (line_no, address) {
            (Some(_), Some(a)) => (first_source, find_from("Source", a)),
            (Some(_), None) => (first_source, None),
            _ => (None, first_source),
        };
        let identity = [line_no, address, cuda_text, sass_text];
        let metrics: Vec<usize> = (0..header.len())
            .filter(|i| !identity.contains(&Some(*i)))
            .collect();
        if self.block.is_none() && line_no.is_some() && address.is_none() && metrics.is_empty() {
            // A `--print-source cuda` listing with no metrics: the file itself.
            self.listing = Some(SourceFile {
                path: self.file_path.clone().unwrap_or_default(),
                lines: Vec::new(),
            });
        }
        // Only the columns the rules read are parsed and kept.
        let metrics: Vec<usize> = metrics
            .into_iter()
            .filter(|&i| out.wants_source_column(&header[i]))
            .collect();
        if let Some(block) = &mut self.block {
            block.columns = metrics.iter().map(|&i| header[i].clone()).collect();
            rec.raw().hash(&mut self.hasher.0);
        }
        self.layout = Layout {
            width: header.len(),
            line_no,
            cuda_text,
            address,
            sass_text,
            metrics,
        };
    }

    fn row<R: BufRead>(&mut self, rec: &Records<R>, out: &mut FileImport, origin: Origin) {
        let cell = |col: Option<usize>| col.map_or("", |i| rec.field(i));
        if let Some(listing) = &mut self.listing {
            let line = cell(self.layout.line_no).trim().parse::<usize>();
            if let Ok(n @ 1..=MAX_SOURCE_LINE) = line {
                if n > listing.lines.len() {
                    listing.lines.resize(n, String::new());
                }
                listing.lines[n - 1] = cell(self.layout.cuda_text).to_owned();
            }
            return;
        }
        let Some(block) = &mut self.block else { return };
        rec.raw().hash(&mut self.hasher.0);
        let line_cell = cell(self.layout.line_no).trim();
        let address = cell(self.layout.address).trim();
        let cuda_line = line_cell.parse::<u32>().ok();
        let is_cuda_row = cuda_line.is_some();
        if !is_cuda_row && (address.is_empty() || address == "...") {
            return;
        }
        if is_cuda_row {
            self.current_line = cuda_line;
        } else if !self.seen.insert((self.current_line, address_key(address))) {
            return;
        }
        let mut cells = Vec::with_capacity(self.layout.metrics.len());
        for &i in &self.layout.metrics {
            cells.push(match parse_value(rec.field(i)) {
                Ok(v) => v,
                Err(e) => {
                    out.warn(
                        format!(
                            "source column `{}`: {e}; treated as missing",
                            block.columns[cells.len()]
                        ),
                        origin,
                    );
                    crate::value::Value::Missing
                }
            });
        }
        let row = SourceRow {
            line: self.current_line,
            address: (!is_cuda_row).then(|| address.to_owned()),
            text: cell(if is_cuda_row {
                self.layout.cuda_text
            } else {
                self.layout.sass_text
            })
            .to_owned(),
            cells,
            origin,
        };
        if is_cuda_row {
            block.lines.push(row);
        } else {
            block.instructions.push(row);
        }
    }

    /// Closes the block or listing being read.
    pub fn finish(&mut self, out: &mut FileImport) {
        if let Some(listing) = self.listing.take() {
            out.source_files.push(listing);
        }
        if let Some(block) = self.block.take() {
            let hash = std::mem::take(&mut self.hasher).0.finish();
            let repeated = self.last_block_hash == Some(hash)
                && self.last_kept.as_deref() == Some(block.function.as_str());
            if !repeated {
                self.last_kept = Some(block.function.clone());
                if out.streams_blocks() {
                    out.ready_blocks.push(block);
                } else {
                    out.blocks.push(block);
                }
            }
            self.last_block_hash = Some(hash);
        }
        self.current_line = None;
        self.seen.clear();
        self.layout = Layout::default();
    }
}

/// The running hash of a block's rows.
#[derive(Default)]
struct RowHash(FxHasher);

impl std::fmt::Debug for RowHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RowHash")
    }
}

/// An instruction address as a number (`0x7f92837a00c0`), or a hash of its
/// text where it is not hexadecimal.
fn address_key(address: &str) -> u64 {
    let hex = address.strip_prefix("0x").unwrap_or(address);
    u64::from_str_radix(hex, 16).unwrap_or_else(|_| {
        let mut hasher = FxHasher::default();
        address.hash(&mut hasher);
        hasher.finish()
    })
}
