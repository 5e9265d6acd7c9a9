//! The `ncu-lint` command line: argument parsing and exit codes.
//!
//! Exit codes: 0 clean, 1 findings at or above the failing severity, 2 an
//! input, rule-pack, configuration or usage error.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Errors carry the offending line for their diagnostic; they are built once,
// on the way out, so their size costs nothing on the hot path.
#![allow(clippy::result_large_err)]

mod cli;

use std::process::ExitCode;

use clap::Parser;

use cli::args::{Cli, Command};
use cli::commands;

/// mimalloc: the parse makes and frees several small strings per source
/// row, and the system allocator's bookkeeping was a fifth of its time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Messages stay on one line so that CI logs can be searched for them.
    let _ = miette::set_hook(Box::new(|_| {
        Box::new(miette::MietteHandlerOpts::new().wrap_lines(false).build())
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let outcome = match cli.command {
        Command::Check(args) => commands::check(args),
        Command::Profile(args) => commands::profile(args),
        Command::Diff(args) => commands::diff(args),
        Command::Rules(args) => commands::rules(args),
        Command::Explain(args) => commands::explain(args),
        Command::Dump(args) => commands::dump(args),
    };
    match outcome {
        Ok(code) => code,
        Err(report) => {
            cli::output::write_stderr(&format!("{report:?}"));
            ExitCode::from(2)
        }
    }
}
