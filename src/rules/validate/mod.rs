//! Validation of a pack's raw schema into [`Pack`]s: every problem is
//! collected with its span before the pack is accepted or refused. One
//! function per part of the pack: the manifest, rule ids, overrides, tests;
//! each rule's sections are checked in [`rule`].

mod library;
mod rule;

use std::collections::HashMap;
use std::ops::Range;

use indexmap::IndexMap;
use miette::{NamedSource, Severity as MietteSeverity};
use toml::Spanned;

use super::error::{PackError, PackProblem, ProblemFile, ProblemKind};
use super::expr::{self, Expr, ExprErrorKind, Type};
use super::pack::{Candidate, Override, Pack, PackTest, Rule, SourceSum};
use super::schema::{RawCandidate, RawFixClause, RawManifest, RawNumbers, RawPack, RawRule};
use super::template::Template;
use super::{catalog, sass_counts};

/// The share of a kernel's time below which a finding is a note, unless
/// the pack's `min_speedup` says otherwise.
const DEFAULT_MIN_SPEEDUP: f64 = 0.01;

/// What a pack gives each of its rules.
struct PackDefaults {
    /// The pack's name.
    name: String,
    /// The worth-it threshold, for rules that estimate their impact.
    min_speedup: f64,
    /// The pack's shared fix numbers (`[numbers.NAME]`).
    numbers: IndexMap<String, RawNumbers>,
    /// The pack's advice fixes add (`[fix_clauses.NAME]`).
    fix_clauses: IndexMap<String, Spanned<RawFixClause>>,
}

/// Loads and validates a pack from its text. `name` names it in diagnostics
/// (its path). Warnings (unknown metric names) do not refuse a pack; they
/// are returned in [`Pack::warnings`].
pub fn load_pack(name: &str, text: &str) -> Result<Pack, PackError> {
    validate(name, text, true)
}

/// Loads a pack built into the binary: as [`load_pack`], without looking
/// its metric names up in the catalogs, which a test does once (building
/// the catalogs' index took a third of a run's start).
pub(crate) fn load_builtin_pack(name: &str, text: &str) -> Result<Pack, PackError> {
    validate(name, text, false)
}

fn validate(name: &str, text: &str, catalog: bool) -> Result<Pack, PackError> {
    let mut validator = Validator {
        name,
        text,
        catalog,
        problems: Vec::new(),
    };
    let raw: RawPack = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            let message = e.message().to_owned();
            let span = e.span().unwrap_or(0..0);
            validator.push(ProblemKind::Syntax, message.clone(), span, &message, None);
            return Err(validator.refusal());
        }
    };
    let extends = raw
        .pack
        .as_ref()
        .map(|m| {
            m.extends
                .iter()
                .map(|e| (e.get_ref().clone(), e.span()))
                .collect()
        })
        .unwrap_or_default();
    let (mut defaults, version, description) = validator.manifest(raw.pack);
    defaults.numbers = raw.numbers;
    defaults.fix_clauses = raw.fix_clauses;
    let rules = validator.rules(raw.rule, &defaults);
    let libraries = raw
        .library
        .into_iter()
        .map(|l| validator.library(l))
        .collect();
    let warnings = validator.outcome()?;
    Ok(Pack {
        name: defaults.name,
        version,
        description,
        rules,
        warnings,
        extends,
        overrides: overrides(raw.overrides),
        tests: tests(raw.test),
        libraries,
        source: NamedSource::new(name, text.to_owned()),
    })
}

/// The overrides of extended packs' rules, as written.
fn overrides(
    raw: indexmap::IndexMap<String, Spanned<super::schema::RawOverride>>,
) -> Vec<Override> {
    raw.into_iter()
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
        .collect()
}

/// The pack's tests; a test lists one export set (`files = ["a", "b"]`)
/// or several (`files = [["a", "b"], ["c"]]`), each checked on its own.
fn tests(raw: Vec<Spanned<super::schema::RawTest>>) -> Vec<PackTest> {
    raw.into_iter()
        .map(|t| {
            let span = t.span();
            let t = t.into_inner();
            PackTest {
                name: t.name,
                exports: t.files.into_sets(),
                expect: t.expect,
                reject: t.reject,
                span,
            }
        })
        .collect()
}

/// Collects problems against one pack's text.
pub(super) struct Validator<'a> {
    name: &'a str,
    text: &'a str,
    /// Whether metric names are looked up in the catalogs.
    catalog: bool,
    problems: Vec<PackProblem>,
}

