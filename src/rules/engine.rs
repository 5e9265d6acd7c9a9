//! Evaluating rules over an imported report.
//!
//! For each kernel and rule, the first variant whose required inputs are all
//! present is evaluated. When no variant has its inputs, the rule is
//! *skipped* for that kernel: missing data is a third outcome, reported with
//! what was missing and which export would provide it, never a pass.

use std::collections::HashSet;
use std::sync::Arc;

use indexmap::IndexMap;

use super::expr::Outcome;
use super::finding::{
    CallSite, CheckResult, Estimate, Finding, Instruction, Location, Measure, Names, Quantity, Skip,
};
use super::pack::{Candidate, Rule, Scope, Severity, SourceSum, Variant};
use super::{constant_reloads, diagnose, impact, narrow_conversions, next_run, sass_counts};
use crate::ingest::{RowUse, metric_name};
use crate::model::{Form, Kernel, Report, SourceRow, SourceView, address_number, label_key};
use crate::value::Value;

/// A rule with the parameter values and severity in effect.
#[derive(Debug, Clone)]
pub struct ActiveRule {
    /// The rule.
    pub rule: Rule,
    /// Severity in effect (the rule's default unless overridden).
    pub severity: Severity,
    /// Parameter values in effect.
    pub params: IndexMap<String, f64>,
}

impl ActiveRule {
    /// The rule with its defaults.
    pub fn new(rule: Rule) -> Self {
        let params = rule
            .params
            .iter()
            .map(|(k, p)| (k.clone(), p.default))
            .collect();
        ActiveRule {
            severity: rule.severity,
            rule,
            params,
        }
    }
}

/// Runs `rules` over every kernel of `report`.
pub fn check(report: &Report, rules: &[ActiveRule]) -> CheckResult {
    let mut checker = Checker::new(rules, report.files.iter().map(|f| f.form).collect());
    for kernel in &report.kernels {
        checker.see_columns(kernel);
    }
    for (index, kernel) in report.kernels.iter().enumerate() {
        checker.kernel(kernel, index);
    }
    checker.finish()
}

/// Evaluates rules one kernel at a time, so that a streamed import can drop
/// each kernel once it is checked.
pub struct Checker<'r> {
    rules: &'r [ActiveRule],
    forms: HashSet<Form>,
    /// Source-page columns present in any block: a block without one of
    /// these has no such activity (ncu drops all-zero columns), which reads
    /// as zero, not as missing.
    columns: HashSet<String>,
    skips: IndexMap<String, Skip>,
    names: Names,
    /// What each rule measures, by rule index, shared by its measures.
    quantities: Vec<Option<Arc<Quantity>>>,
    result: CheckResult,
}

impl<'r> Checker<'r> {
    /// A checker of `rules` for a report whose exports have `forms`.
    pub fn new(rules: &'r [ActiveRule], forms: HashSet<Form>) -> Self {
        let names = Names::default();
        let quantities = rules
            .iter()
            .map(|active| {
                active.rule.quantity.as_ref().map(|q| {
                    Arc::new(Quantity {
                        rule: names.get(&active.rule.id),
                        name: names.get(&q.name),
                        higher_is_better: q.higher_is_better,
                    })
                })
            })
            .collect();
        Checker {
            rules,
            forms,
            columns: HashSet::new(),
            skips: IndexMap::new(),
            names,
            quantities,
            result: CheckResult::default(),
        }
    }

    /// Notes the source-page columns `kernel` has.
    pub fn see_columns(&mut self, kernel: &Kernel) {
        if let Some(source) = &kernel.source {
            for column in &source.columns {
                if !self.columns.contains(column) {
                    self.columns.insert(column.clone());
                }
            }
        }
    }

