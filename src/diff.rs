//! Profile-to-profile comparison: kernels matched by name and launch order,
//! then per kernel the findings that are new, the findings fixed, and the
//! change in each rule's deciding quantity, judged against a tolerance with
//! a relative and an absolute part; and each kernel's measured time beside
//! what the fixes were estimated to save ([`crate::timing`]).

use std::collections::BTreeMap;

use indexmap::IndexMap;

use crate::model::Report;
use crate::rules::finding::{Measure, Name};
use crate::rules::{CheckResult, FailOn, Finding, Location, Place, by_kernel};
use crate::timing::{self, Timing};
use crate::triage::groups;

/// How much worse a quantity may get before it is a regression: by more
/// than `absolute` and by more than `relative` times the base value. A
/// place's estimated time to gain regresses by more than `absolute_ns` and
/// `relative`.
#[derive(Debug, Clone, Copy)]
pub struct Tolerance {
    /// Fraction of the base value.
    pub relative: f64,
    /// Absolute amount.
    pub absolute: f64,
    /// Absolute amount of estimated time to gain, in nanoseconds.
    pub absolute_ns: f64,
}

impl Default for Tolerance {
    /// 5%, 0.01, and 1 µs.
    fn default() -> Self {
        Tolerance {
            relative: 0.05,
            absolute: 0.01,
            absolute_ns: 1000.0,
        }
    }
}

/// A change in the estimated time a fix at one place would save, over all
/// its launches: the cost of the waste there grew or shrank.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GroupChange {
    /// The kernel's short name.
    pub kernel: String,
    /// The CUDA line, or `None` for the kernel as a whole.
    pub location: Option<Location>,
    /// Estimated time to gain in the base profile, in nanoseconds.
    pub base_ns: f64,
    /// Estimated time to gain in the head profile.
    pub head_ns: f64,
    /// Whether it grew beyond the tolerance.
    pub regression: bool,
}

/// A change in one rule's deciding quantity on one kernel.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Change {
    /// The rule id.
    pub rule: String,
    /// The quantity.
    pub quantity: String,
    /// Its value in the base profile.
    pub base: f64,
    /// Its value in the head profile.
    pub head: f64,
    /// Whether it got worse beyond the tolerance.
    pub regression: bool,
}

/// One matched (or unmatched) kernel.
#[derive(Debug, Clone)]
pub struct KernelDiff {
    /// The kernel's name (head's, else base's).
    pub name: String,
    /// Which launch of that name (0 for the first).
    pub launch: usize,
    /// Result ID in the base profile.
    pub base_id: Option<u64>,
    /// Result ID in the head profile.
    pub head_id: Option<u64>,
    /// Findings in head that base does not have.
    pub new: Vec<Finding>,
    /// Findings in base that head no longer has.
    pub fixed: Vec<Finding>,
    /// Quantities that changed beyond the tolerance.
    pub changes: Vec<Change>,
}

/// The outcome of a diff.
#[derive(Debug, Clone, Default)]
pub struct DiffResult {
    /// Kernels with anything to report, in head order.
    pub kernels: Vec<KernelDiff>,
    /// Kernels only in base.
    pub only_base: Vec<String>,
    /// Kernels only in head.
    pub only_head: Vec<String>,
    /// Places whose estimated time to gain moved beyond the tolerance.
    pub groups: Vec<GroupChange>,
    /// Each kernel's measured time in both profiles.
    pub timing: Option<Timing>,
}

/// How many findings and quantities a diff found changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Findings new in head.
    pub new: usize,
    /// Findings of base that head no longer has.
    pub fixed: usize,
    /// Deciding quantities worse beyond the tolerance.
    pub worse_quantities: usize,
    /// Places whose estimated time to gain grew beyond the tolerance.
    pub worse_places: usize,
}

impl DiffResult {
    /// The counts of what changed.
    pub fn tally(&self) -> Tally {
        Tally {
            new: self.kernels.iter().map(|k| k.new.len()).sum(),
            fixed: self.kernels.iter().map(|k| k.fixed.len()).sum(),
            worse_quantities: self
                .kernels
                .iter()
                .flat_map(|k| &k.changes)
                .filter(|c| c.regression)
                .count(),
            worse_places: self.groups.iter().filter(|g| g.regression).count(),
        }
    }
}

impl KernelDiff {
    /// The kernel, its launch and its result in each profile.
    pub fn title(&self) -> String {
        let id = |i: Option<u64>| i.map_or("?".to_owned(), |i| i.to_string());
        format!(
            "{} (launch {}, result {} -> {})",
            self.name,
            self.launch + 1,
            id(self.base_id),
            id(self.head_id)
        )
    }
}

impl DiffResult {
    /// Whether the head profile is worse: a new finding that fails at
    /// `fail_on`, a quantity's regression, more time to gain at a place, or
    /// a kernel slower than the gate on time allows.
    pub fn failed(&self, fail_on: FailOn) -> bool {
        self.kernels.iter().any(|k| {
            k.changes.iter().any(|c| c.regression)
                || k.new.iter().any(|f| fail_on.fails(f.severity))
        }) || self.groups.iter().any(|g| g.regression)
            || self.timing.as_ref().is_some_and(Timing::failed)
    }
}

/// (normalised name, launch index) for each kernel of a report.
fn launch_keys(report: &Report) -> Vec<(String, usize)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    report
        .kernels
        .iter()
        .map(|k| {
            let name = k.normalized_name();
            let n = seen.entry(name.clone()).or_default();
            *n += 1;
            (name, *n - 1)
        })
        .collect()
}

