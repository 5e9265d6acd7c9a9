//! What the settings say of each rule the packs define, by its id, pack
//! and parameter names: selection, severity and parameters; a setting that
//! names no rule or parameter is an error. The rules themselves are
//! configured by the linter, which knows both.

use super::{ConfigError, Pattern, SettingOrigin, Settings, problem};
use crate::vocab::{PackProblem, ProblemKind, Severity};

/// A rule as the settings name it: its id, its pack and its parameters.
#[derive(Debug, Clone, Copy)]
pub struct RuleNames<'a> {
    /// The rule id.
    pub id: &'a str,
    /// The pack that defines it.
    pub pack: &'a str,
    /// Its parameters' names.
    pub params: &'a [&'a str],
}

impl Settings {
    /// Refuses settings that name a rule or parameter no pack has.
    pub fn check_names(&self, rules: &[RuleNames<'_>]) -> Result<(), ConfigError> {
        let problems = self.unknown_names(rules);
        if problems.is_empty() {
            return Ok(());
        }
        let path = self
            .file
            .as_ref()
            .map_or("command line".to_owned(), |(path, _)| path.clone());
        Err(ConfigError { path, problems })
    }

    /// Whether a pack rule runs: selected (all but `ncu/*` when nothing
    /// is) and not ignored, by its id or by `pack/id` (`launch/*`).
    pub fn selects(&self, id: &str, pack: &str) -> bool {
        let in_pack = format!("{pack}/{id}");
        let named = |p: &Pattern| p.matches(id) || p.matches(&in_pack);
        let selected = if self.select.is_empty() {
            !id.starts_with("ncu/")
        } else {
            self.select.iter().any(named)
        };
        selected && !self.ignore.iter().any(named)
    }

    /// The severity set for rule `id`: `Some(None)` when it is `off`,
    /// `None` when not set.
    pub fn severity_of(&self, id: &str) -> Option<Option<Severity>> {
        self.severity.get(id).map(|(level, _)| *level)
    }

    /// The parameters set for rule `id`, by name.
    pub fn params_of<'a>(&'a self, id: &'a str) -> impl Iterator<Item = (&'a str, f64)> + 'a {
        self.params
            .iter()
            .filter(move |((rule, _), _)| rule == id)
            .map(|((_, param), (value, _))| (param.as_str(), *value))
    }

    /// Severities and parameters set for rules or parameters that no pack has.
    fn unknown_names(&self, rules: &[RuleNames<'_>]) -> Vec<PackProblem> {
        let (path, text) = self
            .file
            .clone()
            .unwrap_or_else(|| ("command line".to_owned(), String::new()));
        let at = |origin: &SettingOrigin| origin.span.clone().unwrap_or(0..0);
        let unknown = |message: String, origin: &SettingOrigin, label: &str| {
            problem(
                &path,
                &text,
                ProblemKind::UnknownName,
                message,
                at(origin),
                label,
            )
        };
        let mut problems = Vec::new();
        for (rule, (_, origin)) in &self.severity {
            if !rules.iter().any(|r| r.id == rule) {
                let message = format!("no rule `{rule}` to set the severity of");
                problems.push(unknown(message, origin, "unknown rule"));
            }
        }
        for ((rule, param), (_, origin)) in &self.params {
            match rules.iter().find(|r| r.id == rule) {
                None => {
                    let message = format!("no rule `{rule}` to set `{param}` of");
                    problems.push(unknown(message, origin, "unknown rule"));
                }
                Some(r) if !r.params.contains(&param.as_str()) => {
                    let message = format!(
                        "rule `{rule}` has no parameter `{param}` (it has: {})",
                        r.params.join(", ")
                    );
                    problems.push(unknown(message, origin, "unknown parameter"));
                }
                Some(_) => {}
            }
        }
        problems
    }
}
