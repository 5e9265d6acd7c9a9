//! A validated rule: its variants (ways to obtain its inputs), condition,
//! message, line placement, documentation and the quantity diffs compare.

use indexmap::IndexMap;

use super::expr::Expr;
use super::template::Template;
use crate::model::Form;
use crate::vocab::Severity;

/// What a rule's findings point at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The kernel as a whole.
    Kernel,
    /// The CUDA source lines that hold the problem, where the source page allows.
    Line,
}

/// One place a rule input may come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Candidate {
    /// A metric by name (raw page, named details, `--metrics`).
    Metric(String),
    /// A details-page label in a section, for exports that print labels.
    Label {
        /// The section name.
        section: String,
        /// The label.
        label: String,
    },
    /// A sum over the source page's instruction rows.
    Source(SourceSum),
    /// A count read from the kernel's SASS on the source page
    /// ([`crate::rules::sass_counts`]: `vector_stores`, `walk_passes`).
    Sass(String),
}

/// `Σ column [× times] × scale` over source-page instructions matching `filter`.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceSum {
    /// The column summed.
    pub column: String,
    /// A column each row's value is multiplied by (`Access Size`).
    pub times: Option<String>,
    /// A constant factor (0.125 turns bits into bytes).
    pub scale: f64,
    /// Column values a row must have (`Address Space` = `Global`).
    pub filter: Vec<(String, String)>,
}

/// A named rule parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// Its default value.
    pub default: f64,
    /// What it controls.
    pub description: String,
}

/// One way to obtain a rule's inputs; the first variant whose inputs are all
/// present for a kernel is the one evaluated.
#[derive(Debug, Clone)]
pub struct Variant {
    /// What the variant reads, for messages (`metrics`, `source page`).
    pub name: String,
    /// Required inputs and where each may come from, in order of preference.
    pub inputs: IndexMap<String, Vec<Candidate>>,
    /// Inputs that may be absent (they print as `?`).
    pub optional: IndexMap<String, Vec<Candidate>>,
    /// Named values computed from inputs and parameters, in order.
    pub derived: IndexMap<String, Expr>,
    /// A severity that replaces the rule's (a weaker fallback).
    pub severity: Option<Severity>,
    /// Why this variant is weaker, appended to its findings.
    pub because: Option<String>,
    /// A condition that replaces the rule's.
    pub condition: Option<Expr>,
    /// A message that replaces the rule's.
    pub message: Option<Template>,
    /// When the variant applies, over its own values; where it does not
    /// hold, the next variant is tried (a zero that implies a missing count).
    pub when: Option<Expr>,
    /// Why the variant measures the same thing as the rule's first one
    /// (older metric names, another form of the same counter).
    pub why: Option<String>,
}

/// Lowers a finding to note severity when a condition holds.
#[derive(Debug, Clone)]
pub struct Downgrade {
    /// When.
    pub when: Expr,
    /// Why, appended to the message.
    pub because: String,
}

/// How a line-scoped rule spreads a kernel's finding over CUDA lines.
#[derive(Debug, Clone)]
pub struct LineSpec {
    /// The per-instruction quantity whose share places a finding on a line.
    pub weight: SourceSum,
    /// The parameter giving the least share of the kernel's total a line must hold.
    pub min_share: String,
}

/// A rule's documentation.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Docs {
    /// What it finds.
    pub what: String,
    /// Why it matters.
    pub why: String,
    /// How to fix it.
    pub fix: String,
    /// A CUDA example of the problem and the fix.
    pub example: String,
    /// How the cause is found from the numbers, with a worked example.
    pub model: String,
}

/// The value that says how well a kernel does on a rule, for diffs.
#[derive(Debug, Clone)]
pub struct Quantity {
    /// An input or derived value.
    pub name: String,
    /// Whether higher is better (efficiency) or lower (waste).
    pub higher_is_better: bool,
}

