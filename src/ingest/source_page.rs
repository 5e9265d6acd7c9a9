//! The source page (`--page source`): one block per kernel, opened by a
//! "Kernel Name" line (SASS view) or "File Path"/"Function Name" lines (CUDA
//! views), then a header starting "Address" or "Line No" whose columns vary
//! from kernel to kernel and repeat ("Source" twice in `cuda,sass`).
//!
//! In the `cuda,sass` view each CUDA line row aggregates the SASS rows listed
//! under it, and ncu lists those rows twice around a `...` row; each
//! instruction is kept once.
//!
//! A launch whose code comes from several files (a header's `__device__`
//! functions, CUB, Triton's `standard.py` inlined into a kernel) has one
//! block per file, in path order, each under its own "File Path" and the
//! same "Function Name": they are read as one [`SourceView`] (see
//! [`continues_launch`]). A launch repeated verbatim right after itself is
//! kept once.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};
use std::io::BufRead;

use super::collect::{FileImport, RowUse};
use super::limits::MAX_SOURCE_LINE;
use super::records::Records;
use crate::memory_model::sass_instruction;
use crate::model::{Origin, SourceFile, SourceRow, SourceView};
use crate::value::parse_value;

/// How far a listing's line numbers may run ahead of its rows.
const LISTING_GAP: usize = 4096;

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
    /// The rules' sums over instruction rows, as (column, filter) field
    /// indices of this header; `None` keeps every row.
    uses: Option<Vec<FieldUse>>,
    /// See [`SourcePageParser::fields_read`].
    fields_read: usize,
}

/// A [`RowUse`] as field indices of one header.
#[derive(Debug, PartialEq)]
struct FieldUse {
    /// The summed column.
    column: usize,
    /// (column, value) pairs a row must match; the value as a number where
    /// it is one.
    filter: Vec<(usize, String, Option<f64>)>,
    /// The SASS column and the opcodes a row must have, where the use names
    /// any.
    opcodes: Option<(usize, Vec<String>)>,
}

/// Whether a block of `function` from `file` continues the launch read so
/// far, whose function is `launch` and whose last block was from
/// `last_file`. ncu lists a launch's files in path order, one block each
/// (seen on every multi-file page: CUDA headers, CUB, Triton and Inductor
/// modules), so a file at or before the last one starts the next launch of
/// the same function. The parser and the outline both decide by it.
pub fn continues_launch(
    launch: Option<&str>,
    last_file: Option<&str>,
    function: &str,
    file: Option<&str>,
) -> bool {
    match (launch, last_file, file) {
        (Some(launch), Some(last), Some(file)) => launch == function && file > last,
        _ => false,
    }
}

/// The source-page parser's state between records.
#[derive(Debug, Default)]
pub struct SourcePageParser {
    file_path: Option<String>,
    layout: Layout,
    /// The launch being read: its blocks so far.
    block: Option<SourceView>,
    /// Whether rows now belong to [`Self::block`] (a block's intro was
    /// read and no other "File Path" since).
    in_block: bool,
    /// The file of the rows being read, in the launch's files.
    current_file: u32,
    /// Where each kept metric column of the current header goes in the
    /// launch's columns.
    column_slots: Vec<usize>,
    listing: Option<SourceFile>,
    /// Rows of the listing read so far.
    listing_rows: usize,
    current_line: Option<u32>,
    /// Instructions of the launch by address: where each is kept (ncu also
    /// lists each twice around a `...` row under its line).
    kept: FxHashMap<u64, usize>,
    /// Other places an instruction kept once is listed at (ncu lists an
    /// instruction under every line whose row is at its address: the call
    /// of inlined code and the inlined line): row, file, line.
    also_at: Vec<(usize, u32, Option<u32>)>,
    /// The lowest instruction address of the launch kept so far: the entry,
    /// which places the kernel's own file and its offsets, is kept whether
    /// or not a rule reads it.
    entry: u64,
    /// Hashes the launch's rows, to tell a verbatim repeat (FxHash: fast,
    /// and a repeat must also have the same function to count).
    hasher: RowHash,
    last_block_hash: Option<u64>,
    /// The function of the last launch kept.
    last_kept: Option<String>,
}

impl SourcePageParser {
    /// Fields a row of the current block has.
    pub fn width(&self) -> usize {
        self.layout.width
    }

