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
/// each row resolves to its own rollup, and keeps their values, so a series
/// whose rollups cannot be in that order (a minimum over the average, an
/// average over the maximum, a maximum over the sum) is dropped whole: an
/// export that prints them in another order is read as lacking them.
#[derive(Debug, Default)]
pub struct SeriesRows {
    result: Option<u64>,
    seen: [usize; SERIES.len()],
    values: [[Option<f64>; ROLLUPS.len()]; SERIES.len()],
    /// The series and rollup of the row [`Self::metric`] resolved last.
    current: Option<(usize, usize)>,
}

impl SeriesRows {
    /// The metric of a details row of result `id` that belongs to the
    /// chart, or `None` for any other row (and for a fifth row of a series,
    /// which no known version prints). [`Self::record`] takes its value.
    pub fn metric(&mut self, id: u64, section: &str, body: &str, label: &str) -> Option<String> {
        self.current = None;
        if section != SECTION || body != BODY {
            return None;
        }
        let series = SERIES.iter().position(|(name, _)| *name == label)?;
        if self.result != Some(id) {
            self.result = Some(id);
            self.seen = [0; SERIES.len()];
            self.values = [[None; ROLLUPS.len()]; SERIES.len()];
        }
        let nth = self.seen[series];
        self.seen[series] += 1;
        let rollup = ROLLUPS.get(nth)?;
        self.current = Some((series, nth));
        Some(format!("{}.{rollup}", SERIES[series].1))
    }

    /// Keeps the value (in base units) of the row [`Self::metric`] resolved
    /// last; on a series' last row whose rollups are out of order, the
    /// names of the series' metrics to drop.
    pub fn record(&mut self, value: Option<f64>) -> Option<Vec<String>> {
        let (series, nth) = self.current.take()?;
        self.values[series][nth] = value;
        let complete = nth + 1 == ROLLUPS.len();
        (complete && !in_order(&self.values[series])).then(|| {
            ROLLUPS
                .iter()
                .map(|rollup| format!("{}.{rollup}", SERIES[series].1))
                .collect()
        })
    }
}

/// Whether average, maximum, minimum and sum can be one unit's rollups:
/// min <= avg <= max <= sum, where all four are numbers.
fn in_order(values: &[Option<f64>; ROLLUPS.len()]) -> bool {
    match *values {
        [Some(avg), Some(max), Some(min), Some(sum)] => min <= avg && avg <= max && max <= sum,
        _ => true,
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

    #[test]
    fn a_series_out_of_order_is_dropped_whole() {
        let mut rows = SeriesRows::default();
        let mut read = |id, values: [f64; 4]| {
            let mut last = None;
            for value in values {
                rows.metric(id, SECTION, BODY, "SM Active Cycles").unwrap();
                last = rows.record(Some(value));
            }
            last
        };
        // Printed max, avg, min, sum: read as avg, max, min, sum, the
        // average would be over the maximum.
        let drop = read(1, [6.0, 5.0, 4.0, 50.0]).unwrap();
        assert_eq!(drop.len(), 4);
        assert!(drop.contains(&"sm__cycles_active.max".to_owned()));
        assert_eq!(read(2, [5.0, 6.0, 4.0, 50.0]), None);
    }
}
