//! A kernel's source view without ncu: the per-instruction (instanced)
//! source counters of a result, keyed by instruction address, placed on
//! CUDA lines by the line table of the cubin the report embeds (a
//! `-lineinfo` build carries one), with the CUDA text ncu imported. The
//! columns are those of the source page that the rules read; the SASS text
//! is the opcode, with a memory instruction's address (see the opcode
//! module), as the report holds no disassembly.
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

/// NVIDIA's extended line-program opcode that says where the rows after it
/// were inlined from: its first operand is the 1-based index, in the same
/// sequence, of the row of the call; 0 ends the inlined code. (Its second,
/// a `.debug_str` offset, names the inlined function.)
const DW_LNE_NVIDIA_INLINED_CALL: u8 = 0x90;

/// How many calls deep an inlined call site is followed.
const MAX_INLINE_DEPTH: usize = 64;

/// One row of a kernel's line table.
#[derive(Debug, Clone, Copy)]
struct LineRow {
    offset: u64,
    file: usize,
    line: u32,
    /// Where the code was called from in the kernel's own code, when it
    /// was inlined: file and line.
    call_site: Option<(usize, u32)>,
}

/// Where each instruction of each kernel is in source: by kernel (mangled
/// name), instruction offsets in order with their file and line; and the
/// size of each kernel's code.
#[derive(Debug, Default)]
pub struct LineTable {
    kernels: HashMap<String, Vec<LineRow>>,
    sizes: HashMap<String, u64>,
    /// Each 16-byte instruction of each kernel.
    code: HashMap<String, Vec<[u8; 16]>>,
    files: Vec<String>,
    /// Bytes per instruction where known (16 from Volta on).
    instruction_bytes: Option<u64>,
    /// Whether the opcode table reads this code (Volta to Hopper).
    opcodes_apply: bool,
}

/// Where one instruction is in source.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place<'a> {
    /// The file of its line.
    pub file: &'a str,
    /// Its line.
    pub line: u32,
    /// The kernel's line that called the inlined code it belongs to.
    pub call_site: Option<(&'a str, u32)>,
}

impl LineTable {
    /// The line table of a cubin; empty when it has none (no `-lineinfo`)
    /// or cannot be read.
    /// `sm_version` is the code's compute capability as the report
    /// records it (major in bits 16 and up).
    pub fn of_cubin(cubin: &[u8], sm_version: Option<u64>) -> LineTable {
        let mut table = read_line_table(cubin).unwrap_or_default();
        // Volta and later encode every instruction in 16 bytes; earlier
        // chips interleave scheduling words, which ncu does not list.
        table.instruction_bytes = sm_version.filter(|v| v >> 16 >= 7).map(|_| 16);
        table.opcodes_apply = sm_version.is_some_and(|v| (7..=9).contains(&(v >> 16)));
        table
    }

    /// Whether it places no kernel.
    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty() && self.sizes.is_empty()
    }

    /// Where the instruction `offset` bytes into `kernel` is.
    fn place(&self, kernel: &str, offset: u64) -> Option<Place<'_>> {
        let rows = self.kernels.get(kernel)?;
        // Of the rows at one address (a call, then the first line of the
        // inlined code), the last is the instruction's.
        let i = rows
            .partition_point(|r| r.offset <= offset)
            .checked_sub(1)?;
        let row = rows[i];
        (row.line > 0).then(|| Place {
            file: &self.files[row.file],
            line: row.line,
            call_site: row
                .call_site
                .map(|(file, line)| (self.files[file].as_str(), line)),
        })
    }

    /// The opcode of the instruction `offset` bytes into `kernel`, with its
    /// address where it is a memory instruction, where the encoding is one
    /// the opcode table is for (Volta to Hopper).
    fn text(&self, kernel: &str, offset: u64) -> Option<String> {
        if !self.opcodes_apply {
            return None;
        }
        let at = usize::try_from(offset / 16).ok()?;
        super::opcode::text(self.code.get(kernel)?.get(at)?)
    }

    /// The offset of every instruction of `kernel`, where its code's size
    /// and the instruction encoding are known.
    fn instruction_offsets(&self, kernel: &str) -> impl Iterator<Item = u64> {
        let size = self.sizes.get(kernel).copied().unwrap_or(0);
        let step = self.instruction_bytes.unwrap_or(size.max(1));
        let count = if self.instruction_bytes.is_some() {
            size / step
        } else {
            0
        };
        (0..count).map(move |i| i * step)
    }

    fn file_index(&mut self, name: String) -> usize {
        match self.files.iter().position(|n| *n == name) {
            Some(i) => i,
            None => {
                self.files.push(name);
                self.files.len() - 1
            }
        }
    }
}

