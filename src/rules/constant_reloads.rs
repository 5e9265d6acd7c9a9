//! Whether a loop's loads wait each pass for an address from the constant
//! bank (`{ sass = "constant_reloads" }`): an `LDC` in the loop whose
//! register builds the address of the kernel's most executed global load.
//!
//! nvcc keeps a kernel's pointer arguments in the constant bank and, where
//! a loop's address arithmetic overwrites the register that held one
//! (`IMAD.WIDE.U32 R2, R13, 0x18, R2`), loads it again on every pass
//! (`LDC.64 R2, c[0x0][0x210]`): the pass's loads cannot issue until the
//! constant cache answers, a wait the warps of a small grid have nothing
//! to hide behind. The walks of structures read a field at a time in
//! fixtures/twins did so where the structure's size was no power of two;
//! 53 of their 63 fixed builds, reading it whole, loaded the pointer once.
//! No metric counts it; the SASS does.

use crate::memory_model::sass_instruction;
use crate::model::{SourceRow, SourceView};
use crate::value::Value;

use super::sass_counts::{global_accesses, least_executed, most_executed};

/// The count's name in a pack (`{ sass = "constant_reloads" }`).
pub const CONSTANT_RELOADS: &str = "constant_reloads";

/// The opcode family of a load from the constant bank: the source rows a
/// pack that counts them keeps (`ULDC`, the uniform datapath's, is another
/// family, and no warp waits for it per lane).
pub const OPCODE_FAMILY: &str = "LDC";

/// The share of the passes of the loop around the kernel's most executed
/// global load that load its address from the constant bank first: the
/// executions of the `LDC`s that build that address past the kernel's
/// entry (once a warp, before any loop), over the load's past it, at most
/// 1; 0 where no `LDC` in the loop does, or the load is in no loop; `None`
/// where no global load executed.
pub fn count(view: &SourceView) -> Option<f64> {
    let loads = global_accesses(view, "Load")?;
    let most = most_executed(&loads)?;
    let column = view.column("Instructions Executed")?;
    let executed = |row: &SourceRow| row.cells.get(column).and_then(Value::as_number);
    let base = most.base.split('.').next()?;
    let feeds_base = |register: &str| {
        register == base
            || view.instructions.iter().any(|row| {
                executed(row) == Some(most.executed) && writes_from(&row.text, base, register)
            })
    };
    let reloads = view
        .instructions
        .iter()
        .filter_map(|row| Some((constant_load_target(&row.text)?, executed(row)?)))
        .filter(|(register, _)| feeds_base(register))
        .map(|(_, runs)| runs)
        .fold(0.0, f64::max);
    let entry = least_executed(view)?;
    if most.executed <= entry {
        return Some(0.0);
    }
    Some(((reloads - entry).max(0.0) / (most.executed - entry)).min(1.0))
}

/// The register an `LDC` writes (`LDC.64 R2, c[0x0][0x210]` writes `R2`);
/// `None` for any other instruction.
fn constant_load_target(sass: &str) -> Option<&str> {
    let (opcode, operands) = sass_instruction(sass);
    if opcode.split('.').next() != Some(OPCODE_FAMILY) {
        return None;
    }
    operands.split(',').next().map(str::trim)
}

/// Whether an instruction writes `target` from `source` among its operands
/// (`IMAD.WIDE.U32 R2, R13, 0x18, R2` writes `R2` from `R13` and `R2`).
fn writes_from(sass: &str, target: &str, source: &str) -> bool {
    let (_, operands) = sass_instruction(sass);
    let mut operands = operands.split(',').map(str::trim);
    operands.next() == Some(target) && operands.any(|o| o == source)
}

#[cfg(test)]
mod tests {
    use super::{constant_load_target, writes_from};

    #[test]
    fn only_a_constant_loads_destination_is_read() {
        assert_eq!(constant_load_target("LDC.64 R2, c[0x0][0x210]"), Some("R2"));
        assert_eq!(constant_load_target("  LDC R0, c[0x0][0xc]"), Some("R0"));
        assert_eq!(constant_load_target("ULDC.64 UR4, c[0x0][0x208]"), None);
        assert_eq!(constant_load_target("LDG.E R4, desc[UR4][R2.64]"), None);
    }

    #[test]
    fn an_address_built_from_a_register_names_it_as_a_source() {
        // stores_blind23.cu's six floats a field at a time, as is.
        assert!(writes_from("IMAD.WIDE.U32 R2, R13, 0x18, R2", "R2", "R2"));
        assert!(writes_from("IMAD.WIDE.U32 R4, R13, 0x18, R2", "R4", "R2"));
        assert!(!writes_from("IMAD.WIDE.U32 R4, R13, 0x18, R2", "R2", "R13"));
        assert!(!writes_from("IMAD R5, R8, 0x18, RZ", "R2", "R8"));
    }
}
