//! The opcode of a SASS instruction from its encoding, for the native
//! source view: the report carries the cubin but no disassembly, and the
//! output and the width fallback need at least the opcode (`LDG`, `STS`).
//! Volta to Hopper encode each instruction in 16 bytes with the opcode in
//! the low 12 bits; the table (`opcodes.tsv`) was read off reports beside
//! the source pages ncu exported from them.

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
}
