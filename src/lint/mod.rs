//! The one way to lint: a [`Linter`] holds the rules in effect and the
//! settings, and turns inputs into a [`Linted`] report. `check`, `profile`,
//! `diff`, `check --each` and pack tests all go through it:
//!
//! ```text
//! inputs ──import──▶ results ──rules──▶ findings ──finish──▶ Linted
//!          (stream)            (check)       Nsight Compute rules,
//!                                            ignores, suppressions
//! ```
//!
//! ```no_run
//! use ncu_lint::lint::Linter;
//! let linter = Linter::builtin(Default::default()).unwrap();
//! let linted = linter.lint_files(&["fixtures/lab/raw.csv.xz".into()]).unwrap();
//! println!("{} findings", linted.result.findings.len());
//! ```

mod configure;
mod each;
mod libraries;
mod ncu_rules;
mod pages;
mod stream;

use crate::config::{ConfigError, Settings};
use crate::cuda_source::{CudaSource, SourceSearch};
use crate::ingest::outline::Prefetched;
use crate::ingest::{IngestError, Input};
use crate::model::Report;
use crate::rules::{ActiveRule, CheckResult, FailOn, Library, Pack, PackError, RulesError};
use crate::suppress;

/// Why a linter could not be made: its packs, or settings that name rules
/// or parameters the packs lack.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[non_exhaustive]
pub enum SetupError {
    /// The packs could not be loaded together.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Rules(#[from] RulesError),
    /// The configuration does not fit the packs.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Config(#[from] ConfigError),
}

impl From<PackError> for SetupError {
    fn from(error: PackError) -> SetupError {
        SetupError::Rules(error.into())
    }
}

/// The rules in effect and how to apply them.
#[derive(Debug, Clone)]
pub struct Linter {
    rules: Vec<ActiveRule>,
    settings: Settings,
    search: SourceSearch,
    libraries: Vec<Library>,
}

/// Starts reading the outline of the source page among `files`, when a
/// lint of them will stream it ([`pages::plan`]), so that it is read while
/// the rule packs load.
pub fn prefetch_outline(files: &[String]) -> Option<Prefetched> {
    let inputs: Vec<Input> = files.iter().cloned().map(Input::Path).collect();
    let ((_, source), _) = pages::plan(&inputs)?;
    Some(crate::ingest::outline::prefetch(&source))
}

/// A linted report: what was read, the findings that stand, and where its
/// CUDA source is looked for.
#[derive(Debug)]
pub struct Linted {
    /// The report as imported (results keep their identity; metrics the
    /// rules did not read may be dropped).
    pub report: Report,
    /// The findings, skips and measures.
    pub result: CheckResult,
    /// Where the report's `.cu` files are looked for.
    pub search: SourceSearch,
}

impl Linted {
    /// The CUDA text of the report's findings.
    pub fn cuda_source(&self) -> CudaSource<'_> {
        CudaSource::new(&self.report, &self.search)
    }
}

impl Linter {
    /// A linter with `rules` (already adjusted by `settings`) and `settings`.
    pub fn new(rules: Vec<ActiveRule>, settings: Settings) -> Linter {
        Linter {
            rules,
            settings,
            search: SourceSearch::default(),
            libraries: Vec::new(),
        }
    }

    /// The rules of `packs`, adjusted by `settings` (selection, severities,
    /// parameters).
    pub fn from_packs(packs: &[Pack], settings: Settings) -> Result<Linter, SetupError> {
        let rules = configure::configure(&settings, crate::rules::activate(packs)?)?;
        let mut linter = Linter::new(rules, settings);
        linter.libraries = packs.iter().flat_map(|p| p.libraries.clone()).collect();
        Ok(linter)
    }

    /// The built-in packs adjusted by `settings`.
    pub fn builtin(settings: Settings) -> Result<Linter, SetupError> {
        Linter::from_packs(&crate::rules::builtin_packs()?, settings)
    }

