//! What a report holds and what the rules in effect need of it: the ncu
//! version and GPU, the sections profiled, kernels without `-lineinfo`,
//! and, when rules were skipped, the one command line that collects their
//! inputs. Said once per report, in a few lines, whatever the kernel count.

use std::fmt::Write as _;

use serde::Serialize;

use crate::model::{Form, InputFile, Report};
use crate::rules::pack::Scope;
use crate::rules::{ActiveRule, CheckResult};

/// What a report shows about how it was profiled.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Coverage {
    /// The Nsight Compute version, where a session page gives it.
    pub ncu_version: Option<String>,
    /// The profiler command line, where a session page gives it.
    pub command_line: Option<String>,
    /// GPU names.
    pub gpus: Vec<String>,
    /// Section identifiers the exports show.
    pub sections: Vec<String>,
    /// Whether the sections were inferred from raw-page metric names.
    pub sections_inferred: bool,
    /// Sections the skipped rules name that the exports do not show.
    pub sections_needed: Vec<String>,
    /// The command that profiles with what the skipped rules need.
    pub profile_command: Option<String>,
    /// Kernels (by name) whose CUDA lines ncu could not show.
    pub no_lineinfo: Vec<String>,
    /// The line-scoped rules, which report without a CUDA line then.
    pub rules_without_lines: Vec<String>,
    /// Whether the metrics came from pages that print part of what ncu
    /// collected (the details and summary pages) with neither the raw page
    /// nor the report itself: a metric missing there may be in the report.
    pub partial_pages: bool,
}

impl Coverage {
    /// What `report` shows, and what `result`'s skipped rules need.
    pub fn of(report: &Report, rules: &[ActiveRule], result: &CheckResult) -> Coverage {
        let mut coverage = Coverage::of_report(report).with_line_rules(rules);
        let skipped = rules
            .iter()
            .filter(|r| result.skipped.iter().any(|s| s.rule == r.rule.id));
        let mut wanted: Vec<String> = Vec::new();
        for rule in skipped {
            for section in &rule.rule.sections {
                push_new(&mut wanted, section);
            }
        }
        coverage.sections_needed = wanted
            .iter()
            .filter(|s| !coverage.sections.contains(s))
            .cloned()
            .collect();
        if !result.skipped.is_empty() {
            let mut command = String::from("ncu --import-source yes");
            for section in &wanted {
                let _ = write!(command, " --section {section}");
            }
            command.push_str(" -o report ./app");
            coverage.profile_command = Some(command);
        }
        coverage
    }

    /// Names the line-scoped rules of `rules` when some kernels have no
    /// CUDA lines: they report per kernel then.
    pub fn with_line_rules(mut self, rules: &[ActiveRule]) -> Coverage {
        if !self.no_lineinfo.is_empty() {
            self.rules_without_lines = rules
                .iter()
                .filter(|r| r.rule.scope == Scope::Line)
                .map(|r| r.rule.id.clone())
                .collect();
        }
        self
    }

    /// What `report` shows, with no rules in view.
    pub fn of_report(report: &Report) -> Coverage {
        let mut coverage = Coverage {
            ncu_version: report.session.get("Nsight Compute Target").cloned(),
            command_line: report.session.get("Profiler Command Line").cloned(),
            ..Coverage::default()
        };
        let session_gpus = report
            .session
            .iter()
            .filter(|(key, _)| key.ends_with(".display_name"))
            .map(|(_, name)| name);
        for gpu in report
            .files
            .iter()
            .flat_map(|f| f.devices.iter())
            .chain(session_gpus)
        {
            push_new(&mut coverage.gpus, gpu);
        }
        let named = report
            .files
            .iter()
            .any(|f| !f.sections_inferred && !f.sections.is_empty());
        for file in &report.files {
            if named && file.sections_inferred {
                continue;
            }
            for section in &file.sections {
                push_new(&mut coverage.sections, section);
            }
        }
        coverage.sections_inferred = !named && !coverage.sections.is_empty();
        let prints_part = |f: &InputFile| matches!(f.form, Form::Details | Form::Summary);
        let holds_all = |f: &InputFile| f.report || f.form == Form::Raw;
        coverage.partial_pages =
            report.files.iter().any(prints_part) && !report.files.iter().any(holds_all);
        for file in &report.files {
            for kernel in &file.no_lineinfo {
                push_new(&mut coverage.no_lineinfo, kernel);
            }
        }
        coverage
    }

