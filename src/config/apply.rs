//! Settings applied to the rules of the loaded packs: selection, severities
//! and parameters; a setting that names no rule or parameter is an error.

use super::{ConfigError, Pattern, SettingOrigin, Settings, problem};
use crate::rules::ActiveRule;
use crate::rules::error::{PackProblem, ProblemKind};

impl Settings {
    /// Applies selection, severities and parameters to the rules of the
    /// loaded packs; names that match no rule or parameter are errors.
    pub fn apply(&self, rules: Vec<ActiveRule>) -> Result<Vec<ActiveRule>, ConfigError> {
        let problems = self.unknown_names(&rules);
        if !problems.is_empty() {
            let path = self
                .file
                .as_ref()
                .map_or("command line".to_owned(), |(path, _)| path.clone());
            return Err(ConfigError { path, problems });
        }
        Ok(rules
            .into_iter()
            .filter(|rule| self.selects(&rule.rule.id, &rule.rule.pack))
            .filter_map(|rule| self.adjust(rule))
            .collect())
    }

    /// Whether a pack rule runs: selected (all but `ncu/*` when nothing
    /// is) and not ignored, by its id or by `pack/id` (`launch/*`).
    fn selects(&self, id: &str, pack: &str) -> bool {
        let in_pack = format!("{pack}/{id}");
        let named = |p: &Pattern| p.matches(id) || p.matches(&in_pack);
        let selected = if self.select.is_empty() {
            !id.starts_with("ncu/")
        } else {
            self.select.iter().any(named)
        };
        selected && !self.ignore.iter().any(named)
    }

    /// The rule at its configured severity and parameters; `None` when
    /// its severity is `off`.
    fn adjust(&self, mut rule: ActiveRule) -> Option<ActiveRule> {
        let id = rule.rule.id.clone();
        if let Some((level, _)) = self.severity.get(&id) {
            rule.severity = (*level)?;
        }
        for ((rule_id, param), (value, _)) in &self.params {
            if rule_id == &id {
                rule.params.insert(param.clone(), *value);
            }
        }
        Some(rule)
    }

    /// Severities and parameters set for rules or parameters that no pack has.
    fn unknown_names(&self, rules: &[ActiveRule]) -> Vec<PackProblem> {
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
            if !rules.iter().any(|r| &r.rule.id == rule) {
                let message = format!("no rule `{rule}` to set the severity of");
                problems.push(unknown(message, origin, "unknown rule"));
            }
        }
        for ((rule, param), (_, origin)) in &self.params {
            match rules.iter().find(|r| &r.rule.id == rule) {
                None => {
                    let message = format!("no rule `{rule}` to set `{param}` of");
                    problems.push(unknown(message, origin, "unknown rule"));
                }
                Some(r) if !r.params.contains_key(param) => {
                    let known: Vec<&str> = r.params.keys().map(String::as_str).collect();
                    let message = format!(
                        "rule `{rule}` has no parameter `{param}` (it has: {})",
                        known.join(", ")
                    );
                    problems.push(unknown(message, origin, "unknown parameter"));
                }
                Some(_) => {}
            }
        }
        problems
    }
}
