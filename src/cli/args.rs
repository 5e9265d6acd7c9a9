//! The command line as clap parses it: subcommands, their flags, formats.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use ncu_lint::report::Format;
use ncu_lint::rules::FailOn;

/// Lint NVIDIA Nsight Compute profiles (`ncu --csv` exports).
#[derive(Parser)]
#[command(name = "ncu-lint", version, about, long_about = None)]
#[command(
    after_help = "Exit status: 0 clean, 1 findings, 2 input, rule-pack, configuration or usage error."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Lint exports of one report with the rules in effect.
    Check(CheckArgs),
    /// Profile an application with ncu (the sections the rules need), then lint the report.
    Profile(ProfileArgs),
    /// Compare two profiles: new and fixed findings, and regressions.
    Diff(DiffArgs),
    /// List the rules in effect (id, severity, pack, title), or check or test a pack.
    Rules(RulesArgs),
    /// Print a rule's documentation, inputs and parameters.
    Explain(ExplainArgs),
    /// Print the model imported from exports of one report.
    Dump(DumpArgs),
}

/// `ncu-lint check`.
#[derive(Args)]
pub(crate) struct CheckArgs {
    /// Write the output to FILE instead of standard output: whole, or not
    /// at all (written beside it, then renamed). The exit status is the same.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) rules: RuleOptions,
    #[command(flatten)]
    pub(crate) input: InputOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Colour in human output (`NO_COLOR` is respected under `auto`).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
    /// Say which ncu version, GPU and sections the report holds, and
    /// what each skipped rule missed.
    #[arg(long, short = 'v')]
    pub(crate) verbose: bool,
    /// Show notes in full (findings under their rule's worth-it threshold,
    /// and informational ones); otherwise they are counted in one line.
    #[arg(long)]
    pub(crate) all: bool,
    /// Show kernels' full names (return type, parameters, templates).
    #[arg(long)]
    pub(crate) full_names: bool,
    /// A directory to look for CUDA sources in, by their recorded path or file name.
    #[arg(long, value_name = "DIR")]
    pub(crate) source_root: Option<PathBuf>,
    /// Rewrite recorded source paths that start with FROM to start with TO.
    #[arg(long, value_name = "FROM=TO", value_parser = ncu_lint::cuda_source::parse_path_map)]
    pub(crate) path_map: Vec<(String, String)>,
    /// The least severity that fails the run (exit 1) [default: warning, or the config's fail_on].
    #[arg(long, value_enum)]
    pub(crate) fail_on: Option<FailOn>,
    /// Report only findings not in this baseline, and list its stale entries.
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<PathBuf>,
    /// Record the current findings as the baseline in FILE (and exit 0).
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub(crate) write_baseline: Option<PathBuf>,
    /// Lint each file as a report of its own, several at once, instead of
    /// as pages of one report; the findings are reported together.
    #[arg(long)]
    pub(crate) each: bool,
    /// Reports linted at once under --each [default: the number of cores].
    #[arg(long, short = 'j', value_name = "N", requires = "each")]
    pub(crate) jobs: Option<std::num::NonZeroUsize>,
    /// Export files of one report (any `ncu --csv` form, plain or xz; `-` for
    /// stdin), or an `.ncu-rep` report (plain or xz, read natively, no ncu
    /// needed); with --each, one report per file. A cut or damaged report
    /// is linted up to the damage, which is named with its byte offset and
    /// the results read before it, and the run exits 2.
    #[arg(required = true)]
    pub(crate) files: Vec<String>,
}

/// `ncu-lint profile`.
#[derive(Args)]
pub(crate) struct ProfileArgs {
    #[command(flatten)]
    pub(crate) rules: RuleOptions,
    #[command(flatten)]
    pub(crate) input: InputOptions,
    /// The report to write (ncu adds `.ncu-rep`).
    #[arg(short = 'o', long, default_value = "ncu-lint-profile")]
    pub(crate) output: PathBuf,
    /// Profile with `--set full` instead of the sections the rules name.
    #[arg(long)]
    pub(crate) set_full: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// The least severity that fails the run (exit 1).
    #[arg(long, value_enum)]
    pub(crate) fail_on: Option<FailOn>,
    /// The application and its arguments, after `--`.
    #[arg(last = true, required = true)]
    pub(crate) app: Vec<String>,
}