/// A validated rule.
#[derive(Debug, Clone)]
pub struct Rule {
    /// Stable kebab-case id.
    pub id: String,
    /// One-line title.
    pub title: String,
    /// The pack it came from.
    pub pack: String,
    /// The cause its findings are views of: findings of rules with one
    /// cause at one place count once (low load efficiency and wasted
    /// sectors of one strided load); the pack's name unless it says.
    pub cause: String,
    /// Default severity.
    pub severity: Severity,
    /// What findings point at.
    pub scope: Scope,
    /// Parameters and their defaults.
    pub params: IndexMap<String, Param>,
    /// Ways to obtain the inputs, in order of preference.
    pub variants: Vec<Variant>,
    /// When the rule fires.
    pub condition: Expr,
    /// The finding's message.
    pub message: Template,
    /// Extra clauses appended where the data allows: each is shown when
    /// every value it names is defined and non-zero.
    pub details: Vec<Template>,
    /// When a finding is only a note.
    pub downgrade: Option<Downgrade>,
    /// Ways to estimate what a fix is worth, in order of preference.
    pub impact: Vec<Impact>,
    /// Which memory-model analysis finds the cause.
    pub analysis: Option<Analysis>,
    /// Fixes computed from the values, the first that applies is used.
    pub fixes: Vec<Fix>,
    /// The pack's advice its fixes name, each added where its condition
    /// holds.
    pub fix_clauses: Vec<FixClause>,
    /// Placement on lines, for line-scoped rules.
    pub lines: Option<LineSpec>,
    /// The deciding quantity, compared by `ncu-lint diff`.
    pub quantity: Option<Quantity>,
    /// The Nsight Compute sections whose metrics the rule reads
    /// (`ncu-lint profile` collects them).
    pub sections: Vec<String>,
    /// Compute capabilities the rule applies to (inclusive bounds).
    pub cc: (Option<f64>, Option<f64>),
    /// Export forms of which at least one must be present, if any are named.
    pub forms: Vec<Form>,
    /// Documentation.
    pub docs: Docs,
}

/// One way to estimate what fixing a finding is worth: the fraction of the
/// kernel's time the waste costs (`speedup`), from the finding's values and
/// inputs of its own, and the bytes it moves for nothing. The first whose
/// inputs a kernel has is the one used.
#[derive(Debug, Clone)]
pub struct Impact {
    /// What it is based on (`L2 busy cycles`).
    pub name: String,
    /// Inputs beyond the finding's values, all required.
    pub inputs: IndexMap<String, Vec<Candidate>>,
    /// Inputs it reads where the export has them (undefined where not:
    /// `known_or` says what stands in).
    pub optional: IndexMap<String, Vec<Candidate>>,
    /// Numbers computed from all of those, in order, before the formulas.
    pub derived: Vec<DerivedNumber>,
    /// The fraction of the kernel's time a fix saves (clamped to 0..1);
    /// `None` for an estimate of the bytes alone.
    pub speedup: Option<Expr>,
    /// That expression as written.
    pub speedup_text: Option<String>,
    /// The bytes the waste moves, for ranking where there is no duration.
    pub bytes: Option<Expr>,
    /// The most a fix can save, where `speedup` counts on what the
    /// profiled run happened to do; the worth threshold judges it.
    pub ceiling: Option<Ceiling>,
    /// Why the formula measures the cost, shown by `explain`.
    pub why: String,
    /// The `why` of each `[numbers]` set it names that has one, by the
    /// set's name, shown by `explain` after its own.
    pub numbers_why: Vec<(String, String)>,
    /// The Nsight Compute sections its inputs come from (`ncu-lint
    /// profile` collects them).
    pub sections: Vec<String>,
}

