//! Pack composition: `extends = ["builtin:memory", "../shared/team.toml"]`
//! takes another pack's rules first, `[overrides.<rule-id>]` changes their
//! default severity and parameters, and the pack's own rules follow.

use std::path::Path;

use super::error::{PackError, PackProblem, ProblemKind};
use super::pack::{Override, Pack, Rule, Severity, load_pack};
use super::{RulesError, builtin_packs};

/// How deep `extends` may chain; deeper is taken for a cycle.
const MAX_DEPTH: usize = 8;

/// A problem at `span` of `pack`.
fn problem(
    pack: &Pack,
    span: std::ops::Range<usize>,
    kind: ProblemKind,
    message: String,
    label: &str,
) -> PackProblem {
    PackProblem::error(kind, message, pack.source.clone(), span, label)
}

/// Resolves what `pack` extends; `dir` resolves relative paths.
pub fn resolve(mut pack: Pack, dir: &Path, depth: usize) -> Result<Pack, RulesError> {
    if pack.extends.is_empty() && pack.overrides.is_empty() {
        return Ok(pack);
    }
    let mut problems = Vec::new();
    let mut rules: Vec<Rule> = Vec::new();
    for (target, span) in &pack.extends {
        if depth >= MAX_DEPTH {
            problems.push(problem(
                &pack,
                span.clone(),
                ProblemKind::BadValue,
                format!("`extends` chains deeper than {MAX_DEPTH} packs: is there a cycle?"),
                "extended here",
            ));
            continue;
        }
        match extended(&pack, target, span, dir, depth)? {
            Ok(base) => rules.extend(base.rules),
            Err(p) => problems.push(p),
        }
    }
    for o in &pack.overrides {
        match rules.iter_mut().find(|r| r.id == o.id) {
            Some(rule) => problems.extend(apply_override(&pack, o, rule)),
            None => problems.push(problem(
                &pack,
                o.span.clone(),
                ProblemKind::UnknownName,
                format!("no extended rule `{}` to override", o.id),
                "unknown rule",
            )),
        }
    }
    if !problems.is_empty() {
        return Err(PackError {
            path: pack.source.name().to_owned(),
            problems,
        }
        .into());
    }
    rules.append(&mut pack.rules);
    pack.rules = rules;
    Ok(pack)
}

/// The pack `target` names (`builtin:NAME` or a path relative to `dir`),
/// resolved in turn; a problem of `pack` when there is none such.
fn extended(
    pack: &Pack,
    target: &str,
    span: &std::ops::Range<usize>,
    dir: &Path,
    depth: usize,
) -> Result<Result<Pack, PackProblem>, RulesError> {
    if let Some(name) = target.strip_prefix("builtin:") {
        let found = builtin_packs()?.into_iter().find(|p| p.name == name);
        return Ok(found.ok_or_else(|| {
            problem(
                pack,
                span.clone(),
                ProblemKind::UnknownName,
                format!("no built-in pack `{name}`"),
                "unknown pack",
            )
        }));
    }
    let path = dir.join(target);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            return Ok(Err(problem(
                pack,
                span.clone(),
                ProblemKind::BadValue,
                format!("cannot read {}: {e}", path.display()),
                "extended here",
            )));
        }
    };
    let base = load_pack(&path.display().to_string(), &text)?;
    let base_dir = path.parent().unwrap_or(Path::new(".")).to_owned();
    Ok(Ok(resolve(base, &base_dir, depth + 1)?))
}

/// Applies one `[overrides.<id>]` table to the extended rule; what it names
/// that the rule lacks is a problem.
fn apply_override(pack: &Pack, o: &Override, rule: &mut Rule) -> Vec<PackProblem> {
    let mut problems = Vec::new();
    if let Some(text) = &o.severity {
        match Severity::parse(text) {
            Some(level) => rule.severity = level,
            None => problems.push(problem(
                pack,
                o.span.clone(),
                ProblemKind::BadValue,
                format!("unknown severity `{text}`"),
                "expected error, warning or note",
            )),
        }
    }
    for (name, value) in &o.params {
        match rule.params.get_mut(name) {
            Some(param) => param.default = *value,
            None => problems.push(problem(
                pack,
                o.span.clone(),
                ProblemKind::UnknownName,
                format!("rule `{}` has no parameter `{name}`", o.id),
                "unknown parameter",
            )),
        }
    }
    problems
}
