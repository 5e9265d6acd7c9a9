//! The words configuration and rules share without depending on each
//! other: how serious a finding is ([`Severity`], [`FailOn`]), globs over
//! rule ids and kernel names ([`Pattern`]), and the problems a TOML file the
//! user wrote can have ([`PackProblem`]).

pub mod pattern;
pub mod problem;
pub mod severity;

pub use pattern::Pattern;
pub use problem::{PackProblem, ProblemFile, ProblemKind};
pub use severity::{FailOn, Severity};
