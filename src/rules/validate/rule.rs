//! One rule's validation, a function per section of its table: severity,
//! scope, parameters, variants, line placement, quantity, compute
//! capabilities, forms and documentation.

use std::collections::HashMap;

use indexmap::IndexMap;
use toml::Spanned;

use super::PackDefaults;
use super::{Validator, candidate};
use crate::model::Form;
use crate::rules::error::ProblemKind;
use crate::rules::expr::{self, Type};
use crate::rules::pack::{
    Analysis, CEILING_GATES, Candidate, Ceiling, DerivedNumber, Docs, Downgrade,
    FIX_ESTIMATE_NAMES, Fix, FixClause, Impact, LineSpec, MIN_SPEEDUP, Param, Quantity, Rule,
    Scope, Severity, Variant,
};
use crate::rules::schema::{
    RawCandidate, RawCc, RawDocs, RawDowngrade, RawFix, RawFixClause, RawImpact, RawLines,
    RawNumbers, RawParam, RawQuantity, RawRule, RawVariant,
};
use crate::rules::template::Template;

/// A `[numbers]` set's inputs, optional inputs and derived numbers.
type NumberSet<'s> = (
    &'s IndexMap<String, Spanned<Vec<RawCandidate>>>,
    &'s IndexMap<String, Spanned<Vec<RawCandidate>>>,
    &'s IndexMap<String, Spanned<String>>,
);

/// Names and their types, as an expression or template may use them.
type Names = HashMap<String, Type>;

/// The variants of a rule, with the names each one defines.
struct Variants {
    variants: Vec<Variant>,
    /// Names some variant defines: what `details` may show.
    anywhere: Names,
    /// Names every variant defines: what `downgrade` and `quantity` may use.
    everywhere: Names,
}

