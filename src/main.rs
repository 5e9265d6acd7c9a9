//! The `ncu-lint` command line: argument parsing and exit codes.
//!
//! Exit codes: 0 clean, 1 findings at or above the failing severity, 2 an
//! input, rule-pack or usage error.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use ncu_lint::rules::{self, ActiveRule, Severity};
use ncu_lint::{dump, ingest, report};

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
    /// Lint exports of one report with the rule packs in effect.
    Check {
        /// A rule pack file, or a directory of packs, in addition to the default pack.
        #[arg(long = "rules", value_name = "PATH")]
        rules: Vec<std::path::PathBuf>,
        /// Leave the built-in memory pack out.
        #[arg(long)]
        no_default_rules: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
        format: CheckFormat,
        /// Colour in human output (`NO_COLOR` is respected under `auto`).
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
        /// A directory to look for CUDA sources in, by their recorded path or file name.
        #[arg(long, value_name = "DIR")]
        source_root: Option<std::path::PathBuf>,
        /// Rewrite recorded source paths that start with FROM to start with TO.
        #[arg(long, value_name = "FROM=TO", value_parser = ncu_lint::sources::parse_path_map)]
        path_map: Vec<(String, String)>,
        /// The least severity that fails the run (exit 1).
        #[arg(long, value_enum, default_value_t = FailOn::Warning)]
        fail_on: FailOn,
        /// Export files of one report (any `ncu --csv` form, plain or xz; `-` for stdin).
        #[arg(required = true)]
        files: Vec<String>,
    },
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
enum CheckFormat {
    Human,
    Json,
    Sarif,
    Github,
    Junit,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// The least severity that makes `check` exit 1.
#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Note,
    Never,
}

impl FailOn {
    fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Note => Some(Severity::Note),
            FailOn::Never => None,
        }
    }
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
            write_stderr(&format!("{report:?}"));
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> miette::Result<ExitCode> {
    match cli.command {
        Command::Check {
            rules,
            no_default_rules,
            format,
            color,
            source_root,
            path_map,
            fail_on,
            files,
        } => {
            let active = load_rules(&rules, no_default_rules)?;
            let report = ingest::import(&files)?;
            let result = rules::check(&report, &active);
            let text = match format {
                CheckFormat::Human => {
                    let sources =
                        ncu_lint::sources::SourceLookup::new(&report, source_root, path_map);
                    let style = report::human::Style {
                        color: use_color(color),
                        ..Default::default()
                    };
                    report::human::render(&report, &result, &active, &sources, style)
                }
                CheckFormat::Json => to_json_text(&report::json::to_json(&result))?,
                CheckFormat::Sarif => {
                    to_json_text(&report::sarif::to_sarif(&report, &result, &active))?
                }
                CheckFormat::Github => report::github::render(&report, &result),
                CheckFormat::Junit => report::junit::render(&report, &result, fail_on.threshold()),
                CheckFormat::Markdown => report::markdown::render(&result),
            };
            write_stdout(&text)?;
            let failed = fail_on
                .threshold()
                .is_some_and(|t| result.findings.iter().any(|f| f.severity >= t));
            Ok(if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Dump { format, files } => {
            let report = ingest::import(&files)?;
            let text = match format {
                DumpFormat::Json => to_json_text(&dump::to_json(&report))?,
                DumpFormat::Text => dump::to_text(&report),
            };
            write_stdout(&text)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The packs in effect: the built-in ones unless left out, then `paths`.
/// Pack warnings (unknown metric names) go to stderr; errors refuse the run.
fn load_rules(paths: &[std::path::PathBuf], no_default: bool) -> miette::Result<Vec<ActiveRule>> {
    let mut packs = if no_default {
        Vec::new()
    } else {
        rules::builtin_packs()?
    };
    for path in paths {
        packs.extend(rules::load_path(path)?);
    }
    for warning in packs.iter().flat_map(|p| p.warnings.iter()) {
        write_stderr(&format!("{:?}", miette::Report::new(warning.clone())));
    }
    Ok(rules::activate(&packs)?)
}

/// Whether human output is coloured: `always`, or `auto` on a terminal without `NO_COLOR`.
fn use_color(choice: ColorChoice) -> bool {
    use std::io::IsTerminal;
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

fn to_json_text(json: &serde_json::Value) -> miette::Result<String> {
    let mut text = serde_json::to_string_pretty(json)
        .map_err(|e| miette::miette!("cannot write JSON: {e}"))?;
    text.push('\n');
    Ok(text)
}

/// Writes a diagnostic to stderr; a closed stderr is not worth a panic.
fn write_stderr(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
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
