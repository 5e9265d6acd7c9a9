//! The memory model that turns measured counts into a cause: how far apart
//! adjacent threads' global accesses are, whether they are misaligned, and
//! how many ways a shared-memory access conflicts and what index stride
//! that implies.
//!
//! Global memory moves 32-byte sectors. A warp of 32 threads, each reading
//! `w` bytes `s` bytes apart (s a multiple of w), touches `32·s/32` sectors
//! while `s < 32`, so each sector holds `u = 32·w/s` useful bytes and
//! `s = 32·w/u`; from `s ≥ 32` on every thread has a sector of its own and
//! `u = w`, so only `s ≥ 32` follows. Unit-stride accesses that start off a
//! 32-byte boundary span one sector more than they fill: `u = 32·w/(w+1)`.
//!
//! A mask or branch that leaves lanes idle (`if (i % 2 == 0)`, a masked
//! `tl.load`) gaps the warp's addresses as a stride does: with fewer than
//! [`MASKED_LANES`] of 32 lanes active per instruction, the useful bytes
//! say how much of each sector is used but not why, so no stride is read
//! from them.
//!
//! Shared memory has 32 banks of 4 bytes. A request of `w`-byte accesses is
//! served `128/w` threads (at most 32) per wavefront, so it needs
//! `ceil(32·w/128)` wavefronts at least. With an index stride `s`, the
//! threads of a wavefront meet in `gcd(s, 128/w)` ways for `w ≥ 4`; smaller
//! elements share words, so the word stride `s·w/4` decides: `gcd(s·w/4, 32)`
//! when it is whole, one way (broadcast) when it is not.

/// Bytes in a sector.
pub const SECTOR: f64 = 32.0;
/// Threads in a warp.
pub const WARP: u32 = 32;

/// How far apart adjacent threads' global accesses are, as the data decide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GlobalPattern {
    /// Adjacent threads, adjacent addresses, aligned: every byte is used.
    Unit,
    /// Unit stride starting off a 32-byte boundary: one extra sector per warp.
    Misaligned,
    /// Adjacent threads exactly this many bytes apart.
    Stride(f64),
    /// Adjacent threads at least this many bytes apart: each has its own sector.
    StrideAtLeast(f64),
    /// Byte accesses two bytes apart use a sector as misaligned unit-stride
    /// byte accesses do: either fits.
    StrideOrMisaligned(f64),
    /// Only this many of a warp's lanes are active per instruction: the
    /// idle lanes, not a stride, leave bytes of the sectors unused.
    Masked(f64),
    /// The numbers fit none of these (mixed patterns, partial warps).
    Undecided,
}

/// Active lanes per instruction under which a warp's accesses are read as
/// masked: an eighth of the lanes idle (a tail block's partial warp moves
/// a kernel's average far less).
pub const MASKED_LANES: f64 = 28.0;

/// How close a measured ratio must be to a pattern's to count as it.
const TOLERANCE: f64 = 0.03;

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOLERANCE * b.abs().max(1.0)
}

/// The pattern of `w`-byte accesses that use `u` of each sector's 32 bytes.
pub fn global_pattern(w: f64, u: f64) -> GlobalPattern {
    if w.is_nan() || u.is_nan() || w <= 0.0 || u <= 0.0 {
        return GlobalPattern::Undecided;
    }
    let full = w.min(SECTOR);
    if near(u, SECTOR) {
        return GlobalPattern::Unit;
    }
    if w < SECTOR && near(u, SECTOR * w / (w + 1.0)) {
        // For bytes, 32/(w+1) is also the stride-2 signature.
        return if w <= 1.0 {
            GlobalPattern::StrideOrMisaligned(2.0 * w)
        } else {
            GlobalPattern::Misaligned
        };
    }
    if near(u, full) {
        return GlobalPattern::StrideAtLeast(SECTOR.max(w));
    }
    let stride = SECTOR * w / u;
    let elements = stride / w;
    if elements >= 2.0 - TOLERANCE && near(elements, elements.round()) {
        return GlobalPattern::Stride(elements.round() * w);
    }
    GlobalPattern::Undecided
}

