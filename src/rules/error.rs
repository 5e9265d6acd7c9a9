//! Rule packs refused or unreadable; the problems they list are
//! [`PackProblem`]s, shared with the configuration.

use miette::Diagnostic;

pub use crate::vocab::problem::{PackProblem, ProblemFile, ProblemKind};

/// A pack refused for its errors; every problem found is listed.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("rule pack {path} has {} error(s); it was not loaded", problems.iter().filter(|p| p.is_error()).count())]
#[diagnostic(code(ncu_lint::pack::refused))]
pub struct PackError {
    /// The pack's path.
    pub path: String,
    /// Each problem, errors and warnings.
    #[related]
    pub problems: Vec<PackProblem>,
}

/// A pack file that could not be read at all.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("cannot read rule pack {path}: {source}")]
#[diagnostic(code(ncu_lint::pack::io))]
pub struct PackReadError {
    /// The path.
    pub path: String,
    /// The reason.
    #[source]
    pub source: std::io::Error,
}
