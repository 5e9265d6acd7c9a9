//! Measured time across two profiles of one program: each kernel's
//! duration before and after (by name, summed over its launches), the
//! change, whether it is beyond the noise, and what `check` had estimated
//! the fixed and improved findings to save, so that every fix a user makes
//! checks the estimates. The conditions that make durations comparable
//! (GPU, ncu version, clock control, the SM clock the kernels ran at) are
//! compared too.

use std::collections::HashSet;

use indexmap::IndexMap;

use crate::model::{Kernel, Report, kernel_name};
use crate::rules::CheckResult;
use crate::rules::finding::Name;
use crate::triage::groups;

/// How a change of duration is judged.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Changes under this share of the base duration are no measurable
    /// change (raised to what repeated launches of a kernel show).
    pub noise: f64,
    /// A kernel slower by more than this share fails the run.
    pub fail_slower: Option<f64>,
}

impl Default for Settings {
    /// 3% noise; no gate on time.
    fn default() -> Self {
        Settings {
            noise: 0.03,
            fail_slower: None,
        }
    }
}

/// Under this share of its peak a unit is not what a kernel waits on (the
/// memory pack's `latency_knee`).
const LATENCY_KNEE: f64 = 0.30;

/// An estimate agrees with a measured saving within this factor...
pub const WITHIN: f64 = 1.5;
/// ...or within this share of the kernel's time.
pub const NEAR: f64 = 0.02;

/// What happened to a kernel's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Faster by more than the noise.
    Faster,
    /// Slower by more than the noise.
    Slower,
    /// Within the noise: no measurable change.
    Unchanged,
    /// Only the base profile has it.
    Gone,
    /// Only the head profile has it.
    Appeared,
    /// A side has no durations.
    Unmeasured,
}

impl Verdict {
    /// The word people read.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Unchanged => "no measurable change",
            Verdict::Gone => "gone",
            Verdict::Appeared => "new",
            Verdict::Unmeasured => "no duration",
        }
    }
}

/// A kernel's launches in one profile.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Launches {
    /// How many.
    pub count: usize,
    /// Their durations added up (ns), where every launch has one.
    pub total_ns: Option<f64>,
    /// Their median duration (ns).
    pub median_ns: Option<f64>,
}

/// One kernel (by name) across the two profiles.
#[derive(Debug, Clone, serde::Serialize)]
pub struct KernelTime {
    /// The short name.
    pub kernel: String,
    /// The full name (head's, else base's).
    pub name: String,
    /// Its launches in the base profile.
    pub base: Option<Launches>,
    /// Its launches in the head profile.
    pub head: Option<Launches>,
    /// Time saved (ns; negative: lost), base total less head total.
    pub saved_ns: Option<f64>,
    /// The share of the base time under which a change is noise.
    pub noise: f64,
    /// What happened to its time.
    pub verdict: Verdict,
    /// What `check` estimated, from the base profile, that the findings
    /// fixed or improved here would save (ns).
    pub estimated_ns: Option<f64>,
    /// Whether the estimate agrees with the time saved: within 1.5x, or
    /// within 2% of the base time (a slower kernel saved nothing).
    pub agrees: Option<bool>,
    /// Launch configurations that changed (`grid (16, 1, 1) -> (132, 1, 1)`).
    pub launch_changes: Vec<String>,
    /// Where a fix saved less than estimated, what its kernel now waits on,
    /// read from the head profile.
    pub shortfall: Option<String>,
}

/// What a profile was measured on and with.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Conditions {
    /// GPUs named.
    pub gpus: Vec<String>,
    /// The ncu version, where the exports say.
    pub ncu_version: Option<String>,
    /// `--clock-control` of the profiler's command line, where recorded.
    pub clock_control: Option<String>,
    /// The median SM clock the kernels ran at (Hz).
    pub sm_clock_hz: Option<f64>,
}

/// The timing side of a diff.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Timing {
    /// Kernels by name, in head order, then those only in base.
    pub kernels: Vec<KernelTime>,
    /// The base profile's conditions.
    pub base: Conditions,
    /// The head profile's conditions.
    pub head: Conditions,
    /// What differs between them and weighs on durations.
    pub differences: Vec<String>,
    /// Totals.
    pub summary: Summary,
    /// The gate on time, as a share.
    #[serde(skip)]
    pub fail_slower: Option<f64>,
}