/// The pattern of `w`-byte accesses that use `u` of each sector's 32 bytes
/// with `active` of a warp's lanes on per instruction: masked where too
/// few lanes are active for the useful bytes to tell a stride, unless
/// every byte moved is used.
pub fn global_pattern_of_lanes(w: f64, u: f64, active: f64) -> GlobalPattern {
    let pattern = global_pattern(w, u);
    if active < MASKED_LANES && active > 0.0 && pattern != GlobalPattern::Unit {
        return GlobalPattern::Masked(active);
    }
    pattern
}

/// Threads served per shared-memory wavefront for `w`-byte accesses.
pub fn threads_per_wavefront(w: f64) -> f64 {
    (128.0 / w).clamp(1.0, f64::from(WARP))
}

/// The fewest wavefronts a warp's `w`-byte shared access takes.
pub fn wavefronts_ideal(w: f64) -> f64 {
    (f64::from(WARP) * w / 128.0).ceil().max(1.0)
}

/// The n-way conflict of `w`-byte shared accesses at index stride
/// `stride`; `None` for sub-word elements whose word stride is fractional
/// and whose warp wraps around the banks (no gcd decides those).
pub fn conflict_ways(stride: u32, w: u32) -> Option<u32> {
    if w >= 4 {
        return Some(gcd(stride, (128 / w).clamp(1, WARP)));
    }
    let bytes = stride * w;
    if bytes % 4 == 0 {
        return Some(gcd(bytes / 4, WARP));
    }
    // Threads share words; the warp's words are distinct banks unless the
    // warp spans more than the 32 banks.
    let span_words = (bytes * (WARP - 1) + w).div_ceil(4);
    (span_words <= WARP).then_some(1)
}

/// The n-way conflict a measured ratio of wavefronts to their ideal
/// stands for: the power of two nearest it, at most the threads of a
/// wavefront; `None` where it is not near one.
pub fn ways_from_ratio(ratio: f64, w: f64) -> Option<f64> {
    if ratio.is_nan() || ratio < 1.0 {
        return None;
    }
    let ways = 2f64.powf(ratio.log2().round());
    (ways <= threads_per_wavefront(w).max(1.0) && (ratio - ways).abs() <= 0.15 * ways)
        .then_some(ways)
}

/// Greatest common divisor.
pub fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

/// A SASS instruction's opcode and operands, past any guard
/// (`@!P0  IADD3.X R3, RZ, R3` is `IADD3.X` and `R3, RZ, R3`); an
/// instruction without operands (`EXIT`) has none.
pub fn sass_instruction(sass: &str) -> (&str, &str) {
    let sass = sass.trim();
    let unguarded = match sass.strip_prefix('@') {
        Some(guarded) => guarded
            .split_once(char::is_whitespace)
            .map_or("", |(_, rest)| rest),
        None => sass,
    };
    let unguarded = unguarded.trim_start();
    unguarded
        .split_once(char::is_whitespace)
        .map_or((unguarded, ""), |(opcode, operands)| {
            (opcode, operands.trim())
        })
}

/// An access width in bytes from a SASS memory instruction
/// (`LDG.E.64`, `LDS.U16`, `STG.E.128`, `LDS`), or `None` for other ones.
pub fn sass_width(sass: &str) -> Option<f64> {
    let opcode = sass.split_whitespace().find(|w| !w.starts_with('@'))?;
    let mut parts = opcode.split('.');
    let base = parts.next()?;
    if !matches!(
        base,
        "LDG" | "STG" | "LDS" | "STS" | "LD" | "ST" | "LDL" | "STL" | "ATOMS" | "ATOMG" | "RED"
    ) {
        return None;
    }
    let mut width = 4.0;
    for modifier in parts {
        match modifier {
            "U8" | "S8" => width = 1.0,
            "U16" | "S16" => width = 2.0,
            "64" => width = 8.0,
            "128" => width = 16.0,
            _ => {}
        }
    }
    Some(width)
}

