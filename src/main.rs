//! The `ncu-lint` command line: argument parsing and exit codes.
//!
//! Exit codes: 0 clean, 1 findings at or above the failing severity, 2 an
//! input, rule-pack or usage error.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use ncu_lint::{dump, ingest};

/// Lint NVIDIA Nsight Compute profiles (`ncu --csv` exports).
#[derive(Parser)]
#[command(name = "ncu-lint", version, about, long_about = None)]
#[command(after_help = "Exit status: 0 clean, 1 findings, 2 input or usage error.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the model imported from exports of one report.
    Dump {
        /// Output format.
        #[arg(long, value_enum, default_value_t = DumpFormat::Json)]
        format: DumpFormat,
        /// Export files of one report (any `ncu --csv` form, plain or xz; `-` for stdin).
        #[arg(required = true)]
        files: Vec<String>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum DumpFormat {
    Json,
    Text,
}

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
    match run(cli) {
        Ok(code) => code,
        Err(report) => {
            eprintln!("{report:?}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> miette::Result<ExitCode> {
    match cli.command {
        Command::Dump { format, files } => {
            let report = ingest::import(&files)?;
            let text = match format {
                DumpFormat::Json => {
                    let mut s = serde_json::to_string_pretty(&dump::to_json(&report))
                        .map_err(|e| miette::miette!("cannot write JSON: {e}"))?;
                    s.push('\n');
                    s
                }
                DumpFormat::Text => dump::to_text(&report),
            };
            write_stdout(&text)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Writes the whole output at once; a closed pipe is not an error.
fn write_stdout(text: &str) -> miette::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(miette::miette!("cannot write output: {e}"))
        }
        _ => Ok(()),
    }
}
