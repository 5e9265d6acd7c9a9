//! `ncu-lint explain ID`: a rule's documentation, where its inputs come
//! from, and its parameters, as text or JSON.

use std::fmt::Write as _;

use serde_json::{Value as Json, json};

use super::engine::ActiveRule;
use super::pack::Candidate;

fn candidate_text(candidate: &Candidate) -> String {
    match candidate {
        Candidate::Metric(name) => format!("metric `{name}`"),
        Candidate::Label { section, label } => {
            format!("details label `{label}` in section `{section}`")
        }
        Candidate::Source(sum) => {
            let mut text = format!("source page: sum of `{}`", sum.column);
            if let Some(times) = &sum.times {
                text.push_str(&format!(" x `{times}`"));
            }
            if sum.scale != 1.0 {
                text.push_str(&format!(" x {}", sum.scale));
            }
            if !sum.filter.is_empty() {
                let filter: Vec<String> = sum
                    .filter
                    .iter()
                    .map(|(c, v)| format!("{c} = {v}"))
                    .collect();
                text.push_str(&format!(" where {}", filter.join(", ")));
            }
            text
        }
        Candidate::Sass(name) => format!("source page SASS: `{name}`"),
    }
}

/// The rule's documentation as text.
pub fn to_text(active: &ActiveRule) -> String {
    let rule = &active.rule;
    let mut out = String::new();
    let _ = writeln!(out, "# {} ({})\n", rule.title, rule.id);
    let _ = writeln!(
        out,
        "pack: {}; severity: {}\n",
        rule.pack,
        active.severity.name()
    );
    let _ = writeln!(out, "## What it finds\n{}\n", rule.docs.what.trim());
    let _ = writeln!(out, "## Why it matters\n{}\n", rule.docs.why.trim());
    let _ = writeln!(out, "## How to fix it\n{}\n", rule.docs.fix.trim());
    if !rule.docs.example.trim().is_empty() {
        let _ = writeln!(out, "## Example\n{}\n", rule.docs.example.trim_end());
    }
    if !rule.docs.model.trim().is_empty() {
        let _ = writeln!(
            out,
            "## How the cause is found\n{}\n",
            rule.docs.model.trim()
        );
    }
    if !active.params.is_empty() {
        let _ = writeln!(out, "## Parameters");
        for (name, value) in &active.params {
            let param = &rule.params[name];
            let _ = writeln!(
                out,
                "- {name} = {value} (default {}): {}",
                param.default, param.description
            );
        }
        out.push('\n');
    }
    if !rule.sections.is_empty() {
        let _ = writeln!(
            out,
            "## Nsight Compute sections\nProfile with `--section {}` (or `--set full`); `ncu-lint profile` does.\n",
            rule.sections.join(" --section ")
        );
    }
    let _ = writeln!(
        out,
        "## Inputs (first variant whose inputs a kernel has is used)"
    );
    for variant in &rule.variants {
        let _ = writeln!(out, "{}:", variant.name);
        if let Some(why) = &variant.why {
            let _ = writeln!(out, "  (same measure: {why})");
        }
        write_inputs(
            &mut out,
            variant.inputs.iter().chain(variant.optional.iter()),
        );
    }
    if !rule.impact.is_empty() {
        out.push_str(&impact_text(active));
    }
    out.push_str(&fix_numbers_text(active));
    out.push_str(&fix_clauses_text(active));
    out
}

/// One line an input: its name and where it may be read from, in order.
fn write_inputs<'i>(
    out: &mut String,
    inputs: impl IntoIterator<Item = (&'i String, &'i Vec<super::rule::Candidate>)>,
) {
    for (name, candidates) in inputs {
        let list: Vec<String> = candidates.iter().map(candidate_text).collect();
        let _ = writeln!(out, "  {name}: {}", list.join(", or "));
    }
}

/// The numbers fix texts quote: for each fix that derives some, its
/// condition, each number's expression, its inputs and its reason.
fn fix_numbers_text(active: &ActiveRule) -> String {
    let mut out = String::new();
    for fix in active.rule.fixes.iter().filter(|f| !f.derived.is_empty()) {
        if out.is_empty() {
            out.push_str("\n## Numbers a fix quotes (kernel_ns and saved_ns are the estimate's)\n");
        }
        let _ = writeln!(
            out,
            "where {}:",
            fix.when_text.as_deref().unwrap_or("always")
        );
        for number in &fix.derived {
            let _ = writeln!(out, "  {} = {}", number.name, number.text);
        }
        if let Some(most) = &fix.saves_at_most_text {
            let _ = writeln!(
                out,
                "  the estimate, where this fix is shown, is at most {most}"
            );
        }
        write_inputs(&mut out, &fix.inputs);
        if !fix.why.is_empty() {
            let _ = writeln!(out, "  why: {}", fix.why);
        }
    }
    out
}