/// The base registers and byte offset of a SASS memory instruction's
/// address (`[R2.64+0x808]` is `("R2.64", 2056)`, `[R8+UR5+0xc]` is
/// `("R8+UR5", 12)`, `desc[UR4][R2.64]` is `("R2.64", 0)`), or `None`
/// where it has no register address.
pub fn sass_address(sass: &str) -> Option<(&str, i64)> {
    let open = sass.rfind('[')?;
    let inside = sass[open + 1..].split(']').next()?.trim();
    if !inside.starts_with('R') || inside.starts_with("RZ") {
        return None;
    }
    let Some(at) = inside.rfind(['+', '-']) else {
        return Some((inside, 0));
    };
    // ncu writes a negative offset as `+-0x40`.
    let base = inside[..at].strip_suffix('+').unwrap_or(&inside[..at]);
    let offset = &inside[at + 1..];
    let magnitude = match offset.strip_prefix("0x") {
        Some(hex) => i64::from_str_radix(hex, 16).ok(),
        None => offset.parse().ok(),
    };
    match magnitude {
        Some(m) if inside.as_bytes()[at] == b'-' => Some((base, -m)),
        Some(m) => Some((base, m)),
        None => Some((inside, 0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sass_instructions_are_an_opcode_and_operands_past_the_guard() {
        // From fixtures/twins/rows_heldout.source.csv.xz's SASS.
        assert_eq!(
            sass_instruction("      IADD3 R2, P1, R2, 0x80, RZ"),
            ("IADD3", "R2, P1, R2, 0x80, RZ")
        );
        assert_eq!(
            sass_instruction("@!P0  BRA 0x7fac177a1e80"),
            ("BRA", "0x7fac177a1e80")
        );
        assert_eq!(sass_instruction("      EXIT"), ("EXIT", ""));
    }

    #[test]
    fn sass_addresses_are_a_register_and_an_offset() {
        // From fixtures/triton/triton.sass.csv (interleave_masked) and
        // the lab's SASS.
        assert_eq!(
            sass_address("@!P3  LDG.E R10, desc[UR4][R2.64+0x808]"),
            Some(("R2.64", 2056))
        );
        assert_eq!(
            sass_address("LDG.E.EL.U16 R24, desc[UR6][R2.64]"),
            Some(("R2.64", 0))
        );
        assert_eq!(sass_address("LDS R10, [R8+UR5+0xc]"), Some(("R8+UR5", 12)));
        assert_eq!(sass_address("LDS R10, [R10+UR4]"), Some(("R10+UR4", 0)));
        assert_eq!(sass_address("LDS R5, [R3-0x10]"), Some(("R3", -16)));
        assert_eq!(
            sass_address("LDG.E.CONSTANT R20, desc[UR4][R2.64+-0x40]"),
            Some(("R2.64", -64))
        );
        assert_eq!(sass_address("LDG [R2-0x40]"), Some(("R2", -64)));
        assert_eq!(sass_address("FFMA R5, R3, R4, 1"), None);
    }

    #[test]
    fn the_labs_patterns() {
        assert_eq!(global_pattern(4.0, 16.0), GlobalPattern::Stride(8.0));
        assert_eq!(global_pattern(4.0, 4.0), GlobalPattern::StrideAtLeast(32.0));
        assert_eq!(global_pattern(4.0, 128.0 / 5.0), GlobalPattern::Misaligned);
        assert_eq!(global_pattern(4.0, 32.0 / 3.0), GlobalPattern::Stride(12.0));
        assert_eq!(global_pattern(4.0, 32.0), GlobalPattern::Unit);
        assert_eq!(global_pattern(4.0, 10.1), GlobalPattern::Undecided);
    }

    #[test]
    fn shared_ways() {
        assert_eq!(conflict_ways(32, 4), Some(32));
        assert_eq!(conflict_ways(33, 4), Some(1));
        assert_eq!(conflict_ways(2, 8), Some(2));
        assert_eq!(conflict_ways(2, 2), Some(1));
        assert_eq!(conflict_ways(5, 1), None);
        assert_eq!(ways_from_ratio(31.1, 4.0), Some(32.0));
        assert_eq!(ways_from_ratio(2.0, 8.0), Some(2.0));
        assert_eq!(wavefronts_ideal(8.0), 2.0);
        assert_eq!(threads_per_wavefront(8.0), 16.0);
    }

    #[test]
    fn widths_from_sass() {
        assert_eq!(sass_width("LDG.E.CONSTANT R3, desc[UR4][R2.64]"), Some(4.0));
        assert_eq!(sass_width("LDG.E.64 R2, desc[UR4][R2.64]"), Some(8.0));
        assert_eq!(sass_width("@P0 LDS.U16 R5, [R2]"), Some(2.0));
        assert_eq!(sass_width("LDS.128 R4, [R8]"), Some(16.0));
        assert_eq!(sass_width("FADD R1, R2, R3"), None);
    }
}
