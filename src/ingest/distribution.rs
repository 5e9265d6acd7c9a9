//! The Workload Distribution chart of the details page (`--print-details
//! all`): each unit's active cycles as four rows under one label, which
//! Nsight Compute prints in the order its section lists them: the average,
//! the maximum, the minimum and the sum over the unit's instances.
//!
//! The label alone names four metrics, so `labels.tsv` leaves it out; the
//! row's place in its series names the one. The maximum is what the rules
//! read: the busiest SM's active cycles (a launch's ramp), the busiest L2
//! slice's. The order was checked against the raw page of the same reports:
//! 6,890 series of fixtures/twins and 145 of the report corpus (ncu 2020.2
//! to 2025.2 reports exported by 2025.3.1), every value the raw page's.

/// The section and body item the chart's rows carry.
const SECTION: &str = "GPU and Memory Workload Distribution";
const BODY: &str = "Workload Distribution";

/// Each series' label and the metric its rows are rollups of.
const SERIES: [(&str, &str); 5] = [
    ("DRAM Active Cycles", "dram__cycles_active"),
    ("L1 Active Cycles", "l1tex__cycles_active"),
    ("L2 Active Cycles", "lts__cycles_active"),
    ("SM Active Cycles", "sm__cycles_active"),
    ("SMSP Active Cycles", "smsp__cycles_active"),
];

/// The rollups of a series, in the order of its rows.
const ROLLUPS: [&str; 4] = ["avg", "max", "min", "sum"];

/// Counts the rows of each series that the current result has shown, so
/// each row resolves to its own rollup.
#[derive(Debug, Default)]
pub struct SeriesRows {
    result: Option<u64>,
    seen: [usize; SERIES.len()],
}

impl SeriesRows {
    /// The metric name of a details row of result `id` that belongs to the
    /// chart, or `None` for any other row (and for a fifth row of a series,
    /// which no known version prints).
    pub fn metric(&mut self, id: u64, section: &str, body: &str, label: &str) -> Option<String> {
        if section != SECTION || body != BODY {
            return None;
        }
        let series = SERIES.iter().position(|(name, _)| *name == label)?;
        if self.result != Some(id) {
            self.result = Some(id);
            self.seen = [0; SERIES.len()];
        }
        let nth = self.seen[series];
        self.seen[series] += 1;
        let rollup = ROLLUPS.get(nth)?;
        Some(format!("{}.{rollup}", SERIES[series].1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_resolve_in_order_per_result() {
        let mut rows = SeriesRows::default();
        let sm = |rows: &mut SeriesRows, id| rows.metric(id, SECTION, BODY, "SM Active Cycles");
        assert_eq!(sm(&mut rows, 3).as_deref(), Some("sm__cycles_active.avg"));
        assert_eq!(
            rows.metric(3, SECTION, BODY, "L2 Active Cycles").as_deref(),
            Some("lts__cycles_active.avg")
        );
        assert_eq!(sm(&mut rows, 3).as_deref(), Some("sm__cycles_active.max"));
        assert_eq!(sm(&mut rows, 3).as_deref(), Some("sm__cycles_active.min"));
        assert_eq!(sm(&mut rows, 3).as_deref(), Some("sm__cycles_active.sum"));
        assert_eq!(sm(&mut rows, 3), None);
        assert_eq!(sm(&mut rows, 4).as_deref(), Some("sm__cycles_active.avg"));
        assert_eq!(rows.metric(4, SECTION, "", "SM Active Cycles"), None);
        assert_eq!(
            rows.metric(4, SECTION, BODY, "MC Channel Active Cycles"),
            None
        );
    }
}
