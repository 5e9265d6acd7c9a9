//! `.ncu-rep` reports read natively, without `ncu`: the container
//! (`container.rs`), its messages (`messages.rs`), each kernel result as
//! the model's kernel (`convert.rs`) with the section-defined derived
//! metrics (`derived.rs`) and its source view (`source.rs`), and the
//! session's devices and versions. A report reads as
//! its raw page does (`--page raw --print-units base`): the same kernels,
//! IDs and metric values. Results are read one at a time.

mod container;
mod convert;
mod derived;
mod messages;
mod opcode;
mod source;

use std::fs::File;
use std::io::{BufRead, Read};

use std::collections::HashMap;

use super::read_ahead::ReadAhead;
use super::{FileImport, IngestError};
use crate::model::{Damage, Form, Kernel};
pub use container::MAGIC;
use container::{Container, ContainerError, Item};
use messages::{SessionDetails, text};
use source::{ColumnIndex, LineTable};

/// Whether `path` holds an Nsight Compute report (plain or xz-compressed).
pub fn is_report(path: &str) -> bool {
    open(path)
        .ok()
        .and_then(|mut r| r.fill_buf().ok().map(|head| head.starts_with(MAGIC)))
        .unwrap_or(false)
}

/// Reads the report at `path` into `out`: each kernel is handed to
/// `on_kernel` when `out` streams, else kept in it, with the file's
/// session, sections and GPUs.
pub fn read(
    path: &str,
    mut out: FileImport,
    on_kernel: &mut dyn FnMut(Kernel),
) -> Result<FileImport, IngestError> {
    let io = |source| IngestError::Io {
        path: path.to_owned(),
        reason: source,
    };
    // Read (and decompressed) on a thread of its own while it is decoded.
    let reader = ReadAhead::new(open(path).map_err(io)?).map_err(io)?;
    read_from(path, reader, &mut out, on_kernel)?;
    Ok(out)
}

/// Reads a report held in memory (tests and fuzzing), named `name`.
pub fn read_bytes(name: &str, bytes: &[u8]) -> Result<FileImport, IngestError> {
    let mut out = FileImport::new(name, 0);
    read_from(name, std::io::Cursor::new(bytes), &mut out, &mut |_| {})?;
    Ok(out)
}

fn read_from(
    path: &str,
    reader: impl Read,
    out: &mut FileImport,
    on_kernel: &mut dyn FnMut(Kernel),
) -> Result<(), IngestError> {
    let fail = |e: ContainerError| IngestError::Report {
        path: path.to_owned(),
        message: e.message,
        offset: e.offset,
    };
    let mut container = Container::open(reader).map_err(fail)?;
    out.saw(Form::Raw);
    out.report = true;
    let mut index = 0;
    let mut unresolved = 0usize;
    let mut line_tables: HashMap<u64, LineTable> = HashMap::new();
    let mut columns = ColumnIndex::keeping(|label| out.wants_source_column(label));
    // Rules that read no source-page column need no source view.
    let wants_source = out.needed().is_none_or(|n| !n.source_columns.is_empty());
    loop {
        let item = match container.next() {
            Ok(Some(item)) => item,
            Ok(None) => break,
            Err(e) => {
                // The results before the damage stand; the run fails.
                out.damage = Some(Damage {
                    message: e.message,
                    offset: e.offset,
                    results: index as usize,
                });
                return Ok(());
            }
        };
        match item {
            Item::Session(details) => read_session(&details, out),
            Item::Source(code) => {
                for file in source::imported_files(&code) {
                    if !out.source_files.iter().any(|f| f.path == file.path) {
                        out.source_files.push(file);
                    }
                }
                let table = code
                    .binary
                    .as_deref()
                    .map(|cubin| LineTable::of_cubin(cubin, code.sm_version))
                    .unwrap_or_default();
                // A report may repeat a record without its cubin; the
                // first with a line table stands.
                let known = line_tables.entry(code.reference.unwrap_or(0)).or_default();
                if known.is_empty() {
                    *known = table;
                }
            }
            Item::Result(result) => {
                let strings = container.strings.len() as u64;
                unresolved += result
                    .metrics
                    .iter()
                    .filter(|m| m.name_id.is_some_and(|i| i >= strings))
                    .count();
                for section in convert::sections(&result) {
                    if !out.sections.contains(&section) {
                        out.sections.push(section);
                    }
                }
                let mut kernel =
                    convert::kernel(&result, index, &container.strings, out.needed(), out.file);
                let reference = result.source.as_ref().and_then(|s| s.reference);
                let empty = LineTable::default();
                let lines = reference
                    .and_then(|r| line_tables.get(&r))
                    .unwrap_or(&empty);
                if wants_source {
                    kernel.source = source::view(
                        &result,
                        &container.strings,
                        &mut columns,
                        lines,
                        kernel.origin,
                    )
                    .map(Box::new);
                }
                if kernel.source.is_some() {
                    out.saw(Form::Source);
                }
                if out.is_streaming() {
                    on_kernel(kernel);
                } else {
                    out.kernels.push(kernel);
                }
                index += 1;
            }
        }
    }
    out.damage = content_damage(&container, index as usize, unresolved);
    if let Some((offset, bytes)) = container.leftover {
        out.warn(
            format!(
                "a block's payload holds {bytes} bytes its counts do not account for (at byte {offset}): skipped; they may be results of a kind this reader does not know, or damage"
            ),
            crate::model::Origin {
                file: out.file,
                line: 0,
                column: 0,
            },
        );
    }
    Ok(())
}

/// Damage a report that read to its end shows: no blocks after its header,
/// blocks without a kernel result, metric names past the string table.
fn content_damage<R>(
    container: &Container<R>,
    results: usize,
    unresolved: usize,
) -> Option<Damage> {
    let message = if container.blocks == 0 {
        "the report ends after its file header: no block follows (cut short?)".to_owned()
    } else if results == 0 {
        format!(
            "none of the report's {} blocks holds a kernel result: the report is empty or damaged",
            container.blocks
        )
    } else if unresolved > 0 {
        format!(
            "{unresolved} metric names point past the report's string table of {} strings: the report is damaged",
            container.strings.len()
        )
    } else {
        return None;
    };
    Some(Damage {
        message,
        offset: 0,
        results,
    })
}

/// The session page's attributes from a block's session details: tool
/// versions (`Nsight Compute Target`), the command line, the GPUs.
fn read_session(details: &SessionDetails, out: &mut FileImport) {
    for version in &details.versions {
        if let (Some(provider), Some(v)) = (text(&version.provider), text(&version.version)) {
            out.session.entry(provider).or_insert(v);
        }
    }
    if let Some(command) = text(&details.command_line) {
        out.session
            .entry("Profiler Command Line".to_owned())
            .or_insert(command);
    }
    for device in &details.devices {
        if let Some(name) = text(&device.name).filter(|n| !out.devices.contains(n)) {
            out.devices.push(name);
        }
    }
}

/// The report's bytes, decompressed when xz.
fn open(path: &str) -> std::io::Result<Box<dyn BufRead + Send>> {
    let compressed = std::fs::metadata(path).ok().map(|m| m.len());
    super::open::decompressed(Box::new(File::open(path)?), compressed)
}
