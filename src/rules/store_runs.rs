//! Counts from a kernel's SASS that no metric gives: the store (and load)
//! instructions it would execute, and the sectors its stores would touch,
//! if each structure a thread writes (or reads) a field at a time went out
//! whole.
//!
//! A run is two or more global stores of one width from one address
//! register, executed as often, at offsets a width apart (`[R2.64]`,
//! `[R2.64+0x4]`: a structure of two floats). A fix writes a run of `b`
//! bytes with vector stores as wide as the structure's alignment allows
//! (the largest power of two dividing `b`, 16 bytes at most: `b / 16` for
//! four floats, three for six shorts or three floats); a
//! thread that writes two structures to two places has two runs and needs
//! two vector stores, where its bytes alone would say one. Each instruction
//! counts its executions (the source page's `Instructions Executed`).
//! Loads run the same way: a structure read a field at a time, read whole,
//! takes as many vector loads as it would take vector stores.
//!
//! Each of a run's vector stores spans its warp's lanes as the run's first
//! field did: a fix that needs several a structure looks up that field's
//! sectors once for each (`fixed_store_tags`).
//!
//! Written whole, a structure of `b` bytes still covers `ceil(b / 32)`
//! sectors of its lane: where a warp's lanes are a sector or more apart
//! (scattered, or rows), each field's store touches a sector a lane, and
//! so does the whole structure's: a pair of floats scattered keeps a
//! quarter of its sector unused after the fix, where 32 bytes and more
//! fill theirs. Where lanes share sectors (structures side by side), the
//! fix reaches the ideal. Stores outside runs are counted at their ideal,
//! as their own fixes would leave them.

use super::sass_counts::{GlobalAccess, global_accesses, least_executed, runs};
use crate::memory_model::SECTOR;
use crate::model::SourceView;

/// The store instructions with each run written whole
/// (`{ sass = "vector_stores" }`).
pub const VECTOR_STORES: &str = "vector_stores";

/// The load instructions with each run read whole
/// (`{ sass = "vector_loads" }`).
pub const VECTOR_LOADS: &str = "vector_loads";

/// The sectors the global stores would touch with each run written whole
/// (`{ sass = "fixed_store_sectors" }`).
pub const FIXED_STORE_SECTORS: &str = "fixed_store_sectors";

/// The sectors the fixed stores would look up at the L1's tags, each
/// vector store of a run touching as many as its first field's store did
/// (`{ sass = "fixed_store_tags" }`).
pub const FIXED_STORE_TAGS: &str = "fixed_store_tags";

/// The widest vector store, in bytes.
const VECTOR_BYTES: f64 = 16.0;

/// The count `name` for a kernel's source page, where its SASS decides it.
pub fn count(view: &SourceView, name: &str) -> Option<f64> {
    match name {
        VECTOR_STORES => over_runs(view, "Store", |run| run.vector_accesses()),
        VECTOR_LOADS => over_runs(view, "Load", |run| run.vector_accesses()),
        FIXED_STORE_SECTORS => over_runs(view, "Store", |run| run.fixed_sectors()),
        FIXED_STORE_TAGS => over_runs(view, "Store", |run| run.fixed_tags()),
        _ => None,
    }
}

/// Stores (or loads) of one width from one register at offsets a width
/// apart (one alone where no other continues it), and whether a thread repeats
/// them: executed more often than the kernel's least executed instruction
/// (its entry), inside a loop that walks rows or structures.
struct Run<'s, 'v> {
    accesses: &'s [&'s GlobalAccess<'v>],
    repeated: bool,
}

impl Run<'_, '_> {
    fn bytes(&self) -> f64 {
        self.accesses.len() as f64 * self.accesses[0].width
    }

    /// The vector stores (or loads) that move the run whole, each as often
    /// as its fields' instructions ran: as wide as the structure's
    /// alignment allows (structure `i` of `b` bytes starts at `i * b`,
    /// aligned to the largest power of two dividing `b`), 16 bytes at
    /// most, and no narrower than its fields. Six shorts take three 4-byte stores, three floats take
    /// three: no fewer than as is.
    fn vector_accesses(&self) -> f64 {
        self.accesses[0].executed * self.vectors_per_thread()
    }

    /// The vector instructions a thread runs to move the run whole.
    fn vectors_per_thread(&self) -> f64 {
        let width = self.accesses[0].width;
        let bytes = self.bytes();
        let alignment = match bytes as u64 {
            0 => width,
            whole => (1u64 << whole.trailing_zeros()) as f64,
        };
        (bytes / alignment.clamp(width, VECTOR_BYTES)).ceil()
    }

    /// The sectors the run's vector stores look up at the L1's tags: each
    /// spans its warp's lanes as the run's first field did (a warp's
    /// structures side by side: each of three uchar2 stores covers the
    /// 192 bytes six byte stores did), and no fewer than the ideal.
    ///
    /// A store alone, and a repeated run (a walk's: a thread's row, a
    /// grid-stride loop, whose own fix, a warp a row, reaches its lanes'
    /// sectors), count as `fixed_sectors` counts them.
    fn fixed_tags(&self) -> f64 {
        if self.repeated || self.accesses.len() < 2 {
            return self.fixed_sectors();
        }
        self.ideal()
            .max(self.accesses[0].sectors * self.vectors_per_thread())
    }

    /// The sectors the run touches written whole: a sector of each lane's
    /// structure for every sector its first field touched, and no fewer
    /// than the ideal; a store alone at its ideal.
    fn fixed_sectors(&self) -> f64 {
        if self.accesses.len() < 2 {
            return self.ideal();
        }
        self.ideal()
            .max(self.accesses[0].sectors * (self.bytes() / SECTOR).ceil())
    }

    /// The sectors its stores would touch at their ideal.
    fn ideal(&self) -> f64 {
        self.accesses.iter().map(|s| s.ideal).sum()
    }
}

/// The sum of `each` over the kernel's runs of global accesses of
/// `operation` (`Store`, `Load`); `None` where one's address or width is
/// not in its SASS, or no thread moves a run of two or more (the bytes a
/// thread stores decide then).
fn over_runs(view: &SourceView, operation: &str, each: impl Fn(&Run) -> f64) -> Option<f64> {
    let accesses = global_accesses(view, operation)?;
    let entry = least_executed(view);
    let mut total = 0.0;
    let mut any_run = false;
    for run in runs(&accesses) {
        any_run |= run.len() >= 2;
        let repeated = entry.is_some_and(|least| run[0].executed > 1.5 * least);
        total += each(&Run {
            accesses: &run,
            repeated,
        });
    }
    any_run.then_some(total)
}
