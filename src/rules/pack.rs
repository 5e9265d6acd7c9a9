//! Rule packs: a pack's rules, tests and overrides, loaded from TOML.
//!
//! A pack is read in two steps: the TOML is deserialised into the raw
//! schema (`schema.rs`), which keeps the span of every value, then
//! validation (`validate/`) checks ids, severities, expressions, templates, names
//! and metric names, collecting every problem with its span before deciding.
//!
//! ```toml
//! [pack]
//! name = "team"
//! version = "1.0.0"
//!
//! [[rule]]
//! id = "few-sectors"
//! title = "Loads touch few bytes per sector"
//! severity = "warning"
//! condition = "sectors > 0 and bytes_per_sector < limit"
//! message = "{bytes_per_sector:.1} bytes used per 32-byte sector"
//! params.limit = { default = 16, description = "bytes per sector below which to report" }
//! inputs.bytes_per_sector = ["smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"]
//! inputs.sectors = ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
//! docs = { what = "...", why = "...", fix = "...", example = "..." }
//! ```

use std::ops::Range;

use indexmap::IndexMap;
use miette::NamedSource;
use serde::Deserialize;

use super::error::PackProblem;
pub use super::rule::{
    Analysis, Candidate, Ceiling, DerivedNumber, Docs, Downgrade, Fix, FixClause, Impact, LineSpec,
    Param, Quantity, Rule, Scope, SourceSum, Variant,
};
pub use crate::vocab::Severity;

/// The parameter that holds a rule's worth-it threshold: a finding whose
/// estimated speedup is below it is a note.
pub const MIN_SPEEDUP: &str = "min_speedup";

/// The parameter that lets an estimate's ceiling, not only the estimate,
/// decide that a finding is worth failing a gate (1), or shows it only (0).
pub const CEILING_GATES: &str = "ceiling_gates";

/// The estimate's numbers a fix's `derived` values may read: the kernel's
/// duration and what the estimate says a fix saves, in nanoseconds.
pub const FIX_ESTIMATE_NAMES: [&str; 2] = ["kernel_ns", "saved_ns"];

pub use super::validate::load_pack;

/// A validated pack.
#[derive(Debug, Clone)]
pub struct Pack {
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// What it is for.
    pub description: String,
    /// Its rules in file order.
    pub rules: Vec<Rule>,
    /// Warnings found while loading (unknown metric names).
    pub warnings: Vec<PackProblem>,
    /// Packs whose rules this one takes first (`builtin:NAME` or a path
    /// relative to this pack), with their spans.
    pub extends: Vec<(String, Range<usize>)>,
    /// Local changes to rules taken from extended packs.
    pub overrides: Vec<Override>,
    /// Tests the pack carries.
    pub tests: Vec<PackTest>,
    /// Libraries whose kernels users cannot change, by kernel name.
    pub libraries: Vec<Library>,
    /// The pack's name for diagnostics and its text.
    pub source: NamedSource<String>,
}

/// A local change to an extended pack's rule.
#[derive(Debug, Clone)]
pub struct Override {
    /// The rule id.
    pub id: String,
    /// Its span, for an id that no extended pack has.
    pub span: Range<usize>,
    /// A new default severity, as written.
    pub severity: Option<String>,
    /// New parameter defaults.
    pub params: IndexMap<String, f64>,
}

/// An export and the findings a pack must and must not produce on it.
#[derive(Debug, Clone)]
pub struct PackTest {
    /// What the test shows.
    pub name: String,
    /// Export sets, each the files of one report, relative to the pack
    /// file; the expectations hold on each set.
    pub exports: Vec<Vec<String>>,
    /// Findings that must be produced.
    pub expect: Vec<Expectation>,
    /// Findings that must not be produced.
    pub reject: Vec<Expectation>,
    /// The test's span.
    pub span: Range<usize>,
}

/// A library whose kernels users do not write (cuBLAS, cuDNN, CUTLASS,
/// ATen, NCCL, ...): its findings are notes whose fix speaks of what the
/// user controls.
#[derive(Debug, Clone)]
pub struct Library {
    /// Its name as users know it.
    pub name: String,
    /// Globs over the kernel's full name (`*` any run), matched against
    /// each form ncu prints it in ([`Library::owns`]).
    pub kernels: Vec<crate::vocab::Pattern>,
    /// Globs over source paths: its headers and modules, whose code is
    /// inlined into users' kernels.
    pub files: Vec<crate::vocab::Pattern>,
    /// What a user can do about its waste, where the finding's own fix does
    /// not say it.
    pub fix: Option<String>,
    /// Whether its kernels' findings keep their severity: the waste
    /// follows what the user controls (the strides of the tensors an ATen
    /// copy is given), not the library's code.
    pub keep: bool,
    /// How a user's line calls its inlined code (`tl.sum(`), for kernels
    /// whose line table records no call site: the kernel's line that
    /// matches is where a finding in its files belongs.
    pub calls: Option<regex::Regex>,
}

impl Library {
    /// Whether `kernel` is one of the library's, in any of the forms ncu
    /// prints names in: demangled with or without namespaces (`at::`,
    /// ncu's `unnamed>::`), mangled, or the bare function name.
    pub fn owns(&self, kernel: &str) -> bool {
        let unqualified = crate::model::kernel_name::unqualified(kernel);
        self.kernels
            .iter()
            .any(|p| p.matches(kernel) || p.matches(&unqualified))
    }

    /// Whether `path` is one of the library's files.
    pub fn owns_file(&self, path: &str) -> bool {
        self.files.iter().any(|p| p.matches(path))
    }
}

/// A finding a test looks for: a rule on kernels matching a glob.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// The rule id.
    pub rule: String,
    /// A glob over kernel names (`*` by default).
    #[serde(default = "any_kernel")]
    pub kernel: String,
    /// The least severity that counts (`note` by default).
    #[serde(default)]
    pub severity: Option<String>,
}

fn any_kernel() -> String {
    "*".to_owned()
}
