//! How many batches of loads each warp of a walk waits for in turn
//! (`{ sass = "walk_passes" }`): a loop over structures or elements a grid
//! apart, as a grid-stride loop is, whose every pass loads and then waits
//! a round trip before its sum and its store.
//!
//! A fix that reads each structure whole (vector loads) keeps the loop and
//! its passes: on a grid smaller than the GPU, where each warp walks
//! hundreds of structures and each SM holds a block or two, the kernel's
//! time is those passes' round trips, whatever the sectors. No metric
//! counts them; the SASS does: the most executed global load ran once a
//! pass of each warp, and the kernel's entry once a warp. Where that
//! load's loop steps on from where the last pass ended (a thread's own
//! row, whose fix, a warp a row, remakes the loop) or runs no more often
//! than the entry (no loop), there is no walk to count.

use super::next_run::{NextRun, next_run};
use super::sass_counts::{GlobalAccess, global_accesses, least_executed, most_executed, runs};
use crate::model::SourceView;

/// The passes of a walk's loop a warp makes (`{ sass = "walk_passes" }`).
pub const WALK_PASSES: &str = "walk_passes";

/// The passes a warp makes through a loop that walks structures a grid
/// apart: the executions of the kernel's most executed global load over
/// its entry's; `None` where no such loop loads.
pub fn count(view: &SourceView) -> Option<f64> {
    let loads = global_accesses(view, "Load")?;
    let most = most_executed(&loads)?;
    let entry = least_executed(view)?;
    let bytes = run_bytes(&loads, most);
    match next_run(view, most.base, bytes, most.executed)? {
        NextRun::Jumps => Some(most.executed / entry),
        NextRun::FollowsOn => None,
    }
}

/// The bytes of the run `load` belongs to: the loads from its register, of
/// its width, executed as often, at offsets a width apart from it (a
/// structure's fields read one at a time); its own width alone.
fn run_bytes(loads: &[GlobalAccess], load: &GlobalAccess) -> f64 {
    // Two loads of one field count once.
    let mut fields: Vec<GlobalAccess> = Vec::new();
    for l in loads {
        if !fields.iter().any(|f| same_field(f, l)) {
            fields.push(l.clone());
        }
    }
    runs(&fields)
        .iter()
        .find(|run| run.iter().any(|f| same_field(f, load)))
        .map_or(load.width, |run| run.len() as f64 * load.width)
}

/// Whether two loads read one field: one register, offset, width and
/// count of executions.
fn same_field(a: &GlobalAccess, b: &GlobalAccess) -> bool {
    a.base == b.base && a.offset == b.offset && a.width == b.width && a.executed == b.executed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(offset: i64, executed: f64) -> GlobalAccess<'static> {
        GlobalAccess {
            base: "R2.64",
            offset,
            width: 4.0,
            executed,
            sectors: 0.0,
            ideal: 0.0,
        }
    }

    #[test]
    fn a_structures_fields_read_one_at_a_time_make_one_run() {
        // stores_blind18.cu's eight floats a field at a time: [R2.64] to
        // [R2.64+0x1c], each executed once a pass.
        let loads: Vec<_> = (0..8).map(|k| load(4 * k, 2048.0)).collect();
        assert_eq!(run_bytes(&loads, &loads[0]), 32.0);
        assert_eq!(run_bytes(&loads, &loads[5]), 32.0);
    }

    #[test]
    fn loads_apart_or_run_otherwise_are_runs_of_their_own() {
        let loads = vec![
            load(0, 2048.0),
            load(4, 2048.0),
            load(64, 2048.0),
            load(8, 1024.0),
        ];
        assert_eq!(run_bytes(&loads, &loads[0]), 8.0);
        assert_eq!(run_bytes(&loads, &loads[2]), 4.0);
        assert_eq!(run_bytes(&loads, &loads[3]), 4.0);
    }
}