/// `ncu-lint diff`.
#[derive(Args)]
pub(crate) struct DiffArgs {
    /// Write the output to FILE instead of standard output: whole, or not
    /// at all (written beside it, then renamed). The exit status is the same.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) rules: RuleOptions,
    #[command(flatten)]
    pub(crate) input: InputOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    pub(crate) format: DiffFormat,
    /// A quantity regresses when worse by more than this fraction of its base value...
    #[arg(long, default_value_t = 0.05)]
    pub(crate) tolerance_rel: f64,
    /// ...and by more than this amount.
    #[arg(long, default_value_t = 0.01)]
    pub(crate) tolerance_abs: f64,
    /// A place's estimated time to gain regresses when it grows by more than
    /// this many nanoseconds (and by more than --tolerance-rel).
    #[arg(long, default_value_t = 1000.0)]
    pub(crate) tolerance_ns: f64,
    /// The least severity of a new finding that fails the run.
    #[arg(long, value_enum)]
    pub(crate) fail_on: Option<FailOn>,
    /// A kernel's change of time under this percentage of its base time is
    /// no measurable change (raised to what repeated launches of it show).
    #[arg(long, value_name = "PCT", default_value_t = 3.0, value_parser = percent)]
    pub(crate) noise: f64,
    /// Fail the run when a kernel got slower by more than PCT percent of its
    /// base time (and more than the noise).
    #[arg(long, value_name = "PCT", value_parser = percent)]
    pub(crate) fail_on_slower: Option<f64>,
    /// Export files of the base profile.
    #[arg(required = true)]
    pub(crate) base: Vec<String>,
    /// Export files of the head profile.
    #[arg(long, required = true, num_args = 1..)]
    pub(crate) against: Vec<String>,
}

/// `ncu-lint rules`.
#[derive(Args)]
pub(crate) struct RulesArgs {
    #[command(flatten)]
    pub(crate) rules: RuleOptions,
    #[command(subcommand)]
    pub(crate) action: Option<RulesAction>,
}

/// `ncu-lint explain`.
#[derive(Args)]
pub(crate) struct ExplainArgs {
    #[command(flatten)]
    pub(crate) rules: RuleOptions,
    /// The rule id.
    pub(crate) id: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub(crate) format: ExplainFormat,
}

/// `ncu-lint dump`.
#[derive(Args)]
pub(crate) struct DumpArgs {
    /// Write the output to FILE instead of standard output: whole, or not
    /// at all (written beside it, then renamed). The exit status is the same.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) input: InputOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DumpFormat::Json)]
    pub(crate) format: DumpFormat,
    /// Export files of one report (any `ncu --csv` form, plain or xz; `-` for stdin).
    #[arg(required = true)]
    pub(crate) files: Vec<String>,
}

#[derive(Subcommand)]
pub(crate) enum RulesAction {
    /// Validate a pack (file or directory) and its tests without running a profile.
    Check {
        /// The pack.
        path: PathBuf,
    },
    /// Run the tests a pack carries: exports and the findings they must and must not give.
    Test {
        /// The pack.
        path: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum DiffFormat {
    Human,
    Json,
    Markdown,
    Html,
}

/// How inputs are read.
#[derive(Args)]
pub(crate) struct InputOptions {
    /// The `ncu` binary that exports `.ncu-rep` reports [default: $NCU, else ncu on PATH].
    #[arg(long, value_name = "PATH")]
    pub(crate) ncu: Option<PathBuf>,
    /// Read `.ncu-rep` reports through `ncu -i` exports instead of natively.
    #[arg(long)]
    pub(crate) ncu_export: bool,
}

/// Which rules run, and how: packs, configuration and overrides.
#[derive(Args)]
pub(crate) struct RuleOptions {
    /// A rule pack file, or a directory of packs, in addition to the default pack.
    #[arg(long = "rules", value_name = "PATH")]
    pub(crate) packs: Vec<PathBuf>,
    /// Leave the built-in packs (memory, launch) out.
    #[arg(long)]
    pub(crate) no_default_rules: bool,
    /// The configuration file [default: ncu-lint.toml here or in a directory above].
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long, conflicts_with = "config")]
    pub(crate) no_config: bool,
    /// Run only these rules (ids or globs; `ncu/*` adds Nsight Compute's own rules).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub(crate) select: Vec<String>,
    /// Do not run these rules (ids or globs).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub(crate) ignore: Vec<String>,
    /// Set a rule's severity: ID=error|warning|note|off.
    #[arg(long, value_name = "ID=LEVEL")]
    pub(crate) severity: Vec<String>,
    /// Set a rule parameter: ID.NAME=VALUE.
    #[arg(long, value_name = "ID.NAME=VALUE")]
    pub(crate) param: Vec<String>,
    /// Findings in kernels of libraries users do not write (cuBLAS, cuDNN,
    /// CUTLASS, ATen, NCCL, ...): notes that do not fail the gate, or kept
    /// at their rule's severity [default: note, or the config's library_findings].
    #[arg(long, value_enum, value_name = "WHAT")]
    pub(crate) library_findings: Option<LibraryFindings>,
}

/// What findings in library kernels are.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum LibraryFindings {
    /// Notes, with a fix about what the user controls.
    Note,
    /// Findings at their rule's severity.
    Keep,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ExplainFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum DumpFormat {
    Json,
    Text,
}

/// A percentage: a number from 0 up (`5`, `2.5`).
fn percent(text: &str) -> Result<f64, String> {
    match text.trim_end_matches('%').parse::<f64>() {
        Ok(pct) if pct.is_finite() && pct >= 0.0 => Ok(pct),
        _ => Err(format!(
            "`{text}` is not a percentage (a number from 0 up, as 5 or 2.5)"
        )),
    }
}