    /// Notes source-page columns that some block of the report has, before
    /// the blocks are read (from the page's outline).
    pub fn see_column_names<'a>(&mut self, columns: impl Iterator<Item = &'a String>) {
        for column in columns {
            if !self.columns.contains(column) {
                self.columns.insert(column.clone());
            }
        }
    }

    /// Notes that an export of `form` is present.
    pub fn see_form(&mut self, form: Form) {
        self.forms.insert(form);
    }

    /// Evaluates every rule on one kernel, the `index`-th of the report.
    pub fn kernel(&mut self, kernel: &Kernel, index: usize) {
        self.result.kernels += 1;
        let context = Context {
            columns: &self.columns,
            names: &self.names,
        };
        let kernel_ns = impact::kernel_ns(kernel, &context);
        if self.result.kernel_ns.len() <= index {
            self.result.kernel_ns.resize(index + 1, None);
        }
        self.result.kernel_ns[index] = kernel_ns;
        if self.result.sm_clock_hz.len() <= index {
            self.result.sm_clock_hz.resize(index + 1, None);
        }
        self.result.sm_clock_hz[index] = kernel.sm_clock_hz();
        if self.result.utilization.len() <= index {
            self.result.utilization.resize(index + 1, None);
        }
        self.result.utilization[index] = kernel.utilization();
        for (active, quantity) in self.rules.iter().zip(&self.quantities) {
            let rule = &active.rule;
            if !rule.forms.is_empty() && !rule.forms.iter().any(|f| self.forms.contains(f)) {
                let names: Vec<&str> = rule.forms.iter().map(|f| f.name()).collect();
                skip(
                    &mut self.skips,
                    rule,
                    vec![format!("an export of form {}", names.join(" or "))],
                );
                continue;
            }
            if !cc_applies(rule, kernel) {
                continue;
            }
            match evaluate(kernel, index, active, kernel_ns, &context) {
                Evaluation::Evaluated(found, measured) => {
                    // Kept until the ranking, thousands of them: no room
                    // left over from their making.
                    self.result.findings.extend(found.into_iter().map(|mut f| {
                        f.values.shrink_to_fit();
                        f
                    }));
                    if let (Some(quantity), Some(value)) = (quantity, measured) {
                        self.result.measures.push(Measure {
                            kernel: index,
                            quantity: quantity.clone(),
                            value,
                        });
                    }
                }
                Evaluation::Missing(missing) => skip(&mut self.skips, rule, missing),
            }
        }
    }

    /// The outcome.
    pub fn finish(mut self) -> CheckResult {
        // In rule order, and measures in kernel order, whatever order the
        // kernels were checked in.
        let order = |id: &str| self.rules.iter().position(|r| r.rule.id == id);
        let mut skipped: Vec<Skip> = self.skips.into_values().collect();
        skipped.sort_by_key(|s| order(&s.rule));
        self.result.skipped = skipped;
        self.result.measures.sort_by_key(|m| m.kernel);
        self.result
    }
}

