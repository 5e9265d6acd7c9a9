//! How often a kernel converts an 8- or 16-bit integer to a float with
//! `I2F` (`{ sass = "narrow_conversions" }`): `I2F.S16`, `I2F.U16`,
//! `I2F.S8`, `I2F.U8`, which run on the SM's quarter-rate conversion pipe
//! (16 lanes a cycle), where a 32-bit integer's `I2FP` and the integer and
//! float arithmetic that convert through a float's bits run at full rate.
//!
//! nvcc converts a signed short loaded on its own (`(float)in[i]`, an
//! `LDG.E.U16`) with `I2F.S16`; a walk of such fields read whole and
//! converted through a float's bits leaves the pipe idle. No metric says
//! which instructions kept the pipe busy; the SASS does.

use super::sass_counts::executions;
use crate::memory_model::sass_instruction;
use crate::model::SourceView;

/// The count's name in a pack (`{ sass = "narrow_conversions" }`).
pub const NARROW_CONVERSIONS: &str = "narrow_conversions";

/// The opcode family of the conversions: the source rows a pack that
/// counts them keeps.
pub const OPCODE_FAMILY: &str = "I2F";

/// The executions (a warp's each) of the kernel's conversions of 8- and
/// 16-bit integers to float; `None` where the page has no executions.
pub fn count(view: &SourceView) -> Option<f64> {
    executions(view, |row| is_narrow_conversion(&row.text))
}

/// Whether a SASS instruction converts an 8- or 16-bit integer with `I2F`
/// (`I2F.S16 R6, R6`, `@P0 I2F.U8 R2, R3`), not a 32-bit one (`I2F`,
/// `I2FP.F32.S32`).
pub fn is_narrow_conversion(sass: &str) -> bool {
    let (opcode, _) = sass_instruction(sass);
    is_narrow_conversion_opcode(opcode)
}

/// [`is_narrow_conversion`] of an opcode already read from its instruction
/// (`I2F.S16`).
pub fn is_narrow_conversion_opcode(opcode: &str) -> bool {
    let mut parts = opcode.split('.');
    parts.next() == Some(OPCODE_FAMILY) && parts.any(is_narrow_integer)
}

/// Whether an opcode's modifier names an 8- or 16-bit integer (`S16`,
/// `U8`): a conversion's source, or a load's width.
pub fn is_narrow_integer(modifier: &str) -> bool {
    matches!(modifier, "S16" | "U16" | "S8" | "U8")
}

#[cfg(test)]
mod tests {
    use super::is_narrow_conversion;

    #[test]
    fn only_conversions_of_narrow_integers_count() {
        assert!(is_narrow_conversion("      I2F.S16 R6, R6"));
        assert!(is_narrow_conversion("@P0 I2F.U8 R2, R3"));
        assert!(!is_narrow_conversion("      I2FP.F32.U32 R0, R0"));
        assert!(!is_narrow_conversion("I2F R1, R2"));
        assert!(!is_narrow_conversion("I2F.F64.S32 R2, R4"));
        assert!(!is_narrow_conversion("F2I.S16 R1, R2"));
    }
}
