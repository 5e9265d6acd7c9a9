//! Project configuration: `ncu-lint.toml`, found from the working directory
//! upward (or given with `--config`), and the command-line flags that
//! override it.
//!
//! ```toml
//! select = ["*"]                      # rule ids or globs; `ncu/*` adds Nsight Compute's own rules
//! ignore = ["global-store-efficiency"]
//! packs = ["team-rules/"]             # relative to this file
//! fail_on = "warning"
//!
//! [severity]
//! sector-waste = "note"               # or "off"
//!
//! [params.shared-bank-conflict]
//! min_excess_share = 0.2
//!
//! [[kernels]]                         # per-kernel ignores
//! name = "cutlass*"                   # a glob, or regex = "^void at::native::"
//! ignore = ["*"]
//! ```

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use miette::NamedSource;
use regex::Regex;
use serde::Deserialize;
use toml::Spanned;

use crate::rules::error::{PackProblem, ProblemKind};
use crate::rules::{ActiveRule, FailOn, Severity};

/// The file name looked for.
pub const FILE_NAME: &str = "ncu-lint.toml";

/// A rule id or glob (`*` any run of characters, `?` one).
#[derive(Debug, Clone)]
pub struct Pattern {
    text: String,
    /// `None` when the glob is too large for a regex; then it matches itself only.
    regex: Option<Regex>,
}

impl Pattern {
    /// Compiles a glob.
    pub fn glob(text: &str) -> Pattern {
        let mut source = String::from("^");
        for c in text.chars() {
            match c {
                '*' => source.push_str(".*"),
                '?' => source.push('.'),
                c => source.push_str(&regex::escape(&c.to_string())),
            }
        }
        source.push('$');
        Pattern {
            text: text.to_owned(),
            regex: Regex::new(&source).ok(),
        }
    }

    /// Whether `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        match &self.regex {
            Some(regex) => regex.is_match(text),
            None => self.text == text,
        }
    }

    /// Whether the pattern has wildcards.
    pub fn is_glob(&self) -> bool {
        self.text.contains(['*', '?'])
    }

    /// The pattern as written.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Rules ignored for kernels whose names match.
#[derive(Debug, Clone)]
pub struct KernelIgnore {
    /// Matches kernel names.
    pub kernel: Regex,
    /// The rules ignored (all when empty).
    pub rules: Vec<Pattern>,
}

impl KernelIgnore {
    /// Whether a finding of `rule` on `kernel` is ignored.
    pub fn covers(&self, kernel: &str, rule: &str) -> bool {
        self.kernel.is_match(kernel)
            && (self.rules.is_empty() || self.rules.iter().any(|p| p.matches(rule)))
    }
}

/// Settings from the file and the command line, command line last.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Rules to run; empty means every pack rule (not `ncu/*`).
    pub select: Vec<Pattern>,
    /// Rules not to run.
    pub ignore: Vec<Pattern>,
    /// Extra packs (files or directories).
    pub packs: Vec<PathBuf>,
    /// The least failing severity, if set.
    pub fail_on: Option<FailOn>,
    /// Severity overrides (`None`: off).
    pub severity: IndexMap<String, (Option<Severity>, SettingOrigin)>,
    /// Parameter overrides.
    pub params: IndexMap<(String, String), (f64, SettingOrigin)>,
    /// Per-kernel ignores.
    pub kernels: Vec<KernelIgnore>,
    /// The config file read, if any.
    pub file: Option<(String, String)>,
}

/// Where a setting came from, to point at it when it is wrong.
#[derive(Debug, Clone, Default)]
pub struct SettingOrigin {
    /// Byte span in the config file, or `None` for the command line.
    pub span: Option<std::ops::Range<usize>>,
}

/// The config file or flags are wrong.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("configuration {path} has {} error(s)", problems.len())]
#[diagnostic(code(ncu_lint::config::invalid))]
pub struct ConfigError {
    /// The file, or `command line`.
    pub path: String,
    /// Each problem.
    #[related]
    pub problems: Vec<PackProblem>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    select: Vec<String>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    packs: Vec<String>,
    #[serde(default)]
    fail_on: Option<Spanned<String>>,
    #[serde(default)]
    severity: IndexMap<String, Spanned<String>>,
    #[serde(default)]
    params: IndexMap<String, IndexMap<String, Spanned<f64>>>,
    #[serde(default)]
    kernels: Vec<RawKernel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKernel {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    regex: Option<Spanned<String>>,
    #[serde(default)]
    ignore: Vec<String>,
}

/// `ncu-lint.toml` in `start` or the nearest directory above it.
pub fn discover(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|candidate| candidate.is_file())
}