/// The advice fixes add where its condition holds: each clause's
/// condition, text, the conditions of the fixes that add it, and its reason.
fn fix_clauses_text(active: &ActiveRule) -> String {
    let rule = &active.rule;
    let mut out = String::new();
    for (index, clause) in rule.fix_clauses.iter().enumerate() {
        if out.is_empty() {
            out.push_str("\n## Advice a fix adds\n");
        }
        let _ = writeln!(out, "{} (where {}):", clause.name, clause.when_text);
        let _ = writeln!(out, "  text: {}", clause.written);
        for fix in rule.fixes.iter().filter(|f| f.clauses.contains(&index)) {
            let _ = writeln!(
                out,
                "  added to the fix where {}",
                fix.when_text.as_deref().unwrap_or("always")
            );
        }
        if !clause.why.is_empty() {
            let _ = writeln!(out, "  why: {}", clause.why);
        }
    }
    out
}

/// How a finding's worth is estimated: each impact formula with its
/// inputs and reason, and the threshold under which a finding is a note.
fn impact_text(active: &ActiveRule) -> String {
    let mut out = String::from(
        "\n## What a fix is worth (first estimate whose inputs a kernel has is used)\n",
    );
    out.push_str(
        "saved_ns = gpu__time_duration.sum x speedup; a line's share of the finding takes that share of it.\n",
    );
    if let Some(least) = active.params.get(super::pack::MIN_SPEEDUP) {
        let _ = writeln!(
            out,
            "A finding whose speedup (or its ceiling, where it has one) is under min_speedup = {least} of its kernel is a note.",
        );
    }
    for impact in &active.rule.impact {
        let _ = writeln!(out, "{}:", impact.name);
        if let Some(speedup) = &impact.speedup_text {
            let _ = writeln!(out, "  speedup = {speedup}");
        }
        if let Some(ceiling) = &impact.ceiling {
            let _ = writeln!(
                out,
                "  at most, {}: {} (the worth threshold judges this)",
                ceiling.when, ceiling.speedup_text
            );
        }
        if impact.bytes.is_some() {
            let _ = writeln!(out, "  (and the bytes it wastes, for ranking)");
        }
        for number in &impact.derived {
            let _ = writeln!(out, "  {} = {}", number.name, number.text);
        }
        write_inputs(&mut out, impact.inputs.iter().chain(impact.optional.iter()));
        if !impact.why.is_empty() {
            let _ = writeln!(out, "  why: {}", impact.why);
        }
        for (set, why) in &impact.numbers_why {
            let _ = writeln!(out, "  why ([numbers.{set}]): {why}");
        }
    }
    out
}

/// The rule's documentation as JSON.
pub fn to_json(active: &ActiveRule) -> Json {
    let rule = &active.rule;
    json!({
        "id": rule.id,
        "title": rule.title,
        "pack": rule.pack,
        "severity": active.severity,
        "docs": rule.docs,
        "sections": rule.sections,
        "params": active.params.iter().map(|(k, v)| (k.clone(), json!({
            "value": v,
            "default": rule.params[k].default,
            "description": rule.params[k].description,
        }))).collect::<serde_json::Map<_, _>>(),
        "impact": rule.impact.iter().map(|i| json!({
            "name": i.name,
            "speedup": i.speedup_text,
            "ceiling": i.ceiling.as_ref().map(|c| json!({"speedup": c.speedup_text, "when": c.when})),
            "why": i.why,
            "numbers_why": i.numbers_why.iter().map(|(set, why)| (set.clone(), json!(why))).collect::<serde_json::Map<_, _>>(),
            "derived": i.derived.iter().map(|d| (d.name.clone(), json!(d.text))).collect::<serde_json::Map<_, _>>(),
            "inputs": i.inputs.iter().chain(i.optional.iter()).map(|(k, c)| (k.clone(), json!(c.iter().map(candidate_text).collect::<Vec<_>>()))).collect::<serde_json::Map<_, _>>(),
        })).collect::<Vec<_>>(),
        "fixes_save_at_most": rule.fixes.iter().filter_map(|f| Some(json!({
            "when": f.when_text,
            "saves_at_most": f.saves_at_most_text.as_ref()?,
        }))).collect::<Vec<_>>(),
        "fix_clauses": rule.fix_clauses.iter().map(|c| json!({
            "name": c.name,
            "when": c.when_text,
            "text": c.written,
            "why": c.why,
        })).collect::<Vec<_>>(),
        "variants": rule.variants.iter().map(|v| json!({
            "name": v.name,
            "why": v.why,
            "inputs": v.inputs.iter().map(|(k, c)| (k.clone(), json!(c.iter().map(candidate_text).collect::<Vec<_>>()))).collect::<serde_json::Map<_, _>>(),
        })).collect::<Vec<_>>(),
    })
}