/// The metric keys, source columns and source rows `rules` read (their
/// variants', impacts' and fixes' inputs), for an import that keeps
/// nothing else.
pub fn needed(rules: &[ActiveRule]) -> crate::ingest::Needed {
    let mut keys = rustc_hash::FxHashSet::default();
    let mut source_columns = rustc_hash::FxHashSet::default();
    let mut source_rows = Vec::new();
    let time = impact::kernel_time_candidates();
    let candidates = rules
        .iter()
        .flat_map(|r| r.rule.variants.iter())
        .flat_map(|v| v.inputs.values().chain(v.optional.values()))
        .chain(
            rules
                .iter()
                .flat_map(|r| r.rule.impact.iter())
                .flat_map(|i| i.inputs.values().chain(i.optional.values())),
        )
        .chain(
            rules
                .iter()
                .flat_map(|r| r.rule.fixes.iter())
                .flat_map(|f| f.inputs.values()),
        )
        .flatten()
        .chain(time.iter());
    for candidate in candidates {
        match candidate {
            Candidate::Metric(name) => {
                keys.insert(name.clone());
            }
            Candidate::Label { section, label } => {
                if let Some(name) = metric_name(section, "", label) {
                    keys.insert(name.to_owned());
                }
                keys.insert(label_key(section, "", label));
            }
            Candidate::Source(sum) => {
                source_columns.extend(sum_columns(sum));
                source_rows.push(row_use(sum));
            }
            Candidate::Sass(_) => {
                source_columns.extend(sass_counts::COLUMNS.iter().map(|c| (*c).to_owned()));
                source_rows.push(RowUse {
                    column: "Instructions Executed".to_owned(),
                    filter: vec![("Address Space".to_owned(), "Global".to_owned())],
                    opcodes: Vec::new(),
                });
                // A walk's passes read the instructions that set a loop's
                // address register; its conversions, the I2F rows; its
                // reloads, the LDC rows.
                source_rows.push(RowUse {
                    column: "Instructions Executed".to_owned(),
                    filter: Vec::new(),
                    opcodes: next_run::ADDRESS_OPCODES
                        .iter()
                        .chain(&[
                            narrow_conversions::OPCODE_FAMILY,
                            constant_reloads::OPCODE_FAMILY,
                        ])
                        .map(|o| (*o).to_owned())
                        .collect(),
                });
            }
        }
    }
    if rules.iter().any(|r| r.rule.analysis.is_some()) {
        keys.extend(diagnose::WIDTH_METRICS.iter().map(|(m, _)| (*m).to_owned()));
        source_columns.extend(diagnose::SOURCE_COLUMNS.iter().map(|c| (*c).to_owned()));
        source_rows.extend(diagnose::ROW_USES.iter().map(|(column, space)| RowUse {
            column: (*column).to_owned(),
            filter: vec![("Address Space".to_owned(), (*space).to_owned())],
            opcodes: Vec::new(),
        }));
        source_rows.push(RowUse {
            column: "Instructions Executed".to_owned(),
            filter: Vec::new(),
            opcodes: next_run::ADDRESS_OPCODES
                .iter()
                .chain(&diagnose::CONVERSION_OPCODES)
                .chain(&diagnose::RELOAD_OPCODES)
                .map(|o| (*o).to_owned())
                .collect(),
        });
    }
    // Line placement reads its own source columns, which no input may name.
    for spec in rules.iter().filter_map(|r| r.rule.lines.as_ref()) {
        source_columns.extend(sum_columns(&spec.weight));
        source_rows.push(row_use(&spec.weight));
    }
    keys.insert(crate::model::SM_CLOCK.to_owned());
    keys.extend(crate::model::UTILIZATION_METRICS.map(str::to_owned));
    crate::ingest::Needed {
        keys,
        source_columns,
        source_rows: Some(source_rows),
        skip_ncu_rules: false,
    }
}

/// The instruction rows a sum reads: those its filter matches and whose
/// column is not zero.
fn row_use(sum: &SourceSum) -> RowUse {
    RowUse {
        column: sum.column.clone(),
        filter: sum.filter.clone(),
        opcodes: Vec::new(),
    }
}

/// The source-page columns a sum reads: its column, its factor, its filter.
fn sum_columns(sum: &SourceSum) -> impl Iterator<Item = String> + '_ {
    std::iter::once(&sum.column)
        .chain(&sum.times)
        .chain(sum.filter.iter().map(|(column, _)| column))
        .cloned()
}

fn skip(skips: &mut IndexMap<String, Skip>, rule: &Rule, missing: Vec<String>) {
    let entry = skips.entry(rule.id.clone()).or_insert_with(|| Skip {
        rule: rule.id.clone(),
        kernels: 0,
        missing: Vec::new(),
        hint: hint(rule),
    });
    entry.kernels += 1;
    for m in missing {
        if !entry.missing.contains(&m) {
            entry.missing.push(m);
        }
    }
}

/// Which exports would provide a rule's inputs.
fn hint(rule: &Rule) -> String {
    let candidates = || {
        rule.variants
            .iter()
            .flat_map(|v| v.inputs.values().flatten())
    };
    let mut ways = Vec::new();
    if candidates().any(|c| matches!(c, Candidate::Metric(_))) {
        ways.push("the raw page: `ncu -i report.ncu-rep --csv --page raw`");
    }
    if candidates().any(|c| matches!(c, Candidate::Label { .. })) {
        ways.push(
            "the details page with all sections: `ncu -i report.ncu-rep --csv --print-details all`",
        );
    }
    if candidates().any(|c| matches!(c, Candidate::Source(_) | Candidate::Sass(_))) {
        ways.push(
            "the source page: `ncu -i report.ncu-rep --csv --page source --print-source cuda,sass`",
        );
    }
    format!(
        "export {} (from a report profiled with `--set full`)",
        ways.join(", or ")
    )
}

fn cc_applies(rule: &Rule, kernel: &Kernel) -> bool {
    let Some(cc) = kernel
        .launch
        .cc
        .as_deref()
        .and_then(|c| c.trim().parse::<f64>().ok())
    else {
        return true;
    };
    rule.cc.0.is_none_or(|min| cc >= min) && rule.cc.1.is_none_or(|max| cc <= max)
}

