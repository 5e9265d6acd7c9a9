//! The opcode of a SASS instruction from its encoding, for the native
//! source view: the report carries the cubin but no disassembly, and the
//! output and the width fallback need at least the opcode (`LDG`, `STS`).
//! Volta to Hopper encode each instruction in 16 bytes with the opcode in
//! the low 12 bits; the table (`opcodes.tsv`) was read off reports beside
//! the source pages ncu exported from them. Memory instructions also give
//! their address operand, a register and an immediate offset, so that the
//! diagnosis can tell which elements a thread's loads read as it does from
//! the SASS text.

use std::collections::HashMap;
use std::sync::LazyLock;

/// Opcodes by the low 12 bits of the encoding.
static OPCODES: LazyLock<HashMap<u16, &'static str>> = LazyLock::new(|| {
    include_str!("opcodes.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .filter_map(|l| {
            let (code, opcode) = l.split_once('\t')?;
            let code = u16::from_str_radix(code.trim_start_matches("0x"), 16).ok()?;
            Some((code, opcode))
        })
        .collect()
});

/// The opcode of the 16-byte instruction `encoding` (little-endian), where
/// the table knows its code.
pub fn opcode(encoding: &[u8]) -> Option<&'static str> {
    let low = u16::from_le_bytes([*encoding.first()?, *encoding.get(1)?]) & 0xfff;
    OPCODES.get(&low).copied()
}

/// Memory instructions whose address operand [`address`] reads: checked
/// against the SASS text of every such instruction in the fixtures' source
/// pages (sm_86, sm_89 and sm_90).
const ADDRESSED: [&str; 7] = ["LDG", "STG", "LDS", "STS", "LDL", "STL", "LDSM"];

/// The address operand of a memory instruction: its register (byte 3;
/// `None` for RZ, an address in uniform registers alone) and its signed
/// 24-bit immediate offset (bytes 5 to 7), as the SASS text writes
/// `[R2.64+0x808]`.
pub fn address(encoding: &[u8; 16]) -> Option<(u8, i32)> {
    if !ADDRESSED.contains(&opcode(encoding)?) {
        return None;
    }
    let register = encoding[3];
    let offset = i32::from_le_bytes([0, encoding[5], encoding[6], encoding[7]]) >> 8;
    (register != 0xff).then_some((register, offset))
}

/// The instruction as the native source view shows it: the opcode, and
/// for a memory instruction its address (`LDG [R2+0x808]`, `[R2-0x40]`).
pub fn text(encoding: &[u8; 16]) -> Option<String> {
    let opcode = opcode(encoding)?;
    Some(match address(encoding) {
        Some((register, 0)) => format!("{opcode} [R{register}]"),
        Some((register, offset)) if offset < 0 => {
            format!("{opcode} [R{register}-0x{:x}]", offset.unsigned_abs())
        }
        Some((register, offset)) => format!("{opcode} [R{register}+0x{offset:x}]"),
        None => opcode.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_and_knows_the_memory_opcodes() {
        assert!(OPCODES.len() > 80);
        // LDG R2, desc[UR4][R2.64] on sm_90: 0x...7981 in the low bits.
        assert_eq!(opcode(&[0x81, 0x79, 0, 0]), Some("LDG"));
        assert_eq!(opcode(&[0x86, 0x79]), Some("STG"));
        assert_eq!(opcode(&[0x84, 0x79]), Some("LDS"));
        assert_eq!(opcode(&[0xff, 0x7f]), None);
        assert_eq!(opcode(&[0x81]), None);
    }

    fn word(hex: &str) -> [u8; 16] {
        let mut w = [0u8; 16];
        for (i, b) in w.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
        }
        w
    }

    #[test]
    fn memory_instructions_give_their_address_as_the_sass_text_does() {
        // fixtures/triton/triton.ncu-rep.xz (interleave_masked), beside its
        // SASS page: `@!P3 LDG.E R10, desc[UR4][R2.64+0x808]`.
        assert_eq!(
            text(&word("81b90a020408080000191e0c00680f00")).as_deref(),
            Some("LDG [R2+0x808]")
        );
        // fixtures/inline (sum_rows): `LDG.E.CONSTANT R20, desc[UR4][R2.64+-0x40]`.
        let negative = word("8179140204c0ffff00991e0c00a80e00");
        assert_eq!(address(&negative), Some((2, -64)));
        assert_eq!(text(&negative).as_deref(), Some("LDG [R2-0x40]"));
        // `STG.E.128 desc[UR4][R12.64+0x800], R4`.
        assert_eq!(
            address(&word("8679000c04000800041d100c00e20f02")),
            Some((12, 2048))
        );
        // `LDS R2, [UR4+0xc]`: uniform registers alone, no register address.
        let uniform = word("847902ff040c00000008000800281e00");
        assert_eq!(address(&uniform), None);
        assert_eq!(text(&uniform).as_deref(), Some("LDS"));
    }
}
