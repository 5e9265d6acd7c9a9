//! One function per subcommand: each sets up, calls the library and says
//! the exit code (0 clean, 1 findings that fail, 2 errors).

use std::path::Path;
use std::process::ExitCode;

use ncu_lint::baseline::{self, Baseline};
use ncu_lint::config::Settings;
use ncu_lint::cuda_source::SourceSearch;
use ncu_lint::diff::{self, Tolerance};
use ncu_lint::ingest::IngestError;
use ncu_lint::ingest::outline::Prefetched;
use ncu_lint::lint::{Linted, Linter};
use ncu_lint::report::{Context, Format, human::Style};
use ncu_lint::rules::{self, FailOn, explain, packtest};
use ncu_lint::{dump, ingest, ncu};

use super::args::{
    CheckArgs, DiffArgs, DiffFormat, DumpArgs, DumpFormat, ExplainArgs, ExplainFormat,
    InputOptions, ProfileArgs, RulesAction, RulesArgs,
};
use super::error::CliError;
use super::output::{
    Progress, use_color, write_output, write_stderr, write_stdout, write_stdout_with,
};
use super::{setup, warnings};

/// `check`: lint the exports of one report (or, with `--each`, of several).
pub(crate) fn check(args: CheckArgs) -> miette::Result<ExitCode> {
    let search = SourceSearch {
        root: args.source_root.clone(),
        maps: args.path_map.clone(),
    };
    // A source page's outline is read while the rule packs load.
    let outline = (!args.each && !args.input.ncu_export)
        .then(|| ncu_lint::lint::prefetch_outline(&args.files))
        .flatten();
    let linter = setup::linter(&args.rules)?.with_source_search(search);
    let progress = Progress::for_inputs(&args.files);
    let mut linted = if args.each {
        lint_each(&linter, &args, &progress)?
    } else {
        lint_files(&linter, &args.files, &args.input, outline, &progress)?
    };
    progress.finish();
    warnings::profiler_errors(&linted.report);
    warnings::missing_lineinfo(&linted.report, linter.rules());
    if let Some(path) = &args.write_baseline {
        return write_baseline(path, &linted);
    }
    let stale = match &args.baseline {
        Some(path) => Baseline::load(path)?.filter(&mut linted.result),
        None => Vec::new(),
    };
    let style = Style {
        color: args.output.is_none() && use_color(args.color),
        verbose: args.verbose,
        all: args.all,
        full_names: args.full_names,
        ..Style::default()
    };
    let code = emit(
        &linted,
        &linter,
        (args.format, args.output.as_deref()),
        style,
        linter.fail_on(args.fail_on),
    )?;
    for entry in &stale {
        write_stderr(&format!(
            "ncu-lint: stale baseline entry: {} on `{}` at {} no longer occurs",
            entry.rule, entry.kernel, entry.place
        ));
    }
    if warnings::damaged_reports(&linted.report) {
        // The findings of what was read are shown; a gate still fails.
        return Ok(ExitCode::from(2));
    }
    Ok(code)
}

/// Lints the files of one report. A report that cannot be read natively
/// is read again through `ncu -i`, when ncu is at hand.
fn lint_files(
    linter: &Linter,
    files: &[String],
    input: &InputOptions,
    outline: Option<Prefetched>,
    progress: &Progress,
) -> miette::Result<Linted> {
    let (inputs, _unpacked) = setup::inputs(files, input)?;
    let native = linter.lint_with_outline(inputs, outline, &mut |n| progress.results(n));
    match native {
        Err(IngestError::Report { path, message, .. })
            if !input.ncu_export && ncu::find(input.ncu.as_deref()).is_some() =>
        {
            write_stderr(&format!(
                "ncu-lint: warning: {path}: {message}; reading it through ncu instead"
            ));
            let export = InputOptions {
                ncu: input.ncu.clone(),
                ncu_export: true,
            };
            let (inputs, _unpacked) = setup::inputs(files, &export)?;
            Ok(linter.lint(inputs, &mut |_| {})?)
        }
        other => Ok(other?),
    }
}

