//! The metric catalogs (metric base names Nsight Compute lists for gh100 and
//! ga100), used to warn about metric names in packs that no GPU exports.
//!
//! A name is known when its base (the name without a roll-up suffix such as
//! `.sum` or `.ratio`, or a unit and triage-group prefix such as
//! `LTS.TriageCompute.`) is in a catalog, in the list of names real raw pages
//! carry beyond the catalogs (`raw_page.txt`: section-defined `_pct` and
//! `_per_sec` forms, older versions' names), or when it belongs to a family
//! that the catalogs do not list: derived and source-counter metrics
//! (`derived__`, `memory_`), launch, device and SASS attributes.

use std::sync::LazyLock;

use rustc_hash::FxHashSet;

static NAMES: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| {
    [
        include_str!("../../catalog/gh100.txt"),
        include_str!("../../catalog/ga100.txt"),
        include_str!("../../catalog/raw_page.txt"),
    ]
    .into_iter()
    .flat_map(str::lines)
    .filter(|line| !line.starts_with('#') && !line.is_empty())
    .map(base_name)
    .collect()
});

/// Families of names the catalogs do not list.
const UNLISTED_FAMILIES: [&str; 8] = [
    "derived__",
    "memory_",
    "launch__",
    "device__",
    "sass__",
    "profiler__",
    "smsp__pcsamp",
    "numa__",
];

/// Whether `name` is a metric some catalog knows.
pub fn is_known(name: &str) -> bool {
    UNLISTED_FAMILIES.iter().any(|f| name.starts_with(f)) || NAMES.contains(base_name(name))
}

/// The name without its roll-up and sub-metric suffixes and without a
/// unit and triage-group prefix: the first `.`-separated part that holds
/// `__` (`lts__throughput` of `LTS.TriageCompute.lts__throughput.avg.pct`),
/// else the part before the first `.`.
pub fn base_name(name: &str) -> &str {
    let name = name.strip_prefix("pmsampling:").unwrap_or(name);
    let mut parts = name.split('.');
    let first = parts.next().unwrap_or(name);
    if first.contains("__") {
        return first;
    }
    parts.find(|p| p.contains("__")).unwrap_or(first)
}

/// The catalog name closest to `name`, for "did you mean".
pub fn closest(name: &str) -> Option<&'static str> {
    let base = base_name(name);
    let limit = base.len().max(4) / 4 + 2;
    NAMES
        .iter()
        // Names whose lengths differ by more than the limit are that far apart.
        .filter(|candidate| candidate.len().abs_diff(base.len()) <= limit)
        .map(|candidate| (strsim::levenshtein(base, candidate), *candidate))
        .filter(|&(distance, _)| distance <= limit)
        .min()
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_and_unknown_names() {
        assert!(is_known("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
        assert!(is_known(
            "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"
        ));
        assert!(is_known("derived__memory_l1_wavefronts_shared_excessive"));
        assert!(!is_known("l1tex__t_sector_pipe_lsu_mem_global_op_ld.sum"));
        // Forms the raw page prints beyond the catalogs' base names.
        assert!(is_known("sm__maximum_warps_per_active_cycle_pct"));
        assert!(is_known(
            "LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed"
        ));
        assert!(is_known("dram__read_pct"));
        assert!(!is_known("sm__maximum_warp_per_active_cycle_pct"));
    }

    #[test]
    fn did_you_mean() {
        assert_eq!(
            closest("l1tex__t_sector_pipe_lsu_mem_global_op_ld.sum"),
            Some("l1tex__t_sectors_pipe_lsu_mem_global_op_ld")
        );
        assert_eq!(closest("completely_unrelated_words_here"), None);
    }
}