/// What evaluation needs beyond the kernel.
pub(super) struct Context<'a> {
    /// Source-page columns present in any block of the report: a block
    /// without one of these has no such activity (ncu drops all-zero
    /// columns), which reads as zero, not as missing.
    columns: &'a HashSet<String>,
    /// The names findings carry.
    pub(super) names: &'a Names,
}

/// A rule's values for one kernel, by name, while it is evaluated.
type Bindings<'a> = IndexMap<&'a str, Option<f64>, rustc_hash::FxBuildHasher>;

enum Evaluation {
    /// Findings (possibly none) and the rule's deciding quantity.
    Evaluated(Vec<Finding>, Option<f64>),
    Missing(Vec<String>),
}

fn evaluate(
    kernel: &Kernel,
    index: usize,
    active: &ActiveRule,
    kernel_ns: Option<f64>,
    context: &Context<'_>,
) -> Evaluation {
    let rule = &active.rule;
    let mut first_missing = None;
    for variant in &rule.variants {
        // Names borrow from the rule: evaluating a kernel allocates nothing
        // unless a finding is made.
        let mut values: Bindings<'_> = Bindings::with_capacity_and_hasher(
            variant.inputs.len()
                + variant.optional.len()
                + active.params.len()
                + variant.derived.len(),
            rustc_hash::FxBuildHasher,
        );
        let mut missing = Vec::new();
        for (name, candidates) in &variant.inputs {
            match resolve(kernel, candidates, context) {
                Some(v) => {
                    values.insert(name, Some(v));
                }
                None => missing.push(describe(candidates)),
            }
        }
        if !missing.is_empty() {
            first_missing.get_or_insert(missing);
            continue;
        }
        for (name, candidates) in &variant.optional {
            values.insert(name, resolve(kernel, candidates, context));
        }
        for (name, value) in &active.params {
            values.insert(name, Some(*value));
        }
        for (name, expr) in &variant.derived {
            let value = expr.eval(&|n| values.get(n).copied().flatten()).as_number();
            values.insert(name, value);
        }
        if let Some(when) = &variant.when {
            if when.eval(&|n| values.get(n).copied().flatten()) != Outcome::Bool(true) {
                continue;
            }
        }
        let condition = variant.condition.as_ref().unwrap_or(&rule.condition);
        let quantity = rule
            .quantity
            .as_ref()
            .and_then(|q| values.get(q.name.as_str()).copied().flatten());
        if condition.eval(&|n| values.get(n).copied().flatten()) != Outcome::Bool(true) {
            return Evaluation::Evaluated(Vec::new(), quantity);
        }
        // Room for the values a diagnosis adds, so the map is not regrown.
        let mut owned = crate::rules::finding::Values::with_capacity(values.len() + 8);
        owned.extend(values.iter().map(|(k, v)| (context.names.get(k), *v)));
        let estimate = impact::estimate(kernel, active, &owned, kernel_ns, context);
        let found = findings(kernel, index, active, variant, owned, estimate, context);
        return Evaluation::Evaluated(found, quantity);
    }
    Evaluation::Missing(first_missing.unwrap_or_default())
}

fn findings(
    kernel: &Kernel,
    index: usize,
    active: &ActiveRule,
    variant: &Variant,
    values: crate::rules::finding::Values,
    estimate: Estimate,
    context: &Context<'_>,
) -> Vec<Finding> {
    let names = context.names;
    let rule = &active.rule;
    let (severity, message) = severity_and_message(active, variant, &values);
    let mut base = Finding {
        rule: rule.id.clone(),
        cause: names.get(&rule.cause),
        library: None,
        library_note: false,
        severity,
        kernel: index,
        kernel_id: kernel.id,
        kernel_name: kernel.name.clone(),
        location: None,
        instruction: None,
        message,
        values,
        variant: variant.name.clone(),
        origin: kernel.origin,
        estimate,
        fix: None,
    };
    impact::apply_threshold(&mut base, active);
    let placed = match (rule.scope, &rule.lines, &kernel.source) {
        (Scope::Line, Some(_), Some(_)) => place_on_lines(kernel, active, &base, names),
        _ => Vec::new(),
    };
    let mut found = if placed.is_empty() {
        vec![base]
    } else {
        placed
    };
    for finding in &mut found {
        diagnose::apply(kernel, active, finding, context);
    }
    found
}

