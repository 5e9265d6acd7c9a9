//! The memory model's formulas against brute force: a warp's 32 addresses
//! laid over 32-byte sectors and over 32 four-byte banks, counted.

use std::collections::{BTreeMap, BTreeSet};

use ncu_lint::memory_model::{
    GlobalPattern, MASKED_LANES, conflict_ways, global_pattern, global_pattern_of_lanes,
    threads_per_wavefront, ways_from_ratio,
};
use proptest::prelude::*;

/// Useful bytes per sector of a warp whose thread t reads `w` bytes at
/// `offset + t·stride`.
fn simulate_sectors(w: u64, stride: u64, offset: u64) -> f64 {
    let mut sectors = BTreeSet::new();
    for t in 0..32 {
        let start = offset + t * stride;
        for byte in start..start + w {
            sectors.insert(byte / 32);
        }
    }
    (32 * w) as f64 / sectors.len() as f64
}

/// Wavefronts over their ideal for a warp whose thread t reads `w` bytes of
/// shared memory at element index t·stride: per wavefront of 128/w threads,
/// the most distinct words any bank is asked for (one word is a broadcast).
fn simulate_ways(w: u64, stride: u64) -> f64 {
    let per_wavefront = (128 / w).clamp(1, 32);
    let mut wavefronts = 0;
    let mut groups = 0;
    for first in (0..32).step_by(per_wavefront as usize) {
        groups += 1;
        let mut banks: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
        for t in first..(first + per_wavefront).min(32) {
            let start = t * stride * w;
            for word in start / 4..(start + w).div_ceil(4) {
                banks.entry(word % 32).or_default().insert(word);
            }
        }
        wavefronts += banks.values().map(BTreeSet::len).max().unwrap_or(1);
    }
    wavefronts as f64 / groups as f64
}

/// Useful bytes per sector of a warp whose active lanes (the set bits of
/// `mask`) each read `w` bytes at `offset + t·stride`, and the lanes.
fn simulate_masked(w: u64, stride: u64, offset: u64, mask: u32) -> (f64, f64) {
    let mut sectors = BTreeSet::new();
    let lanes = (0..32u64).filter(|t| mask & (1 << t) != 0);
    for t in lanes {
        let start = offset + t * stride;
        for byte in start..start + w {
            sectors.insert(byte / 32);
        }
    }
    let active = f64::from(mask.count_ones());
    (active * w as f64 / sectors.len() as f64, active)
}

fn widths() -> impl Strategy<Value = u64> {
    prop::sample::select(vec![1u64, 2, 4, 8, 16])
}

proptest! {
    #[test]
    fn the_stride_follows_from_the_useful_bytes(w in widths(), k in 1u64..64) {
        let stride = k * w;
        let u = simulate_sectors(w, stride, 0);
        let pattern = global_pattern(w as f64, u);
        match () {
            _ if k == 1 => prop_assert_eq!(pattern, GlobalPattern::Unit),
            _ if w == 1 && k == 2 => prop_assert_eq!(pattern, GlobalPattern::StrideOrMisaligned(2.0)),
            _ if stride >= 32 => prop_assert_eq!(pattern, GlobalPattern::StrideAtLeast(32f64.max(w as f64))),
            // Strides that do not divide a sector evenly straddle sectors:
            // the model says so rather than guess.
            _ if 32 % stride != 0 => prop_assert!(matches!(pattern, GlobalPattern::Stride(_) | GlobalPattern::Undecided | GlobalPattern::Misaligned), "{pattern:?}"),
            _ => prop_assert_eq!(pattern, GlobalPattern::Stride(stride as f64)),
        }
    }

    #[test]
    fn unit_stride_off_a_sector_boundary_is_misaligned(w in prop::sample::select(vec![4u64, 8, 16]), m in 1u64..8) {
        let offset = m * w % 32;
        prop_assume!(offset != 0);
        let u = simulate_sectors(w, w, offset);
        prop_assert_eq!(global_pattern(w as f64, u), GlobalPattern::Misaligned);
    }

    #[test]
    fn n_way_is_the_gcd_of_stride_and_threads_per_wavefront(w in widths(), stride in 1u64..80) {
        let simulated = simulate_ways(w, stride);
        let modelled = conflict_ways(stride as u32, w as u32);
        prop_assume!(modelled.is_some() || w < 4);
        let Some(modelled) = modelled else { return Ok(()) };
        prop_assert_eq!(simulated, f64::from(modelled), "w={} stride={}", w, stride);
        prop_assert_eq!(ways_from_ratio(simulated, w as f64), Some(f64::from(modelled)));
        prop_assert!(f64::from(modelled) <= threads_per_wavefront(w as f64).max(1.0) || w < 4);
    }
}

proptest! {
    #[test]
    fn masked_lanes_are_never_read_as_a_stride(
        w in widths(),
        k in 1u64..9,
        mask in any::<u32>(),
        offset in 0u64..4,
    ) {
        let active = mask.count_ones();
        prop_assume!(active > 0 && f64::from(active) < MASKED_LANES);
        let (u, lanes) = simulate_masked(w, k * w, offset * w, mask);
        let pattern = global_pattern_of_lanes(w as f64, u, lanes);
        if (u - 32.0).abs() < 1e-9 {
            // Every byte moved is used: nothing to fix, mask or not.
            prop_assert_eq!(pattern, GlobalPattern::Unit);
        } else {
            prop_assert_eq!(pattern, GlobalPattern::Masked(lanes));
        }
    }

    #[test]
    fn a_full_warp_is_read_as_before(w in widths(), k in 1u64..64) {
        let (u, lanes) = simulate_masked(w, k * w, 0, u32::MAX);
        prop_assert_eq!(global_pattern_of_lanes(w as f64, u, lanes), global_pattern(w as f64, u));
    }
}

#[test]
fn the_issues_cases() {
    // Even elements under one mask, odd under the other (every other lane
    // of a unit-stride warp): the full-warp model would read a stride of
    // two elements; the lanes say it is the mask.
    let (u, lanes) = simulate_masked(2, 2, 0, 0x5555_5555);
    assert_eq!(global_pattern(2.0, u), GlobalPattern::Stride(4.0));
    assert_eq!(
        global_pattern_of_lanes(2.0, u, lanes),
        GlobalPattern::Masked(16.0)
    );
    // One lane in three, as Inductor's rotary backward runs (10.7 of 32).
    let (u, lanes) = simulate_masked(2, 2, 0, 0x4924_9249);
    assert_eq!(
        global_pattern_of_lanes(2.0, u, lanes),
        GlobalPattern::Masked(11.0)
    );
    // load_stride2: 4-byte loads 8 bytes apart; AoS of 3 floats: 12 apart.
    assert_eq!(
        global_pattern(4.0, simulate_sectors(4, 8, 0)),
        GlobalPattern::Stride(8.0)
    );
    assert_eq!(
        global_pattern(4.0, simulate_sectors(4, 12, 0)),
        GlobalPattern::Stride(12.0)
    );
    // smem_stride<double, 2>: 2-way over 16 threads a wavefront.
    assert_eq!(simulate_ways(8, 2), 2.0);
    // transpose_tiled: a column of a 32-float tile, 32-way.
    assert_eq!(simulate_ways(4, 32), 32.0);
}
