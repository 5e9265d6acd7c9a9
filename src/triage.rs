//! Findings gathered for triage: one [`Group`] per kernel name, place
//! (CUDA line, else the kernel) and cause, whatever the launch count and
//! however many rules of that cause fire there, ranked by what a fix is
//! worth across the profile.
//!
//! A group's worth adds up over its launches; within one launch the rules
//! that fire at one place are views of one cause (a strided load is both low
//! load efficiency and wasted sectors), so a launch counts its largest
//! estimate once rather than their sum.

use indexmap::IndexMap;

use crate::model::kernel_name;
use crate::rules::finding::Name;
use crate::rules::{CheckResult, Finding, Location, Severity};

/// A place: the kernel's normalised name, its CUDA line (file, line),
/// `None` for the kernel as a whole, and the cause whose rules fire there
/// (a small grid and a strided load at one kernel are two).
pub type PlaceKey = (String, Option<(String, u32)>, Name);

/// What the findings of one launch at one place are worth: the largest
/// estimate among them, of time and of bytes.
#[derive(Debug, Clone, Copy, Default)]
struct Worth {
    ns: Option<f64>,
    bytes: Option<f64>,
    ceiling_ns: Option<f64>,
}

impl Worth {
    /// For ordering: no estimate ranks below any.
    fn key(self) -> (f64, f64) {
        (self.ns.unwrap_or(-1.0), self.bytes.unwrap_or(-1.0))
    }
}

/// The findings of one kernel name at one place.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Group {
    /// The kernel's short name (no return type, parameters, long templates).
    pub kernel: String,
    /// The kernel's full name.
    pub name: String,
    /// The CUDA line, or `None` for findings about the kernel as a whole.
    pub location: Option<Location>,
    /// The cause its rules' findings are views of.
    #[serde(skip)]
    pub cause: Name,
    /// The rules that fire here, in order of first finding.
    pub rules: Vec<String>,
    /// Launches (profile results) with a finding here.
    pub launches: usize,
    /// Indices of the findings, in the check's order.
    pub findings: Vec<usize>,
    /// Estimated time a fix saves over all launches, in nanoseconds.
    pub saved_ns: Option<f64>,
    /// Bytes the waste moves over all launches.
    pub bytes: Option<f64>,
    /// Where a finding here fails the gate only by the most a fix can save
    /// (an L1 caught the waste's re-reads as profiled), that most, over all
    /// launches, and when it is reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ceiling: Option<GroupCeiling>,
    /// The worst severity.
    pub severity: Severity,
    /// The library whose kernel it is, where users do not write it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
    /// Whether it is a note only for being a library's: worth its rules'
    /// threshold, shown in the ranking, and not failing the gate.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub library_note: bool,
    /// The launch whose findings are worth the most (kernel index).
    pub worst_kernel: usize,
}

/// The most a fix of a place can save, where that and not the estimate
/// decides that it fails the gate.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GroupCeiling {
    /// Nanoseconds over all launches.
    pub saved_ns: f64,
    /// When a fix saves that much.
    pub when: Name,
}

impl Group {
    /// The place the group is at, as profiles are compared by.
    pub fn key(&self) -> PlaceKey {
        let line = self.location.as_ref().map(|l| (l.file.clone(), l.line));
        (kernel_name::normalize(&self.name), line, self.cause.clone())
    }

    /// Whether every finding is a note: below what is worth a failing gate.
    pub fn is_note(&self) -> bool {
        self.severity == Severity::Note
    }

    /// The findings of the worst launch, by index.
    pub fn worst_findings<'r>(&self, result: &'r CheckResult) -> Vec<&'r Finding> {
        self.findings
            .iter()
            .map(|&i| &result.findings[i])
            .filter(|f| f.kernel == self.worst_kernel)
            .collect()
    }
}