    /// One line: version, GPUs and sections, as far as the exports show them.
    pub fn describe(&self) -> String {
        let version = self.ncu_version.as_deref().map_or(
            "ncu version not in the exports (the session page has it)".to_owned(),
            |v| format!("ncu {v}"),
        );
        let gpus = if self.gpus.is_empty() {
            "GPU not named".to_owned()
        } else {
            self.gpus.join(", ")
        };
        let sections = if self.sections.is_empty() {
            "no sections shown".to_owned()
        } else {
            format!(
                "sections {}{}",
                self.sections.join(", "),
                if self.sections_inferred {
                    " (inferred from the raw page's metrics)"
                } else {
                    ""
                }
            )
        };
        format!("{version}; {gpus}; {sections}")
    }

    /// The warning for kernels without CUDA lines, if any.
    pub fn lineinfo_warning(&self) -> Option<String> {
        if self.no_lineinfo.is_empty() {
            return None;
        }
        Some(format!(
            "no CUDA line information for {} kernel(s): the binary was built without `-lineinfo`, so {} report per kernel without their CUDA line; rebuild with `nvcc -lineinfo` and re-profile to place them",
            self.no_lineinfo.len(),
            if self.rules_without_lines.is_empty() {
                "the line-scoped rules".to_owned()
            } else {
                self.rules_without_lines.join(", ")
            }
        ))
    }
}

/// The skipped rules in a few lines: which, what the report holds, what the
/// rules need and the command that collects it. `verbose` adds what each
/// rule missed.
pub fn skip_lines(coverage: &Coverage, result: &CheckResult, verbose: bool) -> Vec<String> {
    if result.skipped.is_empty() {
        return Vec::new();
    }
    let all = result
        .skipped
        .iter()
        .all(|s| s.kernels == result.kernels && result.kernels > 0);
    let rules: Vec<String> = result
        .skipped
        .iter()
        .map(|s| {
            if all {
                s.rule.clone()
            } else {
                format!("{} ({} of {} kernels)", s.rule, s.kernels, result.kernels)
            }
        })
        .collect();
    let mut lines = vec![format!(
        "skipped for lack of data{}: {}",
        if all { " on every kernel" } else { "" },
        rules.join(", ")
    )];
    lines.push(format!("  the report holds: {}", coverage.describe()));
    // Sections all there on a page that prints part of them: the raw page
    // of the same report may hold what the rules missed, with no new run.
    let export_again = coverage.sections_needed.is_empty() && coverage.partial_pages;
    if export_again {
        lines.push(
            "  the sections the rules name are there, but a details or summary page prints part of what ncu collected (no unit's busiest instance, `.max`, for one): the raw page of the same report holds all of it, and where it lacks the metrics too, this ncu version does not collect them"
                .to_owned(),
        );
        lines.push(format!(
            "  export it with: {RAW_EXPORT}   (or lint the .ncu-rep itself)"
        ));
    } else if coverage.sections_needed.is_empty() {
        lines.push(
            "  the sections the rules name are there: this ncu version lacks the metrics (a newer ncu collects them)"
                .to_owned(),
        );
    } else {
        lines.push(format!(
            "  the rules need sections {}",
            coverage.sections_needed.join(", ")
        ));
    }
    if let Some(command) = coverage.profile_command.as_ref().filter(|_| !export_again) {
        lines.push(format!(
            "  profile with: {command}   (or `ncu-lint profile -- ./app`)"
        ));
    }
    if verbose {
        for skip in &result.skipped {
            lines.push(format!(
                "  {}: missing {}",
                skip.rule,
                skip.missing.join(", ")
            ));
        }
    } else {
        lines.push("  (--verbose lists the metrics each rule missed)".to_owned());
    }
    lines
}

/// The command that exports a report's raw page, every metric it holds.
const RAW_EXPORT: &str = "ncu -i report.ncu-rep --csv --page raw --print-units base > raw.csv";

fn push_new(list: &mut Vec<String>, item: &str) {
    if !list.iter().any(|x| x == item) {
        list.push(item.to_owned());
    }
}