fn problem(
    path: &str,
    text: &str,
    kind: ProblemKind,
    message: String,
    span: std::ops::Range<usize>,
    label: &str,
) -> PackProblem {
    PackProblem::error(
        kind,
        message,
        NamedSource::new(path, text.to_owned()),
        span,
        label,
    )
    .in_config()
}

/// Reads a config file into settings.
pub fn load(path: &Path) -> Result<Settings, ConfigError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
        path: name.clone(),
        problems: vec![problem(
            &name,
            "",
            ProblemKind::Syntax,
            format!("cannot read {name}: {e}"),
            0..0,
            "here",
        )],
    })?;
    parse(&name, &text, path.parent().unwrap_or(Path::new(".")))
}

/// Parses config text; `base` resolves relative pack paths.
pub fn parse(name: &str, text: &str, base: &Path) -> Result<Settings, ConfigError> {
    let fail = |problems| ConfigError {
        path: name.to_owned(),
        problems,
    };
    let raw: RawConfig = toml::from_str(text).map_err(|e| {
        let message = e.message().to_owned();
        fail(vec![problem(
            name,
            text,
            ProblemKind::Syntax,
            message.clone(),
            e.span().unwrap_or(0..0),
            &message,
        )])
    })?;
    let mut problems = Vec::new();
    let mut settings = Settings {
        select: raw.select.iter().map(|s| Pattern::glob(s)).collect(),
        ignore: raw.ignore.iter().map(|s| Pattern::glob(s)).collect(),
        packs: raw.packs.iter().map(|p| base.join(p)).collect(),
        file: Some((name.to_owned(), text.to_owned())),
        ..Settings::default()
    };
    if let Some(level) = &raw.fail_on {
        match level.get_ref().parse::<FailOn>() {
            Ok(fail_on) => settings.fail_on = Some(fail_on),
            Err(_) => problems.push(problem(
                name,
                text,
                ProblemKind::BadValue,
                format!("unknown fail_on `{}`", level.get_ref()),
                level.span(),
                "expected error, warning, note or never",
            )),
        }
    }
    for (rule, level) in &raw.severity {
        match Severity::parse_or_off(level.get_ref()) {
            Some(l) => {
                settings.severity.insert(
                    rule.clone(),
                    (
                        l,
                        SettingOrigin {
                            span: Some(level.span()),
                        },
                    ),
                );
            }
            None => problems.push(problem(
                name,
                text,
                ProblemKind::BadValue,
                format!("unknown severity `{}` for `{rule}`", level.get_ref()),
                level.span(),
                "expected error, warning, note or off",
            )),
        }
    }
    for (rule, values) in &raw.params {
        for (param, value) in values {
            settings.params.insert(
                (rule.clone(), param.clone()),
                (
                    *value.get_ref(),
                    SettingOrigin {
                        span: Some(value.span()),
                    },
                ),
            );
        }
    }
    for kernel in raw.kernels {
        let matcher = match (&kernel.name, &kernel.regex) {
            (Some(glob), None) => Pattern::glob(glob)
                .regex
                .or_else(|| Regex::new(&regex::escape(glob)).ok()),
            (None, Some(re)) => match Regex::new(re.get_ref()) {
                Ok(r) => Some(r),
                Err(e) => {
                    problems.push(problem(
                        name,
                        text,
                        ProblemKind::BadValue,
                        format!(
                            "invalid regex: {}",
                            e.to_string().lines().last().unwrap_or("")
                        ),
                        re.span(),
                        "not a valid regular expression",
                    ));
                    None
                }
            },
            _ => {
                problems.push(problem(
                    name,
                    text,
                    ProblemKind::BadValue,
                    "a [[kernels]] entry needs exactly one of `name` (a glob) or `regex`".into(),
                    0..0,
                    "here",
                ));
                None
            }
        };
        if let Some(kernel_regex) = matcher {
            settings.kernels.push(KernelIgnore {
                kernel: kernel_regex,
                rules: kernel.ignore.iter().map(|s| Pattern::glob(s)).collect(),
            });
        }
    }
    if problems.is_empty() {
        Ok(settings)
    } else {
        Err(fail(problems))
    }
}

