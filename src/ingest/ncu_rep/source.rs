//! A kernel's source view without ncu: the per-instruction (instanced)
//! source counters of a result, keyed by instruction address, placed on
//! CUDA lines by the line table of the cubin the report embeds (a
//! `-lineinfo` build carries one), with the CUDA text ncu imported. The
//! columns are those of the source page that the rules read; SASS text is
//! not needed (address and line are).
//!
//! The cubin's `.debug_line` holds one line program per kernel, each
//! starting at address 0 of its own `.text.<kernel>` section: which section
//! is said only by the relocation of its `DW_LNE_set_address`. The
//! relocations are applied into a synthetic address space, section index
//! in the high bits, before the programs are read.

use std::collections::HashMap;

use indexmap::IndexMap;
use object::{Object, ObjectSection, ObjectSymbol, RelocationTarget};

use super::messages::{MetricValue, ProfileResult, SourceData, text};
use crate::model::{Origin, SourceFile, SourceRow, SourceView};
use crate::value::Value;

/// Instanced metrics of a result and the source-page columns they are.
pub const COLUMNS: [(&str, &str); 14] = [
    ("inst_executed", "Instructions Executed"),
    ("thread_inst_executed", "Thread Instructions Executed"),
    (
        "thread_inst_executed_true",
        "Predicated-On Thread Instructions Executed",
    ),
    ("memory_type", "Address Space"),
    ("memory_access_type", "Access Operation"),
    ("memory_access_size_type", "Access Size"),
    ("memory_l1_tag_requests_global", "L1 Tag Requests Global"),
    (
        "memory_l2_theoretical_sectors_global",
        "L2 Theoretical Sectors Global",
    ),
    (
        "memory_l2_theoretical_sectors_global_ideal",
        "L2 Theoretical Sectors Global Ideal",
    ),
    (
        "derived__memory_l2_theoretical_sectors_global_excessive",
        "L2 Theoretical Sectors Global Excessive",
    ),
    ("memory_l1_wavefronts_shared", "L1 Wavefronts Shared"),
    (
        "memory_l1_wavefronts_shared_ideal",
        "L1 Wavefronts Shared Ideal",
    ),
    (
        "derived__memory_l1_wavefronts_shared_excessive",
        "L1 Wavefronts Shared Excessive",
    ),
    (
        "derived__memory_l1_conflicts_shared_nway",
        "L1 Conflicts Shared N-Way",
    ),
];

/// The bits of a synthetic address that hold the offset in its section.
const OFFSET_BITS: u32 = 40;

/// Where each instruction of each kernel is in CUDA source: by kernel
/// (mangled name), instruction offsets in order with their file and line.
#[derive(Debug, Default)]
pub struct LineTable {
    kernels: HashMap<String, Vec<(u64, usize, u32)>>,
    files: Vec<String>,
}

impl LineTable {
    /// The line table of a cubin; empty when it has none (no `-lineinfo`)
    /// or cannot be read.
    pub fn of_cubin(cubin: &[u8]) -> LineTable {
        read_line_table(cubin).unwrap_or_default()
    }

    /// Whether it places no kernel.
    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty()
    }

    /// The file and line of the instruction `offset` bytes into `kernel`.
    fn place(&self, kernel: &str, offset: u64) -> Option<(&str, u32)> {
        let rows = self.kernels.get(kernel)?;
        let i = rows
            .partition_point(|(o, _, _)| *o <= offset)
            .checked_sub(1)?;
        let (_, file, line) = rows[i];
        (line > 0).then(|| (self.files[file].as_str(), line))
    }
}

