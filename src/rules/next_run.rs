//! Where a thread's loop puts its next run of accesses: on from where the
//! last one ended, as a thread walking a row of its own does, or elsewhere,
//! as a loop over structures a grid apart does. No metric tells the two
//! apart (both make one request a field a pass, each a sector a lane); the
//! SASS instruction in the loop that sets the run's address register does.
//!
//! - `IADD3 R2, P1, R2, 0x80, RZ` in a run of 128 bytes: the register steps
//!   by the run itself, so the next pass follows on (a row walk).
//! - `IADD3 R2, P1, R2, R9, RZ`, or a step other than the run: the next
//!   pass starts elsewhere (a grid-stride step in a register, a pitch).
//! - `LEA R2, P0, R0, UR10, 0x5` in a run of 32 bytes, or
//!   `IMAD.WIDE.U32 R2, R0, 0x20, R4`: the address is rebuilt from an index
//!   scaled by the run's size, so index `i` selects run `i`: an array of
//!   structures, the loop's index stepping over them.
//!
//! Anything else (an address rebuilt at another scale, a run outside any
//! loop) decides nothing.

use crate::memory_model::sass_instruction;
use crate::model::{SourceRow, SourceView, address_number};
use crate::value::Value;

/// The opcodes of the instructions that set an address register as this
/// module reads them: the source rows a pack with a global analysis keeps
/// beside its memory instructions.
pub const ADDRESS_OPCODES: [&str; 4] = ["IADD3", "IADD", "LEA", "IMAD"];

/// How a loop's next run of accesses lies against the last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextRun {
    /// It starts where the last ended: a thread walks a range of its own.
    FollowsOn,
    /// It starts elsewhere: the loop steps over structures, or rows.
    Jumps,
}

/// Where the next pass of its loop puts a run of `run_bytes` bytes
/// addressed from `base` (`R2.64`), whose instructions each executed
/// `executed` times; `None` where the SASS does not say, or the run is
/// executed no more often than the kernel's first instruction (no loop).
pub fn next_run(view: &SourceView, base: &str, run_bytes: f64, executed: f64) -> Option<NextRun> {
    let register = base.split('.').next()?;
    let column = view.column("Instructions Executed")?;
    let count = |row: &SourceRow| row.cells.get(column).and_then(Value::as_number);
    let entry = view
        .instructions
        .iter()
        .filter_map(|row| Some((address_number(row.address.as_deref()?)?, row)))
        .min_by_key(|(address, _)| *address)
        .and_then(|(_, row)| count(row))?;
    if executed <= entry {
        return None;
    }
    view.instructions
        .iter()
        .filter(|row| count(row) == Some(executed))
        .find_map(|row| sets_address(&row.text, register, run_bytes))
}

/// What an instruction that writes `register` says of the next run.
fn sets_address(sass: &str, register: &str, run_bytes: f64) -> Option<NextRun> {
    let (opcode, operands) = sass_instruction(sass);
    let operands: Vec<&str> = operands.split(',').map(str::trim).collect();
    if operands.first() != Some(&register) {
        return None;
    }
    let sources: Vec<&str> = operands[1..]
        .iter()
        .copied()
        .filter(|o| !is_predicate(o) && *o != "RZ")
        .collect();
    let family = opcode.split('.').next()?;
    let high_half = opcode.contains(".X") || opcode.contains(".HI");
    match family {
        "IADD3" | "IADD" if !high_half => step_of(&sources, register, run_bytes),
        "LEA" if !high_half => {
            let shift = immediate(sources.last()?)?;
            (shift < 63 && (1u64 << shift) as f64 == run_bytes).then_some(NextRun::Jumps)
        }
        "IMAD" if opcode.starts_with("IMAD.WIDE") => {
            let scale = immediate(sources.get(1)?)?;
            (scale as f64 == run_bytes).then_some(NextRun::Jumps)
        }
        _ => None,
    }
}

/// The next run of a register that adds to itself: on where the step is
/// the run, elsewhere where it is another immediate or a register.
fn step_of(sources: &[&str], register: &str, run_bytes: f64) -> Option<NextRun> {
    let [a, b] = sources else {
        return None;
    };
    let step = match (*a == register, *b == register) {
        (true, false) => b,
        (false, true) => a,
        _ => return None,
    };
    match immediate(step) {
        Some(bytes) if bytes as f64 == run_bytes => Some(NextRun::FollowsOn),
        Some(_) => Some(NextRun::Jumps),
        None if step.starts_with('R') || step.starts_with("UR") => Some(NextRun::Jumps),
        None => None,
    }
}

/// Whether an operand is a predicate (`P0`, `!P1`, `PT`).
fn is_predicate(operand: &str) -> bool {
    let bare = operand.trim_start_matches('!');
    bare == "PT" || (bare.starts_with('P') && bare[1..].chars().all(|c| c.is_ascii_digit()))
}

/// An immediate operand's value (`0x80`, `32`).
fn immediate(operand: &str) -> Option<u64> {
    match operand.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => operand.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Instructions from fixtures/twins: rows_heldout.cu's layernorm_rows
    // (a row walk of 128-byte runs) and stores_blind16.cu's
    // store_struct_walk (structures of 32 bytes a grid apart).
    #[test]
    fn a_register_that_steps_by_its_run_follows_on() {
        let bump = "IADD3 R2, P1, R2, 0x80, RZ";
        assert_eq!(sets_address(bump, "R2", 128.0), Some(NextRun::FollowsOn));
        assert_eq!(sets_address(bump, "R2", 32.0), Some(NextRun::Jumps));
        assert_eq!(sets_address(bump, "R3", 128.0), None);
        assert_eq!(
            sets_address("IADD3.X R3, RZ, R3, RZ, P1, !PT", "R3", 128.0),
            None
        );
    }

    #[test]
    fn an_address_rebuilt_from_an_index_scaled_by_the_run_jumps() {
        let lea = "LEA R4, P0, R0, UR10, 0x5";
        assert_eq!(sets_address(lea, "R4", 32.0), Some(NextRun::Jumps));
        assert_eq!(sets_address(lea, "R4", 16.0), None);
        assert_eq!(
            sets_address("LEA.HI.X R5, R0, UR11, R17, 0x5, P0", "R5", 32.0),
            None
        );
        let wide = "@P0 IMAD.WIDE.U32 R2, R0, 0x20, R4";
        assert_eq!(sets_address(wide, "R2", 32.0), Some(NextRun::Jumps));
        assert_eq!(
            sets_address("IADD3 R4, P0, R4, R9, RZ", "R4", 32.0),
            Some(NextRun::Jumps)
        );
    }
}
