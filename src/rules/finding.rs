//! What a check produces: [`Finding`]s with their [`Place`], the rules
//! [`Skip`]ped for lack of data, and each rule's [`Measure`] per kernel.

use std::fmt;

use crate::model::Origin;
use crate::vocab::Severity;

/// A name a finding or measure carries (a value's, a rule's), shared by all
/// that carry it: thousands of findings hold the same few dozen names.
pub type Name = std::sync::Arc<str>;

/// A finding's values by name, in the order they were decided (`None`:
/// undefined). A list looked up by a scan, not a hash map: a finding holds a
/// few dozen, looked up a handful of times, and a report can keep tens of
/// thousands of findings, where a hash index would add half again to their
/// memory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Values(Vec<(Name, Option<f64>)>);

impl Values {
    /// No values, with room for `capacity`.
    pub fn with_capacity(capacity: usize) -> Values {
        Values(Vec::with_capacity(capacity))
    }

    /// The value of `name`, where the finding has one.
    pub fn get(&self, name: &str) -> Option<&Option<f64>> {
        self.0.iter().find(|(n, _)| &**n == name).map(|(_, v)| v)
    }

    /// Sets `name` to `value`: in its place where it has one, else last.
    pub fn insert(&mut self, name: Name, value: Option<f64>) {
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some((_, old)) => *old = value,
            None => self.0.push((name, value)),
        }
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &Option<f64>)> {
        self.0.iter().map(|(n, v)| (n, v))
    }

    /// Gives back the room left over from their making.
    pub fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }
}

impl Extend<(Name, Option<f64>)> for Values {
    fn extend<I: IntoIterator<Item = (Name, Option<f64>)>>(&mut self, values: I) {
        for (name, value) in values {
            self.insert(name, value);
        }
    }
}

impl FromIterator<(Name, Option<f64>)> for Values {
    fn from_iter<I: IntoIterator<Item = (Name, Option<f64>)>>(values: I) -> Values {
        let mut all = Values::default();
        all.extend(values);
        all
    }
}

/// The value of a name the finding has, `None` (undefined) for one it has
/// not, as the rules' expressions read a name they cannot resolve.
impl std::ops::Index<&str> for Values {
    type Output = Option<f64>;

    fn index(&self, name: &str) -> &Option<f64> {
        const UNDEFINED: &Option<f64> = &None;
        self.get(name).unwrap_or(UNDEFINED)
    }
}

/// A map from name to value (`null`: undefined), in order.
impl serde::Serialize for Values {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

/// The names of one check, each allocated once.
#[derive(Debug, Default)]
pub struct Names(std::cell::RefCell<rustc_hash::FxHashSet<Name>>);

impl Names {
    /// The shared `name`.
    pub fn get(&self, name: &str) -> Name {
        let mut names = self.0.borrow_mut();
        if let Some(known) = names.get(name) {
            return known.clone();
        }
        let new = Name::from(name);
        names.insert(new.clone());
        new
    }
}

/// Where in CUDA source a finding is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// The source file as the profile recorded it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Where the line's code was inlined into the kernel's own code (the
    /// call of a header's `__device__` function, of CUB, of Triton's
    /// `standard.py`), where the line table records it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub called_from: Option<CallSite>,
    /// For a finding placed at the user's line that calls a library's
    /// inlined code: the library's line, where the access is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inlined_from: Option<InlinedFrom>,
}

/// A library's line whose inlined code a finding at the user's line is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct InlinedFrom {
    /// The library (`[[library]]` in the pack).
    pub library: String,
    /// Its file.
    pub file: String,
    /// Its 1-based line.
    pub line: u32,
}

/// The kernel's own line that calls inlined code.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CallSite {
    /// Its file.
    pub file: String,
    /// Its 1-based line.
    pub line: u32,
}

/// The SASS instruction that contributes most to a line's finding.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Instruction {
    /// Its address.
    pub address: String,
    /// Its offset from the function's first instruction: unlike the
    /// address, the same from one run to the next.
    pub offset: Option<u64>,
    /// Its text.
    pub sass: String,
}

