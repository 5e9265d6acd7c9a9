//! The rule-pack TOML as written: every value keeps its span for
//! diagnostics, and unknown keys are refused. Validation (`validate/`) turns it
//! into [`super::pack::Pack`]s.

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

use super::pack::Expectation;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPack {
    pub(super) pack: Option<RawManifest>,
    #[serde(default)]
    pub(super) rule: Vec<RawRule>,
    #[serde(default)]
    pub(super) overrides: IndexMap<String, Spanned<RawOverride>>,
    #[serde(default)]
    pub(super) test: Vec<Spanned<RawTest>>,
    #[serde(default)]
    pub(super) library: Vec<RawLibrary>,
    #[serde(default)]
    pub(super) numbers: IndexMap<String, RawNumbers>,
    #[serde(default)]
    pub(super) fix_clauses: IndexMap<String, Spanned<RawFixClause>>,
}

/// Numbers several rules' fixes and impacts use (`[numbers.NAME]`): inputs
/// read from the kernel and values derived from them, checked in each fix
/// or impact that names the set, against that rule's names.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNumbers {
    #[serde(default)]
    pub(super) inputs: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    /// Inputs an impact reads where the export has them (a fix reads every
    /// input that way).
    #[serde(default)]
    pub(super) optional: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    pub(super) derived: IndexMap<String, Spanned<String>>,
    /// Where the set's model comes from and how it was judged: `explain`
    /// shows it under each impact that names the set, so the impacts'
    /// own `why` need not repeat it.
    #[serde(default)]
    pub(super) why: Option<String>,
}

/// A library whose kernels users cannot change (`[[library]]`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLibrary {
    pub(super) name: String,
    #[serde(default)]
    pub(super) kernels: Vec<String>,
    #[serde(default)]
    pub(super) files: Vec<String>,
    #[serde(default)]
    pub(super) fix: Option<String>,
    #[serde(default)]
    pub(super) keep: bool,
    #[serde(default)]
    pub(super) calls: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOverride {
    #[serde(default)]
    pub(super) severity: Option<String>,
    #[serde(default)]
    pub(super) params: IndexMap<String, f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTest {
    pub(super) name: String,
    pub(super) files: RawExports,
    #[serde(default)]
    pub(super) expect: Vec<Expectation>,
    #[serde(default)]
    pub(super) reject: Vec<Expectation>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawManifest {
    pub(super) name: Spanned<String>,
    #[serde(default)]
    pub(super) version: Option<String>,
    #[serde(default)]
    pub(super) description: Option<String>,
    #[serde(default)]
    pub(super) min_ncu_lint: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) extends: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) min_speedup: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRule {
    pub(super) id: Spanned<String>,
    pub(super) title: Spanned<String>,
    pub(super) severity: Spanned<String>,
    #[serde(default)]
    pub(super) scope: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) cause: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) params: IndexMap<String, Spanned<RawParam>>,
    #[serde(default)]
    pub(super) inputs: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    pub(super) optional: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    pub(super) derived: IndexMap<String, Spanned<String>>,
    #[serde(default)]
    pub(super) variant: Vec<RawVariant>,
    pub(super) condition: Spanned<String>,
    pub(super) message: Spanned<String>,
    #[serde(default)]
    pub(super) details: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) downgrade: Option<RawDowngrade>,
    #[serde(default)]
    pub(super) impact: Vec<RawImpact>,
    #[serde(default)]
    pub(super) analysis: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) fix: Vec<RawFix>,
    #[serde(default)]
    pub(super) lines: Option<RawLines>,
    #[serde(default)]
    pub(super) quantity: Option<RawQuantity>,
    #[serde(default)]
    pub(super) sections: Vec<String>,
    #[serde(default)]
    pub(super) cc: Option<RawCc>,
    #[serde(default)]
    pub(super) forms: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) docs: Option<Spanned<RawDocs>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RawParam {
    Number(f64),
    Table { default: f64, description: String },
}