/// Totals over the kernels in both profiles with durations.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Summary {
    /// Base time of the kernels in both profiles (ns).
    pub base_ns: f64,
    /// Head time of the same kernels (ns).
    pub head_ns: f64,
    /// Kernels faster, slower and unchanged beyond the noise.
    pub faster: usize,
    /// Kernels slower beyond the noise.
    pub slower: usize,
    /// Kernels whose change is within the noise.
    pub unchanged: usize,
    /// Kernels with an estimate to judge (a finding fixed or improved).
    pub judged: usize,
    /// Of those, the estimates that agree with the time saved.
    pub agree: usize,
    /// Their estimates added up (ns).
    pub estimated_ns: f64,
    /// Their time saved added up (ns).
    pub saved_ns: f64,
}

impl Timing {
    /// Whether a kernel got slower by more than the gate allows (and the
    /// noise).
    pub fn failed(&self) -> bool {
        self.fail_slower.is_some() && self.too_slow().next().is_some()
    }

    /// The kernels that fail the gate on time.
    pub fn too_slow(&self) -> impl Iterator<Item = &KernelTime> {
        let most = self.fail_slower.unwrap_or(f64::INFINITY);
        self.kernels.iter().filter(move |k| {
            k.verdict == Verdict::Slower
                && match (k.saved_ns, k.base.as_ref().and_then(|b| b.total_ns)) {
                    (Some(saved), Some(base)) if base > 0.0 => -saved / base > most,
                    _ => false,
                }
        })
    }
}

/// Whether `estimate` agrees with the time `saved` out of `kernel_ns`.
pub fn agrees(estimate: f64, saved: f64, kernel_ns: f64) -> bool {
    let saved = saved.max(0.0);
    (estimate - saved).abs() <= NEAR * kernel_ns
        || (saved > 0.0 && (1.0 / WITHIN..=WITHIN).contains(&(estimate / saved)))
}

/// One profile's kernels by normalised name, in order, with their indices.
fn by_name(report: &Report) -> IndexMap<String, Vec<usize>> {
    let mut out: IndexMap<String, Vec<usize>> = IndexMap::new();
    for (i, kernel) in report.kernels.iter().enumerate() {
        out.entry(kernel.normalized_name()).or_default().push(i);
    }
    out
}

fn launches(indices: &[usize], result: &CheckResult) -> Launches {
    let durations: Option<Vec<f64>> = indices
        .iter()
        .map(|&i| result.kernel_ns.get(i).copied().flatten())
        .collect();
    Launches {
        count: indices.len(),
        total_ns: durations.as_ref().map(|d| d.iter().sum()),
        median_ns: durations.map(|mut d| {
            d.sort_by(f64::total_cmp);
            d[d.len() / 2]
        }),
    }
}

/// A launch's grid and block, where the export has them.
type LaunchShape = (Option<[u64; 3]>, Option<[u64; 3]>);