/// One finding.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The rule id.
    pub rule: String,
    /// The cause the rule's findings are views of (`cause` in the pack, its
    /// name by default): findings of different causes at one place are
    /// counted apart (a small grid and a strided load), not as one.
    pub cause: Name,
    /// The library the kernel belongs to, where it is one users do not
    /// write (`[[library]]` in the pack).
    pub library: Option<String>,
    /// Whether it would fail the gate but is a note for being a library's.
    pub library_note: bool,
    /// Severity after overrides and downgrades.
    pub severity: Severity,
    /// Index of the kernel in the report.
    pub kernel: usize,
    /// The kernel's result ID.
    pub kernel_id: Option<u64>,
    /// The kernel's name.
    pub kernel_name: String,
    /// The CUDA line, for line-scoped findings placed by the source page.
    pub location: Option<Box<Location>>,
    /// The worst instruction on that line.
    pub instruction: Option<Box<Instruction>>,
    /// The rendered message.
    pub message: String,
    /// Inputs, derived values and parameters that decided it (`None`: undefined).
    pub values: Values,
    /// Which variant of the rule was evaluated.
    pub variant: String,
    /// The export row the kernel was read from.
    pub origin: Origin,
    /// What fixing it is worth.
    pub estimate: Estimate,
    /// The fix the data point to, where the rule computes one.
    pub fix: Option<String>,
}

/// What fixing a finding is worth: the fraction of its kernel's time the
/// waste costs, that time in nanoseconds, and the bytes moved for nothing.
/// Each is `None` where the export does not tell.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// The kernel's GPU time (`gpu__time_duration.sum`).
    pub kernel_ns: Option<f64>,
    /// The share of that time a fix saves, 0 to 1.
    pub speedup: Option<f64>,
    /// `kernel_ns × speedup`.
    pub saved_ns: Option<f64>,
    /// Bytes the waste moves.
    pub bytes: Option<f64>,
    /// Which of the rule's impact estimates was used.
    #[serde(skip)]
    pub basis: Option<String>,
    /// The numbers that estimate derived for the whole kernel, in order
    /// (its terms: what the served traffic costs, what the busiest L1
    /// costs, the most a fix can save), before a line's share is taken.
    #[serde(skip)]
    pub terms: std::sync::Arc<[(Name, f64)]>,
    /// The most a fix can save, where the estimate counts on what the
    /// profiled run happened to do; the worth threshold judges it.
    pub ceiling: Option<Ceiling>,
}

/// The most a fix can save, and when (`[rule.impact.ceiling]`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Ceiling {
    /// The share of the kernel's time, 0 to 1, at least the estimate's.
    pub speedup: f64,
    /// When a fix saves that much (the rule's text, shared).
    #[serde(skip)]
    pub when: Name,
    /// Whether the ceiling, not the estimate, kept the finding at or over
    /// its rule's worth threshold.
    #[serde(skip)]
    pub held: bool,
}

impl Estimate {
    /// The estimate for a part of the finding (a CUDA line's share).
    pub fn scaled(&self, share: f64) -> Estimate {
        Estimate {
            kernel_ns: self.kernel_ns,
            speedup: self.speedup.map(|s| s * share),
            saved_ns: self.saved_ns.map(|s| s * share),
            bytes: self.bytes.map(|b| b * share),
            basis: self.basis.clone(),
            terms: self.terms.clone(),
            ceiling: self.ceiling.as_ref().map(|c| Ceiling {
                speedup: c.speedup * share,
                when: c.when.clone(),
                held: c.held,
            }),
        }
    }
}

/// A rule that could not be evaluated for some kernels.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Skip {
    /// The rule id.
    pub rule: String,
    /// How many kernels it was skipped for.
    pub kernels: usize,
    /// What was missing.
    pub missing: Vec<String>,
    /// Which export would provide it.
    pub hint: String,
}

/// The outcome of a check.
#[derive(Debug, Clone, Default)]
pub struct CheckResult {
    /// Findings in kernel order, then rule order, then line weight.
    pub findings: Vec<Finding>,
    /// Rules skipped for lack of data.
    pub skipped: Vec<Skip>,
    /// Kernels checked.
    pub kernels: usize,
    /// Each rule's deciding quantity for each kernel it was evaluated on.
    pub measures: Vec<Measure>,
    /// Each kernel's GPU time in nanoseconds, by kernel index, where known.
    pub kernel_ns: Vec<Option<f64>>,
    /// The SM clock each kernel ran at (Hz), by kernel index, where known.
    pub sm_clock_hz: Vec<Option<f64>>,
    /// How busy each kernel kept its units, by kernel index, where known.
    pub utilization: Vec<Option<crate::model::Utilization>>,
}

