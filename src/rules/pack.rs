//! Rule packs: the TOML schema, and its validation into [`Rule`]s.
//!
//! A pack is read in two steps: the TOML is deserialised into raw structs
//! that keep the span of every value (unknown keys are refused), then a
//! validation pass checks ids, severities, expressions, templates, names and
//! metric names, collecting every problem with its span before deciding.
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

use std::collections::HashMap;
use std::ops::Range;

use indexmap::IndexMap;
use miette::{NamedSource, Severity as MietteSeverity};
use serde::Deserialize;
use toml::Spanned;

use super::catalog;
use super::error::{PackError, PackProblem, ProblemKind};
use super::expr::{self, Expr, Type};
use super::template::Template;
use crate::model::Form;

/// How serious a finding is; these are also SARIF's levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing.
    Note,
    /// Worth fixing.
    Warning,
    /// Must be fixed.
    Error,
}

impl Severity {
    /// Parses `note`, `warning` or `error`.
    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "note" => Some(Severity::Note),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

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
    /// Export files of one report, relative to the pack file.
    pub files: Vec<String>,
    /// Findings that must be produced.
    pub expect: Vec<Expectation>,
    /// Findings that must not be produced.
    pub reject: Vec<Expectation>,
    /// The test's span.
    pub span: Range<usize>,
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

// ---- raw TOML schema -------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPack {
    pack: Option<RawManifest>,
    #[serde(default)]
    rule: Vec<RawRule>,
    #[serde(default)]
    overrides: IndexMap<String, Spanned<RawOverride>>,
    #[serde(default)]
    test: Vec<Spanned<RawTest>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOverride {
    #[serde(default)]
    severity: Option<String>,
    #[serde(default)]
    params: IndexMap<String, f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTest {
    name: String,
    files: Vec<String>,
    #[serde(default)]
    expect: Vec<Expectation>,
    #[serde(default)]
    reject: Vec<Expectation>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    name: Spanned<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    min_ncu_lint: Option<Spanned<String>>,
    #[serde(default)]
    extends: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    id: Spanned<String>,
    title: Spanned<String>,
    severity: Spanned<String>,
    #[serde(default)]
    scope: Option<Spanned<String>>,
    #[serde(default)]
    params: IndexMap<String, Spanned<RawParam>>,
    #[serde(default)]
    inputs: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    optional: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    derived: IndexMap<String, Spanned<String>>,
    #[serde(default)]
    variant: Vec<RawVariant>,
    condition: Spanned<String>,
    message: Spanned<String>,
    #[serde(default)]
    details: Vec<Spanned<String>>,
    #[serde(default)]
    downgrade: Option<RawDowngrade>,
    #[serde(default)]
    lines: Option<RawLines>,
    #[serde(default)]
    quantity: Option<RawQuantity>,
    #[serde(default)]
    sections: Vec<String>,
    #[serde(default)]
    cc: Option<RawCc>,
    #[serde(default)]
    forms: Vec<Spanned<String>>,
    #[serde(default)]
    docs: Option<Spanned<RawDocs>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawParam {
    Number(f64),
    Table { default: f64, description: String },
}

#[derive(Deserialize, Clone)]
#[serde(untagged)]
enum RawCandidate {
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
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: Spanned<String>,
    #[serde(default)]
    inputs: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    optional: IndexMap<String, Spanned<Vec<RawCandidate>>>,
    #[serde(default)]
    derived: IndexMap<String, Spanned<String>>,
    #[serde(default)]
    severity: Option<Spanned<String>>,
    #[serde(default)]
    because: Option<String>,
    #[serde(default)]
    condition: Option<Spanned<String>>,
    #[serde(default)]
    message: Option<Spanned<String>>,
    #[serde(default)]
    when: Option<Spanned<String>>,
    #[serde(default)]
    why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDowngrade {
    when: Spanned<String>,
    because: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLines {
    weight: RawCandidate,
    min_share: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuantity {
    name: Spanned<String>,
    better: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCc {
    #[serde(default)]
    min: Option<Spanned<String>>,
    #[serde(default)]
    max: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawDocs {
    #[serde(default)]
    what: String,
    #[serde(default)]
    why: String,
    #[serde(default)]
    fix: String,
    #[serde(default)]
    example: String,
}

// ---- validation ------------------------------------------------------------

/// Collects problems against one pack's text.
struct Checker<'a> {
    name: &'a str,
    text: &'a str,
    problems: Vec<PackProblem>,
}

impl Checker<'_> {
    fn push(
        &mut self,
        kind: ProblemKind,
        message: String,
        span: Range<usize>,
        label: &str,
        help: Option<String>,
    ) {
        let severity = if kind == ProblemKind::UnknownMetric {
            MietteSeverity::Warning
        } else {
            MietteSeverity::Error
        };
        let span = clamp(span, self.text.len());
        self.problems.push(PackProblem {
            kind,
            message,
            source: NamedSource::new(self.name, self.text.to_owned()),
            span: (span.start, span.end - span.start).into(),
            label: label.to_owned(),
            also: None,
            help,
            severity,
        });
    }

    /// The span of a string value's content: past its opening quotes, when the
    /// raw text equals the value (no escapes), so expression spans land exactly.
    fn content_span(&self, value: &Spanned<String>) -> Option<usize> {
        let raw = self.text.get(value.span())?;
        for quote in ["\"\"\"", "'''", "\"", "'"] {
            if let Some(inner) = raw.strip_prefix(quote).and_then(|r| r.strip_suffix(quote)) {
                let (skip, inner) = match inner.strip_prefix('\n') {
                    Some(rest) if quote.len() == 3 => (1, rest),
                    _ => (0, inner),
                };
                if inner == value.get_ref() {
                    return Some(value.span().start + quote.len() + skip);
                }
            }
        }
        None
    }

    /// Maps a span inside a string value to a span in the file.
    fn inner_span(&self, value: &Spanned<String>, inner: Range<usize>) -> Range<usize> {
        match self.content_span(value) {
            Some(start) => start + inner.start..start + inner.end.max(inner.start + 1),
            None => value.span(),
        }
    }

    fn expression(
        &mut self,
        value: &Spanned<String>,
        names: &HashMap<String, Type>,
        want: Type,
    ) -> Option<Expr> {
        let parsed = match expr::parse(value.get_ref()) {
            Ok(e) => e,
            Err(e) => {
                let span = self.inner_span(value, e.span);
                self.push(
                    ProblemKind::Expression,
                    e.message.clone(),
                    span,
                    &e.message,
                    None,
                );
                return None;
            }
        };
        match parsed.check(&|n| names.get(n).copied()) {
            Ok(t) if t == want => Some(parsed),
            Ok(t) => {
                let span = value.span();
                self.push(
                    ProblemKind::Type,
                    format!("expected {want}, found {t}"),
                    span,
                    &format!("this is {t}"),
                    None,
                );
                None
            }
            Err(e) => {
                let kind = if e.message.starts_with("unknown name") {
                    ProblemKind::UnknownName
                } else if e.message.starts_with("unknown function") {
                    ProblemKind::UnknownFunction
                } else {
                    ProblemKind::Type
                };
                let help = (kind == ProblemKind::UnknownName).then(|| {
                    let mut known: Vec<&str> = names.keys().map(String::as_str).collect();
                    known.sort_unstable();
                    format!("names here: {}", known.join(", "))
                });
                let span = self.inner_span(value, e.span);
                self.push(kind, e.message.clone(), span, &e.message, help);
                None
            }
        }
    }

    fn template(
        &mut self,
        value: &Spanned<String>,
        names: &HashMap<String, Type>,
    ) -> Option<Template> {
        match Template::parse(value.get_ref()) {
            Ok(t) => {
                let mut ok = true;
                for (name, span) in t.names() {
                    if !names.contains_key(name) {
                        let span = self.inner_span(value, span.clone());
                        let mut known: Vec<&str> = names.keys().map(String::as_str).collect();
                        known.sort_unstable();
                        self.push(
                            ProblemKind::UnknownName,
                            format!("unknown name `{name}` in the message"),
                            span,
                            "not an input, derived value or parameter",
                            Some(format!("names here: {}", known.join(", "))),
                        );
                        ok = false;
                    }
                }
                ok.then_some(t)
            }
            Err((message, span)) => {
                let span = self.inner_span(value, span);
                self.push(
                    ProblemKind::Expression,
                    message.clone(),
                    span,
                    &message,
                    None,
                );
                None
            }
        }
    }

    fn candidates(&mut self, raw: &Spanned<Vec<RawCandidate>>) -> Vec<Candidate> {
        let span = raw.span();
        raw.get_ref()
            .iter()
            .map(|c| {
                let candidate = candidate(c.clone());
                if let Candidate::Metric(name) = &candidate {
                    if !catalog::is_known(name) {
                        let quoted = format!("\"{name}\"");
                        let at = self.text[span.clone()]
                            .find(&quoted)
                            .map_or(span.clone(), |i| {
                                span.start + i..span.start + i + quoted.len()
                            });
                        let help = catalog::closest(name).map(|c| format!("did you mean `{c}`?"));
                        self.push(
                            ProblemKind::UnknownMetric,
                            format!("no metric catalog (gh100, ga100) knows `{name}`"),
                            at,
                            "unknown metric",
                            help,
                        );
                    }
                }
                candidate
            })
            .collect()
    }
}

fn clamp(span: Range<usize>, len: usize) -> Range<usize> {
    let start = span.start.min(len);
    start..span.end.clamp(start, len)
}

fn candidate(raw: RawCandidate) -> Candidate {
    match raw {
        RawCandidate::Metric(name) => Candidate::Metric(name),
        RawCandidate::Label { section, label } => Candidate::Label { section, label },
        RawCandidate::Source {
            source,
            times,
            scale,
            filter,
        } => Candidate::Source(SourceSum {
            column: source,
            times,
            scale: scale.unwrap_or(1.0),
            filter: filter.into_iter().collect(),
        }),
    }
}

fn is_kebab_case(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
        && id.as_bytes()[0].is_ascii_lowercase()
}

/// Loads and validates a pack from its text. `name` names it in diagnostics
/// (its path). Warnings (unknown metric names) do not refuse a pack; they
/// are returned in [`Pack::warnings`].
pub fn load_pack(name: &str, text: &str) -> Result<Pack, PackError> {
    let mut checker = Checker {
        name,
        text,
        problems: Vec::new(),
    };
    let raw: RawPack = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let message = e.message().to_owned();
            checker.push(ProblemKind::Syntax, message.clone(), span, &message, None);
            return Err(PackError {
                path: name.to_owned(),
                problems: checker.problems,
            });
        }
    };
    let extends: Vec<(String, Range<usize>)> = raw
        .pack
        .as_ref()
        .map(|m| {
            m.extends
                .iter()
                .map(|e| (e.get_ref().clone(), e.span()))
                .collect()
        })
        .unwrap_or_default();
    let (pack_name, version, description) = match raw.pack {
        Some(manifest) => {
            if let Some(min) = &manifest.min_ncu_lint {
                if version_less(env!("CARGO_PKG_VERSION"), min.get_ref()) {
                    checker.push(
                        ProblemKind::BadValue,
                        format!(
                            "the pack needs ncu-lint {} or newer; this is {}",
                            min.get_ref(),
                            env!("CARGO_PKG_VERSION")
                        ),
                        min.span(),
                        "minimum version",
                        None,
                    );
                }
            }
            (
                manifest.name.into_inner(),
                manifest.version.unwrap_or_default(),
                manifest.description.unwrap_or_default(),
            )
        }
        None => (
            name.rsplit('/')
                .next()
                .unwrap_or(name)
                .trim_end_matches(".toml")
                .to_owned(),
            String::new(),
            String::new(),
        ),
    };
    let mut seen: HashMap<String, Range<usize>> = HashMap::new();
    let mut rules = Vec::new();
    for raw_rule in raw.rule {
        let id = raw_rule.id.get_ref().clone();
        if !is_kebab_case(&id) {
            checker.push(
                ProblemKind::BadId,
                format!("rule id `{id}` is not kebab-case"),
                raw_rule.id.span(),
                "lower-case words joined by `-`",
                Some("ids look like `shared-bank-conflict`".into()),
            );
        }
        if let Some(first) = seen.get(&id) {
            let first = first.clone();
            checker.push(
                ProblemKind::DuplicateId,
                format!("rule id `{id}` is defined twice"),
                raw_rule.id.span(),
                "defined again here",
                Some("rule ids must be unique within and across packs".into()),
            );
            if let Some(last) = checker.problems.last_mut() {
                last.also = Some((
                    (first.start, first.end - first.start).into(),
                    "first defined here".into(),
                ));
            }
        } else {
            seen.insert(id.clone(), raw_rule.id.span());
        }
        if let Some(rule) = validate_rule(&mut checker, raw_rule, &pack_name) {
            rules.push(rule);
        }
    }
    let mut unique: Vec<PackProblem> = Vec::new();
    for problem in checker.problems {
        if !unique
            .iter()
            .any(|p| p.span == problem.span && p.message == problem.message)
        {
            unique.push(problem);
        }
    }
    let (errors, warnings): (Vec<_>, Vec<_>) = unique.into_iter().partition(PackProblem::is_error);
    if !errors.is_empty() {
        return Err(PackError {
            path: name.to_owned(),
            problems: errors.into_iter().chain(warnings).collect(),
        });
    }
    let overrides = raw
        .overrides
        .into_iter()
        .map(|(id, o)| {
            let span = o.span();
            let o = o.into_inner();
            Override {
                id,
                span,
                severity: o.severity,
                params: o.params,
            }
        })
        .collect();
    let tests = raw
        .test
        .into_iter()
        .map(|t| {
            let span = t.span();
            let t = t.into_inner();
            PackTest {
                name: t.name,
                files: t.files,
                expect: t.expect,
                reject: t.reject,
                span,
            }
        })
        .collect();
    Ok(Pack {
        name: pack_name,
        version,
        description,
        rules,
        warnings,
        extends,
        overrides,
        tests,
        source: NamedSource::new(name, text.to_owned()),
    })
}

fn version_less(have: &str, need: &str) -> bool {
    let parse = |v: &str| -> Vec<u64> {
        v.split('.')
            .map(|p| p.trim().parse().unwrap_or(0))
            .collect()
    };
    parse(have) < parse(need)
}

fn validate_rule(checker: &mut Checker<'_>, raw: RawRule, pack: &str) -> Option<Rule> {
    let errors_before = checker.problems.iter().filter(|p| p.is_error()).count();
    let severity = Severity::parse(raw.severity.get_ref());
    if severity.is_none() {
        checker.push(
            ProblemKind::BadValue,
            format!("unknown severity `{}`", raw.severity.get_ref()),
            raw.severity.span(),
            "expected error, warning or note",
            None,
        );
    }
    let scope = match raw.scope.as_ref().map(|s| s.get_ref().as_str()) {
        None | Some("kernel") => Scope::Kernel,
        Some("line") => Scope::Line,
        Some(other) => {
            let span = raw.scope.as_ref().map_or(0..0, Spanned::span);
            checker.push(
                ProblemKind::BadValue,
                format!("unknown scope `{other}`"),
                span,
                "expected kernel or line",
                None,
            );
            Scope::Kernel
        }
    };
    let params: IndexMap<String, Param> = raw
        .params
        .iter()
        .map(|(k, v)| {
            let param = match v.get_ref() {
                RawParam::Number(n) => Param {
                    default: *n,
                    description: String::new(),
                },
                RawParam::Table {
                    default,
                    description,
                } => Param {
                    default: *default,
                    description: description.clone(),
                },
            };
            (k.clone(), param)
        })
        .collect();
    for (name, value) in &raw.params {
        if !params[name].default.is_finite() {
            checker.push(
                ProblemKind::BadValue,
                format!("parameter `{name}` is not a finite number"),
                value.span(),
                "not finite",
                None,
            );
        }
    }

    let mut raw_variants: Vec<RawVariant> = Vec::new();
    if !raw.inputs.is_empty() || !raw.derived.is_empty() || raw.variant.is_empty() {
        raw_variants.push(RawVariant {
            name: Spanned::new(raw.id.span(), "metrics".to_owned()),
            inputs: raw.inputs,
            optional: raw.optional,
            derived: raw.derived,
            severity: None,
            because: None,
            condition: None,
            message: None,
            when: None,
            why: None,
        });
    }
    raw_variants.extend(raw.variant);

    let mut variants = Vec::new();
    let mut derived_names_everywhere: Option<Vec<String>> = None;
    let mut names_anywhere: HashMap<String, Type> = HashMap::new();
    for rv in raw_variants {
        let mut names: HashMap<String, Type> =
            params.keys().map(|k| (k.clone(), Type::Number)).collect();
        let inputs: IndexMap<String, Vec<Candidate>> = rv
            .inputs
            .iter()
            .map(|(k, v)| (k.clone(), checker.candidates(v)))
            .collect();
        let optional: IndexMap<String, Vec<Candidate>> = rv
            .optional
            .iter()
            .map(|(k, v)| (k.clone(), checker.candidates(v)))
            .collect();
        for name in inputs.keys().chain(optional.keys()) {
            names.insert(name.clone(), Type::Number);
        }
        let mut derived = IndexMap::new();
        for (name, text) in &rv.derived {
            if let Some(e) = checker.expression(text, &names, Type::Number) {
                derived.insert(name.clone(), e);
            }
            names.insert(name.clone(), Type::Number);
        }
        let variant_severity = rv.severity.as_ref().and_then(|s| {
            let parsed = Severity::parse(s.get_ref());
            if parsed.is_none() {
                checker.push(
                    ProblemKind::BadValue,
                    format!("unknown severity `{}`", s.get_ref()),
                    s.span(),
                    "expected error, warning or note",
                    None,
                );
            }
            parsed
        });
        let condition = match &rv.condition {
            Some(c) => checker.expression(c, &names, Type::Bool),
            None => checker.expression(&raw.condition, &names, Type::Bool),
        };
        let message = match &rv.message {
            Some(m) => checker.template(m, &names),
            None => checker.template(&raw.message, &names),
        };
        let when = rv
            .when
            .as_ref()
            .and_then(|w| checker.expression(w, &names, Type::Bool));
        let own: Vec<String> = names.keys().cloned().collect();
        names_anywhere.extend(names.iter().map(|(k, v)| (k.clone(), *v)));
        derived_names_everywhere = Some(match derived_names_everywhere {
            None => own,
            Some(prev) => prev.into_iter().filter(|n| own.contains(n)).collect(),
        });
        variants.push(Variant {
            name: rv.name.into_inner(),
            inputs,
            optional,
            derived,
            severity: variant_severity,
            because: rv.because,
            condition: rv.condition.as_ref().and(condition),
            message: rv.message.as_ref().and(message),
            when,
            why: rv.why,
        });
    }
    // The rule-level condition and message must hold in every variant that
    // does not replace them; checked above per variant, parsed once here.
    let common: HashMap<String, Type> = derived_names_everywhere
        .unwrap_or_default()
        .into_iter()
        .map(|n| (n, Type::Number))
        .collect();
    let details: Vec<Template> = raw
        .details
        .iter()
        .filter_map(|d| checker.template(d, &names_anywhere))
        .collect();
    let condition = expr::parse(raw.condition.get_ref()).ok();
    let message = Template::parse(raw.message.get_ref()).ok();
    let downgrade = raw.downgrade.as_ref().and_then(|d| {
        checker
            .expression(&d.when, &common, Type::Bool)
            .map(|when| Downgrade {
                when,
                because: d.because.clone(),
            })
    });
    let lines = raw.lines.as_ref().and_then(|l| {
        if !params.contains_key(l.min_share.get_ref()) {
            checker.push(
                ProblemKind::UnknownName,
                format!(
                    "`{}` is not a parameter of this rule",
                    l.min_share.get_ref()
                ),
                l.min_share.span(),
                "lines.min_share names a parameter",
                None,
            );
            return None;
        }
        match candidate(l.weight.clone()) {
            Candidate::Source(sum) => Some(LineSpec {
                weight: sum,
                min_share: l.min_share.get_ref().clone(),
            }),
            _ => {
                checker.push(
                    ProblemKind::BadValue,
                    "lines.weight must be a source-page sum (`{ source = \"column\" }`)".into(),
                    l.min_share.span(),
                    "here",
                    None,
                );
                None
            }
        }
    });
    if scope == Scope::Line && lines.is_none() && raw.lines.is_none() {
        checker.push(
            ProblemKind::BadValue,
            "a line-scoped rule needs `lines = { weight = ..., min_share = ... }`".into(),
            raw.id.span(),
            "this rule",
            None,
        );
    }
    let quantity = raw.quantity.as_ref().map(|q| {
        if !common.contains_key(q.name.get_ref()) {
            checker.push(
                ProblemKind::UnknownName,
                format!(
                    "quantity `{}` is not a value every variant has",
                    q.name.get_ref()
                ),
                q.name.span(),
                "unknown name",
                None,
            );
        }
        let higher_is_better = match q.better.get_ref().as_str() {
            "higher" => true,
            "lower" => false,
            other => {
                checker.push(
                    ProblemKind::BadValue,
                    format!("unknown direction `{other}`"),
                    q.better.span(),
                    "expected higher or lower",
                    None,
                );
                false
            }
        };
        Quantity {
            name: q.name.get_ref().clone(),
            higher_is_better,
        }
    });
    let cc = raw.cc.as_ref().map_or((None, None), |cc| {
        let mut bound = |v: &Option<Spanned<String>>| {
            v.as_ref().and_then(|s| {
                let parsed = s.get_ref().trim().parse::<f64>().ok();
                if parsed.is_none() {
                    checker.push(
                        ProblemKind::BadValue,
                        format!("`{}` is not a compute capability", s.get_ref()),
                        s.span(),
                        "expected a version such as \"7.0\"",
                        None,
                    );
                }
                parsed
            })
        };
        (bound(&cc.min), bound(&cc.max))
    });
    let mut forms = Vec::new();
    for form in &raw.forms {
        match form.get_ref().as_str() {
            "details" => forms.push(Form::Details),
            "raw" => forms.push(Form::Raw),
            "source" => forms.push(Form::Source),
            other => checker.push(
                ProblemKind::BadValue,
                format!("unknown form `{other}`"),
                form.span(),
                "expected details, raw or source",
                None,
            ),
        }
    }
    let docs_span = raw.docs.as_ref().map_or(raw.id.span(), Spanned::span);
    let docs = raw.docs.map(Spanned::into_inner).unwrap_or_default();
    let missing: Vec<&str> = [("what", &docs.what), ("why", &docs.why), ("fix", &docs.fix)]
        .into_iter()
        .filter(|(_, text)| text.trim().is_empty())
        .map(|(name, _)| name)
        .collect();
    if !missing.is_empty() {
        checker.push(
            ProblemKind::MissingDocs,
            format!(
                "rule `{}` lacks documentation: {}",
                raw.id.get_ref(),
                missing.join(", ")
            ),
            docs_span,
            "docs need what, why and fix",
            Some(
                "add `docs = { what = \"...\", why = \"...\", fix = \"...\", example = \"...\" }`"
                    .into(),
            ),
        );
    }
    let errors_after = checker.problems.iter().filter(|p| p.is_error()).count();
    if errors_after > errors_before {
        return None;
    }
    Some(Rule {
        id: raw.id.into_inner(),
        title: raw.title.into_inner(),
        pack: pack.to_owned(),
        severity: severity?,
        scope,
        params,
        variants,
        condition: condition?,
        message: message?,
        details,
        downgrade,
        lines,
        quantity,
        sections: raw.sections,
        cc,
        forms,
        docs: Docs {
            what: docs.what,
            why: docs.why,
            fix: docs.fix,
            example: docs.example,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_case_ids() {
        assert!(is_kebab_case("shared-bank-conflict"));
        assert!(is_kebab_case("rule2"));
        assert!(!is_kebab_case("Shared"));
        assert!(!is_kebab_case("a--b"));
        assert!(!is_kebab_case("-a"));
        assert!(!is_kebab_case("a_b"));
    }

    #[test]
    fn versions_compare_numerically() {
        assert!(version_less("0.1.0", "0.10.0"));
        assert!(!version_less("1.2.0", "1.1.9"));
    }
}