fn read_line_table(cubin: &[u8]) -> Option<LineTable> {
    let elf = object::File::parse(cubin).ok()?;
    let debug_line = elf.section_by_name(".debug_line")?;
    let mut data = debug_line.data().ok()?.to_vec();
    // Each set_address operand becomes (section index << OFFSET_BITS) + addend.
    for (offset, relocation) in debug_line.relocations() {
        let RelocationTarget::Symbol(symbol) = relocation.target() else {
            continue;
        };
        let Some(section) = elf
            .symbol_by_index(symbol)
            .ok()
            .and_then(|s| s.section_index())
        else {
            continue;
        };
        let address = ((section.0 as u64) << OFFSET_BITS) + relocation.addend() as u64;
        // The cubin's relocation type (R_CUDA_64) is unknown to the ELF
        // reader, which gives no size; set_address operands are 8 bytes.
        let at = offset as usize;
        if matches!(relocation.size(), 0 | 64) && at + 8 <= data.len() {
            data[at..at + 8].copy_from_slice(&address.to_le_bytes());
        }
    }
    let sections: HashMap<usize, String> = elf
        .sections()
        .filter_map(|s| {
            let name = s.name().ok()?.strip_prefix(".text.")?.to_owned();
            Some((s.index().0, name))
        })
        .collect();
    let mut table = LineTable::default();
    let debug_line = gimli::DebugLine::new(&data, gimli::LittleEndian);
    let mut offset = 0usize;
    while offset < data.len() {
        let program = debug_line
            .program(gimli::DebugLineOffset(offset), 8, None, None)
            .ok()?;
        let header = program.header();
        let length = header.unit_length() + header.format().initial_length_size() as usize;
        read_program(program, &sections, &mut table);
        offset += length.max(1);
    }
    for rows in table.kernels.values_mut() {
        rows.sort_by_key(|(o, _, _)| *o);
    }
    Some(table)
}

/// The rows of one line program into `table`.
fn read_program(
    program: gimli::IncompleteLineProgram<gimli::EndianSlice<'_, gimli::LittleEndian>>,
    sections: &HashMap<usize, String>,
    table: &mut LineTable,
) {
    let mut rows = program.rows();
    let mut file_ids: HashMap<u64, usize> = HashMap::new();
    while let Ok(Some((header, row))) = rows.next_row() {
        if row.end_sequence() {
            continue;
        }
        let address = row.address();
        let Some(kernel) = sections.get(&((address >> OFFSET_BITS) as usize)) else {
            continue;
        };
        let file = *file_ids.entry(row.file_index()).or_insert_with(|| {
            let name = row
                .file(header)
                .map(|f| file_name(header, f))
                .unwrap_or_default();
            match table.files.iter().position(|n| *n == name) {
                Some(i) => i,
                None => {
                    table.files.push(name);
                    table.files.len() - 1
                }
            }
        });
        let line = row.line().map_or(0, |l| l.get() as u32);
        table.kernels.entry(kernel.clone()).or_default().push((
            address & ((1 << OFFSET_BITS) - 1),
            file,
            line,
        ));
    }
}

/// A file entry's path: its directory joined to its name.
fn file_name<R: gimli::Reader>(
    header: &gimli::LineProgramHeader<R>,
    file: &gimli::FileEntry<R>,
) -> String {
    let text = |value: gimli::AttributeValue<R>| match value {
        gimli::AttributeValue::String(s) => s.to_string_lossy().ok().map(|s| s.into_owned()),
        _ => None,
    };
    let name = text(file.path_name()).unwrap_or_default();
    if name.starts_with('/') {
        return name;
    }
    match file.directory(header).and_then(text) {
        Some(dir) if !dir.is_empty() => format!("{}/{name}", dir.trim_end_matches('/')),
        _ => name,
    }
}

/// The CUDA text ncu imported with the cubin, as the model's listings.
pub fn imported_files(source: &SourceData) -> Vec<SourceFile> {
    source
        .files
        .iter()
        .flat_map(|f| f.files.iter())
        .filter_map(|f| {
            Some(SourceFile {
                path: text(&f.name)?,
                lines: text(&f.content)?.lines().map(str::to_owned).collect(),
            })
        })
        .collect()
}