impl Validator<'_> {
    /// The pack refused with every problem found so far.
    fn refusal(self) -> PackError {
        PackError {
            path: self.name.to_owned(),
            problems: self.problems,
        }
    }

    /// The warnings when no problem is an error; otherwise the refusal,
    /// errors first. A problem found twice at one span is said once.
    fn outcome(self) -> Result<Vec<PackProblem>, PackError> {
        let mut unique: Vec<PackProblem> = Vec::new();
        for problem in self.problems {
            if !unique
                .iter()
                .any(|p| p.span == problem.span && p.message == problem.message)
            {
                unique.push(problem);
            }
        }
        let (errors, warnings): (Vec<_>, Vec<_>) =
            unique.into_iter().partition(PackProblem::is_error);
        if errors.is_empty() {
            return Ok(warnings);
        }
        Err(PackError {
            path: self.name.to_owned(),
            problems: errors.into_iter().chain(warnings).collect(),
        })
    }

    /// What the pack gives its rules, its version and description; a pack
    /// without `[pack]` is named by its file. Refuses a pack that needs a
    /// newer ncu-lint.
    fn manifest(&mut self, manifest: Option<RawManifest>) -> (PackDefaults, String, String) {
        let Some(manifest) = manifest else {
            let stem = self.name.rsplit('/').next().unwrap_or(self.name);
            let defaults = PackDefaults {
                name: stem.trim_end_matches(".toml").to_owned(),
                min_speedup: DEFAULT_MIN_SPEEDUP,
                numbers: IndexMap::new(),
                fix_clauses: IndexMap::new(),
            };
            return (defaults, String::new(), String::new());
        };
        let min_speedup = match &manifest.min_speedup {
            Some(value) if !(0.0..=1.0).contains(value.get_ref()) => {
                self.push(
                    ProblemKind::BadValue,
                    format!(
                        "min_speedup {} is not a share between 0 and 1",
                        value.get_ref()
                    ),
                    value.span(),
                    "a share of the kernel's time",
                    None,
                );
                DEFAULT_MIN_SPEEDUP
            }
            Some(value) => *value.get_ref(),
            None => DEFAULT_MIN_SPEEDUP,
        };
        if let Some(min) = &manifest.min_ncu_lint {
            if version_less(env!("CARGO_PKG_VERSION"), min.get_ref()) {
                self.push(
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
        let defaults = PackDefaults {
            name: manifest.name.into_inner(),
            min_speedup,
            numbers: IndexMap::new(),
            fix_clauses: IndexMap::new(),
        };
        (
            defaults,
            manifest.version.unwrap_or_default(),
            manifest.description.unwrap_or_default(),
        )
    }

    /// The rules that validate; ids must be kebab-case and unique.
    fn rules(&mut self, raw: Vec<RawRule>, pack: &PackDefaults) -> Vec<Rule> {
        let mut seen: HashMap<String, Range<usize>> = HashMap::new();
        let mut rules = Vec::new();
        for raw_rule in raw {
            let id = raw_rule.id.get_ref().clone();
            if !is_kebab_case(&id) {
                self.push(
                    ProblemKind::BadId,
                    format!("rule id `{id}` is not kebab-case"),
                    raw_rule.id.span(),
                    "lower-case words joined by `-`",
                    Some("ids look like `shared-bank-conflict`".into()),
                );
            }
            match seen.get(&id) {
                Some(first) => self.duplicate_id(&id, first.clone(), raw_rule.id.span()),
                None => {
                    seen.insert(id, raw_rule.id.span());
                }
            }
            rules.extend(self.rule(raw_rule, pack));
        }
        rules
    }

    fn duplicate_id(&mut self, id: &str, first: Range<usize>, again: Range<usize>) {
        self.push(
            ProblemKind::DuplicateId,
            format!("rule id `{id}` is defined twice"),
            again,
            "defined again here",
            Some("rule ids must be unique within and across packs".into()),
        );
        if let Some(last) = self.problems.last_mut() {
            last.also = Some((
                (first.start, first.end - first.start).into(),
                "first defined here".into(),
            ));
        }
    }

    /// How many problems so far refuse the pack.
    fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }

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
            file: ProblemFile::Pack,
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
                let kind = match e.kind {
                    ExprErrorKind::UnknownName => ProblemKind::UnknownName,
                    ExprErrorKind::UnknownFunction => ProblemKind::UnknownFunction,
                    ExprErrorKind::Syntax => ProblemKind::Expression,
                    ExprErrorKind::Type => ProblemKind::Type,
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
                match &candidate {
                    Candidate::Metric(name) if self.catalog && !catalog::is_known(name) => {
                        let help = catalog::closest(name).map(|c| format!("did you mean `{c}`?"));
                        self.push(
                            ProblemKind::UnknownMetric,
                            format!("no metric catalog (gh100, ga100) knows `{name}`"),
                            quoted_span(self.text, &span, name),
                            "unknown metric",
                            help,
                        );
                    }
                    Candidate::Sass(name) if !sass_counts::NAMES.contains(&name.as_str()) => {
                        self.push(
                            ProblemKind::UnknownName,
                            format!("no SASS count is named `{name}`"),
                            quoted_span(self.text, &span, name),
                            "unknown SASS count",
                            Some(format!("SASS counts: {}", sass_counts::NAMES.join(", "))),
                        );
                    }
                    _ => {}
                }
                candidate
            })
            .collect()
    }
}

/// Where `"name"` is written within `span` of the pack's text, or the whole
/// span where it is not found as written.
fn quoted_span(text: &str, span: &Range<usize>, name: &str) -> Range<usize> {
    let quoted = format!("\"{name}\"");
    text[span.clone()].find(&quoted).map_or(span.clone(), |i| {
        span.start + i..span.start + i + quoted.len()
    })
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
        RawCandidate::Sass { sass } => Candidate::Sass(sass),
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

fn version_less(have: &str, need: &str) -> bool {
    let parse = |v: &str| -> Vec<u64> {
        v.split('.')
            .map(|p| p.trim().parse().unwrap_or(0))
            .collect()
    };
    parse(have) < parse(need)
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