impl Validator<'_> {
    /// A rule, or `None` (with its problems pushed) when it does not validate.
    pub(super) fn rule(&mut self, mut raw: RawRule, pack: &PackDefaults) -> Option<Rule> {
        let errors_before = self.errors();
        let severity = self.severity(&raw.severity);
        let scope = self.scope(raw.scope.as_ref());
        let mut params = self.params(&raw.params);
        let variants = self.variants(&mut raw, &params);
        let impact: Vec<Impact> = raw
            .impact
            .iter()
            .filter_map(|i| self.impact(i, &variants.anywhere, &params, &pack.numbers))
            .collect();
        let analysis = raw.analysis.as_ref().and_then(|a| self.analysis(a));
        let mut fix_names = variants.anywhere.clone();
        fix_names.extend(params.keys().map(|k| (k.clone(), Type::Number)));
        fix_names.insert("line_share".to_owned(), Type::Number);
        for name in analysis.map_or(&[][..], Analysis::names) {
            fix_names.insert((*name).to_owned(), Type::Number);
        }
        let clauses_named = fix_clauses_named(&raw.fix, &pack.fix_clauses);
        let fix_clauses = self.fix_clauses(&clauses_named, &pack.fix_clauses, &fix_names);
        let fixes: Vec<Fix> = raw
            .fix
            .iter()
            .filter_map(|f| self.fix(f, &fix_names, &pack.numbers, &clauses_named))
            .collect();
        if !impact.is_empty() && !params.contains_key(MIN_SPEEDUP) {
            params.insert(
                MIN_SPEEDUP.to_owned(),
                Param {
                    default: pack.min_speedup,
                    description: "Estimated share of the kernel's time below which a finding is a note, not worth failing a gate.".to_owned(),
                },
            );
        }
        if impact.iter().any(|i| i.ceiling.is_some()) && !params.contains_key(CEILING_GATES) {
            params.insert(
                CEILING_GATES.to_owned(),
                Param {
                    default: 0.0,
                    description: "1 to fail the gate where the most a fix can save (the estimate's ceiling) reaches min_speedup though the estimate does not; 0 shows the ceiling only, as measured fixes support the estimate.".to_owned(),
                },
            );
        }
        let details: Vec<Template> = raw
            .details
            .iter()
            .filter_map(|d| self.template(d, &variants.anywhere))
            .collect();
        let downgrade = raw
            .downgrade
            .as_ref()
            .and_then(|d| self.downgrade(d, &variants.everywhere));
        let lines = raw.lines.as_ref().and_then(|l| self.lines(l, &params));
        if scope == Scope::Line && raw.lines.is_none() {
            self.push(
                ProblemKind::BadValue,
                "a line-scoped rule needs `lines = { weight = ..., min_share = ... }`".into(),
                raw.id.span(),
                "this rule",
                None,
            );
        }
        let quantity = raw
            .quantity
            .as_ref()
            .map(|q| self.quantity(q, &variants.everywhere));
        let cc = raw.cc.as_ref().map_or((None, None), |cc| self.cc(cc));
        let forms = self.forms(&raw.forms);
        let docs_span = raw.docs.as_ref().map_or(raw.id.span(), Spanned::span);
        let docs = self.docs(
            raw.id.get_ref(),
            raw.docs.take().map(Spanned::into_inner).unwrap_or_default(),
            docs_span,
        );
        if self.errors() > errors_before {
            return None;
        }
        Some(Rule {
            id: raw.id.into_inner(),
            title: raw.title.into_inner(),
            pack: pack.name.clone(),
            cause: raw
                .cause
                .map_or_else(|| pack.name.clone(), Spanned::into_inner),
            severity: severity?,
            scope,
            params,
            variants: variants.variants,
            // Checked in every variant that does not replace them; parsed once here.
            condition: expr::parse(raw.condition.get_ref()).ok()?,
            message: Template::parse(raw.message.get_ref()).ok()?,
            details,
            downgrade,
            impact,
            analysis,
            fixes,
            fix_clauses,
            lines,
            quantity,
            sections: raw.sections,
            cc,
            forms,
            docs,
        })
    }

    fn severity(&mut self, raw: &Spanned<String>) -> Option<Severity> {
        let parsed = Severity::parse(raw.get_ref());
        if parsed.is_none() {
            self.push(
                ProblemKind::BadValue,
                format!("unknown severity `{}`", raw.get_ref()),
                raw.span(),
                "expected error, warning or note",
                None,
            );
        }
        parsed
    }

    fn scope(&mut self, raw: Option<&Spanned<String>>) -> Scope {
        match raw.map(|s| (s.get_ref().as_str(), s.span())) {
            None | Some(("kernel", _)) => Scope::Kernel,
            Some(("line", _)) => Scope::Line,
            Some((other, span)) => {
                self.push(
                    ProblemKind::BadValue,
                    format!("unknown scope `{other}`"),
                    span,
                    "expected kernel or line",
                    None,
                );
                Scope::Kernel
            }
        }
    }

    fn params(&mut self, raw: &IndexMap<String, Spanned<RawParam>>) -> IndexMap<String, Param> {
        let mut params = IndexMap::new();
        for (name, value) in raw {
            let param = match value.get_ref() {
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
            if !param.default.is_finite() {
                self.push(
                    ProblemKind::BadValue,
                    format!("parameter `{name}` is not a finite number"),
                    value.span(),
                    "not finite",
                    None,
                );
            }
            params.insert(name.clone(), param);
        }
        params
    }

    /// The rule's variants: the rule's own inputs (when it has any) as a
    /// variant named `metrics`, then its `[[rule.variant]]` tables.
    fn variants(&mut self, raw: &mut RawRule, params: &IndexMap<String, Param>) -> Variants {
        let mut raw_variants: Vec<RawVariant> = Vec::new();
        if !raw.inputs.is_empty() || !raw.derived.is_empty() || raw.variant.is_empty() {
            raw_variants.push(RawVariant {
                name: Spanned::new(raw.id.span(), "metrics".to_owned()),
                inputs: std::mem::take(&mut raw.inputs),
                optional: std::mem::take(&mut raw.optional),
                derived: std::mem::take(&mut raw.derived),
                severity: None,
                because: None,
                condition: None,
                message: None,
                when: None,
                why: None,
            });
        }
        raw_variants.append(&mut raw.variant);
        let mut out = Variants {
            variants: Vec::new(),
            anywhere: Names::new(),
            everywhere: Names::new(),
        };
        let mut common: Option<Vec<String>> = None;
        for rv in raw_variants {
            let (variant, names) = self.variant(rv, raw, params);
            out.anywhere
                .extend(names.iter().map(|(k, v)| (k.clone(), *v)));
            common = Some(match common {
                None => names.into_keys().collect(),
                Some(prev) => prev.into_iter().filter(|n| names.contains_key(n)).collect(),
            });
            out.variants.push(variant);
        }
        out.everywhere = common
            .unwrap_or_default()
            .into_iter()
            .map(|n| (n, Type::Number))
            .collect();
        out
    }

    /// One variant, and the names it defines: parameters, inputs, derived
    /// values. The rule's condition and message are checked against it
    /// unless it has its own.
    fn variant(
        &mut self,
        rv: RawVariant,
        rule: &RawRule,
        params: &IndexMap<String, Param>,
    ) -> (Variant, Names) {
        let mut names: Names = params.keys().map(|k| (k.clone(), Type::Number)).collect();
        let mut candidates =
            |map: &IndexMap<String, Spanned<Vec<_>>>| -> IndexMap<String, Vec<Candidate>> {
                map.iter()
                    .map(|(k, v)| (k.clone(), self.candidates(v)))
                    .collect()
            };
        let inputs = candidates(&rv.inputs);
        let optional = candidates(&rv.optional);
        for name in inputs.keys().chain(optional.keys()) {
            names.insert(name.clone(), Type::Number);
        }
        let mut derived = IndexMap::new();
        for (name, text) in &rv.derived {
            if let Some(e) = self.expression(text, &names, Type::Number) {
                derived.insert(name.clone(), e);
            }
            names.insert(name.clone(), Type::Number);
        }
        let severity = rv.severity.as_ref().and_then(|s| self.severity(s));
        let condition = self.expression(
            rv.condition.as_ref().unwrap_or(&rule.condition),
            &names,
            Type::Bool,
        );
        let message = self.template(rv.message.as_ref().unwrap_or(&rule.message), &names);
        let when = rv
            .when
            .as_ref()
            .and_then(|w| self.expression(w, &names, Type::Bool));
        let variant = Variant {
            name: rv.name.into_inner(),
            inputs,
            optional,
            derived,
            severity,
            because: rv.because,
            condition: rv.condition.as_ref().and(condition),
            message: rv.message.as_ref().and(message),
            when,
            why: rv.why,
        };
        (variant, names)
    }

    /// One way to estimate a finding's worth: its inputs, and expressions
    /// over them, the finding's values and the parameters; the inputs,
    /// optional inputs and derived numbers of the `[numbers]` sets it names
    /// come before its own.
    fn impact(
        &mut self,
        raw: &RawImpact,
        values: &Names,
        params: &IndexMap<String, Param>,
        shared: &IndexMap<String, RawNumbers>,
    ) -> Option<Impact> {
        let mut names = values.clone();
        names.extend(params.keys().map(|k| (k.clone(), Type::Number)));
        let mut sets = self.number_sets(&raw.numbers, shared)?;
        sets.push((&raw.inputs, &raw.optional, &raw.derived));
        let inputs: IndexMap<String, Vec<Candidate>> = sets
            .iter()
            .flat_map(|(inputs, _, _)| inputs.iter())
            .map(|(k, v)| (k.clone(), self.candidates(v)))
            .collect();
        let optional: IndexMap<String, Vec<Candidate>> = sets
            .iter()
            .flat_map(|(_, optional, _)| optional.iter())
            .map(|(k, v)| (k.clone(), self.candidates(v)))
            .collect();
        names.extend(
            inputs
                .keys()
                .chain(optional.keys())
                .map(|k| (k.clone(), Type::Number)),
        );
        let derived = self.derived_numbers(
            sets.iter().flat_map(|(_, _, derived)| derived.iter()),
            &mut names,
        )?;
        let speedup = match &raw.speedup {
            Some(s) => Some(self.expression(s, &names, Type::Number)?),
            None => None,
        };
        let bytes = match &raw.bytes {
            Some(b) => Some(self.expression(b, &names, Type::Number)?),
            None => None,
        };
        let ceiling = match &raw.ceiling {
            Some(c) => Some(Ceiling {
                speedup: self.expression(&c.speedup, &names, Type::Number)?,
                speedup_text: c.speedup.get_ref().clone(),
                when: c.when.as_str().into(),
            }),
            None => None,
        };
        Some(Impact {
            name: raw.name.get_ref().clone(),
            inputs,
            optional,
            derived,
            speedup,
            speedup_text: raw.speedup.as_ref().map(|s| s.get_ref().clone()),
            bytes,
            ceiling,
            why: raw.why.clone(),
            numbers_why: raw
                .numbers
                .iter()
                .filter_map(|set| {
                    let why = shared.get(set.get_ref())?.why.clone()?;
                    Some((set.get_ref().clone(), why))
                })
                .collect(),
            sections: raw.sections.clone(),
        })
    }

    fn analysis(&mut self, raw: &Spanned<String>) -> Option<Analysis> {
        let parsed = Analysis::parse(raw.get_ref());
        if parsed.is_none() {
            self.push(
                ProblemKind::BadValue,
                format!("unknown analysis `{}`", raw.get_ref()),
                raw.span(),
                "expected global-load, global-store, global or shared",
                None,
            );
        }
        parsed
    }

    /// A fix: its condition over the finding's values, and its text over
    /// them and the numbers it derives (from its inputs and the estimate).
    /// A fix, its inputs and derived numbers after those of the `[numbers]`
    /// sets it names, each checked against the names before it.
    fn fix(
        &mut self,
        raw: &RawFix,
        names: &Names,
        shared: &IndexMap<String, RawNumbers>,
        clauses: &[&str],
    ) -> Option<Fix> {
        let when = match &raw.when {
            Some(w) => Some(self.expression(w, names, Type::Bool)?),
            None => None,
        };
        let clauses = self.clause_indexes(&raw.clauses, clauses)?;
        let no_optional = IndexMap::new();
        let mut sets = self.number_sets(&raw.numbers, shared)?;
        sets.push((&raw.inputs, &no_optional, &raw.derived));
        // A fix reads every input where the export has it, so a set's
        // optional inputs are inputs like the rest.
        let inputs: IndexMap<String, Vec<Candidate>> = sets
            .iter()
            .flat_map(|(inputs, optional, _)| inputs.iter().chain(optional.iter()))
            .map(|(k, v)| (k.clone(), self.candidates(v)))
            .collect();
        let mut own = names.clone();
        own.extend(inputs.keys().map(|k| (k.clone(), Type::Number)));
        for estimate in FIX_ESTIMATE_NAMES {
            own.insert(estimate.to_owned(), Type::Number);
        }
        let derived = self.derived_numbers(
            sets.iter().flat_map(|(_, _, derived)| derived.iter()),
            &mut own,
        )?;
        let text = self.template(&raw.text, &own)?;
        let saves_at_most = match &raw.saves_at_most {
            Some(most) => Some(self.expression(most, &own, Type::Number)?),
            None => None,
        };
        Some(Fix {
            when,
            text,
            inputs,
            derived,
            saves_at_most,
            saves_at_most_text: raw.saves_at_most.as_ref().map(|m| m.get_ref().clone()),
            why: raw.why.clone(),
            when_text: raw.when.as_ref().map(|w| w.get_ref().clone()),
            clauses,
        })
    }

    /// The pack's fix clauses this rule's fixes name, in `named`'s order:
    /// each one's condition and text checked against the names its fixes
    /// read (not a fix's own numbers: a clause serves several).
    fn fix_clauses(
        &mut self,
        named: &[&str],
        clauses: &IndexMap<String, Spanned<RawFixClause>>,
        names: &Names,
    ) -> Vec<FixClause> {
        named
            .iter()
            .filter_map(|&name| {
                let clause = clauses.get(name)?.get_ref();
                let when = self.expression(&clause.when, names, Type::Bool);
                let text = self.template(&clause.text, names);
                Some(FixClause {
                    name: name.to_owned(),
                    when: when?,
                    when_text: clause.when.get_ref().clone(),
                    text: text?,
                    written: clause.text.get_ref().clone(),
                    why: clause.why.clone(),
                })
            })
            .collect()
    }

    /// Where each clause a fix names sits among the rule's fix clauses
    /// (`named`); `None`, with a problem at the name, where the pack has no
    /// such clause.
    fn clause_indexes(&mut self, wanted: &[Spanned<String>], named: &[&str]) -> Option<Vec<usize>> {
        let mut indexes = Vec::with_capacity(wanted.len());
        for name in wanted {
            let Some(index) = named.iter().position(|n| n == name.get_ref()) else {
                self.push(
                    ProblemKind::UnknownName,
                    format!("the pack has no `[fix_clauses.{}]`", name.get_ref()),
                    name.span(),
                    "no such fix clause",
                    None,
                );
                return None;
            };
            indexes.push(index);
        }
        Some(indexes)
    }

    /// The `[numbers]` sets a fix or an impact names, in order: each one's
    /// inputs, optional inputs and derived numbers.
    fn number_sets<'s>(
        &mut self,
        named: &[Spanned<String>],
        shared: &'s IndexMap<String, RawNumbers>,
    ) -> Option<Vec<NumberSet<'s>>> {
        let mut sets = Vec::with_capacity(named.len() + 1);
        for set in named {
            let Some(numbers) = shared.get(set.get_ref()) else {
                let known: Vec<&str> = shared.keys().map(String::as_str).collect();
                self.push(
                    ProblemKind::UnknownName,
                    format!("the pack has no `[numbers.{}]`", set.get_ref()),
                    set.span(),
                    "no such set of numbers",
                    Some(if known.is_empty() {
                        "this pack defines no `[numbers]`".into()
                    } else {
                        format!("it has: {}", known.join(", "))
                    }),
                );
                return None;
            };
            sets.push((&numbers.inputs, &numbers.optional, &numbers.derived));
        }
        Some(sets)
    }

    /// Derived numbers (an impact's or a fix's), each checked against the
    /// names before it and then named itself.
    fn derived_numbers<'r>(
        &mut self,
        raw: impl IntoIterator<Item = (&'r String, &'r Spanned<String>)>,
        names: &mut Names,
    ) -> Option<Vec<DerivedNumber>> {
        let mut derived = Vec::new();
        for (name, text) in raw {
            derived.push(DerivedNumber {
                name: name.clone(),
                expr: self.expression(text, names, Type::Number)?,
                text: text.get_ref().clone(),
            });
            names.insert(name.clone(), Type::Number);
        }
        Some(derived)
    }

    fn downgrade(&mut self, raw: &RawDowngrade, names: &Names) -> Option<Downgrade> {
        self.expression(&raw.when, names, Type::Bool)
            .map(|when| Downgrade {
                when,
                because: raw.because.clone(),
            })
    }

    fn lines(&mut self, raw: &RawLines, params: &IndexMap<String, Param>) -> Option<LineSpec> {
        if !params.contains_key(raw.min_share.get_ref()) {
            self.push(
                ProblemKind::UnknownName,
                format!(
                    "`{}` is not a parameter of this rule",
                    raw.min_share.get_ref()
                ),
                raw.min_share.span(),
                "lines.min_share names a parameter",
                None,
            );
            return None;
        }
        match candidate(raw.weight.clone()) {
            Candidate::Source(sum) => Some(LineSpec {
                weight: sum,
                min_share: raw.min_share.get_ref().clone(),
            }),
            _ => {
                self.push(
                    ProblemKind::BadValue,
                    "lines.weight must be a source-page sum (`{ source = \"column\" }`)".into(),
                    raw.min_share.span(),
                    "here",
                    None,
                );
                None
            }
        }
    }

    fn quantity(&mut self, raw: &RawQuantity, names: &Names) -> Quantity {
        if !names.contains_key(raw.name.get_ref()) {
            self.push(
                ProblemKind::UnknownName,
                format!(
                    "quantity `{}` is not a value every variant has",
                    raw.name.get_ref()
                ),
                raw.name.span(),
                "unknown name",
                None,
            );
        }
        let higher_is_better = match raw.better.get_ref().as_str() {
            "higher" => true,
            "lower" => false,
            other => {
                self.push(
                    ProblemKind::BadValue,
                    format!("unknown direction `{other}`"),
                    raw.better.span(),
                    "expected higher or lower",
                    None,
                );
                false
            }
        };
        Quantity {
            name: raw.name.get_ref().clone(),
            higher_is_better,
        }
    }

    /// The compute-capability bounds (min, max).
    fn cc(&mut self, raw: &RawCc) -> (Option<f64>, Option<f64>) {
        let mut bound = |v: &Option<Spanned<String>>| {
            let s = v.as_ref()?;
            let parsed = s.get_ref().trim().parse::<f64>().ok();
            if parsed.is_none() {
                self.push(
                    ProblemKind::BadValue,
                    format!("`{}` is not a compute capability", s.get_ref()),
                    s.span(),
                    "expected a version such as \"7.0\"",
                    None,
                );
            }
            parsed
        };
        (bound(&raw.min), bound(&raw.max))
    }

    fn forms(&mut self, raw: &[Spanned<String>]) -> Vec<Form> {
        let mut forms = Vec::new();
        for form in raw {
            match form.get_ref().as_str() {
                "details" => forms.push(Form::Details),
                "raw" => forms.push(Form::Raw),
                "source" => forms.push(Form::Source),
                other => self.push(
                    ProblemKind::BadValue,
                    format!("unknown form `{other}`"),
                    form.span(),
                    "expected details, raw or source",
                    None,
                ),
            }
        }
        forms
    }

    /// The documentation; what, why and fix are required.
    fn docs(&mut self, id: &str, docs: RawDocs, span: std::ops::Range<usize>) -> Docs {
        let missing: Vec<&str> = [("what", &docs.what), ("why", &docs.why), ("fix", &docs.fix)]
            .into_iter()
            .filter(|(_, text)| text.trim().is_empty())
            .map(|(name, _)| name)
            .collect();
        if !missing.is_empty() {
            self.push(
                ProblemKind::MissingDocs,
                format!("rule `{id}` lacks documentation: {}", missing.join(", ")),
                span,
                "docs need what, why and fix",
                Some(
                    "add `docs = { what = \"...\", why = \"...\", fix = \"...\", example = \"...\" }`"
                        .into(),
                ),
            );
        }
        Docs {
            what: docs.what,
            why: docs.why,
            fix: docs.fix,
            example: docs.example,
            model: docs.model,
        }
    }
}

/// The pack's fix clauses a rule's fixes name, each once, in the order
/// first named; names the pack lacks are left for [`Validator::fix`] to
/// report.
fn fix_clauses_named<'p>(
    fixes: &[RawFix],
    clauses: &'p IndexMap<String, Spanned<RawFixClause>>,
) -> Vec<&'p str> {
    let mut named: Vec<&str> = Vec::new();
    for name in fixes.iter().flat_map(|f| &f.clauses) {
        if let Some((key, _)) = clauses.get_key_value(name.get_ref()) {
            if !named.contains(&key.as_str()) {
                named.push(key);
            }
        }
    }
    named
}
