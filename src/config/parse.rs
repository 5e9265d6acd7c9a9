//! Reading `ncu-lint.toml` into [`Settings`]: the TOML as written (unknown
//! keys refused, spans kept), then each table checked, every problem
//! collected before deciding.

use std::path::Path;

use indexmap::IndexMap;
use regex::Regex;
use serde::Deserialize;
use toml::Spanned;

use super::{ConfigError, KernelIgnore, KernelMatch, Pattern, SettingOrigin, Settings, problem};
use crate::vocab::{FailOn, PackProblem, ProblemKind, Severity};

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
    library_findings: Option<Spanned<String>>,
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

/// Collects problems against one configuration's text.
struct Reader<'a> {
    name: &'a str,
    text: &'a str,
    problems: Vec<PackProblem>,
}

/// Parses config text; `base` resolves relative pack paths.
pub fn parse(name: &str, text: &str, base: &Path) -> Result<Settings, ConfigError> {
    let mut reader = Reader {
        name,
        text,
        problems: Vec::new(),
    };
    let raw: RawConfig = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            let message = e.message().to_owned();
            let span = e.span().unwrap_or(0..0);
            reader.bad(ProblemKind::Syntax, message.clone(), span, &message);
            return Err(reader.refusal());
        }
    };
    let settings = Settings {
        select: raw.select.iter().map(|s| Pattern::glob(s)).collect(),
        ignore: raw.ignore.iter().map(|s| Pattern::glob(s)).collect(),
        packs: raw.packs.iter().map(|p| base.join(p)).collect(),
        fail_on: raw.fail_on.as_ref().and_then(|f| reader.fail_on(f)),
        keep_library_findings: raw
            .library_findings
            .as_ref()
            .and_then(|f| reader.library_findings(f)),
        severity: reader.severities(&raw.severity),
        params: params(&raw.params),
        kernels: raw
            .kernels
            .iter()
            .filter_map(|k| reader.kernel(k))
            .collect(),
        file: Some((name.to_owned(), text.to_owned())),
    };
    if reader.problems.is_empty() {
        Ok(settings)
    } else {
        Err(reader.refusal())
    }
}

/// `[params.RULE] NAME = VALUE`, each with its span.
fn params(
    raw: &IndexMap<String, IndexMap<String, Spanned<f64>>>,
) -> IndexMap<(String, String), (f64, SettingOrigin)> {
    let mut params = IndexMap::new();
    for (rule, values) in raw {
        for (param, value) in values {
            let origin = SettingOrigin {
                span: Some(value.span()),
            };
            params.insert((rule.clone(), param.clone()), (*value.get_ref(), origin));
        }
    }
    params
}

impl Reader<'_> {
    fn bad(
        &mut self,
        kind: ProblemKind,
        message: String,
        span: std::ops::Range<usize>,
        label: &str,
    ) {
        self.problems
            .push(problem(self.name, self.text, kind, message, span, label));
    }

    fn refusal(self) -> ConfigError {
        ConfigError {
            path: self.name.to_owned(),
            problems: self.problems,
        }
    }

    fn library_findings(&mut self, raw: &Spanned<String>) -> Option<bool> {
        match raw.get_ref().as_str() {
            "keep" => Some(true),
            "note" => Some(false),
            other => {
                self.bad(
                    ProblemKind::BadValue,
                    format!("unknown library_findings `{other}`"),
                    raw.span(),
                    "expected note or keep",
                );
                None
            }
        }
    }

    fn fail_on(&mut self, raw: &Spanned<String>) -> Option<FailOn> {
        let parsed = raw.get_ref().parse::<FailOn>().ok();
        if parsed.is_none() {
            self.bad(
                ProblemKind::BadValue,
                format!("unknown fail_on `{}`", raw.get_ref()),
                raw.span(),
                "expected error, warning, note or never",
            );
        }
        parsed
    }

    /// `[severity] RULE = LEVEL`, each with its span.
    fn severities(
        &mut self,
        raw: &IndexMap<String, Spanned<String>>,
    ) -> IndexMap<String, (Option<Severity>, SettingOrigin)> {
        let mut out = IndexMap::new();
        for (rule, level) in raw {
            match Severity::parse_or_off(level.get_ref()) {
                Some(parsed) => {
                    let origin = SettingOrigin {
                        span: Some(level.span()),
                    };
                    out.insert(rule.clone(), (parsed, origin));
                }
                None => self.bad(
                    ProblemKind::BadValue,
                    format!("unknown severity `{}` for `{rule}`", level.get_ref()),
                    level.span(),
                    "expected error, warning, note or off",
                ),
            }
        }
        out
    }

    /// A `[[kernels]]` entry: a glob `name` or a `regex`, exactly one.
    fn kernel(&mut self, raw: &RawKernel) -> Option<KernelIgnore> {
        let kernel = match (&raw.name, &raw.regex) {
            (Some(glob), None) => KernelMatch::Glob(Pattern::glob(glob)),
            (None, Some(re)) => match Regex::new(re.get_ref()) {
                Ok(r) => KernelMatch::Regex(r),
                Err(e) => {
                    let reason = e.to_string().lines().last().unwrap_or("").to_owned();
                    self.bad(
                        ProblemKind::BadValue,
                        format!("invalid regex: {reason}"),
                        re.span(),
                        "not a valid regular expression",
                    );
                    return None;
                }
            },
            _ => {
                self.bad(
                    ProblemKind::BadValue,
                    "a [[kernels]] entry needs exactly one of `name` (a glob) or `regex`".into(),
                    0..0,
                    "here",
                );
                return None;
            }
        };
        Some(KernelIgnore {
            kernel,
            rules: raw.ignore.iter().map(|s| Pattern::glob(s)).collect(),
        })
    }
}
