//! Pack composition: `extends = ["builtin:memory", "../shared/team.toml"]`
//! takes another pack's rules first, `[overrides.<rule-id>]` changes their
//! default severity and parameters, and the pack's own rules follow.

use std::path::Path;

use super::error::{PackError, PackProblem, ProblemKind};
use super::pack::{Pack, Rule, Severity, load_pack};
use super::{RulesError, builtin_packs};

/// How deep `extends` may chain; deeper is taken for a cycle.
const MAX_DEPTH: usize = 8;

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
    for (target, span) in pack.extends.clone() {
        if depth >= MAX_DEPTH {
            problems.push(problem(
                &pack,
                span,
                ProblemKind::BadValue,
                format!("`extends` chains deeper than {MAX_DEPTH} packs: is there a cycle?"),
                "extended here",
            ));
            continue;
        }
        let base = match target.strip_prefix("builtin:") {
            Some(name) => builtin_packs()?
                .into_iter()
                .find(|p| p.name == name)
                .ok_or_else(|| {
                    problem(
                        &pack,
                        span.clone(),
                        ProblemKind::UnknownName,
                        format!("no built-in pack `{name}`"),
                        "unknown pack",
                    )
                }),
            None => {
                let path = dir.join(&target);
                match std::fs::read_to_string(&path) {
                    Ok(text) => {
                        let base = load_pack(&path.display().to_string(), &text)?;
                        let base_dir = path.parent().unwrap_or(Path::new(".")).to_owned();
                        Ok(resolve(base, &base_dir, depth + 1)?)
                    }
                    Err(e) => Err(problem(
                        &pack,
                        span.clone(),
                        ProblemKind::BadValue,
                        format!("cannot read {}: {e}", path.display()),
                        "extended here",
                    )),
                }
            }
        };
        match base {
            Ok(base) => rules.extend(base.rules),
            Err(p) => problems.push(p),
        }
    }
    for o in &pack.overrides {
        let Some(rule) = rules.iter_mut().find(|r| r.id == o.id) else {
            problems.push(problem(
                &pack,
                o.span.clone(),
                ProblemKind::UnknownName,
                format!("no extended rule `{}` to override", o.id),
                "unknown rule",
            ));
            continue;
        };
        if let Some(text) = &o.severity {
            match Severity::parse(text) {
                Some(level) => rule.severity = level,
                None => problems.push(problem(
                    &pack,
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
                    &pack,
                    o.span.clone(),
                    ProblemKind::UnknownName,
                    format!("rule `{}` has no parameter `{name}`", o.id),
                    "unknown parameter",
                )),
            }
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