/// The finding's severity (the variant's at most, lowered by the rule's
/// downgrade) and its message with details, the variant's reason and the
/// downgrade's.
fn severity_and_message(
    active: &ActiveRule,
    variant: &Variant,
    values: &crate::rules::finding::Values,
) -> (Severity, String) {
    let rule = &active.rule;
    let lookup = |n: &str| values.get(n).copied().flatten();
    let mut severity = variant
        .severity
        .map_or(active.severity, |s| s.min(active.severity));
    let mut message = variant
        .message
        .as_ref()
        .unwrap_or(&rule.message)
        .render(&lookup);
    for detail in &rule.details {
        if let Some(text) = detail.render_if_known(&lookup) {
            message.push_str("; ");
            message.push_str(&text);
        }
    }
    if let Some(because) = &variant.because {
        message.push_str(&format!(" ({because})"));
    }
    if let Some(downgrade) = &rule.downgrade {
        if downgrade.when.eval(&lookup) == Outcome::Bool(true) {
            severity = severity.min(Severity::Note);
            message.push_str(&format!(" ({})", downgrade.because));
        }
    }
    (severity, message)
}

/// A line-scoped finding spread over the CUDA lines that hold at least the
/// rule's minimum share of its weight, largest share first; empty when the
/// source view has no weight or no file to point at.
fn place_on_lines(
    kernel: &Kernel,
    active: &ActiveRule,
    base: &Finding,
    names: &Names,
) -> Vec<Finding> {
    let (Some(spec), Some(view)) = (&active.rule.lines, &kernel.source) else {
        return Vec::new();
    };
    let min_share = active.params.get(&spec.min_share).copied().unwrap_or(0.05);
    let lines = line_weights(view, &spec.weight);
    let total: f64 = lines.iter().map(|l| l.weight).sum();
    if total <= 0.0 || view.files.is_empty() {
        return Vec::new();
    }
    let base_address = first_address(view);
    let mut placed: Vec<(f64, Finding)> = lines
        .into_iter()
        .filter(|l| l.weight / total >= min_share)
        .filter_map(|l| Some((view.files.get(l.file as usize)?, l)))
        .map(|(file, l)| {
            let share = l.weight / total;
            let mut finding = base.clone();
            let called_from = l.worst.and_then(|row| {
                let (file, line) = row.call_site?;
                Some(CallSite {
                    file: view.files.get(file as usize)?.clone(),
                    line,
                })
            });
            finding.location = Some(Box::new(Location {
                file: file.clone(),
                line: l.line,
                called_from,
                inlined_from: None,
            }));
            finding.instruction = l.worst.map(|row| {
                Box::new(Instruction {
                    address: row.address.clone().unwrap_or_default(),
                    offset: instruction_offset(base_address, row),
                    sass: row.text.trim().to_owned(),
                })
            });
            finding.values.insert(names.get("line_share"), Some(share));
            finding.estimate = base.estimate.scaled(share);
            finding.message.push_str(&format!(
                "; line {} holds {} of it",
                l.line,
                super::template::format_number(share, super::template::Format::Percent(0))
            ));
            (share, finding)
        })
        .collect();
    placed.sort_by(|(a, _), (b, _)| b.total_cmp(a));
    placed.into_iter().map(|(_, finding)| finding).collect()
}

/// An instruction's offset from the first instruction of its view.
fn instruction_offset(base: Option<u64>, row: &SourceRow) -> Option<u64> {
    address_number(row.address.as_deref()?)?.checked_sub(base?)
}

/// The lowest instruction address of `view`, which offsets count from.
fn first_address(view: &SourceView) -> Option<u64> {
    view.instructions
        .iter()
        .filter_map(|r| r.address.as_deref().and_then(address_number))
        .min()
}

struct LineWeight<'a> {
    file: u32,
    line: u32,
    weight: f64,
    worst: Option<&'a SourceRow>,
}