/// `check --each`: each file a report of its own, linted in parallel.
fn lint_each(linter: &Linter, args: &CheckArgs, progress: &Progress) -> miette::Result<Linted> {
    let mut reports = Vec::new();
    let mut _unpacked = Vec::new();
    for file in &args.files {
        let (inputs, unpacked) = setup::inputs(std::slice::from_ref(file), &args.input)?;
        reports.push(inputs);
        _unpacked.extend(unpacked);
    }
    let jobs = args
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, |n| n.get());
    let total = reports.len();
    Ok(linter.lint_each(reports, jobs, &mut |n| progress.reports(n, total))?)
}

/// Records the findings as a baseline; exits 0.
fn write_baseline(path: &Path, linted: &Linted) -> miette::Result<ExitCode> {
    let text = Baseline::from_findings(&linted.result.findings).to_toml();
    baseline::write_atomically(path, &text).map_err(|source| CliError::BaselineWrite {
        path: path.to_owned(),
        source,
    })?;
    write_stderr(&format!(
        "ncu-lint: wrote {} finding(s) to baseline {}",
        linted.result.findings.len(),
        path.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// Writes a lint in `format`; 1 when a finding fails the run.
fn emit(
    linted: &Linted,
    linter: &Linter,
    (format, output): (Format, Option<&std::path::Path>),
    style: Style,
    fail_on: FailOn,
) -> miette::Result<ExitCode> {
    let cuda = linted.cuda_source();
    let context = Context::new(linted, &cuda, linter.rules(), fail_on);
    let emitter = format.emitter(style);
    write_output(output, |out| emitter.emit(&context, out))?;
    Ok(exit_code(context.failed()))
}

fn exit_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `profile`: run the application under ncu with the sections the rules
/// need, then lint the report.
pub(crate) fn profile(args: ProfileArgs) -> miette::Result<ExitCode> {
    let linter = setup::linter(&args.rules)?;
    let ncu_path = ncu::find(args.input.ncu.as_deref()).ok_or(CliError::NoNcu)?;
    let mut sections: Vec<String> = Vec::new();
    if !args.set_full {
        let rules = linter.rules().iter().map(|r| &r.rule);
        let impact = rules
            .clone()
            .flat_map(|r| r.impact.iter().flat_map(|i| &i.sections));
        for section in rules.flat_map(|r| &r.sections).chain(impact) {
            if !sections.contains(section) {
                sections.push(section.clone());
            }
        }
    }
    if let Some(dir) = args.output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| CliError::OutputDir {
            path: dir.to_owned(),
            source,
        })?;
    }
    let mut command = ncu::profile_command(&ncu_path, &args.output, &sections, &args.app);
    if args.set_full {
        command.arg("--set").arg("full");
    }
    write_stderr(&format!("ncu-lint: {}", ncu::describe(&command)));
    // The application's and ncu's own output go to stderr: stdout is the lint report.
    let status = command
        .stdout(std::io::stderr())
        .status()
        .map_err(|source| CliError::Launch {
            ncu: ncu_path.clone(),
            source,
        })?;
    if !status.success() {
        return Err(CliError::Profiling(status).into());
    }
    let files = vec![args.output.with_extension("ncu-rep").display().to_string()];
    let (inputs, _unpacked) = setup::inputs(&files, &args.input)?;
    let linted = linter.lint(inputs, &mut |_| {})?;
    let fail_on = linter.fail_on(args.fail_on);
    emit(
        &linted,
        &linter,
        (args.format, None),
        Style::default(),
        fail_on,
    )
}

/// `diff`: lint both profiles at once, then compare them.
pub(crate) fn diff(args: DiffArgs) -> miette::Result<ExitCode> {
    let linter = setup::linter(&args.rules)?;
    let (base_inputs, _base_unpacked) = setup::inputs(&args.base, &args.input)?;
    let (head_inputs, _head_unpacked) = setup::inputs(&args.against, &args.input)?;
    let (base, head) = std::thread::scope(|scope| {
        let base = scope.spawn(|| linter.lint(base_inputs, &mut |_| {}));
        let head = linter.lint(head_inputs, &mut |_| {});
        let base = base
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (base, head)
    });
    let (base, head) = (base?, head?);
    let tolerance = Tolerance {
        relative: args.tolerance_rel,
        absolute: args.tolerance_abs,
        absolute_ns: args.tolerance_ns,
    };
    let time = ncu_lint::timing::Settings {
        noise: args.noise / 100.0,
        fail_slower: args.fail_on_slower.map(|pct| pct / 100.0),
    };
    let result = diff::diff(
        (&base.report, &base.result),
        (&head.report, &head.result),
        tolerance,
        time,
    );
    let format = match args.format {
        DiffFormat::Human => Format::Human,
        DiffFormat::Json => Format::Json,
        DiffFormat::Markdown => Format::Markdown,
        DiffFormat::Html => Format::Html,
    };
    let emitter = format.emitter(Style::default());
    write_output(args.output.as_deref(), |out| {
        emitter.emit_diff(&result, out)
    })?;
    Ok(exit_code(result.failed(linter.fail_on(args.fail_on))))
}

/// `rules`: list the rules in effect, or check or test a pack.
pub(crate) fn rules(args: RulesArgs) -> miette::Result<ExitCode> {
    let Some(action) = args.action else {
        let linter = setup::linter(&args.rules)?;
        let mut text = String::new();
        for rule in linter.rules() {
            text.push_str(&format!(
                "{:<26} {:<8} {:<10} {}\n",
                rule.rule.id,
                rule.severity.name(),
                rule.rule.pack,
                rule.rule.title
            ));
        }
        write_stdout(&text)?;
        return Ok(ExitCode::SUCCESS);
    };
    let (path, run_tests) = match action {
        RulesAction::Check { path } => (path, false),
        RulesAction::Test { path } => (path, true),
    };
    let mut text = String::new();
    let mut failed = false;
    for pack in &rules::load_path(&path)? {
        for warning in &pack.warnings {
            write_stderr(&format!("{:?}", miette::Report::new(warning.clone())));
        }
        let dir = Path::new(pack.source.name())
            .parent()
            .unwrap_or(Path::new("."))
            .to_owned();
        packtest::validate_tests(pack, &dir)?;
        text.push_str(&format!(
            "pack {} {}: {} rules, {} tests: valid\n",
            pack.name,
            pack.version,
            pack.rules.len(),
            pack.tests.len()
        ));
        if run_tests {
            let linter = Linter::from_packs(std::slice::from_ref(pack), Settings::default())?;
            for outcome in packtest::run_tests(pack, &dir, &linter) {
                text.push_str(&outcome.to_text());
                failed |= !outcome.failures.is_empty();
            }
        }
    }
    write_stdout(&text)?;
    Ok(exit_code(failed))
}

/// `explain`: a rule's documentation, inputs and parameters.
pub(crate) fn explain(args: ExplainArgs) -> miette::Result<ExitCode> {
    let linter = setup::linter(&args.rules)?;
    let Some(rule) = linter.rules().iter().find(|r| r.rule.id == args.id) else {
        let known: Vec<&str> = linter.rules().iter().map(|r| r.rule.id.as_str()).collect();
        return Err(CliError::UnknownRule {
            id: args.id,
            known: known.join(", "),
        }
        .into());
    };
    match args.format {
        ExplainFormat::Text => write_stdout(&explain::to_text(rule))?,
        ExplainFormat::Json => write_stdout_with(|out| {
            ncu_lint::report::json::write_pretty(&explain::to_json(rule), out)
        })?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `dump`: the model imported from exports of one report.
pub(crate) fn dump(args: DumpArgs) -> miette::Result<ExitCode> {
    let (inputs, _unpacked) = setup::inputs(&args.files, &args.input)?;
    let report = ingest::import_inputs(inputs, None)?;
    match args.format {
        DumpFormat::Json => {
            write_output(args.output.as_deref(), |out| dump::write_json(&report, out))?
        }
        DumpFormat::Text => {
            let text = dump::to_text(&report);
            write_output(args.output.as_deref(), |out| out.write_all(text.as_bytes()))?
        }
    }
    Ok(ExitCode::SUCCESS)
}