/// Half the relative range of the durations of a kernel's launches of one
/// configuration (grid and block), the largest over its configurations:
/// what repeated launches of the same work show of the noise.
fn spread(indices: &[usize], report: &Report, result: &CheckResult) -> f64 {
    let mut by_launch: IndexMap<LaunchShape, Vec<f64>> = IndexMap::new();
    for &i in indices {
        let launch = &report.kernels[i].launch;
        if let Some(ns) = result.kernel_ns.get(i).copied().flatten() {
            by_launch
                .entry((launch.grid, launch.block))
                .or_default()
                .push(ns);
        }
    }
    by_launch
        .into_values()
        .filter(|d| d.len() >= 2)
        .map(|mut d| {
            d.sort_by(f64::total_cmp);
            let median = d[d.len() / 2];
            if median > 0.0 {
                (d[d.len() - 1] - d[0]) / (2.0 * median)
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max)
}

fn dims(d: [u64; 3]) -> String {
    format!("({}, {}, {})", d[0], d[1], d[2])
}

/// How the launch configuration of matched launches changed.
fn launch_changes(base: &[&Kernel], head: &[&Kernel]) -> Vec<String> {
    let mut out = Vec::new();
    for (b, h) in base.iter().zip(head) {
        for (what, before, after) in [
            ("grid", b.launch.grid, h.launch.grid),
            ("block", b.launch.block, h.launch.block),
        ] {
            if let (Some(before), Some(after)) = (before, after) {
                let change = format!("{what} {} -> {}", dims(before), dims(after));
                if before != after && !out.contains(&change) {
                    out.push(change);
                }
            }
        }
    }
    if base.len() != head.len() {
        out.push(format!("launches {} -> {}", base.len(), head.len()));
    }
    out
}

/// What `check` estimated, from the base profile, that a kernel's fixed and
/// improved places save: each place's estimate less what is left of it,
/// where the place is gone or one of its rules' findings was fixed or its
/// deciding quantity improved (`improved`: normalised kernel name and rule).
/// Causes' estimates are alternative fixes, not parts of one (a small grid
/// spread over the GPU, or its strided loads coalesced): a kernel's estimate
/// is its largest cause's.
fn estimates(
    base: &CheckResult,
    head: &CheckResult,
    improved: &HashSet<(String, String)>,
) -> IndexMap<String, f64> {
    let left: IndexMap<_, f64> = groups(head)
        .into_iter()
        .filter_map(|g| Some((g.key(), g.saved_ns?)))
        .collect();
    let mut by_pack: IndexMap<(String, Name), f64> = IndexMap::new();
    for group in groups(base) {
        let Some(before) = group.saved_ns else {
            continue;
        };
        let key = group.key();
        let fixed = match left.get(&key) {
            None => true,
            Some(_) => group
                .rules
                .iter()
                .any(|rule| improved.contains(&(key.0.clone(), rule.clone()))),
        };
        if !fixed {
            continue;
        }
        let after = left.get(&key).copied().unwrap_or(0.0);
        *by_pack.entry((key.0, key.2)).or_default() += (before - after).max(0.0);
    }
    let mut out: IndexMap<String, f64> = IndexMap::new();
    for ((kernel, _), ns) in by_pack {
        let best = out.entry(kernel).or_default();
        *best = best.max(ns);
    }
    out
}

/// The conditions one profile was measured under.
fn conditions(report: &Report, result: &CheckResult) -> Conditions {
    let coverage = crate::coverage::Coverage::of_report(report);
    let clock_control = coverage.command_line.as_deref().map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        words
            .iter()
            .position(|w| *w == "--clock-control")
            .and_then(|i| words.get(i + 1))
            .map_or("base".to_owned(), |w| (*w).to_owned())
    });
    let mut clocks: Vec<f64> = result.sm_clock_hz.iter().flatten().copied().collect();
    clocks.sort_by(f64::total_cmp);
    Conditions {
        gpus: coverage.gpus,
        ncu_version: coverage.ncu_version,
        clock_control,
        sm_clock_hz: clocks.get(clocks.len() / 2).copied(),
    }
}

/// What differs between the two profiles' conditions and weighs on the
/// durations.
fn differences(base: &Conditions, head: &Conditions) -> Vec<String> {
    let mut out = Vec::new();
    if !base.gpus.is_empty() && !head.gpus.is_empty() && base.gpus != head.gpus {
        out.push(format!(
            "GPUs differ: {} against {}",
            base.gpus.join(", "),
            head.gpus.join(", ")
        ));
    }
    if let (Some(b), Some(h)) = (&base.ncu_version, &head.ncu_version) {
        if b != h {
            out.push(format!("ncu versions differ: {b} against {h}"));
        }
    }
    if let (Some(b), Some(h)) = (&base.clock_control, &head.clock_control) {
        if b != h {
            out.push(format!("clock control differs: {b} against {h}"));
        }
    }
    if let (Some(b), Some(h)) = (base.sm_clock_hz, head.sm_clock_hz) {
        if (b - h).abs() > 0.03 * b.max(h) {
            out.push(format!(
                "the kernels ran at different SM clocks: {:.2} GHz against {:.2} GHz",
                b / 1e9,
                h / 1e9
            ));
        }
    }
    out
}

/// What the longest of a fixed kernel's launches waits on: the unit
/// nearest its peak, or latency where every unit ran under the knee (a
/// warp that finishes one row before it loads the next: a fix that keeps
/// few loads in flight saves less than the waste cost).
fn what_it_waits_on(indices: &[usize], result: &CheckResult) -> Option<String> {
    let longest = indices.iter().copied().max_by(|&a, &b| {
        let ns = |i: usize| result.kernel_ns.get(i).copied().flatten().unwrap_or(0.0);
        ns(a).total_cmp(&ns(b))
    })?;
    let used = result.utilization.get(longest).copied().flatten()?;
    let units = [
        ("memory", used.memory_pct),
        ("its busiest L1", used.l1_pct),
        ("its SMs", used.sm_pct),
    ];
    let (unit, busiest) = units.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let each = units
        .iter()
        .map(|(unit, p)| format!("{unit} {p:.0}%"))
        .collect::<Vec<_>>()
        .join(", ");
    if busiest >= 100.0 * LATENCY_KNEE {
        return Some(format!(
            "the fixed kernel's busiest unit is {unit} ({each} of peak)"
        ));
    }
    let warps = used
        .warps_per_sm
        .map_or(String::new(), |w| format!(", {w:.1} warps an SM"));
    // An SM holds 64 warps at most (Volta to Hopper); near that, more warps
    // are no remedy.
    let more_warps = if used.warps_per_sm.is_some_and(|w| w >= 48.0) {
        ""
    } else {
        " or run more warps"
    };
    Some(format!(
        "the fixed kernel waits on latency ({each} of peak{warps}): keep more loads in flight (several rows a warp, an unrolled loop){more_warps}"
    ))
}

