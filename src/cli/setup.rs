//! What every subcommand sets up first: the [`Linter`] from packs,
//! configuration and flags, and the inputs for the files given.

use ncu_lint::config::{self, Pattern, SettingOrigin, Settings};
use ncu_lint::ingest::{Input, ncu_rep};
use ncu_lint::lint::Linter;
use ncu_lint::ncu::{self, NcuError, ReportFile};
use ncu_lint::rules::{self, Pack, Severity};

use super::args::{InputOptions, RuleOptions};
use super::error::CliError;
use super::output::write_stderr;

/// The linter: the configuration file (found or given), then the command
/// line over it; the built-in packs unless left out, the config's packs,
/// then `--rules`. Pack warnings go to stderr.
pub(crate) fn linter(options: &RuleOptions) -> miette::Result<Linter> {
    let settings = settings(options)?;
    let mut packs: Vec<Pack> = if options.no_default_rules {
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
    Ok(Linter::from_packs(&packs, settings)?)
}

/// The configuration file's settings with the command line's over them.
fn settings(options: &RuleOptions) -> miette::Result<Settings> {
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
    if let Some(what) = options.library_findings {
        settings.keep_library_findings = Some(matches!(what, super::args::LibraryFindings::Keep));
    }
    if !options.select.is_empty() {
        settings.select = options.select.iter().map(|s| Pattern::glob(s)).collect();
    }
    settings
        .ignore
        .extend(options.ignore.iter().map(|s| Pattern::glob(s)));
    for entry in &options.severity {
        let (id, level) = entry
            .split_once('=')
            .and_then(|(id, level)| Some((id, Severity::parse_or_off(level)?)))
            .ok_or_else(|| CliError::Severity(entry.clone()))?;
        settings
            .severity
            .insert(id.to_owned(), (level, SettingOrigin::default()));
    }
    for entry in &options.param {
        let parsed = entry.split_once('=').and_then(|(key, value)| {
            let (id, name) = key.rsplit_once('.')?;
            Some((id, name, value.trim().parse::<f64>().ok()?))
        });
        let (id, name, value) = parsed.ok_or_else(|| CliError::Param(entry.clone()))?;
        settings.params.insert(
            (id.to_owned(), name.to_owned()),
            (value, SettingOrigin::default()),
        );
    }
    Ok(settings)
}

/// The inputs for `files`: CSV exports and `.ncu-rep` reports as they are
/// (reports are read natively), or with `--ncu-export` each report as the
/// `ncu -i` commands that export the pages the rules read. The report
/// guards returned keep unpacked copies alive until dropped.
pub(crate) fn inputs(
    files: &[String],
    options: &InputOptions,
) -> Result<(Vec<Input>, Vec<ReportFile>), NcuError> {
    let mut inputs = Vec::new();
    let mut reports = Vec::new();
    for file in files {
        if file == "-" || !ncu_rep::is_report(file) || !options.ncu_export {
            inputs.push(Input::Path(file.clone()));
            continue;
        }
        let ncu = ncu::find(options.ncu.as_deref()).ok_or_else(|| NcuError::NotFound {
            report: file.clone(),
        })?;
        let report = ReportFile::open(file)?;
        for (page, args) in ncu::PAGES {
            inputs.push(Input::Command {
                name: format!("{file} ({page})"),
                command: ncu::export_command(&ncu, report.path(), args),
            });
        }
        reports.push(report);
    }
    Ok((inputs, reports))
}
