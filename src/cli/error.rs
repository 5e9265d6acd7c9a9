//! Errors of the command line itself, each with its diagnostic code:
//! malformed flags, output that cannot be written, profiling that fails.

use std::path::PathBuf;

/// What went wrong outside the library's own errors.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum CliError {
    /// `--severity` not of the form ID=LEVEL.
    #[error("--severity {0}: expected ID=error|warning|note|off")]
    #[diagnostic(code(ncu_lint::usage::severity))]
    Severity(String),
    /// `--param` not of the form ID.NAME=NUMBER.
    #[error("--param {0}: expected ID.NAME=VALUE with a number")]
    #[diagnostic(code(ncu_lint::usage::param))]
    Param(String),
    /// `explain` of a rule that is not in effect.
    #[error("no rule `{id}` is in effect")]
    #[diagnostic(
        code(ncu_lint::explain::unknown_rule),
        help("rules in effect: {known}")
    )]
    UnknownRule {
        /// The id asked for.
        id: String,
        /// The ids in effect, comma-separated.
        known: String,
    },
    /// Standard output could not be written.
    #[error("cannot write output: {0}")]
    #[diagnostic(code(ncu_lint::output::write))]
    Output(#[source] std::io::Error),
    /// `--output` could not be written.
    #[error("cannot write {}: {source}", path.display())]
    #[diagnostic(code(ncu_lint::output::file))]
    OutputFile {
        /// The output file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// `--write-baseline` could not write its file.
    #[error("cannot write baseline {}: {source}", path.display())]
    #[diagnostic(code(ncu_lint::baseline::write))]
    BaselineWrite {
        /// The baseline file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// `profile` without an `ncu` binary.
    #[error("profiling needs `ncu`, which was not found")]
    #[diagnostic(
        code(ncu_lint::profile::no_ncu),
        help("give it with --ncu PATH or the NCU environment variable, or put ncu on PATH")
    )]
    NoNcu,
    /// The report's directory could not be made.
    #[error("cannot create {}: {source}", path.display())]
    #[diagnostic(code(ncu_lint::profile::output_dir))]
    OutputDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// ncu could not be started.
    #[error("cannot run {}: {source}", ncu.display())]
    #[diagnostic(code(ncu_lint::profile::launch))]
    Launch {
        /// The ncu binary.
        ncu: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// ncu ran and failed.
    #[error("ncu exited with {0} while profiling")]
    #[diagnostic(code(ncu_lint::profile::failed))]
    Profiling(std::process::ExitStatus),
}
