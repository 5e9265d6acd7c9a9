//! A report given as several pages, one of them a source page: the other
//! pages are read first (only the metrics the rules read are kept), the
//! source page is outlined in one fast pass (blocks per kernel name, the
//! columns its headers name), then read block by block, each block tied to
//! its result and the result checked as soon as the block is complete.
//! Memory is bounded by the largest block, not the page.
//!
//! The tie is the merge's: the k-th block of a name belongs to the k-th
//! result of that name when the name has as many blocks as results, and to
//! none otherwise. If the blocks read do not match the outline, the report
//! is read the merging way instead, so that streaming never changes a
//! finding.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ingest::outline::{Outline, outline};
use crate::ingest::{self, IngestError, Input, Needed};
use crate::model::{Form, Kernel, Metrics, Report, SourceView, Unattached, kernel_name};
use crate::rules::{ActiveRule, CheckResult, Checker};

/// A file by its position among the inputs.
pub(super) type Page = (usize, String);

/// The source page among `inputs` and the other pages, when the report
/// can be streamed: every input a file, exactly one of them a source page.
pub(super) fn plan(inputs: &[Input]) -> Option<(Page, Vec<Page>)> {
    let paths: Vec<&str> = inputs
        .iter()
        .map(|input| match input {
            Input::Path(path) if path != "-" && !ingest::ncu_rep::is_report(path) => {
                Some(path.as_str())
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    let sources: Vec<usize> = (0..paths.len())
        .filter(|&i| ingest::is_source_page(paths[i]))
        .collect();
    let [source] = sources[..] else { return None };
    let others = (0..paths.len())
        .filter(|&i| i != source)
        .map(|i| (i, paths[i].to_owned()))
        .collect();
    Some(((source, paths[source].to_owned()), others))
}

/// Imports and checks the pages, streaming the source page `source`
/// (`paths[source]`); `None` when the pages are better merged (no result
/// IDs to tie blocks to, or blocks that do not match the outline).
pub(super) fn import_and_check(
    source: (usize, &str),
    others: &[Page],
    rules: &[ActiveRule],
    needed: &Arc<Needed>,
    progress: &mut dyn FnMut(usize),
) -> Result<Option<(Report, CheckResult)>, IngestError> {
    // The outline and the other pages are read at once.
    let (outline, imports) = std::thread::scope(|scope| {
        let outline = scope.spawn(|| outline(source.1));
        let imports = others
            .iter()
            .map(|(i, path)| ingest::read_file(path, *i, Some(needed.clone())))
            .collect::<Result<Vec<_>, _>>();
        let outline = outline
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (outline, imports)
    });
    let (outline, imports) = (outline?, imports?);
    let mut report = ingest::merge_imports(imports)?;
    if !report.kernels.iter().any(|k| k.id.is_some()) {
        return Ok(None);
    }
    let ties = Ties::new(&report, &outline);
    let mut forms: std::collections::HashSet<Form> = report.files.iter().map(|f| f.form).collect();
    forms.insert(Form::Source);
    let mut checker = Checker::new(rules, forms);
    checker.see_column_names(
        outline
            .columns
            .iter()
            .filter(|c| needed.source_columns.contains(*c)),
    );
    let mut checked = vec![false; report.kernels.len()];
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut unattached: Vec<Unattached> = Vec::new();
    let mut done = 0;
    let page = ingest::stream_source_page(
        source.1,
        source.0,
        Some(needed.clone()),
        &mut |block: SourceView| {
            let name = kernel_name::normalize(&block.function);
            let k = seen.entry(name.clone()).or_default();
            let target = ties.target(&name, *k);
            *k += 1;
            let Some(index) = target else {
                unattached.push(Unattached {
                    reason: ties.reason(&name),
                    function: block.function,
                    origin: block.origin,
                });
                return;
            };
            let kernel = &mut report.kernels[index];
            kernel.source = Some(block);
            checker.kernel(kernel, index);
            strip(kernel);
            checked[index] = true;
            done += 1;
            if done % 64 == 0 {
                progress(done);
            }
        },
    )?;
    let matches = seen.len() == outline.blocks.len()
        && seen
            .iter()
            .all(|(name, n)| outline.blocks.get(name) == Some(n));
    if !matches {
        return Ok(None);
    }
    for (index, kernel) in report.kernels.iter_mut().enumerate() {
        if !checked[index] {
            checker.kernel(kernel, index);
            strip(kernel);
        }
    }
    progress(report.kernels.len());
    ingest::add_streamed_page(&mut report, page, source.0);
    // Grouped by name, in order of first appearance, as the merge lists them.
    unattached.sort_by_key(|u| {
        outline
            .blocks
            .get_index_of(&kernel_name::normalize(&u.function))
    });
    report.unattached.extend(unattached);
    Ok(Some((report, checker.finish())))
}

/// Keeps a checked result's identity and CUDA rows, not its metrics or
/// instructions: findings carry what they need.
fn strip(kernel: &mut Kernel) {
    kernel.metrics = Metrics::default();
    if let Some(view) = &mut kernel.source {
        view.instructions = Vec::new();
    }
}

/// Which result each block of a name goes to.
struct Ties {
    /// Results with an ID, by normalised name, in ID order.
    results: HashMap<String, Vec<usize>>,
    /// Blocks per normalised name, from the outline.
    blocks: HashMap<String, usize>,
}

impl Ties {
    fn new(report: &Report, outline: &Outline) -> Ties {
        let mut results: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, kernel) in report.kernels.iter().enumerate() {
            if kernel.id.is_some() {
                results.entry(kernel.normalized_name()).or_default().push(i);
            }
        }
        Ties {
            results,
            blocks: outline
                .blocks
                .iter()
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
        }
    }

    /// The result the `k`-th block of `name` goes to, if the name's blocks
    /// pair one-to-one with its results.
    fn target(&self, name: &str, k: usize) -> Option<usize> {
        let results = self.results.get(name)?;
        (self.blocks.get(name) == Some(&results.len()))
            .then(|| results.get(k).copied())
            .flatten()
    }

    /// Why a block of `name` is not tied, as the merge says it.
    fn reason(&self, name: &str) -> String {
        let results = self.results.get(name).map_or(0, Vec::len);
        if results == 0 {
            "no profile result has this name".to_owned()
        } else {
            format!(
                "{} source blocks for {results} results of this name: cannot tell which launch each belongs to",
                self.blocks.get(name).copied().unwrap_or(0)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{activate, builtin_packs, check, needed};

    fn fixture(name: &str) -> String {
        format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    /// Findings, skips and unattached blocks of a check, comparable.
    fn outcome(report: &Report, result: &CheckResult) -> (Vec<String>, Vec<String>, Vec<String>) {
        let mut findings: Vec<String> = result
            .findings
            .iter()
            .map(|f| format!("{} {} {:?} {:?}", f.rule, f.kernel, f.location, f.message))
            .collect();
        findings.sort();
        let skipped = result.skipped.iter().map(|s| format!("{s:?}")).collect();
        let unattached = report
            .unattached
            .iter()
            .map(|u| format!("{} {}", u.function, u.reason))
            .collect();
        (findings, skipped, unattached)
    }

    /// Streams `files` and merges them, and asserts both agree; false when
    /// the files are not a streamable report (no table on the source page).
    fn streamed_equals_merged(files: &[String]) -> bool {
        let rules = activate(&builtin_packs().unwrap()).unwrap();
        let needed = Arc::new(needed(&rules));
        let inputs: Vec<Input> = files.iter().cloned().map(Input::Path).collect();
        let Some((source, others)) = plan(&inputs) else {
            return false;
        };
        let (report, result) =
            import_and_check((source.0, &source.1), &others, &rules, &needed, &mut |_| {})
                .unwrap()
                .unwrap_or_else(|| panic!("not streamed: {files:?}"));
        let merged = ingest::import_inputs(inputs, Some(needed.clone())).unwrap();
        let merged_result = check(&merged, &rules);
        assert_eq!(
            outcome(&report, &result),
            outcome(&merged, &merged_result),
            "{files:?}"
        );
        assert_eq!(report.files.len(), merged.files.len());
        for (a, b) in report.files.iter().zip(&merged.files) {
            assert_eq!((&a.path, a.form), (&b.path, b.form));
        }
        true
    }

    #[test]
    fn streaming_the_source_page_changes_no_finding() {
        let lab = |f: &str| fixture(&format!("lab/{f}"));
        assert!(streamed_equals_merged(&[
            lab("raw.csv.xz"),
            lab("source_cuda_sass.csv.xz")
        ]));
        assert!(streamed_equals_merged(&[
            lab("source_cuda_sass.csv.xz"),
            lab("raw.csv.xz")
        ]));
        assert!(streamed_equals_merged(&[
            lab("details_all.csv.xz"),
            lab("source_sass.csv.xz")
        ]));
        assert!(streamed_equals_merged(&[
            fixture("unseen/raw.csv.xz"),
            fixture("unseen/source.csv.xz")
        ]));
        let mut streamed = 0;
        let reports = std::fs::read_dir(fixture("reports")).unwrap();
        for entry in reports {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".raw.csv.xz") {
                streamed += usize::from(streamed_equals_merged(&[
                    fixture(&format!("reports/{name}")),
                    fixture(&format!("reports/{stem}.source.csv.xz")),
                ]));
            }
        }
        assert!(streamed >= 2, "reports with a source table: {streamed}");
    }

    #[test]
    fn blocks_that_outnumber_their_results_stay_unattached() {
        // The lab's source page twice over, against one raw page: two
        // blocks for each result (not repeats: a File Path line between).
        let dir = std::env::temp_dir().join("ncu_lint_pages_twice");
        let _ = std::fs::create_dir_all(&dir);
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut xz2::read::XzDecoder::new(
                std::fs::File::open(fixture("lab/source_cuda_sass.csv.xz")).unwrap(),
            ),
            &mut text,
        )
        .unwrap();
        let twice = dir.join("source_twice.csv");
        std::fs::write(&twice, format!("{text}{text}")).unwrap();
        let files = [
            fixture("lab/raw.csv.xz"),
            twice.to_string_lossy().into_owned(),
        ];
        assert!(streamed_equals_merged(&files));
        let outline = outline(&files[1]).unwrap();
        assert!(outline.blocks.values().all(|&n| n == 2), "{outline:?}");
    }
}