/// Each kernel's time across the base and head profiles; `improved` names
/// the (normalised kernel name, rule) pairs whose findings were fixed or
/// whose deciding quantity got better.
pub fn timing(
    base: (&Report, &CheckResult),
    head: (&Report, &CheckResult),
    improved: &HashSet<(String, String)>,
    settings: Settings,
) -> Timing {
    let (base_names, head_names) = (by_name(base.0), by_name(head.0));
    let estimated = estimates(base.1, head.1, improved);
    let mut kernels = Vec::new();
    let mut summary = Summary::default();
    for (name, head_indices) in &head_names {
        let head_kernel = &head.0.kernels[head_indices[0]];
        let head_launches = launches(head_indices, head.1);
        let Some(base_indices) = base_names.get(name) else {
            kernels.push(KernelTime {
                kernel: kernel_name::short(&head_kernel.name),
                name: head_kernel.name.clone(),
                base: None,
                head: Some(head_launches),
                saved_ns: None,
                noise: settings.noise,
                verdict: Verdict::Appeared,
                estimated_ns: None,
                agrees: None,
                launch_changes: Vec::new(),
                shortfall: None,
            });
            continue;
        };
        let base_launches = launches(base_indices, base.1);
        let noise = settings
            .noise
            .max(spread(base_indices, base.0, base.1))
            .max(spread(head_indices, head.0, head.1));
        let saved_ns = base_launches
            .total_ns
            .zip(head_launches.total_ns)
            .map(|(b, h)| b - h);
        let verdict = match (saved_ns, base_launches.total_ns) {
            (Some(saved), Some(total)) if saved.abs() <= noise * total => Verdict::Unchanged,
            (Some(saved), Some(_)) if saved > 0.0 => Verdict::Faster,
            (Some(_), Some(_)) => Verdict::Slower,
            _ => Verdict::Unmeasured,
        };
        let estimate = estimated.get(name).copied().filter(|&ns| ns > 0.0);
        let agrees = estimate
            .zip(saved_ns)
            .zip(base_launches.total_ns)
            .map(|((e, s), total)| agrees(e, s, total));
        if let (Some(saved), Some(total)) = (saved_ns, base_launches.total_ns) {
            summary.base_ns += total;
            summary.head_ns += total - saved;
            match verdict {
                Verdict::Faster => summary.faster += 1,
                Verdict::Slower => summary.slower += 1,
                _ => summary.unchanged += 1,
            }
            if let (Some(e), Some(a)) = (estimate, agrees) {
                summary.judged += 1;
                summary.agree += usize::from(a);
                summary.estimated_ns += e;
                summary.saved_ns += saved;
            }
        }
        let base_kernels: Vec<&Kernel> = base_indices.iter().map(|&i| &base.0.kernels[i]).collect();
        let head_kernels: Vec<&Kernel> = head_indices.iter().map(|&i| &head.0.kernels[i]).collect();
        let short_of_estimate =
            agrees == Some(false) && estimate.zip(saved_ns).is_some_and(|(e, s)| s < e);
        let shortfall = short_of_estimate
            .then(|| what_it_waits_on(head_indices, head.1))
            .flatten();
        kernels.push(KernelTime {
            kernel: kernel_name::short(&head_kernel.name),
            name: head_kernel.name.clone(),
            base: Some(base_launches),
            head: Some(head_launches),
            saved_ns,
            noise,
            verdict,
            estimated_ns: estimate,
            agrees,
            launch_changes: launch_changes(&base_kernels, &head_kernels),
            shortfall,
        });
    }
    for (name, base_indices) in &base_names {
        if head_names.contains_key(name) {
            continue;
        }
        let kernel = &base.0.kernels[base_indices[0]];
        kernels.push(KernelTime {
            kernel: kernel_name::short(&kernel.name),
            name: kernel.name.clone(),
            base: Some(launches(base_indices, base.1)),
            head: None,
            saved_ns: None,
            noise: settings.noise,
            verdict: Verdict::Gone,
            estimated_ns: None,
            agrees: None,
            launch_changes: Vec::new(),
            shortfall: None,
        });
    }
    let (base_conditions, head_conditions) =
        (conditions(base.0, base.1), conditions(head.0, head.1));
    Timing {
        kernels,
        differences: differences(&base_conditions, &head_conditions),
        base: base_conditions,
        head: head_conditions,
        summary,
        fail_slower: settings.fail_slower,
    }
}

