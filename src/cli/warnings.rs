//! What a report carries that the findings do not say, said on stderr:
//! errors the profiler recorded, import warnings, missing line information.

use ncu_lint::coverage::Coverage;
use ncu_lint::model::Report;
use ncu_lint::rules::ActiveRule;

use super::output::write_stderr;

/// Says, for each damaged or cut report, where its reading stopped and how
/// many results were read before; whether there was any.
pub(crate) fn damaged_reports(report: &Report) -> bool {
    let mut any = false;
    for file in &report.files {
        let Some(damage) = &file.damage else {
            continue;
        };
        any = true;
        let at = if damage.offset > 0 {
            format!(" at byte {}", damage.offset)
        } else {
            String::new()
        };
        write_stderr(&format!(
            "ncu-lint: error: {} is damaged{at}: {}; {} kernel result(s) were read before it{} (exit status 2)",
            file.path,
            damage.message,
            damage.results,
            if damage.results > 0 {
                " and are linted above"
            } else {
                ""
            }
        ));
    }
    any
}

/// An export that ncu wrote partially (`==ERROR==` lines, then some results)
/// is linted for what is there; the errors it carries are said on stderr, so
/// that missing kernels are not taken for clean ones.
pub(crate) fn profiler_errors(report: &Report) {
    for file in &report.files {
        for message in file.messages.iter().filter(|m| m.level == "ERROR") {
            write_stderr(&format!(
                "ncu-lint: warning: {}:{}: the profiler reported an error; results it failed to profile are missing: {}",
                file.path, message.line, message.text
            ));
        }
    }
    for warning in &report.warnings {
        let times = if warning.count > 1 {
            format!(" ({} times)", warning.count)
        } else {
            String::new()
        };
        write_stderr(&format!(
            "ncu-lint: warning: {}:{}: {}{times}",
            report.export_path(&warning.origin),
            warning.origin.line,
            warning.message,
        ));
    }
}

/// A source page of a binary built without `-lineinfo` is linted without
/// CUDA lines; said once on stderr, naming the rules that lose them.
pub(crate) fn missing_lineinfo(report: &Report, rules: &[ActiveRule]) {
    let coverage = Coverage::of_report(report).with_line_rules(rules);
    if let Some(warning) = coverage.lineinfo_warning() {
        write_stderr(&format!("ncu-lint: warning: {warning}"));
    }
}