/// Compares two checked profiles.
pub fn diff(
    base: (&Report, &CheckResult),
    head: (&Report, &CheckResult),
    tolerance: Tolerance,
    time: timing::Settings,
) -> DiffResult {
    let base_keys = launch_keys(base.0);
    let head_keys = launch_keys(head.0);
    let base_index: BTreeMap<&(String, usize), usize> =
        base_keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
    let mut result = DiffResult::default();
    let mut matched_base = vec![false; base_keys.len()];
    let base_findings = by_kernel(&base.1.findings, base.0.kernels.len(), |f| f.kernel);
    let head_findings = by_kernel(&head.1.findings, head.0.kernels.len(), |f| f.kernel);
    let base_measures = by_kernel(&base.1.measures, base.0.kernels.len(), |m| m.kernel);
    let head_measures = by_kernel(&head.1.measures, head.0.kernels.len(), |m| m.kernel);
    for (h, key) in head_keys.iter().enumerate() {
        let head_kernel = &head.0.kernels[h];
        let Some(&b) = base_index.get(key) else {
            result.only_head.push(head_kernel.name.clone());
            continue;
        };
        matched_base[b] = true;
        let (new, fixed) = compare(&head_findings[h], &base_findings[b]);
        let changes = quantity_changes(&base_measures[b], &head_measures[h], tolerance);
        if new.is_empty() && fixed.is_empty() && changes.is_empty() {
            continue;
        }
        result.kernels.push(KernelDiff {
            name: head_kernel.name.clone(),
            launch: key.1,
            base_id: base.0.kernels[b].id,
            head_id: head_kernel.id,
            new,
            fixed,
            changes,
        });
    }
    result.only_base = matched_base
        .iter()
        .enumerate()
        .filter(|(_, m)| !**m)
        .map(|(i, _)| base.0.kernels[i].name.clone())
        .collect();
    result.groups = group_changes(base.1, head.1, tolerance);
    let improved = result
        .kernels
        .iter()
        .flat_map(|k| {
            let name = crate::model::kernel_name::normalize(&k.name);
            let fixed = k.fixed.iter().map(|f| f.rule.clone());
            let better = k
                .changes
                .iter()
                .filter(|c| !c.regression)
                .map(|c| c.rule.clone());
            fixed.chain(better).map(move |rule| (name.clone(), rule))
        })
        .collect();
    result.timing = Some(timing::timing(base, head, &improved, time));
    result
}

/// Places (kernel name and CUDA line) in both profiles whose estimated time
/// to gain moved by more than the tolerance.
fn group_changes(base: &CheckResult, head: &CheckResult, tolerance: Tolerance) -> Vec<GroupChange> {
    let base_ns: BTreeMap<_, f64> = groups(base)
        .iter()
        .filter_map(|g| Some((g.key(), g.saved_ns?)))
        .collect();
    let mut changes = Vec::new();
    for group in groups(head) {
        let (Some(head_ns), Some(&base_ns)) = (group.saved_ns, base_ns.get(&group.key())) else {
            continue;
        };
        let moved = (head_ns - base_ns).abs();
        if moved > tolerance.absolute_ns && moved > tolerance.relative * base_ns {
            changes.push(GroupChange {
                kernel: group.kernel,
                location: group.location,
                base_ns,
                head_ns,
                regression: head_ns > base_ns,
            });
        }
    }
    changes
}

/// Findings of `head` not in `base`, and of `base` not in `head`, by rule
/// and place. A kernel-level finding on one side matches a line-level one of
/// the same rule on the other: the exports differ, not the kernel.
fn compare(head: &[&Finding], base: &[&Finding]) -> (Vec<Finding>, Vec<Finding>) {
    let mut head_left: Vec<Option<&Finding>> = head.iter().copied().map(Some).collect();
    let mut base_left: Vec<Option<&Finding>> = base.iter().copied().map(Some).collect();
    let exact = |a: &Finding, b: &Finding| a.rule == b.rule && a.place() == b.place();
    let loose = |a: &Finding, b: &Finding| {
        a.rule == b.rule && (a.place() == Place::Kernel || b.place() == Place::Kernel)
    };
    for same in [&exact as &dyn Fn(&Finding, &Finding) -> bool, &loose] {
        for h in head_left.iter_mut() {
            let Some(f) = *h else { continue };
            if let Some(slot) = base_left.iter_mut().find(|b| b.is_some_and(|b| same(f, b))) {
                *slot = None;
                *h = None;
            }
        }
    }
    (
        head_left.into_iter().flatten().cloned().collect(),
        base_left.into_iter().flatten().cloned().collect(),
    )
}

/// Quantities of one kernel that moved beyond the tolerance.
fn quantity_changes(base: &[&Measure], head: &[&Measure], tolerance: Tolerance) -> Vec<Change> {
    let of = |measures: &[&Measure]| -> IndexMap<Name, (Name, f64, bool)> {
        measures
            .iter()
            .map(|m| {
                (
                    m.quantity.rule.clone(),
                    (
                        m.quantity.name.clone(),
                        m.value,
                        m.quantity.higher_is_better,
                    ),
                )
            })
            .collect()
    };
    let base_measures = of(base);
    let mut changes = Vec::new();
    for (rule, (name, head_value, higher)) in of(head) {
        let Some((_, base_value, _)) = base_measures.get(&rule) else {
            continue;
        };
        let worse_by = if higher {
            base_value - head_value
        } else {
            head_value - base_value
        };
        let beyond = |amount: f64| {
            amount > tolerance.absolute && amount > tolerance.relative * base_value.abs()
        };
        if beyond(worse_by.abs()) {
            changes.push(Change {
                rule: rule.to_string(),
                quantity: name.to_string(),
                base: *base_value,
                head: head_value,
                regression: worse_by > 0.0,
            });
        }
    }
    changes
}