impl Settings {
    /// Applies selection, severities and parameters to the rules of the
    /// loaded packs; names that match no rule or parameter are errors.
    pub fn apply(&self, rules: Vec<ActiveRule>) -> Result<Vec<ActiveRule>, ConfigError> {
        let (path, text) = self
            .file
            .clone()
            .unwrap_or_else(|| ("command line".to_owned(), String::new()));
        let mut problems = Vec::new();
        let at = |origin: &SettingOrigin| origin.span.clone().unwrap_or(0..0);
        for (rule, (_, origin)) in &self.severity {
            if !rules.iter().any(|r| &r.rule.id == rule) {
                problems.push(problem(
                    &path,
                    &text,
                    ProblemKind::UnknownName,
                    format!("no rule `{rule}` to set the severity of"),
                    at(origin),
                    "unknown rule",
                ));
            }
        }
        for ((rule, param), (_, origin)) in &self.params {
            match rules.iter().find(|r| &r.rule.id == rule) {
                None => problems.push(problem(
                    &path,
                    &text,
                    ProblemKind::UnknownName,
                    format!("no rule `{rule}` to set `{param}` of"),
                    at(origin),
                    "unknown rule",
                )),
                Some(r) if !r.params.contains_key(param) => {
                    let known: Vec<&str> = r.params.keys().map(String::as_str).collect();
                    problems.push(problem(
                        &path,
                        &text,
                        ProblemKind::UnknownName,
                        format!(
                            "rule `{rule}` has no parameter `{param}` (it has: {})",
                            known.join(", ")
                        ),
                        at(origin),
                        "unknown parameter",
                    ));
                }
                Some(_) => {}
            }
        }
        if !problems.is_empty() {
            return Err(ConfigError { path, problems });
        }
        let mut out = Vec::new();
        for mut rule in rules {
            let id = rule.rule.id.clone();
            let selected = if self.select.is_empty() {
                !id.starts_with("ncu/")
            } else {
                self.select.iter().any(|p| p.matches(&id))
            };
            if !selected || self.ignore.iter().any(|p| p.matches(&id)) {
                continue;
            }
            if let Some((level, _)) = self.severity.get(&id) {
                match level {
                    Some(level) => rule.severity = *level,
                    None => continue,
                }
            }
            for ((rule_id, param), (value, _)) in &self.params {
                if rule_id == &id {
                    rule.params.insert(param.clone(), *value);
                }
            }
            out.push(rule);
        }
        Ok(out)
    }

    /// Whether Nsight Compute's own rule `ncu/<name>` is selected.
    pub fn selects_ncu_rule(&self, id: &str) -> bool {
        self.select.iter().any(|p| p.matches(id))
            && !self.ignore.iter().any(|p| p.matches(id))
            && !matches!(self.severity.get(id), Some((None, _)))
    }

    /// Whether a finding of `rule` on `kernel` is ignored by a `[[kernels]]` entry.
    pub fn ignores(&self, kernel: &str, rule: &str) -> bool {
        self.kernels.iter().any(|k| k.covers(kernel, rule))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        let p = Pattern::glob("shared-*");
        assert!(p.matches("shared-bank-conflict") && !p.matches("sector-waste"));
        assert!(Pattern::glob("ncu/*").matches("ncu/UncoalescedSharedAccess"));
        assert!(
            Pattern::glob("void smem_stride<float, ?>(float *, int)")
                .matches("void smem_stride<float, 2>(float *, int)")
        );
    }

    #[test]
    fn parse_errors_have_spans() {
        let err = parse(
            "c.toml",
            "[severity]\nsector-waste = \"loud\"\n",
            Path::new("."),
        )
        .unwrap_err();
        assert_eq!(err.problems[0].line_column(), (2, 16));
        let err = parse("c.toml", "selct = []\n", Path::new(".")).unwrap_err();
        assert!(err.problems[0].message.contains("selct"));
        let err = parse("c.toml", "[[kernels]]\nregex = \"(\"\n", Path::new(".")).unwrap_err();
        assert_eq!(err.problems[0].line_column(), (2, 9));
    }
}