impl CheckResult {
    /// The GPU time of all results checked, where each has a duration.
    pub fn profile_ns(&self) -> Option<f64> {
        if self.kernel_ns.is_empty() {
            return None;
        }
        self.kernel_ns.iter().copied().sum()
    }
}

/// Items (findings, measures) of each of `kernels` kernels, by kernel
/// index, gathered in one pass.
pub fn by_kernel<T>(items: &[T], kernels: usize, kernel: impl Fn(&T) -> usize) -> Vec<Vec<&T>> {
    let mut out: Vec<Vec<&T>> = (0..kernels).map(|_| Vec::new()).collect();
    for item in items {
        if let Some(group) = out.get_mut(kernel(item)) {
            group.push(item);
        }
    }
    out
}

/// A rule's deciding quantity for one kernel, whether or not it fired:
/// one per kernel and rule, so tens of thousands in a large profile, each
/// sharing what it measures with the rest of its rule's.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Measure {
    /// Index of the kernel in the report.
    pub kernel: usize,
    /// What is measured.
    pub quantity: std::sync::Arc<Quantity>,
    /// Its value.
    pub value: f64,
}

/// The quantity a rule measures on every kernel it evaluates.
#[derive(Debug, PartialEq, serde::Serialize)]
pub struct Quantity {
    /// The rule id.
    pub rule: Name,
    /// The quantity's name (`efficiency`).
    pub name: Name,
    /// Whether higher values are better.
    pub higher_is_better: bool,
}

/// Where a finding points: a CUDA line, else its worst SASS instruction,
/// else the kernel as a whole. Displayed as baselines record it
/// (`file.cu:12`, `+0x1a0`, `kernel`).
#[derive(Debug, Clone, Copy)]
pub enum Place<'a> {
    /// A CUDA line.
    Line(&'a Location),
    /// A SASS instruction of a kernel without line information.
    Instruction(&'a Instruction),
    /// The kernel.
    Kernel,
}

impl Finding {
    /// Where the finding points.
    pub fn place(&self) -> Place<'_> {
        match (&self.location, &self.instruction) {
            (Some(location), _) => Place::Line(location),
            (None, Some(instruction)) => Place::Instruction(instruction),
            (None, None) => Place::Kernel,
        }
    }
}

/// Places are equal where a baseline would match them: an instruction by
/// its offset (its address moves from run to run), else its text.
impl PartialEq for Place<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Place::Line(a), Place::Line(b)) => a == b,
            (Place::Instruction(a), Place::Instruction(b)) => match (a.offset, b.offset) {
                (Some(x), Some(y)) => x == y,
                _ => a.sass == b.sass,
            },
            (Place::Kernel, Place::Kernel) => true,
            _ => false,
        }
    }
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line(location) => write!(f, "{}:{}", location.file, location.line),
            Place::Instruction(instruction) => match instruction.offset {
                Some(offset) => write!(f, "+0x{offset:x}"),
                None => f.write_str(&instruction.sass),
            },
            Place::Kernel => f.write_str("kernel"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(&str, Option<f64>)]) -> Values {
        pairs.iter().map(|&(n, v)| (Name::from(n), v)).collect()
    }

    #[test]
    fn a_value_set_again_keeps_its_place() {
        let mut v = values(&[("sectors", Some(4.0)), ("ideal", Some(1.0))]);
        v.insert(Name::from("sectors"), Some(8.0));
        v.insert(Name::from("line_share"), None);
        let order: Vec<&str> = v.iter().map(|(n, _)| &**n).collect();
        assert_eq!(order, ["sectors", "ideal", "line_share"]);
        assert_eq!(v["sectors"], Some(8.0));
    }

    #[test]
    fn a_name_the_finding_lacks_reads_as_undefined() {
        let v = values(&[("efficiency", Some(0.25))]);
        assert_eq!(v["efficiency"], Some(0.25));
        assert_eq!(v["excess"], None);
        assert!(v.get("excess").is_none());
    }

    #[test]
    fn values_serialize_as_a_map_in_order() {
        let v = values(&[("b", Some(2.0)), ("a", None)]);
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"b":2.0,"a":null}"#);
    }
}
