//! A report given as several pages, one of them a source page, read on
//! three threads at once: the other pages (only the metrics the rules read
//! are kept); the source page's outline, one fast pass (blocks per kernel
//! name, the columns its headers name); and the source page itself, block by
//! block, each block tied to its result and the result checked as soon as
//! the block is complete. Memory is bounded by the largest block, not the
//! page.
//!
//! The tie is the merge's: the k-th block of a name belongs to the k-th
//! result of that name when the name has as many blocks as results, and to
//! none otherwise. If the blocks read do not match the outline, the report
//! is read the merging way instead, so that streaming never changes a
//! finding.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::ingest::outline::{Outline, Prefetched, outline};
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

/// Parsed blocks waiting to be checked, at most.
const BLOCKS_AHEAD: usize = 64;

/// Imports and checks the pages, streaming the source page `source`
/// (`paths[source]`); `None` when the pages are better merged (no result
/// IDs to tie blocks to, or blocks that do not match the outline).
///
/// This thread parses the source page and hands each block to a checking
/// thread; the other pages and the source page's outline are read on
/// threads of their own meanwhile, and the checking thread waits for them
/// before its first block. Up to [`BLOCKS_AHEAD`] parsed blocks wait
/// meanwhile: a block keeps only the rows the rules read, so 64 of them
/// cost little, and with 8 the parser stalled until the outline's pass
/// over the page was done (the real step's CUDA/SASS pair: 59 → 55 ms).
pub(super) fn import_and_check(
    source: (usize, &str),
    others: &[Page],
    rules: &[ActiveRule],
    needed: &Arc<Needed>,
    prefetched: Option<Prefetched>,
    progress: &mut dyn FnMut(usize),
) -> Result<Option<(Report, CheckResult)>, IngestError> {
    let checked = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let pages = scope.spawn(|| {
            let imports = others
                .iter()
                .map(|(i, path)| ingest::read_file(path, *i, Some(needed.clone())))
                .collect::<Result<Vec<_>, _>>()?;
            ingest::merge_imports(imports)
        });
        let outlining = scope.spawn(|| match prefetched {
            Some(read) => read.outline(),
            None => outline(source.1),
        });
        let (send, blocks) = std::sync::mpsc::sync_channel::<SourceView>(BLOCKS_AHEAD);
        let checked = &checked;
        let checking = scope.spawn(move || {
            let mut stream = Stream {
                rules,
                needed,
                checked,
                reading: Some((pages, outlining)),
                tying: Ok(None),
            };
            for block in blocks {
                stream.block(block);
            }
            stream
        });
        let mut told = 0;
        let page = ingest::stream_source_page(
            source.1,
            source.0,
            Some(needed.clone()),
            &mut |block: SourceView| {
                // The checking thread stops early only by a panic, which
                // the join below passes on.
                let _ = send.send(block);
                let now = checked.load(Ordering::Relaxed);
                if now >= told + 64 {
                    told = now;
                    progress(now);
                }
            },
        );
        drop(send);
        let stream = checking
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let done = stream.finish(page?, source.0)?;
        if let Some((report, _)) = &done {
            progress(report.kernels.len());
        }
        Ok(done)
    })
}

/// A thread reading what the blocks are tied with.
type Reading<'s, T> = std::thread::ScopedJoinHandle<'s, Result<T, IngestError>>;

/// What a reading thread returned; its panic goes on.
fn joined<T>(handle: Reading<'_, T>) -> Result<T, IngestError> {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The streamed check's state between blocks.
struct Stream<'s, 'r> {
    rules: &'r [ActiveRule],
    needed: &'r Needed,
    /// Results checked so far, for the parsing thread's progress.
    checked: &'r AtomicUsize,
    /// The other pages' results and the outline, while they are read.
    reading: Option<(Reading<'s, Report>, Reading<'s, Outline>)>,
    /// Then the check under way; none when the results have no IDs to tie
    /// blocks to; or why the pages could not be read.
    tying: Result<Option<Tying<'r>>, IngestError>,
}

impl<'r> Stream<'_, 'r> {
    /// Takes one parsed block: tied and checked once the results and
    /// outline are known.
    fn block(&mut self, block: SourceView) {
        self.learn();
        if let Ok(Some(tying)) = &mut self.tying {
            tying.tie(block);
            self.checked.store(tying.done, Ordering::Relaxed);
        }
    }

    /// Waits for the other pages and the outline, if not yet known, and
    /// starts tying.
    fn learn(&mut self) {
        let Some((pages, outlining)) = self.reading.take() else {
            return;
        };
        let (report, outline) = (joined(pages), joined(outlining));
        self.tying = report.and_then(|report| {
            let outline = outline?;
            Ok(report
                .kernels
                .iter()
                .any(|k| k.id.is_some())
                .then(|| Tying::new(report, outline, self.rules, self.needed)))
        });
    }

    /// The report and its check once the page is read; `None` when the
    /// pages are better merged.
    fn finish(
        mut self,
        page: ingest::FileImport,
        file: usize,
    ) -> Result<Option<(Report, CheckResult)>, IngestError> {
        self.learn();
        match self.tying? {
            Some(tying) => Ok(tying.finish(page, file)),
            None => Ok(None),
        }
    }
}