    /// How many leading fields of an instruction row are read: up to the
    /// last column kept or matched; 0 (all) where every column is kept.
    pub fn fields_read(&self) -> usize {
        self.layout.fields_read
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
                self.finish_listing(out);
                self.in_block = false;
                self.file_path = Some(rec.field(1).to_owned());
            }
            "Kernel Name" | "Function Name" => {
                let function = rec.field(1);
                let file = (first == "Function Name")
                    .then(|| self.file_path.clone())
                    .flatten();
                let launch = self.block.as_ref();
                let continues = continues_launch(
                    launch.map(|b| b.function.as_str()),
                    launch.and_then(|b| b.files.last()).map(String::as_str),
                    function,
                    file.as_deref(),
                );
                if !continues {
                    self.finish(out);
                    self.entry = u64::MAX;
                    self.block = Some(SourceView {
                        function: function.to_owned(),
                        origin,
                        ..SourceView::default()
                    });
                }
                self.start_file(file);
                rec.raw().hash(&mut self.hasher.0);
            }
            "Address" | "Line No" => self.header(rec, out),
            _ => self.row(rec, out, origin),
        }
    }

    fn header<R: BufRead>(&mut self, rec: &Records<R>, out: &mut FileImport) {
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
        if !self.in_block && line_no.is_some() && address.is_none() && metrics.is_empty() {
            // A `--print-source cuda` listing with no metrics: the file itself.
            self.finish(out);
            self.listing_rows = 0;
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
        self.column_slots.clear();
        if let Some(block) = self.block.as_mut().filter(|_| self.in_block) {
            for &i in &metrics {
                let slot = match block.column(&header[i]) {
                    Some(slot) => slot,
                    None => {
                        block.columns.push(header[i].clone());
                        block.columns.len() - 1
                    }
                };
                self.column_slots.push(slot);
            }
            rec.raw().hash(&mut self.hasher.0);
        }
        let uses = out
            .needed()
            .and_then(|n| n.source_rows.as_deref())
            .map(|uses| field_uses(uses, &header, sass_text));
        let fields_read = uses.as_ref().map_or(0, |uses: &Vec<FieldUse>| {
            let last = identity
                .into_iter()
                .flatten()
                .chain(metrics.iter().copied())
                .chain(uses.iter().flat_map(|u| {
                    std::iter::once(u.column).chain(u.filter.iter().map(|(i, _, _)| *i))
                }))
                .max();
            last.map_or(0, |i| i + 1)
        });
        self.layout = Layout {
            width: header.len(),
            line_no,
            cuda_text,
            address,
            sass_text,
            metrics,
            uses,
            fields_read,
        };
    }

    fn row<R: BufRead>(&mut self, rec: &Records<R>, out: &mut FileImport, origin: Origin) {
        let cell = |col: Option<usize>| col.map_or("", |i| rec.field(i));
        if let Some(listing) = &mut self.listing {
            self.listing_rows += 1;
            let line = cell(self.layout.line_no).trim().parse::<usize>();
            if let Ok(n @ 1..=MAX_SOURCE_LINE) = line {
                // A listing numbers its rows 1, 2, 3...: a line far past the
                // rows read is damage, not a reason to allocate it.
                if n > self.listing_rows + LISTING_GAP {
                    out.warn(
                        format!(
                            "a source listing numbers a row {n} after {} rows: skipped as damage",
                            self.listing_rows
                        ),
                        origin,
                    );
                    return;
                }
                if n > listing.lines.len() {
                    listing.lines.resize(n, String::new());
                }
                listing.lines[n - 1] = cell(self.layout.cuda_text).to_owned();
            }
            return;
        }
        let Some(block) = self.block.as_mut().filter(|_| self.in_block) else {
            return;
        };
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
        } else {
            let key = address_key(address);
            if let Some(&kept) = self.kept.get(&key) {
                let row = &block.instructions[kept];
                if (row.file, row.line) != (self.current_file, self.current_line) {
                    self.also_at
                        .push((kept, self.current_file, self.current_line));
                }
                return;
            }
            let read = self
                .layout
                .uses
                .as_deref()
                .is_none_or(|uses| counted(uses, rec));
            if !read && key >= self.entry {
                return;
            }
            self.entry = self.entry.min(key);
            self.kept.insert(key, block.instructions.len());
        }
        let mut cells = vec![crate::value::Value::Missing; block.columns.len()];
        for (&i, &slot) in self.layout.metrics.iter().zip(&self.column_slots) {
            cells[slot] = match parse_value(rec.field(i)) {
                Ok(v) => v,
                Err(e) => {
                    out.warn(
                        format!(
                            "source column `{}`: {e}; treated as missing",
                            block.columns[slot]
                        ),
                        origin,
                    );
                    crate::value::Value::Missing
                }
            };
        }
        let row = SourceRow {
            file: self.current_file,
            line: self.current_line,
            call_site: None,
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

    /// Starts the rows of one block of the launch: those of `file`.
    fn start_file(&mut self, file: Option<String>) {
        if let (Some(block), Some(file)) = (&mut self.block, file) {
            self.current_file = block.file_index(&file);
        }
        self.in_block = true;
        self.current_line = None;
        self.layout = Layout::default();
        self.column_slots.clear();
    }

    fn finish_listing(&mut self, out: &mut FileImport) {
        if let Some(listing) = self.listing.take() {
            out.source_files.push(listing);
        }
    }

    /// Closes the launch or listing being read.
    pub fn finish(&mut self, out: &mut FileImport) {
        self.finish_listing(out);
        if let Some(mut block) = self.block.take() {
            place_inlined(&mut block, &std::mem::take(&mut self.also_at));
            self.kept.clear();
            let width = block.columns.len();
            for row in block.lines.iter_mut().chain(block.instructions.iter_mut()) {
                row.cells.resize(width, crate::value::Value::Missing);
            }
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
        self.in_block = false;
        self.current_file = 0;
        self.current_line = None;
        self.layout = Layout::default();
    }
}

/// Moves an instruction listed at several lines to the line of inlined
/// code: its last place outside the kernel's own file. The line table's
/// last row at an address, which the native reader takes, is the innermost
/// inlined line (the calls' rows come first); the page lists files in path
/// order, which loses that order, so between two headers this is a choice
/// (it agrees with the line table on every report here). Its place in the
/// kernel's own file is the call of that code: kept as the call site, as
/// the line table records it.
fn place_inlined(block: &mut SourceView, also_at: &[(usize, u32, Option<u32>)]) {
    if also_at.is_empty() {
        return;
    }
    let Some(own) = block.own_file().map(str::to_owned) else {
        return;
    };
    let own = block.file_index(&own);
    for &(row, file, line) in also_at {
        let Some(kept) = block.instructions.get_mut(row) else {
            continue;
        };
        if file != own {
            if kept.file == own {
                kept.call_site = kept.line.map(|l| (own, l));
            }
            kept.file = file;
            kept.line = line;
        } else if kept.file != own {
            kept.call_site = line.map(|l| (own, l));
        }
    }
}

/// `uses` as field indices of `header`, each once; a use naming a column
/// the header lacks counts no row of its block (ncu leaves out all-zero
/// columns).
fn field_uses(uses: &[RowUse], header: &[String], sass_text: Option<usize>) -> Vec<FieldUse> {
    let index = |label: &str| header.iter().position(|h| h == label);
    let mut fields: Vec<FieldUse> = Vec::new();
    for u in uses {
        let filter = u
            .filter
            .iter()
            .map(|(column, value)| Some((index(column)?, value.clone(), value.parse().ok())))
            .collect::<Option<Vec<_>>>();
        let opcodes = match (u.opcodes.is_empty(), sass_text) {
            (true, _) => Some(None),
            (false, Some(sass)) => Some(Some((sass, u.opcodes.clone()))),
            (false, None) => None,
        };
        if let (Some(filter), Some(column), Some(opcodes)) = (filter, index(&u.column), opcodes) {
            let field = FieldUse {
                column,
                filter,
                opcodes,
            };
            if !fields.contains(&field) {
                fields.push(field);
            }
        }
    }
    fields
}

/// Whether a sum of `uses` counts the current row: its filter's cells
/// match and its column is not zero, read from the text as the rules' row
/// matcher reads the parsed cells.
fn counted<R: BufRead>(uses: &[FieldUse], rec: &Records<R>) -> bool {
    let same = |cell: &str, want: &str, number: Option<f64>| {
        cell == want || number.is_some_and(|n| cell.parse::<f64>() == Ok(n))
    };
    let zero = |cell: &str| {
        matches!(cell, "" | "-" | "0")
            || (cell.starts_with(['0', '.']) && cell.parse::<f64>() == Ok(0.0))
    };
    uses.iter().any(|u| {
        u.filter
            .iter()
            .all(|(i, want, number)| same(rec.field(*i).trim(), want, *number))
            && !zero(rec.field(u.column).trim())
            && u.opcodes.as_ref().is_none_or(|(sass, opcodes)| {
                let family = family(rec.field(*sass));
                opcodes.iter().any(|o| o == family)
            })
    })
}

/// A SASS instruction's opcode before its first `.` (`IADD3.X` is `IADD3`).
fn family(sass: &str) -> &str {
    let (opcode, _) = sass_instruction(sass);
    opcode.split('.').next().unwrap_or("")
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
