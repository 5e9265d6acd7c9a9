//! Counts from a kernel's SASS that no metric gives: the store
//! instructions it would execute if each structure a thread writes a field
//! at a time went out whole.
//!
//! A run is two or more global stores of one width from one address
//! register, executed as often, at offsets a width apart (`[R2.64]`,
//! `[R2.64+0x4]`: a structure of two floats). A fix writes a run of `b`
//! bytes with `ceil(b / 16)` vector stores (16 bytes is the widest); a
//! thread that writes two structures to two places has two runs and needs
//! two vector stores, where its bytes alone would say one. Each instruction
//! counts its executions (the source page's `Instructions Executed`).

use crate::memory_model::{sass_address, sass_width};
use crate::model::{SourceRow, SourceView};
use crate::value::Value;

/// The name a pack gives the count (`{ sass = "vector_stores" }`).
pub const VECTOR_STORES: &str = "vector_stores";

/// Every count a pack may name.
pub const NAMES: [&str; 1] = [VECTOR_STORES];

/// The widest vector store, in bytes.
const VECTOR_BYTES: f64 = 16.0;

/// The source-page columns the counts read.
pub const COLUMNS: [&str; 4] = [
    "Address Space",
    "Access Operation",
    "Access Size",
    "Instructions Executed",
];

/// The count `name` for a kernel's source page, where its SASS decides it.
pub fn count(view: &SourceView, name: &str) -> Option<f64> {
    match name {
        VECTOR_STORES => vector_stores(view),
        _ => None,
    }
}

/// One global store instruction: its address register, offset, width and
/// executions.
struct Store<'v> {
    base: &'v str,
    offset: i64,
    width: f64,
    executed: f64,
}

/// The store instructions the kernel would execute with each run written
/// by vector stores; `None` where a store's address or width is not in its
/// SASS, or no thread writes a run (the bytes a thread stores decide then).
fn vector_stores(view: &SourceView) -> Option<f64> {
    let stores = global_stores(view)?;
    let mut groups: Vec<Vec<&Store>> = Vec::new();
    for store in &stores {
        let same = |g: &&mut Vec<&Store>| {
            let first = g[0];
            first.base == store.base
                && first.width == store.width
                && first.executed == store.executed
        };
        match groups.iter_mut().find(same) {
            Some(group) => group.push(store),
            None => groups.push(vec![store]),
        }
    }
    let mut vectors = 0.0;
    let mut any_run = false;
    for group in &mut groups {
        group.sort_by_key(|s| s.offset);
        let step = group[0].width as i64;
        let mut start = 0;
        for end in 1..=group.len() {
            let continues = end < group.len() && group[end].offset - group[end - 1].offset == step;
            if continues {
                continue;
            }
            let run = (end - start) as f64;
            any_run |= run >= 2.0;
            vectors += group[start].executed * (run * group[start].width / VECTOR_BYTES).ceil();
            start = end;
        }
    }
    any_run.then_some(vectors)
}

/// The kernel's global stores that executed, or `None` where one's SASS
/// does not name its address register or width.
fn global_stores(view: &SourceView) -> Option<Vec<Store<'_>>> {
    let column = |label: &str| view.column(label);
    let (space, operation, executed) = (
        column("Address Space")?,
        column("Access Operation")?,
        column("Instructions Executed")?,
    );
    let size = column("Access Size");
    let is = |row: &SourceRow, at: usize, want: &str| matches!(row.cells.get(at), Some(Value::Text(t)) if t == want);
    let number = |row: &SourceRow, at: usize| row.cells.get(at).and_then(Value::as_number);
    let mut stores = Vec::new();
    for row in &view.instructions {
        if !is(row, space, "Global") || !is(row, operation, "Store") {
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
        stores.push(Store {
            base,
            offset,
            width,
            executed: runs,
        });
    }
    (!stores.is_empty()).then_some(stores)
}
