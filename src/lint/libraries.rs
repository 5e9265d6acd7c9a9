//! Code users do not write (`[[library]]` in the pack). Its kernels (cuBLAS's
//! `nvjet_*`, cuDNN, CUTLASS, ATen, NCCL, ...): their findings labelled with
//! the library, their fix replaced by what the user controls (shapes,
//! layouts, dtypes, another algorithm), and notes that do not fail the gate
//! unless kept; a library whose waste follows the user's layout (ATen's
//! copies) keeps them. Its files (toolkit headers, CUB, CUTLASS,
//! `triton/language`, Inductor's helpers), inlined into the user's kernels:
//! a finding there is placed at the user's line that calls it, and names
//! the library's line.

use std::collections::HashMap;

use crate::cuda_source::CudaSource;
use crate::model::{Report, kernel_name};
use crate::rules::finding::{CallSite, InlinedFrom};
use crate::rules::{CheckResult, Library, Severity};

/// Labels the findings of library kernels; `keep` leaves their severity.
pub(super) fn label(result: &mut CheckResult, libraries: &[Library], keep: bool) {
    let kernel_libraries: Vec<&Library> =
        libraries.iter().filter(|l| !l.kernels.is_empty()).collect();
    if kernel_libraries.is_empty() {
        return;
    }
    // A run's findings fall on a few kernels: each name is matched once.
    let mut owner: HashMap<String, Option<usize>> = HashMap::new();
    for finding in &mut result.findings {
        let found = match owner.get(&finding.kernel_name) {
            Some(&found) => found,
            None => {
                let found = kernel_libraries
                    .iter()
                    .position(|l| l.owns(&finding.kernel_name));
                owner.insert(finding.kernel_name.clone(), found);
                found
            }
        };
        let Some(library) = found.map(|i| kernel_libraries[i]) else {
            continue;
        };
        finding.library = Some(library.name.clone());
        if let Some(fix) = &library.fix {
            finding.fix = Some(fix.clone());
        }
        if !keep && !library.keep && finding.severity > Severity::Note {
            finding.severity = Severity::Note;
            finding.library_note = true;
            finding.message.push_str(&format!(
                " ({} kernel: code you do not write; a note unless library findings are kept)",
                library.name
            ));
        }
    }
}

/// Places findings at a library's lines (a toolkit header, `standard.py`)
/// at the user's line that calls them, naming the library's line: the call
/// the line table records, else the kernel's line that calls the library
/// (its `calls` pattern); the library's fix, where it has one, says what
/// the caller controls.
pub(super) fn place_in_user_code(
    result: &mut CheckResult,
    report: &Report,
    source: &CudaSource<'_>,
    libraries: &[Library],
) {
    let file_libraries: Vec<&Library> = libraries.iter().filter(|l| !l.files.is_empty()).collect();
    if file_libraries.is_empty() {
        return;
    }
    for finding in &mut result.findings {
        let Some(location) = finding.location.as_mut() else {
            continue;
        };
        let Some(library) = file_libraries.iter().find(|l| l.owns_file(&location.file)) else {
            continue;
        };
        let call = location.called_from.take().or_else(|| {
            let calls = library.calls.as_ref()?;
            called_at(report, source, finding.kernel, libraries, calls)
        });
        let Some(call) = call else {
            continue;
        };
        let inlined = InlinedFrom {
            library: library.name.clone(),
            file: std::mem::replace(&mut location.file, call.file),
            line: std::mem::replace(&mut location.line, call.line),
        };
        let short = inlined
            .file
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&inlined.file);
        finding.message = finding.message.replace(
            &format!("; line {} holds", inlined.line),
            &format!("; line {} holds", location.line),
        );
        finding.message.push_str(&format!(
            "; the access is made at {short}:{} ({}), inlined at this line",
            inlined.line, library.name
        ));
        location.inlined_from = Some(inlined);
        if let Some(fix) = &library.fix {
            finding.fix = Some(fix.clone());
        }
    }
}

/// The kernel's line that calls a library's inlined code where the line
/// table records no call (Triton's `standard.py`): the first line of the
/// kernel's own file (the first no library owns) whose text matches
/// `calls`: of the source page's lines of the kernel, else of the kernel's
/// function in the file (the report's copy, or the file found on disk).
fn called_at(
    report: &Report,
    source: &CudaSource<'_>,
    kernel: usize,
    libraries: &[Library],
    calls: &regex::Regex,
) -> Option<CallSite> {
    let kernel = report.kernels.get(kernel)?;
    let view = kernel.source.as_ref()?;
    let own = view
        .files
        .iter()
        .find(|f| !libraries.iter().any(|l| l.owns_file(f)))?;
    let on_page = view
        .lines
        .iter()
        .filter(|r| view.file_of(r) == Some(own.as_str()))
        .find(|r| calls.is_match(&r.text))
        .and_then(|r| r.line);
    // A page lists only the lines instructions are at; the call's code all
    // sits at the library's lines, so its line may be missing there.
    let in_file = || {
        function_body(&source.all_lines(own), &kernel_name::short(&kernel.name))
            .into_iter()
            .find(|(_, text)| calls.is_match(text))
            .map(|(line, _)| line)
    };
    // Where neither tells, the kernel's first line on the page (its `def`):
    // the finding is the kernel's, and the library's line is named.
    let first = || {
        view.lines
            .iter()
            .filter(|r| view.file_of(r) == Some(own.as_str()))
            .filter_map(|r| r.line)
            .min()
    };
    let line = on_page.or_else(in_file).or_else(first)?;
    Some(CallSite {
        file: own.clone(),
        line,
    })
}

/// The lines of the Python function `name` (`def name(` up to the next
/// line that starts at the margin).
fn function_body(lines: &[(u32, String)], name: &str) -> Vec<(u32, String)> {
    let start = format!("def {name}(");
    let Some(at) = lines
        .iter()
        .position(|(_, t)| t.trim_start().starts_with(&start))
    else {
        return Vec::new();
    };
    lines[at + 1..]
        .iter()
        .take_while(|(_, t)| t.trim().is_empty() || t.starts_with([' ', '\t']))
        .cloned()
        .collect()
}