#[derive(Deserialize, Clone)]
#[serde(untagged)]
pub(super) enum RawCandidate {
    Metric(String),
    Label {
        section: String,
        label: String,
    },
    Source {
        source: String,
        #[serde(default)]
        times: Option<String>,
        #[serde(default)]
        scale: Option<f64>,
        #[serde(default, rename = "where")]
        filter: IndexMap<String, String>,
    },
    Sass {
        sass: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawVariant {
    pub(super) name: Spanned<String>,
    #[serde(default)]
    pub(super) inputs: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    pub(super) optional: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    pub(super) derived: IndexMap<String, Spanned<String>>,
    #[serde(default)]
    pub(super) severity: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) because: Option<String>,
    #[serde(default)]
    pub(super) condition: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) message: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) when: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDowngrade {
    pub(super) when: Spanned<String>,
    pub(super) because: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLines {
    pub(super) weight: RawCandidate,
    pub(super) min_share: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawQuantity {
    pub(super) name: Spanned<String>,
    pub(super) better: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCc {
    #[serde(default)]
    pub(super) min: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) max: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDocs {
    #[serde(default)]
    pub(super) what: String,
    #[serde(default)]
    pub(super) why: String,
    #[serde(default)]
    pub(super) fix: String,
    #[serde(default)]
    pub(super) example: String,
    #[serde(default)]
    pub(super) model: String,
}

/// A test's exports: one set of pages of a report, or several sets.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RawExports {
    /// `files = ["raw.csv", "source.csv"]`
    One(Vec<String>),
    /// `files = [["raw.csv", "source.csv"], ["details.csv"]]`
    Several(Vec<Vec<String>>),
}

impl RawExports {
    /// The export sets, each the pages of one report.
    pub(super) fn into_sets(self) -> Vec<Vec<String>> {
        match self {
            RawExports::One(files) => vec![files],
            RawExports::Several(sets) => sets,
        }
    }
}

/// One way to estimate what fixing a finding is worth (`[[rule.impact]]`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawImpact {
    pub(super) name: Spanned<String>,
    #[serde(default)]
    pub(super) inputs: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    pub(super) optional: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    pub(super) derived: IndexMap<String, Spanned<String>>,
    #[serde(default)]
    pub(super) speedup: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) bytes: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) ceiling: Option<RawCeiling>,
    /// Sets of the pack's `[numbers]` whose inputs and values come first.
    #[serde(default)]
    pub(super) numbers: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) why: String,
    #[serde(default)]
    pub(super) sections: Vec<String>,
}

/// The most a fix can save where the estimate counts on something the
/// profiled run happened to do (`ceiling = { speedup, when }`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCeiling {
    pub(super) speedup: Spanned<String>,
    pub(super) when: String,
}

/// A fix computed from a finding's values (`[[rule.fix]]`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFix {
    #[serde(default)]
    pub(super) when: Option<Spanned<String>>,
    pub(super) text: Spanned<String>,
    #[serde(default)]
    pub(super) inputs: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    pub(super) derived: IndexMap<String, Spanned<String>>,
    /// Sets of the pack's `[numbers]` whose inputs and values come first.
    #[serde(default)]
    pub(super) numbers: Vec<Spanned<String>>,
    /// The pack's `[fix_clauses]` this fix adds where theirs hold.
    #[serde(default)]
    pub(super) clauses: Vec<Spanned<String>>,
    /// The most this fix saves, a share of the kernel's time: where the
    /// fix is the one shown and this is under the estimate, it is the
    /// estimate.
    #[serde(default)]
    pub(super) saves_at_most: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) why: String,
}

/// Advice several fixes, of one rule or of several, add where its own
/// condition holds (`[fix_clauses.NAME]`), checked in each rule whose
/// fixes name it, against that rule's names.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFixClause {
    pub(super) when: Spanned<String>,
    pub(super) text: Spanned<String>,
    #[serde(default)]
    pub(super) why: String,
}