fn read_line_table(cubin: &[u8]) -> Option<LineTable> {
    let elf = object::File::parse(cubin).ok()?;
    let mut table = LineTable::default();
    let sections: HashMap<usize, String> = elf
        .sections()
        .filter_map(|s| {
            let name = s.name().ok()?.strip_prefix(".text.")?.to_owned();
            table.sizes.insert(name.clone(), s.size());
            if let Ok(code) = s.data() {
                let words = code
                    .chunks_exact(16)
                    .filter_map(|i| <[u8; 16]>::try_from(i).ok())
                    .collect();
                table.code.insert(name.clone(), words);
            }
            Some((s.index().0, name))
        })
        .collect();
    let Some(debug_line) = elf.section_by_name(".debug_line") else {
        return Some(table);
    };
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
    let debug_line = gimli::DebugLine::new(&data, gimli::LittleEndian);
    let mut offset = 0usize;
    while offset < data.len() {
        let program = debug_line
            .program(gimli::DebugLineOffset(offset), 8, None, None)
            .ok()?;
        let header = program.header();
        let length = header.unit_length() + header.format().initial_length_size() as usize;
        read_program(header, &sections, &mut table);
        offset += length.max(1);
    }
    for rows in table.kernels.values_mut() {
        rows.sort_by_key(|r| r.offset);
    }
    Some(table)
}

/// A row of the sequence being read, before its call site is resolved.
struct SequenceRow {
    address: u64,
    file: u64,
    line: u32,
    /// The 1-based row of the call it was inlined at, 0 for none.
    context: u64,
}

/// The rows of one line program into `table`. The program is run here
/// rather than by the DWARF reader's row iterator, which skips NVIDIA's
/// extended opcodes: they hold where inlined code was called from.
fn read_program<R: gimli::Reader>(
    header: &gimli::LineProgramHeader<R>,
    sections: &HashMap<usize, String>,
    table: &mut LineTable,
) {
    let line_range = u64::from(header.line_range().max(1));
    let opcode_base = header.opcode_base();
    let step = u64::from(header.minimum_instruction_length());
    let mut file_ids: HashMap<u64, usize> = HashMap::new();
    let mut sequence: Vec<SequenceRow> = Vec::new();
    let (mut address, mut file, mut line, mut context) = (0u64, 1u64, 1i64, 0u64);
    let mut instructions = header.instructions();
    while let Ok(Some(instruction)) = instructions.next_instruction(header) {
        let mut emit = false;
        match instruction {
            gimli::LineInstruction::Special(opcode) => {
                let adjusted = u64::from(opcode.saturating_sub(opcode_base));
                address = address.wrapping_add(adjusted / line_range * step);
                line += i64::from(header.line_base()) + (adjusted % line_range) as i64;
                emit = true;
            }
            gimli::LineInstruction::Copy => emit = true,
            gimli::LineInstruction::AdvancePc(n) => address = address.wrapping_add(n * step),
            gimli::LineInstruction::AdvanceLine(n) => line += n,
            gimli::LineInstruction::SetFile(f) => file = f,
            gimli::LineInstruction::ConstAddPc => {
                let adjusted = u64::from(255u8.saturating_sub(opcode_base));
                address = address.wrapping_add(adjusted / line_range * step);
            }
            gimli::LineInstruction::FixedAddPc(n) => address = address.wrapping_add(u64::from(n)),
            gimli::LineInstruction::SetAddress(a) => address = a,
            gimli::LineInstruction::EndSequence => {
                finish_sequence(
                    header,
                    &std::mem::take(&mut sequence),
                    sections,
                    &mut file_ids,
                    table,
                );
                (address, file, line, context) = (0, 1, 1, 0);
            }
            gimli::LineInstruction::UnknownExtended(opcode, mut operands)
                if opcode.0 == DW_LNE_NVIDIA_INLINED_CALL =>
            {
                context = operands.read_uleb128().unwrap_or(0);
            }
            _ => {}
        }
        if emit {
            sequence.push(SequenceRow {
                address,
                file,
                line: u32::try_from(line).unwrap_or(0),
                context,
            });
        }
    }
    finish_sequence(header, &sequence, sections, &mut file_ids, table);
}

/// Adds one sequence's rows to `table`, each inlined row with the call
/// site in its kernel's own code (the outermost call).
fn finish_sequence<R: gimli::Reader>(
    header: &gimli::LineProgramHeader<R>,
    sequence: &[SequenceRow],
    sections: &HashMap<usize, String>,
    file_ids: &mut HashMap<u64, usize>,
    table: &mut LineTable,
) {
    let mut file_of = |index: u64, table: &mut LineTable| {
        *file_ids.entry(index).or_insert_with(|| {
            let name = header
                .file(index)
                .map(|f| file_name(header, f))
                .unwrap_or_default();
            table.file_index(name)
        })
    };
    for row in sequence {
        let Some(kernel) = sections.get(&((row.address >> OFFSET_BITS) as usize)) else {
            continue;
        };
        let mut call = None;
        let mut context = row.context;
        for _ in 0..MAX_INLINE_DEPTH {
            let Some(caller) = (context as usize)
                .checked_sub(1)
                .and_then(|i| sequence.get(i))
            else {
                break;
            };
            call = Some(caller);
            context = caller.context;
        }
        let call_site = call.map(|c| (file_of(c.file, table), c.line));
        let file = file_of(row.file, table);
        table
            .kernels
            .entry(kernel.clone())
            .or_default()
            .push(LineRow {
                offset: row.address & ((1 << OFFSET_BITS) - 1),
                file,
                line: row.line,
                call_site,
            });
    }
}