    /// Looks for CUDA source as `search` says, for suppressions and output.
    pub fn with_source_search(mut self, search: SourceSearch) -> Linter {
        self.search = search;
        self
    }

    /// The rules in effect.
    pub fn rules(&self) -> &[ActiveRule] {
        &self.rules
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The failing severity: `given` (the command line), else the
    /// configuration's, else warnings.
    pub fn fail_on(&self, given: Option<FailOn>) -> FailOn {
        given.or(self.settings.fail_on).unwrap_or_default()
    }

    /// Lints the pages of one report. One file is streamed, several are
    /// merged (`lint/stream.rs`); `progress` hears the
    /// number of results checked.
    pub fn lint(
        &self,
        inputs: Vec<Input>,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Linted, IngestError> {
        self.lint_with_outline(inputs, None, progress)
    }

    /// [`Self::lint`], with the outline of its source page read ahead
    /// ([`prefetch_outline`]); an outline of another page is not used.
    pub fn lint_with_outline(
        &self,
        inputs: Vec<Input>,
        outline: Option<Prefetched>,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Linted, IngestError> {
        let (report, result) = stream::import_and_check(
            inputs,
            &self.rules,
            self.settings.selects_any_ncu_rule(),
            outline,
            progress,
        )?;
        Ok(self.finish(report, result))
    }

    /// Lints export files of one report, with no progress.
    pub fn lint_files(&self, files: &[String]) -> Result<Linted, IngestError> {
        let inputs = files.iter().cloned().map(Input::Path).collect();
        self.lint(inputs, &mut |_| {})
    }

    /// Lints several reports (the pages of one per entry) on up to `jobs`
    /// threads, joined into one in input order; `progress` hears the
    /// number of reports done.
    pub fn lint_each(
        &self,
        reports: Vec<Vec<Input>>,
        jobs: usize,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Linted, IngestError> {
        let ncu_rules = self.settings.selects_any_ncu_rule();
        let (report, result) =
            each::import_and_check_each(reports, &self.rules, ncu_rules, jobs, progress)?;
        Ok(self.finish(report, result))
    }

    /// Adds Nsight Compute's rule results where selected, then applies the
    /// per-kernel ignores and inline suppressions.
    fn finish(&self, report: Report, mut result: CheckResult) -> Linted {
        result.findings.extend(ncu_rules::findings(
            &report,
            &self.settings,
            &result.kernel_ns,
        ));
        // A stable sort copies half the findings aside; a stream checks
        // kernels in order, so only Nsight Compute's rules need one.
        if !result.findings.is_sorted_by_key(|f| f.kernel) {
            result.findings.sort_by_key(|f| f.kernel);
        }
        result
            .findings
            .retain(|f| !self.settings.ignores(&f.kernel_name, &f.rule));
        let source = CudaSource::new(&report, &self.search);
        libraries::place_in_user_code(&mut result, &report, &source, &self.libraries);
        suppress::apply(&mut result, &report, &source);
        let keep = self.settings.keep_library_findings.unwrap_or(false);
        libraries::label(&mut result, &self.libraries, keep);
        for location in result
            .findings
            .iter_mut()
            .filter_map(|f| f.location.as_mut())
        {
            location.file = self.search.shown(&location.file);
            if let Some(call) = &mut location.called_from {
                call.file = self.search.shown(&call.file);
            }
            if let Some(inlined) = &mut location.inlined_from {
                inlined.file = self.search.shown(&inlined.file);
            }
        }
        Linted {
            report,
            result,
            search: self.search.clone(),
        }
    }
}

/// Pack tests lint their exports as `check` does.
impl crate::rules::packtest::ExportChecker for Linter {
    fn check_exports(&self, files: &[String]) -> Result<CheckResult, String> {
        self.lint_files(files)
            .map(|linted| linted.result)
            .map_err(|e| e.to_string())
    }
}