/// Which source-page column each string of the table is, remembered as
/// results are read: most of a result's metrics are not source counters.
#[derive(Debug, Default)]
pub struct ColumnIndex {
    known: Vec<Option<Option<u8>>>,
}

/// What a metric is to the source view.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Column(usize),
    FunctionStart,
    Other,
}

impl ColumnIndex {
    fn role(&mut self, name_id: u64, strings: &[String]) -> Role {
        let i = name_id as usize;
        if i >= self.known.len() {
            self.known.resize(strings.len().max(i + 1), None);
        }
        let slot = self.known[i].get_or_insert_with(|| {
            let name = strings.get(i).map_or("", String::as_str);
            if name == "launch__function_pcs" {
                Some(u8::MAX)
            } else {
                COLUMNS
                    .iter()
                    .position(|(m, _)| *m == name)
                    .map(|c| c as u8)
            }
        });
        match *slot {
            Some(u8::MAX) => Role::FunctionStart,
            Some(c) => Role::Column(c as usize),
            None => Role::Other,
        }
    }
}

/// The source view of a result: one row per instruction that has source
/// counters, placed on its CUDA line; `None` without source counters.
pub fn view(
    result: &ProfileResult,
    strings: &[String],
    index: &mut ColumnIndex,
    lines: &LineTable,
    origin: Origin,
) -> Option<SourceView> {
    let mut by_address: IndexMap<u64, Vec<Value>> = IndexMap::new();
    let mut columns: Vec<String> = Vec::new();
    let mut base = None;
    for metric in &result.metrics {
        let Some(name_id) = metric.name_id else {
            continue;
        };
        let label = match index.role(name_id, strings) {
            Role::Other => continue,
            Role::FunctionStart => {
                // Its value counts the functions; the instance holds the PC.
                base = metric
                    .instances()
                    .next()
                    .and_then(|i| i.value.as_ref()?.number());
                continue;
            }
            Role::Column(c) => COLUMNS[c].1,
        };
        let column = columns.len();
        columns.push(label.to_owned());
        for instance in metric.instances() {
            let Some(address) = instance.correlation.as_ref().and_then(MetricValue::number) else {
                continue;
            };
            let cells = by_address.entry(address as u64).or_default();
            cells.resize(column + 1, Value::Missing);
            cells[column] = cell(label, instance.value.as_ref());
        }
    }
    if columns.is_empty() || by_address.is_empty() {
        return None;
    }
    by_address.sort_keys();
    let kernel = text(&result.mangled_name).unwrap_or_default();
    let base = base.map_or(0, |b| b as u64);
    let mut files = SourceView::default();
    let instructions = by_address
        .into_iter()
        .map(|(address, mut cells)| {
            cells.resize(columns.len(), Value::Missing);
            let place = lines.place(&kernel, address.saturating_sub(base));
            SourceRow {
                file: place.map_or(0, |(path, _)| files.file_index(path)),
                line: place.map(|(_, line)| line),
                address: Some(format!("0x{address:x}")),
                text: String::new(),
                cells,
                origin,
            }
        })
        .collect();
    Some(SourceView {
        files: files.files,
        function: text(&result.function_name).unwrap_or_default(),
        columns,
        lines: Vec::new(),
        instructions,
        origin,
    })
}

/// A source counter's cell: numbers as they are; the address space and
/// operation as the source page prints them.
fn cell(label: &str, value: Option<&MetricValue>) -> Value {
    let Some(n) = value.and_then(MetricValue::number) else {
        return Value::Missing;
    };
    let named = match label {
        "Address Space" => match n as u64 {
            0 => return Value::Missing,
            4 => "Global",
            8 => "Local",
            16 => "Shared",
            _ => return Value::Text(format!("{n}")),
        },
        "Access Operation" => match n as u64 {
            0 => return Value::Missing,
            2 => "Load",
            4 => "Store",
            _ => return Value::Text(format!("{n}")),
        },
        _ => return Value::Number(n),
    };
    Value::Text(named.to_owned())
}