/// A file entry's path: its directory joined to its name, with `.` and
/// `..` resolved as ncu prints them (`a/b/../c` is `a/c`).
fn file_name<R: gimli::Reader>(
    header: &gimli::LineProgramHeader<R>,
    file: &gimli::FileEntry<R>,
) -> String {
    let text = |value: gimli::AttributeValue<R>| match value {
        gimli::AttributeValue::String(s) => s.to_string_lossy().ok().map(|s| s.into_owned()),
        _ => None,
    };
    let name = text(file.path_name()).unwrap_or_default();
    let joined = if name.starts_with('/') {
        name
    } else {
        match file.directory(header).and_then(text) {
            Some(dir) if !dir.is_empty() => format!("{}/{name}", dir.trim_end_matches('/')),
            _ => name,
        }
    };
    lexically_normal(&joined)
}

/// `path` with `.` and `..` components resolved without the file system.
fn lexically_normal(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "." => {}
            ".." if parts.last().is_some_and(|p| !p.is_empty() && *p != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// The access size the report records, an enumeration, in bits as the
/// source page prints it. Sub-word sizes are codes (2 for the 8-bit loads
/// and stores `.U8` and `.S8`, 8 for `.U16`); 32, 64 and 128 are the bits.
/// Read off every report here with a source page, instruction by
/// instruction; a code not seen there is left as it is.
fn access_size_bits(code: f64) -> Value {
    Value::Number(match code as u64 {
        2 => 8.0,
        8 => 16.0,
        _ => code,
    })
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
/// results are read: most of a result's metrics are not source counters,
/// and only the columns the rules read are kept (a GEMM's view of every
/// column held 31 MB).
#[derive(Debug)]
pub struct ColumnIndex {
    known: Vec<Option<Option<u8>>>,
    /// Whether each of [`COLUMNS`] is kept.
    kept: Vec<bool>,
}

/// What a metric is to the source view.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Column(usize),
    FunctionStart,
    Other,
}

impl ColumnIndex {
    /// An index that keeps the columns whose label `wanted` accepts.
    pub fn keeping(wanted: impl Fn(&str) -> bool) -> ColumnIndex {
        ColumnIndex {
            known: Vec::new(),
            kept: COLUMNS.iter().map(|(_, label)| wanted(label)).collect(),
        }
    }

    fn role(&mut self, name_id: u64, strings: &[String]) -> Role {
        // An index past the string table names nothing (the reader counts
        // those as damage); the table is never grown past its strings.
        let Some(i) = usize::try_from(name_id).ok().filter(|&i| i < strings.len()) else {
            return Role::Other;
        };
        if i >= self.known.len() {
            self.known.resize(strings.len(), None);
        }
        let slot = self.known[i].get_or_insert_with(|| {
            let name = strings.get(i).map_or("", String::as_str);
            if name == "launch__function_pcs" {
                Some(u8::MAX)
            } else {
                COLUMNS
                    .iter()
                    .zip(&self.kept)
                    .position(|((m, _), &kept)| *m == name && kept)
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
    let kernel = text(&result.mangled_name).unwrap_or_default();
    let base = base.map_or(0, |b| b as u64);
    if base > 0 {
        // Instructions that never ran have no instance; the page lists
        // them all, with zeros.
        for offset in lines.instruction_offsets(&kernel) {
            by_address.entry(base + offset).or_default();
        }
    }
    by_address.sort_keys();
    let mut files = SourceView::default();
    let instructions = by_address
        .into_iter()
        .map(|(address, mut cells)| {
            cells.resize(columns.len(), Value::Missing);
            let place = lines.place(&kernel, address.saturating_sub(base));
            SourceRow {
                file: place.map_or(0, |p| files.file_index(p.file)),
                line: place.map(|p| p.line),
                call_site: place
                    .and_then(|p| p.call_site)
                    .map(|(file, line)| (files.file_index(file), line)),
                address: Some(format!("0x{address:x}")),
                text: lines
                    .text(&kernel, address.saturating_sub(base))
                    .unwrap_or_default(),
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

/// A source counter's cell: numbers as they are; the access size in bits
/// and the address space and operation as the source page prints them.
fn cell(label: &str, value: Option<&MetricValue>) -> Value {
    let Some(n) = value.and_then(MetricValue::number) else {
        return Value::Missing;
    };
    let named = match label {
        "Access Size" => return access_size_bits(n),
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
