//! Project configuration: `ncu-lint.toml`, found from the working directory
//! upward (or given with `--config`), and the command-line flags that
//! override it.
//!
//! ```toml
//! select = ["*"]                      # rule ids or globs; `ncu/*` adds Nsight Compute's own rules
//! ignore = ["global-store-efficiency"]
//! packs = ["team-rules/"]             # relative to this file
//! fail_on = "warning"
//! library_findings = "note"   # or "keep": cuBLAS, cuDNN, ... kernels fail the gate too
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

mod apply;
mod parse;

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use miette::NamedSource;
use regex::Regex;

pub use apply::RuleNames;
pub use parse::parse;

pub use crate::vocab::Pattern;
use crate::vocab::{FailOn, PackProblem, ProblemKind, Severity};

/// The file name looked for.
pub const FILE_NAME: &str = "ncu-lint.toml";

/// Kernel names, by glob or regular expression.
#[derive(Debug, Clone)]
pub enum KernelMatch {
    /// `name = "cutlass*"`.
    Glob(Pattern),
    /// `regex = "^void at::native::"`.
    Regex(Regex),
}

impl KernelMatch {
    /// Whether `kernel` matches.
    pub fn is_match(&self, kernel: &str) -> bool {
        match self {
            KernelMatch::Glob(pattern) => pattern.matches(kernel),
            KernelMatch::Regex(regex) => regex.is_match(kernel),
        }
    }
}

/// Rules ignored for kernels whose names match.
#[derive(Debug, Clone)]
pub struct KernelIgnore {
    /// Matches kernel names.
    pub kernel: KernelMatch,
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
    /// Whether findings in library kernels keep their severity (`keep`)
    /// instead of being notes; `None` when not set (notes).
    pub keep_library_findings: Option<bool>,
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

/// `ncu-lint.toml` in `start` or the nearest directory above it.
pub fn discover(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|candidate| candidate.is_file())
}

/// A problem in the configuration `text` of file `path`.
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

impl Settings {
    /// Whether Nsight Compute's own rule `ncu/<name>` is selected.
    pub fn selects_ncu_rule(&self, id: &str) -> bool {
        self.select.iter().any(|p| p.matches(id))
            && !self.ignore.iter().any(|p| p.matches(id))
            && !matches!(self.severity.get(id), Some((None, _)))
    }

    /// Whether any of Nsight Compute's own rules may be selected: a
    /// selection names `ncu/...` or is a wildcard that could match one.
    pub fn selects_any_ncu_rule(&self) -> bool {
        self.select.iter().any(|p| {
            let text = p.text();
            text.starts_with("ncu") || text.starts_with('*') || text.starts_with('?')
        })
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
        // Brackets and braces are part of kernel names, not glob syntax.
        let lambda = Pattern::glob("*::{lambda(int)#1}*");
        assert!(lambda.matches("void at::native::f<float>::{lambda(int)#1}(int)"));
        assert!(!lambda.matches("void at::native::f<float>::{lambda(int)#2}(int)"));
        assert!(Pattern::glob("operator[]?").matches("operator[]2"));
        assert!(!Pattern::glob("a[bc]").matches("ab"));
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