/// The most a fix can save (`[rule.impact.ceiling]`): an expression of the
/// share of the kernel's time, and when it is reached.
#[derive(Debug, Clone)]
pub struct Ceiling {
    /// The share of the kernel's time, over the same names as `speedup`.
    pub speedup: Expr,
    /// That expression as written.
    pub speedup_text: String,
    /// When a fix saves that much ("where the L1 does not catch ..."),
    /// shared by every finding that carries the ceiling.
    pub when: std::sync::Arc<str>,
}

/// The memory-model analysis of a rule's findings (`rules/diagnose.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Analysis {
    /// Global loads: width, stride, misalignment.
    GlobalLoad,
    /// Global stores: the same.
    GlobalStore,
    /// Global loads or stores, whichever wastes more at the place.
    Global,
    /// Shared accesses: width, n-way conflict, wavefront geometry.
    Shared,
}

impl Analysis {
    /// The analysis named `text` in a pack.
    pub fn parse(text: &str) -> Option<Analysis> {
        match text {
            "global-load" => Some(Analysis::GlobalLoad),
            "global-store" => Some(Analysis::GlobalStore),
            "global" => Some(Analysis::Global),
            "shared" => Some(Analysis::Shared),
            _ => None,
        }
    }

    /// The values it adds to a finding.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Analysis::Shared => &[
                "access_bytes",
                "conflict_ways",
                "threads_per_wavefront",
                "wavefronts_ideal",
                "pad_to",
            ],
            _ => &[
                "access_bytes",
                "useful_bytes_per_sector",
                "used_share",
                "stride_bytes",
                "stride_at_least",
                "misaligned",
                "fields",
                "warp_bytes",
                "active_lanes",
                "masked",
                "elements_per_thread",
                "instruction_stride_bytes",
                "requests_per_warp",
                "store_access",
                "contiguous_bytes",
                "run_jumps",
                "halves_to_float",
                "narrow_to_float",
                "address_reloads",
            ],
        }
    }
}

/// A fix text computed from a finding's values.
#[derive(Debug, Clone)]
pub struct Fix {
    /// When it applies; always when absent.
    pub when: Option<Expr>,
    /// The text; it applies only when every value it names is known.
    pub text: Template,
    /// Kernel metrics the fix's own numbers read.
    pub inputs: IndexMap<String, Vec<Candidate>>,
    /// The numbers the fix quotes, in order: expressions over the finding's
    /// values, the inputs, `kernel_ns` and `saved_ns` (the estimate). They
    /// join the finding's values when the fix is the one rendered.
    pub derived: Vec<DerivedNumber>,
    /// Where the numbers' model comes from.
    pub why: String,
    /// The most the fix saves, a share of the kernel's time, over the same
    /// names as its numbers: where it is under the estimate, the estimate
    /// is it (`saves_at_most`).
    pub saves_at_most: Option<Expr>,
    /// `saves_at_most` as written, for `explain`.
    pub saves_at_most_text: Option<String>,
    /// The condition as written, for `explain`.
    pub when_text: Option<String>,
    /// The clauses it adds where theirs hold, in order: indexes into the
    /// rule's `fix_clauses`.
    pub clauses: Vec<usize>,
}

/// Advice several fixes add to their text where its condition holds
/// (the pack's `[fix_clauses.NAME]`), joined to the fix with "; ".
#[derive(Debug, Clone)]
pub struct FixClause {
    /// Its name in the pack.
    pub name: String,
    /// When it is added.
    pub when: Expr,
    /// The condition as written, for `explain`.
    pub when_text: String,
    /// The text; it is added only when every value it names is known and
    /// non-zero.
    pub text: Template,
    /// The text as written, for `explain`.
    pub written: String,
    /// The measurements behind the advice.
    pub why: String,
}

/// One number a fix quotes or an impact derives: its name, expression and
/// the expression's text.
#[derive(Debug, Clone)]
pub struct DerivedNumber {
    /// The value's name.
    pub name: String,
    /// How it is computed.
    pub expr: Expr,
    /// The expression as written.
    pub text: String,
}
