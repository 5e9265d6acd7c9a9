//! The `ncu-lint` command line: argument parsing and exit codes.
//!
//! Exit codes: 0 clean, 1 findings at or above the failing severity, 2 an
//! input, rule-pack, configuration or usage error.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use ncu_lint::config::{self, Pattern, Settings};
use ncu_lint::rules::{self, ActiveRule, Severity};
use ncu_lint::sources::SourceLookup;
use ncu_lint::{dump, ingest, lint, report};

/// Lint NVIDIA Nsight Compute profiles (`ncu --csv` exports).
#[derive(Parser)]
#[command(name = "ncu-lint", version, about, long_about = None)]
#[command(
    after_help = "Exit status: 0 clean, 1 findings, 2 input, rule-pack, configuration or usage error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Lint exports of one report with the rules in effect.
    Check {
        #[command(flatten)]
        rules: RuleOptions,
        #[command(flatten)]
        input: InputOptions,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
        format: CheckFormat,
        /// Colour in human output (`NO_COLOR` is respected under `auto`).
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
        /// Say which ncu version, GPU and sections the report holds, and
        /// what each skipped rule missed.
        #[arg(long, short = 'v')]
        verbose: bool,
        /// A directory to look for CUDA sources in, by their recorded path or file name.
        #[arg(long, value_name = "DIR")]
        source_root: Option<PathBuf>,
        /// Rewrite recorded source paths that start with FROM to start with TO.
        #[arg(long, value_name = "FROM=TO", value_parser = ncu_lint::sources::parse_path_map)]
        path_map: Vec<(String, String)>,
        /// The least severity that fails the run (exit 1) [default: warning, or the config's fail_on].
        #[arg(long, value_enum)]
        fail_on: Option<FailOn>,
        /// Report only findings not in this baseline, and list its stale entries.
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
        /// Record the current findings as the baseline in FILE (and exit 0).
        #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
        write_baseline: Option<PathBuf>,
        /// Lint each file as a report of its own, several at once, instead of
        /// as pages of one report; the findings are reported together.
        #[arg(long)]
        each: bool,
        /// Reports linted at once under --each [default: the number of cores].
        #[arg(long, short = 'j', value_name = "N", requires = "each")]
        jobs: Option<std::num::NonZeroUsize>,
        /// Export files of one report (any `ncu --csv` form, plain or xz; `-` for
        /// stdin), or an `.ncu-rep` report (exported with ncu); with --each,
        /// one report per file.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Profile an application with ncu (the sections the rules need), then lint the report.
    Profile {
        #[command(flatten)]
        rules: RuleOptions,
        #[command(flatten)]
        input: InputOptions,
        /// The report to write (ncu adds `.ncu-rep`).
        #[arg(short = 'o', long, default_value = "ncu-lint-profile")]
        output: PathBuf,
        /// Profile with `--set full` instead of the sections the rules name.
        #[arg(long)]
        set_full: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
        format: CheckFormat,
        /// The least severity that fails the run (exit 1).
        #[arg(long, value_enum)]
        fail_on: Option<FailOn>,
        /// The application and its arguments, after `--`.
        #[arg(last = true, required = true)]
        app: Vec<String>,
    },
    /// Compare two profiles: new and fixed findings, and regressions.
    Diff {
        #[command(flatten)]
        rules: RuleOptions,
        #[command(flatten)]
        input: InputOptions,
        /// Output format.
        #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
        format: DiffFormat,
        /// A quantity regresses when worse by more than this fraction of its base value...
        #[arg(long, default_value_t = 0.05)]
        tolerance_rel: f64,
        /// ...and by more than this amount.
        #[arg(long, default_value_t = 0.01)]
        tolerance_abs: f64,
        /// The least severity of a new finding that fails the run.
        #[arg(long, value_enum)]
        fail_on: Option<FailOn>,
        /// Export files of the base profile.
        #[arg(required = true)]
        base: Vec<String>,
        /// Export files of the head profile.
        #[arg(long, required = true, num_args = 1..)]
        against: Vec<String>,
    },
    /// List the rules in effect (id, severity, pack, title), or check or test a pack.
    Rules {
        #[command(flatten)]
        rules: RuleOptions,
        #[command(subcommand)]
        action: Option<RulesAction>,
    },
    /// Print a rule's documentation, inputs and parameters.
    Explain {
        #[command(flatten)]
        rules: RuleOptions,
        /// The rule id.
        id: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
        format: ExplainFormat,
    },
    /// Print the model imported from exports of one report.
    Dump {
        #[command(flatten)]
        input: InputOptions,
        /// Output format.
        #[arg(long, value_enum, default_value_t = DumpFormat::Json)]
        format: DumpFormat,
        /// Export files of one report (any `ncu --csv` form, plain or xz; `-` for stdin).
        #[arg(required = true)]
        files: Vec<String>,
    },
}