/// The sentences every format shows of a timing, in words.
pub mod words {
    use super::{Conditions, KernelTime, Timing, Verdict};
    use crate::report::units::duration;

    /// Why a fix saved less than estimated, as a sentence.
    pub fn shortfall(k: &KernelTime) -> Option<String> {
        k.shortfall
            .as_ref()
            .map(|why| format!("saved less than estimated: {why}"))
    }

    /// `4 -> 4` launches, or the one count where both profiles have it.
    pub fn launches(k: &KernelTime) -> String {
        match (&k.base, &k.head) {
            (Some(b), Some(h)) if b.count == h.count => b.count.to_string(),
            (b, h) => format!(
                "{} -> {}",
                b.as_ref().map_or(0, |l| l.count),
                h.as_ref().map_or(0, |l| l.count)
            ),
        }
    }

    /// The time saved and its share, or what happened instead.
    pub fn saved(k: &KernelTime) -> String {
        let base = k.base.as_ref().and_then(|b| b.total_ns);
        match (k.verdict, k.saved_ns, base) {
            (Verdict::Unchanged, Some(s), Some(b)) => format!(
                "no measurable change ({:+.1}%, noise {:.0}%)",
                -100.0 * s / b,
                100.0 * k.noise
            ),
            (Verdict::Faster | Verdict::Slower, Some(s), Some(b)) => format!(
                "{}{} ({:+.0}%)",
                if s < 0.0 { "-" } else { "" },
                duration(s.abs()),
                -100.0 * s / b
            ),
            (verdict, _, _) => verdict.name().to_owned(),
        }
    }

    /// The estimate and whether it agrees, or `-`.
    pub fn estimate(k: &KernelTime) -> (String, String) {
        match (k.estimated_ns, k.agrees) {
            (Some(e), Some(a)) => (duration(e), if a { "yes" } else { "no" }.to_owned()),
            (Some(e), None) => (duration(e), "-".to_owned()),
            _ => ("-".to_owned(), "-".to_owned()),
        }
    }

    /// A total, or `-`.
    pub fn total(launches: Option<&super::Launches>) -> String {
        launches
            .and_then(|l| l.total_ns)
            .map_or("-".to_owned(), duration)
    }

    fn describe(c: &Conditions) -> String {
        let mut parts = Vec::new();
        if !c.gpus.is_empty() {
            parts.push(c.gpus.join(", "));
        }
        if let Some(v) = &c.ncu_version {
            parts.push(format!("ncu {v}"));
        }
        if let Some(cc) = &c.clock_control {
            parts.push(format!("clock control {cc}"));
        }
        if let Some(hz) = c.sm_clock_hz {
            parts.push(format!("SM clock {:.2} GHz", hz / 1e9));
        }
        if parts.is_empty() {
            "conditions not in the exports".to_owned()
        } else {
            parts.join(", ")
        }
    }

    /// What the two profiles were measured under, and what differs.
    pub fn conditions(t: &Timing) -> Vec<String> {
        if t.differences.is_empty() {
            return vec![format!("both profiles: {}", describe(&t.base))];
        }
        let mut out = vec![
            format!("base: {}", describe(&t.base)),
            format!("head: {}", describe(&t.head)),
        ];
        out.extend(
            t.differences
                .iter()
                .map(|d| format!("{d}: durations compare only in part")),
        );
        out
    }

    /// The totals of time, and how the estimates did.
    pub fn summary(t: &Timing) -> Vec<String> {
        let s = &t.summary;
        let matched = s.faster + s.slower + s.unchanged;
        let mut out = vec![format!(
            "time: {} -> {} over {matched} kernels in both ({:+.0}%): {} faster, {} slower, {} no measurable change",
            duration(s.base_ns),
            duration(s.head_ns),
            if s.base_ns > 0.0 {
                100.0 * (s.head_ns - s.base_ns) / s.base_ns
            } else {
                0.0
            },
            s.faster,
            s.slower,
            s.unchanged
        )];
        if s.judged > 0 {
            out.push(format!(
                "estimates: {} kernels had findings fixed or improved: {} estimated, {} saved; {} of {} agree (within {}x, or within {:.0}% of the kernel's time)",
                s.judged,
                duration(s.estimated_ns),
                duration(s.saved_ns),
                s.agree,
                s.judged,
                super::WITHIN,
                100.0 * super::NEAR
            ));
        }
        for k in t.too_slow() {
            out.push(format!(
                "{} is slower than --fail-on-slower allows: {}",
                k.kernel,
                saved(k)
            ));
        }
        out
    }
}
