//! Which Nsight Compute sections a report was profiled with, as far as an
//! export shows it.
//!
//! The details page names its sections. The raw page does not: a section is
//! taken as profiled when at least [`MIN_SHARE`] of the metrics that only it
//! shows (per `labels.tsv`, ncu 2025.3.1) are columns of the page. Device
//! attributes and NUMA metrics are left out of that count, since ncu
//! collects them whatever the sections. Older versions name some metrics
//! otherwise, so the inference can miss a section; it never invents one
//! whose own metrics are absent.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// The share of a section's own metrics a raw page must have for the
/// section to count as profiled (measured on 20 public reports: profiled
/// sections show 35% or more, absent ones 25% or less).
const MIN_SHARE: f64 = 0.3;

/// Section identifiers (`--section NAME`) and the names the details page
/// prints for them.
pub const SECTIONS: [(&str, &str); 19] = [
    ("SpeedOfLight", "GPU Speed Of Light Throughput"),
    ("SpeedOfLight", "GPU Speed Of Light"),
    (
        "SpeedOfLight_RooflineChart",
        "GPU Speed Of Light Roofline Chart",
    ),
    ("ComputeWorkloadAnalysis", "Compute Workload Analysis"),
    ("InstructionStats", "Instruction Statistics"),
    ("LaunchStats", "Launch Statistics"),
    ("MemoryWorkloadAnalysis", "Memory Workload Analysis"),
    (
        "MemoryWorkloadAnalysis_Chart",
        "Memory Workload Analysis Chart",
    ),
    (
        "MemoryWorkloadAnalysis_Tables",
        "Memory Workload Analysis Tables",
    ),
    ("NumaAffinity", "NUMA Affinity"),
    ("Nvlink", "NVLink"),
    ("Occupancy", "Occupancy"),
    ("PmSampling", "PM Sampling"),
    ("SchedulerStats", "Scheduler Statistics"),
    ("SourceCounters", "Source Counters"),
    ("WarpStateStats", "Warp State Statistics"),
    (
        "WorkloadDistribution",
        "GPU and Memory Workload Distribution",
    ),
    (
        "SpeedOfLight_HierarchicalTensorRooflineChart",
        "GPU Speed Of Light Hierarchical Roofline Chart (Tensor Core)",
    ),
    (
        "SpeedOfLight_HierarchicalHalfRooflineChart",
        "GPU Speed Of Light Hierarchical Roofline Chart (Half Precision)",
    ),
];

/// The identifier of a section as the details page names it: its display
/// name, or the identifier itself (rule rows print that).
pub fn identifier(name: &str) -> Option<&'static str> {
    SECTIONS
        .iter()
        .find(|(id, display)| *display == name || *id == name)
        .map(|(id, _)| *id)
}

/// Each section's own metrics: shown by no other section in `labels.tsv`.
static OWN_METRICS: LazyLock<Vec<(&'static str, HashSet<&'static str>)>> = LazyLock::new(|| {
    let mut by_section: HashMap<&'static str, HashSet<&'static str>> = HashMap::new();
    let mut owners: HashMap<&'static str, HashSet<&'static str>> = HashMap::new();
    let rows = include_str!("labels.tsv")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let mut parts = line.split('\t');
            let section = parts.next()?;
            Some((section, parts.nth(2)?))
        });
    for (section, metric) in rows {
        if metric.starts_with("device__") || metric.starts_with("numa__") {
            continue;
        }
        let Some(id) = identifier(section) else {
            continue;
        };
        by_section.entry(id).or_default().insert(metric);
        owners.entry(metric).or_default().insert(id);
    }
    let mut out: Vec<_> = by_section
        .into_iter()
        .map(|(id, metrics)| {
            let own = metrics
                .into_iter()
                .filter(|m| owners[m].len() == 1)
                .collect();
            (id, own)
        })
        .filter(|(_, own): &(_, HashSet<_>)| !own.is_empty())
        .collect();
    out.sort_by_key(|(id, _)| *id);
    out
});

/// The sections whose own metrics are among `columns` (a raw page's header).
pub fn infer(columns: &[String]) -> Vec<&'static str> {
    let present: HashSet<&str> = columns.iter().map(String::as_str).collect();
    OWN_METRICS
        .iter()
        .filter(|(_, own)| {
            let found = own.iter().filter(|m| present.contains(*m)).count();
            found as f64 >= MIN_SHARE * own.len() as f64
        })
        .map(|(id, _)| *id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_and_identifiers_map_to_identifiers() {
        assert_eq!(
            identifier("Memory Workload Analysis Tables"),
            Some("MemoryWorkloadAnalysis_Tables")
        );
        assert_eq!(identifier("SourceCounters"), Some("SourceCounters"));
        assert_eq!(identifier("Load Metrics"), None);
    }
}