#[derive(Subcommand)]
enum RulesAction {
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
enum DiffFormat {
    Human,
    Json,
    Markdown,
}

/// How inputs are read.
#[derive(Args)]
struct InputOptions {
    /// The `ncu` binary that exports `.ncu-rep` reports [default: $NCU, else ncu on PATH].
    #[arg(long, value_name = "PATH")]
    ncu: Option<PathBuf>,
}

/// Which rules run, and how: packs, configuration and overrides.
#[derive(Args)]
struct RuleOptions {
    /// A rule pack file, or a directory of packs, in addition to the default pack.
    #[arg(long = "rules", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// Leave the built-in memory pack out.
    #[arg(long)]
    no_default_rules: bool,
    /// The configuration file [default: ncu-lint.toml here or in a directory above].
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long, conflicts_with = "config")]
    no_config: bool,
    /// Run only these rules (ids or globs; `ncu/*` adds Nsight Compute's own rules).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    select: Vec<String>,
    /// Do not run these rules (ids or globs).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    ignore: Vec<String>,
    /// Set a rule's severity: ID=error|warning|note|off.
    #[arg(long, value_name = "ID=LEVEL")]
    severity: Vec<String>,
    /// Set a rule parameter: ID.NAME=VALUE.
    #[arg(long, value_name = "ID.NAME=VALUE")]
    param: Vec<String>,
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
enum ExplainFormat {
    Text,
    Json,
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
            input,
            format,
            color,
            verbose,
            source_root,
            path_map,
            fail_on,
            baseline,
            write_baseline,
            each,
            jobs,
            files,
        } => {
            let (active, settings) = load_rules(&rules)?;
            let mut progress = Progress::for_inputs(&files);
            let (report, checked) = if each {
                let mut reports = Vec::new();
                let mut _unpacked = Vec::new();
                for file in &files {
                    let (sources, unpacked) = sources(std::slice::from_ref(file), &input)?;
                    reports.push(sources);
                    _unpacked.extend(unpacked);
                }
                let jobs = jobs
                    .or_else(|| std::thread::available_parallelism().ok())
                    .map_or(1, |n| n.get());
                let total = reports.len();
                ncu_lint::each::import_and_check_each(reports, &active, jobs, &mut |n| {
                    progress.update(&format!("{n} of {total} reports checked"))
                })?
            } else {
                let (sources, _unpacked) = sources(&files, &input)?;
                lint::import_and_check(sources, &active, &mut |n| {
                    progress.update(&format!("{n} results checked"))
                })?
            };
            progress.finish();
            report_profiler_errors(&report);
            report_missing_lineinfo(&report, &active);
            let sources = SourceLookup::new(&report, source_root, path_map);
            let mut result = lint::finish(&report, checked, &settings, &sources);
            if let Some(path) = write_baseline {
                let text = ncu_lint::baseline::Baseline::from_findings(&result.findings).to_toml();
                ncu_lint::baseline::write_atomically(&path, &text).map_err(|e| {
                    miette::miette!("cannot write baseline {}: {e}", path.display())
                })?;
                write_stderr(&format!(
                    "ncu-lint: wrote {} finding(s) to baseline {}",
                    result.findings.len(),
                    path.display()
                ));
                return Ok(ExitCode::SUCCESS);
            }
            let mut stale = Vec::new();
            if let Some(path) = &baseline {
                stale = ncu_lint::baseline::Baseline::load(path)?.filter(&mut result);
            }
            let threshold = match fail_on {
                Some(f) => f.threshold(),
                None => settings.fail_on.unwrap_or(Some(Severity::Warning)),
            };
            let style = report::human::Style {
                color: use_color(color),
                verbose,
                ..Default::default()
            };
            let output = Output {
                report: &report,
                result: &result,
                rules: &active,
                sources: &sources,
                style,
                threshold,
            };
            let code = output.write(format)?;
            for entry in &stale {
                write_stderr(&format!(
                    "ncu-lint: stale baseline entry: {} on `{}` at {} no longer occurs",
                    entry.rule, entry.kernel, entry.place
                ));
            }
            Ok(code)
        }
        Command::Profile {
            rules,
            input,
            output,
            set_full,
            format,
            fail_on,
            app,
        } => {
            let (active, settings) = load_rules(&rules)?;
            let ncu = ncu_lint::ncu::find(input.ncu.as_deref()).ok_or_else(|| {
                miette::miette!(
                    code = "ncu_lint::ncu::not_found",
                    help = "give it with --ncu PATH or the NCU environment variable, or put ncu on PATH",
                    "profiling needs `ncu`, which was not found"
                )
            })?;
            let sections: Vec<String> = if set_full {
                Vec::new()
            } else {
                let mut all: Vec<String> = Vec::new();
                for rule in &active {
                    for section in &rule.rule.sections {
                        if !all.contains(section) {
                            all.push(section.clone());
                        }
                    }
                }
                all
            };
            let report_path = output.with_extension("ncu-rep");
            if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| miette::miette!("cannot create {}: {e}", dir.display()))?;
            }
            let mut command = ncu_lint::ncu::profile_command(&ncu, &output, &sections, &app);
            if set_full {
                command.arg("--set").arg("full");
            }
            write_stderr(&format!("ncu-lint: {}", ncu_lint::ncu::describe(&command)));
            // The application's and ncu's own output go to stderr: stdout is the lint report.
            let status = command
                .stdout(std::io::stderr())
                .status()
                .map_err(|e| miette::miette!("cannot run {}: {e}", ncu.display()))?;
            if !status.success() {
                return Err(miette::miette!("ncu exited with {status} while profiling"));
            }
            let files = vec![report_path.display().to_string()];
            let (sources, _reports) = sources(&files, &input)?;
            let (report, checked) = lint::import_and_check(sources, &active, &mut |_| {})?;
            let sources = SourceLookup::new(&report, None, Vec::new());
            let result = lint::finish(&report, checked, &settings, &sources);
            let threshold = match fail_on {
                Some(f) => f.threshold(),
                None => settings.fail_on.unwrap_or(Some(Severity::Warning)),
            };
            Output {
                report: &report,
                result: &result,
                rules: &active,
                sources: &sources,
                style: report::human::Style::default(),
                threshold,
            }
            .write(format)
        }
        Command::Diff {
            rules,
            input,
            format,
            tolerance_rel,
            tolerance_abs,
            fail_on,
            base,
            against,
        } => {
            let (active, settings) = load_rules(&rules)?;
            let (base_sources, _base_reports) = sources(&base, &input)?;
            let (head_sources, _head_reports) = sources(&against, &input)?;
            // Both profiles are streamed and checked at once, as `check` does.
            // (Import errors are large, but built once, on the way out.)
            #[allow(clippy::result_large_err)]
            let (base_checked, head_checked) = std::thread::scope(|scope| {
                let base =
                    scope.spawn(|| lint::import_and_check(base_sources, &active, &mut |_| {}));
                let head = lint::import_and_check(head_sources, &active, &mut |_| {});
                let base = base
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                (base, head)
            });
            let (base_report, base_checked) = base_checked?;
            let (head_report, head_checked) = head_checked?;
            let base_sources = SourceLookup::new(&base_report, None, Vec::new());
            let head_sources = SourceLookup::new(&head_report, None, Vec::new());
            let base_result = lint::finish(&base_report, base_checked, &settings, &base_sources);
            let head_result = lint::finish(&head_report, head_checked, &settings, &head_sources);
            let tolerance = ncu_lint::diff::Tolerance {
                relative: tolerance_rel,
                absolute: tolerance_abs,
            };
            let result = ncu_lint::diff::diff(
                (&base_report, &base_result),
                (&head_report, &head_result),
                tolerance,
            );
            let text = match format {
                DiffFormat::Human => ncu_lint::diff::to_text(&result),
                DiffFormat::Json => to_json_text(&ncu_lint::diff::to_json(&result))?,
                DiffFormat::Markdown => ncu_lint::diff::to_markdown(&result),
            };
            write_stdout(&text)?;
            let threshold = match fail_on {
                Some(f) => f.threshold(),
                None => settings.fail_on.unwrap_or(Some(Severity::Warning)),
            };
            Ok(if result.failed(threshold) {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Rules {
            rules: _,
            action: Some(action),
        } => {
            let (path, run_tests) = match action {
                RulesAction::Check { path } => (path, false),
                RulesAction::Test { path } => (path, true),
            };
            let packs = rules::load_path(&path)?;
            let mut text = String::new();
            let mut failed = false;
            for pack in &packs {
                for warning in &pack.warnings {
                    write_stderr(&format!("{:?}", miette::Report::new(warning.clone())));
                }
                let dir = std::path::Path::new(pack.source.name())
                    .parent()
                    .unwrap_or(std::path::Path::new("."))
                    .to_owned();
                let problems = rules::packtest::check_tests(pack, &dir);
                if !problems.is_empty() {
                    return Err(rules::PackError {
                        path: pack.source.name().to_owned(),
                        problems,
                    }
                    .into());
                }
                text.push_str(&format!(
                    "pack {} {}: {} rules, {} tests: valid\n",
                    pack.name,
                    pack.version,
                    pack.rules.len(),
                    pack.tests.len()
                ));
                if run_tests {
                    for outcome in rules::packtest::run_tests(pack, &dir)? {
                        let status = if outcome.failures.is_empty() {
                            "ok"
                        } else {
                            "FAILED"
                        };
                        text.push_str(&format!("test {} ... {status}\n", outcome.name));
                        for failure in &outcome.failures {
                            text.push_str(&format!("    {failure}\n"));
                        }
                        failed |= !outcome.failures.is_empty();
                    }
                }
            }
            write_stdout(&text)?;
            Ok(if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Rules {
            rules,
            action: None,
        } => {
            let (active, _) = load_rules(&rules)?;
            let mut text = String::new();
            for rule in &active {
                text.push_str(&format!(
                    "{:<26} {:<8} {:<10} {}\n",
                    rule.rule.id,
                    rule.severity.name(),
                    rule.rule.pack,
                    rule.rule.title
                ));
            }
            write_stdout(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain { rules, id, format } => {
            let (active, _) = load_rules(&rules)?;
            let Some(rule) = active.iter().find(|r| r.rule.id == id) else {
                let known: Vec<&str> = active.iter().map(|r| r.rule.id.as_str()).collect();
                return Err(miette::miette!(
                    code = "ncu_lint::explain::unknown_rule",
                    help = format!("rules in effect: {}", known.join(", ")),
                    "no rule `{id}` is in effect"
                ));
            };
            let text = match format {
                ExplainFormat::Text => ncu_lint::rules::explain::to_text(rule),
                ExplainFormat::Json => to_json_text(&ncu_lint::rules::explain::to_json(rule))?,
            };
            write_stdout(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Dump {
            input,
            format,
            files,
        } => {
            let (sources, _reports) = sources(&files, &input)?;
            let report = ingest::import_sources(sources, None)?;
            match format {
                DumpFormat::Json => write_stdout_with(|out| dump::write_json(&report, out))?,
                DumpFormat::Text => write_stdout(&dump::to_text(&report))?,
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A count of results checked on stderr, for large inputs when stderr is a
/// terminal; nothing otherwise.
struct Progress {
    shown: bool,
    last: std::time::Instant,
}

impl Progress {
    /// Inputs of 64 MB or more, read while a person watches, get a counter.
    fn for_inputs(files: &[String]) -> Progress {
        use std::io::IsTerminal;
        let large = files
            .iter()
            .filter_map(|f| std::fs::metadata(f).ok())
            .map(|m| m.len())
            .sum::<u64>()
            >= 64 << 20;
        Progress {
            shown: large && std::io::stderr().is_terminal(),
            last: std::time::Instant::now(),
        }
    }

    fn update(&mut self, done: &str) {
        if self.shown && self.last.elapsed().as_millis() >= 200 {
            self.last = std::time::Instant::now();
            let _ = write!(std::io::stderr(), "\rncu-lint: {done}");
        }
    }

    fn finish(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}

/// A lint's outcome and how to show it.
struct Output<'a> {
    report: &'a ncu_lint::model::Report,
    result: &'a rules::CheckResult,
    rules: &'a [ActiveRule],
    sources: &'a SourceLookup<'a>,
    style: report::human::Style,
    threshold: Option<Severity>,
}

impl Output<'_> {
    /// Writes the findings in `format` and gives the exit code: 1 when a
    /// finding reaches the failing severity.
    fn write(&self, format: CheckFormat) -> miette::Result<ExitCode> {
        let (report, result) = (self.report, self.result);
        match format {
            CheckFormat::Human => write_stdout(&report::human::render(
                report,
                result,
                self.rules,
                self.sources,
                self.style,
            ))?,
            CheckFormat::Json => {
                write_stdout_with(|out| report::json::write_json(report, result, self.rules, out))?
            }
            CheckFormat::Sarif => write_stdout_with(|out| {
                report::sarif::write_sarif(report, result, self.rules, out)
            })?,
            CheckFormat::Github => write_stdout(&report::github::render(report, result))?,
            CheckFormat::Junit => {
                write_stdout(&report::junit::render(report, result, self.threshold))?
            }
            CheckFormat::Markdown => write_stdout(&report::markdown::render(result))?,
        }
        let failed = self
            .threshold
            .is_some_and(|t| result.findings.iter().any(|f| f.severity >= t));
        Ok(if failed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        })
    }
}

/// An export that ncu wrote partially (`==ERROR==` lines, then some results)
/// is linted for what is there; the errors it carries are said on stderr, so
/// that missing kernels are not taken for clean ones.
fn report_profiler_errors(report: &ncu_lint::model::Report) {
    for file in &report.files {
        for message in file.messages.iter().filter(|m| m.level == "ERROR") {
            write_stderr(&format!(
                "ncu-lint: warning: {}:{}: the profiler reported an error; results it failed to profile are missing: {}",
                file.path, message.line, message.text
            ));
        }
    }
    for warning in &report.warnings {
        let path = report
            .files
            .get(warning.origin.file)
            .map_or("?", |f| f.path.as_str());
        write_stderr(&format!(
            "ncu-lint: warning: {path}:{}: {}{}",
            warning.origin.line,
            warning.message,
            if warning.count > 1 {
                format!(" ({} times)", warning.count)
            } else {
                String::new()
            }
        ));
    }
}

/// A source page of a binary built without `-lineinfo` is linted without
/// CUDA lines; said once on stderr, naming the rules that lose them.
fn report_missing_lineinfo(report: &ncu_lint::model::Report, rules: &[ActiveRule]) {
    let coverage = ncu_lint::coverage::Coverage::of_report(report).with_line_rules(rules);
    if let Some(warning) = coverage.lineinfo_warning() {
        write_stderr(&format!("ncu-lint: warning: {warning}"));
    }
}

/// The inputs for `files`: CSV exports as they are, and each `.ncu-rep`
/// report as the `ncu -i` commands that export the pages the rules read.
/// The report guards returned keep unpacked copies alive until dropped.
fn sources(
    files: &[String],
    options: &InputOptions,
) -> miette::Result<(Vec<ingest::Source>, Vec<ncu_lint::ncu::ReportFile>)> {
    let mut sources = Vec::new();
    let mut reports = Vec::new();
    for file in files {
        if file == "-" || !ncu_lint::ncu::is_report(file) {
            sources.push(ingest::Source::Path(file.clone()));
            continue;
        }
        let ncu = ncu_lint::ncu::find(options.ncu.as_deref()).ok_or_else(|| {
            ncu_lint::ncu::NcuError::NotFound {
                report: file.clone(),
            }
        })?;
        let report = ncu_lint::ncu::ReportFile::open(file)?;
        for (page, args) in ncu_lint::ncu::PAGES {
            sources.push(ingest::Source::Command {
                name: format!("{file} ({page})"),
                command: ncu_lint::ncu::export_command(&ncu, report.path(), args),
            });
        }
        reports.push(report);
    }
    Ok((sources, reports))
}

/// The rules in effect and the settings: the configuration file (found or
/// given), then the command line over it; the built-in packs unless left
/// out, the config's packs, then `--rules`. Pack warnings go to stderr.
fn load_rules(options: &RuleOptions) -> miette::Result<(Vec<ActiveRule>, Settings)> {
    let mut settings = match (&options.config, options.no_config) {
        (Some(path), _) => config::load(path)?,
        (None, true) => Settings::default(),
        (None, false) => match std::env::current_dir()
            .ok()
            .and_then(|d| config::discover(&d))
        {
            Some(path) => config::load(&path)?,
            None => Settings::default(),
        },
    };
    if !options.select.is_empty() {
        settings.select = options.select.iter().map(|s| Pattern::glob(s)).collect();
    }
    settings
        .ignore
        .extend(options.ignore.iter().map(|s| Pattern::glob(s)));
    for entry in &options.severity {
        let (id, level) = entry
            .split_once('=')
            .and_then(|(id, level)| Some((id, config::parse_level(level)?)))
            .ok_or_else(|| {
                miette::miette!("--severity {entry}: expected ID=error|warning|note|off")
            })?;
        settings
            .severity
            .insert(id.to_owned(), (level, config::Origin::default()));
    }
    for entry in &options.param {
        let parsed = entry.split_once('=').and_then(|(key, value)| {
            let (id, name) = key.rsplit_once('.')?;
            Some((id, name, value.trim().parse::<f64>().ok()?))
        });
        let (id, name, value) = parsed.ok_or_else(|| {
            miette::miette!("--param {entry}: expected ID.NAME=VALUE with a number")
        })?;
        settings.params.insert(
            (id.to_owned(), name.to_owned()),
            (value, config::Origin::default()),
        );
    }
    let mut packs = if options.no_default_rules {
        Vec::new()
    } else {
        rules::builtin_packs()?
    };
    for path in settings.packs.iter().chain(options.packs.iter()) {
        packs.extend(rules::load_path(path)?);
    }
    for warning in packs.iter().flat_map(|p| p.warnings.iter()) {
        write_stderr(&format!("{:?}", miette::Report::new(warning.clone())));
    }
    let active = settings.apply(rules::activate(&packs)?)?;
    Ok((active, settings))
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
    write_stdout_with(|out| out.write_all(text.as_bytes()))
}

/// Runs `write` on buffered standard output; a closed pipe (`| head`) ends
/// the output quietly.
fn write_stdout_with(
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> miette::Result<()> {
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match write(&mut stdout).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(miette::miette!("cannot write output: {e}"))
        }
        _ => Ok(()),
    }
}