/// Blocks being tied to results and the results checked.
struct Tying<'r> {
    report: Report,
    checker: Checker<'r>,
    outline: Outline,
    ties: Ties,
    checked: Vec<bool>,
    /// Blocks read so far, by normalised name.
    seen: HashMap<String, usize>,
    unattached: Vec<Unattached>,
    done: usize,
}

impl<'r> Tying<'r> {
    fn new(report: Report, outline: Outline, rules: &'r [ActiveRule], needed: &Needed) -> Self {
        let mut forms: std::collections::HashSet<Form> =
            report.files.iter().map(|f| f.form).collect();
        forms.insert(Form::Source);
        let mut checker = Checker::new(rules, forms);
        checker.see_column_names(
            outline
                .columns
                .iter()
                .filter(|c| needed.source_columns.contains(*c)),
        );
        let mut tying = Tying {
            ties: Ties::new(&report, &outline),
            checked: vec![false; report.kernels.len()],
            report,
            checker,
            outline,
            seen: HashMap::new(),
            unattached: Vec::new(),
            done: 0,
        };
        // Results no block can go to (library kernels profiled without
        // source counters, names whose blocks do not pair with their
        // results) are checked now, while the page is parsed, not after.
        let awaiting = tying.ties.awaiting_blocks(tying.report.kernels.len());
        for (index, awaits) in awaiting.into_iter().enumerate() {
            if !awaits {
                tying.check(index);
            }
        }
        tying
    }

    /// Checks the `index`-th result and drops what its findings do not need.
    fn check(&mut self, index: usize) {
        let kernel = &mut self.report.kernels[index];
        self.checker.kernel(kernel, index);
        strip(kernel);
        self.checked[index] = true;
        self.done += 1;
    }

    /// Ties `block` to its result and checks the result, or lists the
    /// block as unattached.
    fn tie(&mut self, block: SourceView) {
        let name = kernel_name::normalize(&block.function);
        let k = self.seen.entry(name.clone()).or_default();
        let target = self.ties.target(&name, *k);
        *k += 1;
        let Some(index) = target else {
            self.unattached.push(Unattached {
                reason: self.ties.reason(&name),
                function: block.function,
                origin: block.origin,
            });
            return;
        };
        self.report.kernels[index].source = Some(Box::new(block));
        self.check(index);
    }

    /// Checks the results no block was tied to and completes the report;
    /// `None` when the blocks read do not match the outline.
    fn finish(mut self, page: ingest::FileImport, file: usize) -> Option<(Report, CheckResult)> {
        let outline = &self.outline;
        let matches = self.seen.len() == outline.blocks.len()
            && self
                .seen
                .iter()
                .all(|(name, n)| outline.blocks.get(name) == Some(n));
        if !matches {
            return None;
        }
        for index in 0..self.report.kernels.len() {
            if !self.checked[index] {
                self.check(index);
            }
        }
        let outline = &self.outline;
        let mut report = self.report;
        ingest::add_streamed_page(&mut report, page, file);
        // Grouped by name, in order of first appearance, as the merge lists them.
        let mut unattached = self.unattached;
        unattached.sort_by_key(|u| {
            outline
                .blocks
                .get_index_of(&kernel_name::normalize(&u.function))
        });
        report.unattached.extend(unattached);
        Some((report, self.checker.finish()))
    }
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

    /// Which of `results` results a block may be tied to: those with an
    /// ID whose name's blocks pair one-to-one with its results.
    fn awaiting_blocks(&self, results: usize) -> Vec<bool> {
        let mut awaiting = vec![false; results];
        for (name, indexes) in &self.results {
            if self.blocks.get(name) == Some(&indexes.len()) {
                for &i in indexes {
                    awaiting[i] = true;
                }
            }
        }
        awaiting
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
        // The outline read ahead, as `check` reads it.
        let outline = Some(crate::ingest::outline::prefetch(&source.1));
        let (report, result) = import_and_check(
            (source.0, &source.1),
            &others,
            &rules,
            &needed,
            outline,
            &mut |_| {},
        )
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
        // Launches whose code spans several files (a block per file).
        for (dir, name) in [
            ("triton", "triton"),
            ("triton", "compiled"),
            ("inline", "inline"),
        ] {
            assert!(streamed_equals_merged(&[
                fixture(&format!("{dir}/{name}.raw.csv.xz")),
                fixture(&format!("{dir}/{name}.source.csv.xz")),
            ]));
        }
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

    #[test]
    fn the_outline_counts_launches_not_the_files_of_a_launch() {
        // CUB's reduction inlines six headers into block_sum: seven blocks,
        // one launch. Inductor's kernel 4 runs twice: four blocks, two
        // launches (standard.py, then its own module, each time).
        let inline = outline(&fixture("inline/inline.source.csv.xz")).unwrap();
        let block_sum = inline
            .blocks
            .iter()
            .find(|(n, _)| n.starts_with("block_sum("));
        assert_eq!(block_sum.map(|(_, n)| *n), Some(1), "{inline:?}");
        assert_eq!(inline.blocks.values().sum::<usize>(), 4);
        let compiled = outline(&fixture("triton/compiled.source.csv.xz")).unwrap();
        let twice = "triton_per_fused__to_copy__unsafe_view_add_mul_sum_view_4";
        assert_eq!(compiled.blocks.get(twice), Some(&2), "{compiled:?}");
    }
}
