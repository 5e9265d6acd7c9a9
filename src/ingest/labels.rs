//! Details-page labels and the metric names behind them.
//!
//! The details page prints metric labels by default ("Local Memory Spilling
//! Requests"); rules address metrics by name (`derived__local_spilling_requests`).
//! The table in `labels.tsv` was read off Nsight Compute 2025.3.1's
//! `--print-metric-name label-name` export of the lab report, where every
//! row prints `Label (name)`. A label it lacks stays addressable as
//! `Section: Label`.

use rustc_hash::FxHashMap;
use std::sync::LazyLock;

type Key = (&'static str, &'static str, &'static str);

static TABLE: LazyLock<FxHashMap<Key, &'static str>> = LazyLock::new(|| {
    include_str!("labels.tsv")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let mut parts = line.split('\t');
            Some(((parts.next()?, parts.next()?, parts.next()?), parts.next()?))
        })
        .collect()
});

/// The metric name behind a details label in a section (and body item, for
/// `--print-details all` tables; `""` for none), if known.
pub fn metric_name(section: &str, body: &str, label: &str) -> Option<&'static str> {
    TABLE.get(&(section, body, label)).copied()
}

/// Whether `text` is a metric name rather than a label: lower-case first,
/// no spaces, and a `__` or `.` as Nsight Compute metric names have
/// (`smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio`).
pub fn is_metric_name(text: &str) -> bool {
    let first = text.as_bytes().first().copied().unwrap_or(b' ');
    (first.is_ascii_lowercase() || first == b'_')
        && !text.contains(' ')
        && (text.contains("__") || text.contains('.'))
}

/// Splits `Label (name)` (`--print-metric-name label-name`) into its parts.
pub fn split_label_name(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_suffix(')')?;
    let open = inner.rfind(" (")?;
    let name = &inner[open + 2..];
    is_metric_name(name).then(|| (&inner[..open], name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_labels_map_to_names() {
        assert_eq!(
            metric_name(
                "Memory Workload Analysis",
                "",
                "Local Memory Spilling Requests"
            ),
            Some("derived__local_spilling_requests")
        );
        assert_eq!(
            metric_name(
                "Memory Workload Analysis Tables",
                "",
                "Average Bytes Per Sector For Global Loads"
            ),
            Some("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio")
        );
        assert_eq!(
            metric_name("Source Counters", "", "L1 Wavefronts Shared Excessive"),
            Some("derived__memory_l1_wavefronts_shared_excessive")
        );
        assert_eq!(metric_name("Nowhere", "", "Duration"), None);
    }

    #[test]
    fn label_name_pairs_split() {
        assert_eq!(
            split_label_name("Elapsed Cycles (gpc__cycles_elapsed.max)"),
            Some(("Elapsed Cycles", "gpc__cycles_elapsed.max"))
        );
        assert_eq!(split_label_name("Memory [%]"), None);
        assert_eq!(split_label_name("Warp Cycles (Not Issued)"), None);
    }

    #[test]
    fn names_and_labels_are_told_apart() {
        assert!(is_metric_name("launch__registers_per_thread"));
        assert!(is_metric_name("dram__bytes_read.sum"));
        assert!(!is_metric_name("Duration"));
        assert!(!is_metric_name("Registers Per Thread"));
    }
}
