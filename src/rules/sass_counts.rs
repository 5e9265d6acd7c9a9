//! The counts a pack reads from a kernel's SASS on the source page
//! (`{ sass = "vector_stores" }`), which no metric gives: which module
//! answers each name, and the global accesses they all read.
//!
//! Each instruction row carries its executions (`Instructions Executed`),
//! its address space and operation, and its SASS text, from which the
//! access's address register, offset and width are read.

use indexmap::IndexMap;

use crate::memory_model::{sass_address, sass_width};
use crate::model::{SourceRow, SourceView};
use crate::value::Value;

use super::{constant_reloads, global_atomics, narrow_conversions, store_runs, walk_passes};

/// Every count a pack may name.
pub const NAMES: [&str; 10] = [
    store_runs::VECTOR_STORES,
    store_runs::VECTOR_LOADS,
    store_runs::FIXED_STORE_SECTORS,
    store_runs::FIXED_STORE_TAGS,
    walk_passes::WALK_PASSES,
    narrow_conversions::NARROW_CONVERSIONS,
    constant_reloads::CONSTANT_RELOADS,
    global_atomics::GLOBAL_ATOMICS,
    global_atomics::FLOAT_ATOMICS,
    global_atomics::WIDE_ATOMICS,
];

/// The source-page columns the counts read.
pub const COLUMNS: [&str; 6] = [
    "Address Space",
    "Access Operation",
    "Access Size",
    "Instructions Executed",
    "L2 Theoretical Sectors Global",
    "L2 Theoretical Sectors Global Ideal",
];

/// The count `name` for a kernel's source page, where its SASS decides it.
pub fn count(view: &SourceView, name: &str) -> Option<f64> {
    match name {
        walk_passes::WALK_PASSES => walk_passes::count(view),
        narrow_conversions::NARROW_CONVERSIONS => narrow_conversions::count(view),
        constant_reloads::CONSTANT_RELOADS => constant_reloads::count(view),
        global_atomics::GLOBAL_ATOMICS => global_atomics::count(view),
        global_atomics::FLOAT_ATOMICS => global_atomics::float_count(view),
        global_atomics::WIDE_ATOMICS => global_atomics::wide_count(view),
        _ => store_runs::count(view, name),
    }
}

/// One global load or store instruction that executed: its address
/// register, offset, width, executions and sectors (as is and ideal).
#[derive(Debug, Clone, PartialEq)]
pub struct GlobalAccess<'v> {
    /// The address register (`R2.64`).
    pub base: &'v str,
    /// The offset from it, in bytes.
    pub offset: i64,
    /// The bytes each thread moves.
    pub width: f64,
    /// How often a warp executed it, summed over the warps.
    pub executed: f64,
    /// The L2 sectors it touched.
    pub sectors: f64,
    /// The L2 sectors it would touch at its ideal.
    pub ideal: f64,
}

/// The kernel's global accesses of `operation` (`Load`, `Store`) that
/// executed, or `None` where one's SASS does not name its address register
/// or width, or none executed.
pub fn global_accesses<'v>(view: &'v SourceView, operation: &str) -> Option<Vec<GlobalAccess<'v>>> {
    let column = |label: &str| view.column(label);
    let (space, kind, executed) = (
        column("Address Space")?,
        column("Access Operation")?,
        column("Instructions Executed")?,
    );
    let size = column("Access Size");
    let (sectors, ideal) = (
        column("L2 Theoretical Sectors Global"),
        column("L2 Theoretical Sectors Global Ideal"),
    );
    let is = |row: &SourceRow, at: usize, want: &str| matches!(row.cells.get(at), Some(Value::Text(t)) if t == want);
    let number = |row: &SourceRow, at: usize| row.cells.get(at).and_then(Value::as_number);
    let mut accesses = Vec::new();
    for row in &view.instructions {
        if !is(row, space, "Global") || !is(row, kind, operation) {
            continue;
        }
        let runs = number(row, executed).unwrap_or(0.0);
        if runs <= 0.0 {
            continue;
        }
        let bits = size.and_then(|at| number(row, at)).unwrap_or(0.0);
        let width = if bits > 0.0 {
            bits / 8.0
        } else {
            sass_width(&row.text)?
        };
        let (base, offset) = sass_address(&row.text)?;
        accesses.push(GlobalAccess {
            base,
            offset,
            width,
            executed: runs,
            sectors: sectors.and_then(|at| number(row, at)).unwrap_or(0.0),
            ideal: ideal.and_then(|at| number(row, at)).unwrap_or(0.0),
        });
    }
    (!accesses.is_empty()).then_some(accesses)
}

/// The access of `accesses` that executed most often: a loop's, where one
/// loads in a loop.
pub fn most_executed<'a, 'v>(accesses: &'a [GlobalAccess<'v>]) -> Option<&'a GlobalAccess<'v>> {
    accesses
        .iter()
        .max_by(|a, b| a.executed.total_cmp(&b.executed))
}

/// The executions (a warp's each) of the kernel's instructions that `keep`
/// holds; `None` where the page has no executions.
pub fn executions(view: &SourceView, keep: impl Fn(&SourceRow) -> bool) -> Option<f64> {
    let executed = view.column("Instructions Executed")?;
    Some(
        view.instructions
            .iter()
            .filter(|row| keep(row))
            .filter_map(|row| row.cells.get(executed).and_then(Value::as_number))
            .sum(),
    )
}

/// The executions of the kernel's least executed instruction that ran: its
/// entry, once a warp.
pub fn least_executed(view: &SourceView) -> Option<f64> {
    let executed = view.column("Instructions Executed")?;
    view.instructions
        .iter()
        .filter_map(|row| row.cells.get(executed).and_then(Value::as_number))
        .filter(|&n| n > 0.0)
        .min_by(f64::total_cmp)
}

/// The runs of `accesses`: those from one register, of one width and
/// executed as often, at offsets a width apart (a structure's fields moved
/// one at a time; one access alone where none continues it), each in
/// offset order, the registers in the order they first appear.
pub fn runs<'a, 'v>(accesses: &'a [GlobalAccess<'v>]) -> Vec<Vec<&'a GlobalAccess<'v>>> {
    // Keyed by register, width and executions: one pass, however many
    // accesses a kernel has.
    let mut groups: IndexMap<(&str, u64, u64), Vec<&GlobalAccess>> = IndexMap::new();
    for access in accesses {
        let key = (
            access.base,
            access.width.to_bits(),
            access.executed.to_bits(),
        );
        groups.entry(key).or_default().push(access);
    }
    let mut runs = Vec::new();
    for mut group in groups.into_values() {
        group.sort_by_key(|a| a.offset);
        let step = group[0].width as i64;
        let mut start = 0;
        for end in 1..=group.len() {
            if end < group.len() && group[end].offset - group[end - 1].offset == step {
                continue;
            }
            runs.push(group[start..end].to_vec());
            start = end;
        }
    }
    runs
}
