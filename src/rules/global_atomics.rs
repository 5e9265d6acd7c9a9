//! How often a kernel executed global atomics and reductions
//! (`{ sass = "global_atomics" }`): `ATOMG`, `REDG` and the older `ATOM`,
//! `RED` on global addresses. The source page marks an `ATOMG` as an atomic
//! access but a `REDG` (an atomic whose old value is not used) as no access
//! at all, so its Access Operation column cannot tell a kernel without
//! atomics; the SASS can. The floating-point ones among them
//! (`{ sass = "float_atomics" }`) are counted apart: a slice applies them to
//! one address more slowly than integer ones. So are the 64-bit ones
//! (`{ sass = "wide_atomics" }`: doubles, 64-bit integers), which keep a
//! slice's atomic unit busier for each sector they carry.

use super::sass_counts::executions;
use crate::memory_model::sass_instruction;
use crate::model::SourceView;
use crate::value::Value;

/// The count's name in a pack (`{ sass = "global_atomics" }`).
pub const GLOBAL_ATOMICS: &str = "global_atomics";

/// The executions (a warp's each) of the kernel's global atomics and
/// reductions; `None` where the page has no executions or address spaces.
pub fn count(view: &SourceView) -> Option<f64> {
    executions_of(view, |_| true)
}

/// The count's name in a pack (`{ sass = "float_atomics" }`).
pub const FLOAT_ATOMICS: &str = "float_atomics";

/// The executions of the kernel's global atomics and reductions on
/// floating-point values (`REDG.E.ADD.F32.FTZ.RN`, `.F64`, `.F16x2`): an L2
/// slice's atomic unit applies a float add to one address in three of its
/// cycles, an integer one in under two. `None` as [`count`].
pub fn float_count(view: &SourceView) -> Option<f64> {
    executions_of(view, is_float)
}

/// The count's name in a pack (`{ sass = "wide_atomics" }`).
pub const WIDE_ATOMICS: &str = "wide_atomics";

/// The executions of the kernel's global atomics and reductions on 64-bit
/// values (`REDG.E.ADD.F64.RN`, `REDG.E.ADD.64`, `ATOMG.E.CAS.64`): a
/// sector of them is half the lanes of a 32-bit one, each lane's value two
/// words. `None` as [`count`].
pub fn wide_count(view: &SourceView) -> Option<f64> {
    executions_of(view, is_wide)
}

/// The executions of the kernel's global atomics and reductions whose SASS
/// `kind` accepts.
fn executions_of(view: &SourceView, kind: impl Fn(&str) -> bool) -> Option<f64> {
    let space = view.column("Address Space")?;
    executions(view, |row| {
        matches!(row.cells.get(space), Some(Value::Text(s)) if s == "Global")
            && is_atomic(&row.text)
            && kind(&row.text)
    })
}

/// Whether an instruction's opcode names a floating-point type (`F32`,
/// `F64`, `F16x2`, `BF16`); `FTZ`, a rounding flag, is not one.
pub fn is_float(sass: &str) -> bool {
    let (opcode, _) = sass_instruction(sass);
    opcode.split('.').skip(1).any(|part| {
        let digits = part.strip_prefix("BF").or_else(|| part.strip_prefix('F'));
        digits.is_some_and(|d| d.starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// Whether an instruction's opcode names a 64-bit operand (`F64`, `64`,
/// `U64`, `S64`); the address's width (`E`, a register pair `R2.64` among
/// the operands) is not one.
pub fn is_wide(sass: &str) -> bool {
    let (opcode, _) = sass_instruction(sass);
    opcode
        .split('.')
        .skip(1)
        .any(|part| matches!(part, "64" | "F64" | "U64" | "S64"))
}

/// Whether a SASS instruction is an atomic or a reduction on memory the
/// L2 holds (`REDG.E.ADD.F32.FTZ.RN.STRONG.GPU`, `@P0 ATOMG.E.ADD`,
/// `RED.E.ADD`), not one on shared memory (`ATOMS`) or a warp vote.
pub fn is_atomic(sass: &str) -> bool {
    let (opcode, _) = sass_instruction(sass);
    matches!(
        opcode.split('.').next(),
        Some("ATOMG" | "REDG" | "ATOM" | "RED")
    )
}

#[cfg(test)]
mod tests {
    use super::{is_atomic, is_float, is_wide};

    #[test]
    fn sixty_four_bit_atomics_are_told_from_narrower_ones() {
        assert!(is_wide("REDG.E.ADD.F64.RN.STRONG.GPU desc[UR4][R4.64], R6"));
        assert!(is_wide("REDG.E.ADD.64.STRONG.GPU desc[UR4][R2.64], R4"));
        assert!(is_wide("ATOMG.E.CAS.64.STRONG.GPU PT, R6, [R2.64], R4, R8"));
        assert!(!is_wide("REDG.E.ADD.STRONG.GPU desc[UR4][R6.64], R9"));
        assert!(!is_wide(
            "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R4.64], R7"
        ));
        assert!(!is_wide(
            "ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, R3, [R2.64], R5"
        ));
    }

    #[test]
    fn floating_point_atomics_are_told_from_integer_ones() {
        assert!(is_float(
            "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R4.64], R7"
        ));
        assert!(is_float(
            "REDG.E.ADD.F64.RN.STRONG.GPU desc[UR4][R4.64], R6"
        ));
        assert!(is_float(
            "ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, R3, [R2.64], R5"
        ));
        assert!(!is_float("REDG.E.ADD.STRONG.GPU desc[UR4][R6.64], R9"));
        assert!(!is_float("REDG.E.MAX.S32.STRONG.GPU desc[UR4][R2.64], R5"));
        assert!(!is_float("ATOMG.E.CAS.STRONG.GPU PT, R7, [R2.64], R4, R5"));
    }

    #[test]
    fn global_atomics_and_reductions_count_and_shared_ones_do_not() {
        assert!(is_atomic(
            "      REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R4.64], R7"
        ));
        assert!(is_atomic(
            "@P0 ATOMG.E.ADD.STRONG.GPU PT, R5, desc[UR4][R2.64], R5"
        ));
        assert!(is_atomic("RED.E.ADD.STRONG.GPU [R2.64], R5"));
        assert!(!is_atomic("ATOMS.ADD RZ, [R3], R4"));
        assert!(!is_atomic("REDUX.SUM R2, R3"));
        assert!(!is_atomic("LDG.E R2, desc[UR4][R2.64]"));
    }
}