/// The groups of a check, ranked: by estimated time saved, then (where
/// there is no duration) by bytes wasted, then by severity and size.
pub fn groups(result: &CheckResult) -> Vec<Group> {
    let mut by_place: IndexMap<PlaceKey, Vec<usize>> = IndexMap::new();
    for (i, finding) in result.findings.iter().enumerate() {
        let place = finding.location.as_ref().map(|l| (l.file.clone(), l.line));
        by_place
            .entry((
                kernel_name::normalize(&finding.kernel_name),
                place,
                finding.cause.clone(),
            ))
            .or_default()
            .push(i);
    }
    let mut groups: Vec<Group> = by_place
        .into_values()
        .map(|indices| group(result, indices))
        .collect();
    groups.sort_by(|a, b| {
        let key = |g: &Group| {
            Worth {
                ns: g.saved_ns,
                bytes: g.bytes,
                ceiling_ns: None,
            }
            .key()
        };
        let (a_ns, a_bytes) = key(a);
        let (b_ns, b_bytes) = key(b);
        b_ns.total_cmp(&a_ns)
            .then(b_bytes.total_cmp(&a_bytes))
            .then(b.severity.cmp(&a.severity))
            .then(b.findings.len().cmp(&a.findings.len()))
            .then(a.findings[0].cmp(&b.findings[0]))
    });
    tell_apart(&mut groups);
    groups
}

/// Numbers short names that stand for more than one kernel (`#2`, in rank
/// order), so that each row names one kernel; `--full-names` shows them.
fn tell_apart(groups: &mut [Group]) {
    let mut kernels: IndexMap<String, Vec<String>> = IndexMap::new();
    for g in groups.iter() {
        let names = kernels.entry(g.kernel.clone()).or_default();
        if !names.contains(&g.name) {
            names.push(g.name.clone());
        }
    }
    for g in groups.iter_mut() {
        let names = &kernels[&g.kernel];
        if names.len() > 1 {
            let n = names.iter().position(|n| n == &g.name).unwrap_or(0) + 1;
            g.kernel = format!("{} #{n}", g.kernel);
        }
    }
}

/// One group from the indices of its findings.
fn group(result: &CheckResult, indices: Vec<usize>) -> Group {
    let findings: Vec<&Finding> = indices.iter().map(|&i| &result.findings[i]).collect();
    let first = findings[0];
    let mut rules: Vec<String> = Vec::new();
    let mut launches: IndexMap<usize, Worth> = IndexMap::new();
    let mut when: Option<Name> = None;
    for f in &findings {
        if !rules.contains(&f.rule) {
            rules.push(f.rule.clone());
        }
        let worth = launches.entry(f.kernel).or_default();
        worth.ns = max(worth.ns, f.estimate.saved_ns);
        worth.bytes = max(worth.bytes, f.estimate.bytes);
        if let (Some(ceiling), Some(ns)) = (&f.estimate.ceiling, f.estimate.kernel_ns) {
            if ceiling.held {
                worth.ceiling_ns = max(worth.ceiling_ns, Some(ceiling.speedup * ns));
                when.get_or_insert_with(|| ceiling.when.clone());
            }
        }
    }
    let total = |pick: fn(&Worth) -> Option<f64>| {
        launches
            .values()
            .filter_map(pick)
            .fold(None, |total: Option<f64>, v| Some(total.unwrap_or(0.0) + v))
    };
    let worst_kernel = launches
        .iter()
        .max_by(|(ka, a), (kb, b)| {
            let ((a_ns, a_b), (b_ns, b_b)) = (a.key(), b.key());
            a_ns.total_cmp(&b_ns)
                .then(a_b.total_cmp(&b_b))
                .then(kb.cmp(ka))
        })
        .map_or(first.kernel, |(k, _)| *k);
    Group {
        kernel: kernel_name::short(&first.kernel_name),
        name: first.kernel_name.clone(),
        location: first.location.as_deref().cloned(),
        cause: first.cause.clone(),
        library: first.library.clone(),
        library_note: findings.iter().any(|f| f.library_note),
        rules,
        launches: launches.len(),
        saved_ns: total(|w| w.ns),
        bytes: total(|w| w.bytes),
        ceiling: total(|w| w.ceiling_ns)
            .zip(when)
            .map(|(saved_ns, when)| GroupCeiling { saved_ns, when }),
        severity: findings
            .iter()
            .map(|f| f.severity)
            .max()
            .unwrap_or(Severity::Note),
        worst_kernel,
        findings: indices,
    }
}

fn max(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}