/// Per-source-line totals of `sum` over the instructions under each line
/// (a line is a file's: line 4 of a header is not line 4 of the kernel).
fn line_weights<'a>(view: &'a SourceView, sum: &SourceSum) -> Vec<LineWeight<'a>> {
    let mut lines: Vec<LineWeight<'a>> = Vec::new();
    let Some(matcher) = RowMatcher::new(view, sum) else {
        return lines;
    };
    let mut worst_weight: Vec<f64> = Vec::new();
    for row in &view.instructions {
        let Some(line) = row.line else { continue };
        let w = matcher.value(row);
        if w <= 0.0 {
            continue;
        }
        let i = match lines
            .iter()
            .position(|l| l.line == line && l.file == row.file)
        {
            Some(i) => i,
            None => {
                lines.push(LineWeight {
                    file: row.file,
                    line,
                    weight: 0.0,
                    worst: None,
                });
                worst_weight.push(0.0);
                lines.len() - 1
            }
        };
        lines[i].weight += w;
        if w > worst_weight[i] {
            worst_weight[i] = w;
            lines[i].worst = Some(row);
        }
    }
    lines
}

/// Reads one [`SourceSum`] from rows of one source view.
struct RowMatcher {
    column: usize,
    times: Option<usize>,
    scale: f64,
    filter: Vec<(usize, String)>,
}

impl RowMatcher {
    fn new(view: &SourceView, sum: &SourceSum) -> Option<Self> {
        let filter = sum
            .filter
            .iter()
            .map(|(c, v)| view.column(c).map(|i| (i, v.clone())))
            .collect::<Option<Vec<_>>>()?;
        Some(RowMatcher {
            column: view.column(&sum.column)?,
            times: match &sum.times {
                Some(t) => Some(view.column(t)?),
                None => None,
            },
            scale: sum.scale,
            filter,
        })
    }

    fn value(&self, row: &SourceRow) -> f64 {
        let matches = self.filter.iter().all(|(i, want)| match row.cells.get(*i) {
            Some(Value::Text(t)) => t == want,
            Some(Value::Number(n)) => want.parse::<f64>().ok() == Some(*n),
            _ => false,
        });
        if !matches {
            return 0.0;
        }
        let cell = |i: usize| row.cells.get(i).and_then(Value::as_number).unwrap_or(0.0);
        let times = self.times.map_or(1.0, cell);
        cell(self.column) * times * self.scale
    }
}

/// The value of an input for a kernel: the first candidate present.
/// The first of `candidates` the kernel has.
pub(super) fn resolve(
    kernel: &Kernel,
    candidates: &[Candidate],
    context: &Context<'_>,
) -> Option<f64> {
    candidates.iter().find_map(|c| match c {
        Candidate::Metric(name) => kernel.number(name),
        Candidate::Label { section, label } => metric_name(section, "", label)
            .and_then(|name| kernel.number(name))
            .or_else(|| kernel.number(&label_key(section, "", label))),
        Candidate::Source(sum) => source_sum(kernel.source.as_ref()?, sum, context),
        Candidate::Sass(name) => sass_counts::count(kernel.source.as_ref()?, name),
    })
}

fn source_sum(view: &SourceView, sum: &SourceSum, context: &Context<'_>) -> Option<f64> {
    let needed = std::iter::once(&sum.column)
        .chain(sum.times.iter())
        .chain(sum.filter.iter().map(|(c, _)| c));
    let mut absent_here = false;
    for column in needed {
        if view.column(column).is_none() {
            if !context.columns.contains(column.as_str()) || view.columns.is_empty() {
                return None;
            }
            absent_here = true;
        }
    }
    if absent_here {
        return Some(0.0);
    }
    let matcher = RowMatcher::new(view, sum)?;
    let rows = if view.instructions.is_empty() {
        &view.lines
    } else {
        &view.instructions
    };
    Some(rows.iter().map(|r| matcher.value(r)).sum())
}

fn describe(candidates: &[Candidate]) -> String {
    let names: Vec<String> = candidates
        .iter()
        .map(|c| match c {
            Candidate::Metric(name) => name.clone(),
            Candidate::Label { section, label } => format!("{section}: {label}"),
            Candidate::Source(sum) => format!("source page column `{}`", sum.column),
            Candidate::Sass(name) => format!("source page SASS count `{name}`"),
        })
        .collect();
    if names.is_empty() {
        "an input".into()
    } else {
        names.join(" or ")
    }
}
