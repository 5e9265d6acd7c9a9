//! The rules of the loaded packs as the settings configure them: selected,
//! at their set severity (`off` leaves a rule out) and with their set
//! parameters. Settings that name no rule or parameter are refused.

use crate::config::{ConfigError, RuleNames, Settings};
use crate::rules::ActiveRule;

/// `rules` as `settings` select and adjust them.
pub(super) fn configure(
    settings: &Settings,
    rules: Vec<ActiveRule>,
) -> Result<Vec<ActiveRule>, ConfigError> {
    let params: Vec<Vec<&str>> = rules
        .iter()
        .map(|r| r.params.keys().map(String::as_str).collect())
        .collect();
    let names: Vec<RuleNames<'_>> = rules
        .iter()
        .zip(&params)
        .map(|(r, params)| RuleNames {
            id: &r.rule.id,
            pack: &r.rule.pack,
            params,
        })
        .collect();
    settings.check_names(&names)?;
    Ok(rules
        .into_iter()
        .filter(|r| settings.selects(&r.rule.id, &r.rule.pack))
        .filter_map(|rule| adjust(settings, rule))
        .collect())
}

/// The rule at its configured severity and parameters; `None` when its
/// severity is `off`.
fn adjust(settings: &Settings, mut rule: ActiveRule) -> Option<ActiveRule> {
    if let Some(level) = settings.severity_of(&rule.rule.id) {
        rule.severity = level?;
    }
    let set: Vec<(String, f64)> = settings
        .params_of(&rule.rule.id)
        .map(|(name, value)| (name.to_owned(), value))
        .collect();
    rule.params.extend(set);
    Some(rule)
}
