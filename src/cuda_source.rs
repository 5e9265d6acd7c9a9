//! CUDA source text for findings: from the `.cu` file on disk when it can be
//! found (`--source-root`, `--path-map FROM=TO` for reports made on another
//! machine), else from the export itself (a `--print-source cuda` listing, or
//! the CUDA rows of the source page).

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::inductor::{self, Provenance};
use crate::model::{Kernel, Report};

/// Where to look for `.cu` files on disk besides their recorded paths.
#[derive(Debug, Clone, Default)]
pub struct SourceSearch {
    /// A directory searched by recorded path or file name (`--source-root`).
    pub root: Option<PathBuf>,
    /// Prefix rewrites of recorded paths, applied in order (`--path-map`).
    pub maps: Vec<(String, String)>,
}

/// Finds source lines by (file as the profile recorded it, line).
pub struct CudaSource<'a> {
    report: &'a Report,
    root: Option<PathBuf>,
    maps: Vec<(String, String)>,
    disk: RefCell<HashMap<String, Option<Rc<[String]>>>>,
    /// The source page's CUDA rows by file and line, the first row of each
    /// line in kernel order; built on first use.
    page: OnceCell<HashMap<&'a str, HashMap<u32, &'a str>>>,
    inductor: RefCell<inductor::Cache>,
    /// Recorded paths by the path they are shown as, where the two differ;
    /// built on first use.
    recorded: OnceCell<HashMap<String, &'a str>>,
}

impl<'a> CudaSource<'a> {
    /// A lookup over `report`, also searching as `search` says.
    pub fn new(report: &'a Report, search: &SourceSearch) -> Self {
        CudaSource {
            report,
            root: search.root.clone(),
            maps: search.maps.clone(),
            disk: RefCell::new(HashMap::new()),
            page: OnceCell::new(),
            inductor: RefCell::new(inductor::Cache::default()),
            recorded: OnceCell::new(),
        }
    }

    /// What Inductor recorded of `kernel` (its fused source nodes and ATen
    /// operators), where its generated module and the graph's wrapper are
    /// at hand.
    pub fn inductor(&self, kernel: &Kernel) -> Option<Rc<Provenance>> {
        let view = kernel.source.as_ref()?;
        let module = view
            .files
            .iter()
            .find(|f| inductor::is_generated_module(f))?;
        let local = self.local_path(module)?;
        self.inductor.borrow_mut().provenance(module, &local)
    }

    /// Line `line` (1-based) of `file` (as recorded, or as shown after
    /// [`SourceSearch::shown`]), if any source of it is at hand.
    pub fn line(&self, file: &str, line: u32) -> Option<String> {
        if let Some(text) = self.line_of(file, line) {
            return Some(text);
        }
        let recorded = self.recorded(file)?;
        self.line_of(&recorded, line)
    }

    /// The path a shown `file` was recorded as, where a `--path-map` or the
    /// working directory changed it.
    fn recorded(&self, file: &str) -> Option<String> {
        let by_shown = self.recorded.get_or_init(|| {
            let search = SourceSearch {
                root: None,
                maps: self.maps.clone(),
            };
            let report = self.report;
            let paths = report
                .kernels
                .iter()
                .filter_map(|k| k.source.as_ref())
                .flat_map(|s| s.files.iter())
                .chain(report.source_files.iter().map(|f| &f.path));
            let mut by_shown = HashMap::new();
            for recorded in paths {
                let shown = search.shown(recorded);
                if shown != *recorded {
                    by_shown.entry(shown).or_insert(recorded.as_str());
                }
            }
            by_shown
        });
        by_shown.get(file).map(|r| (*r).to_owned())
    }

    fn line_of(&self, file: &str, line: u32) -> Option<String> {
        let index = (line as usize).checked_sub(1)?;
        if let Some(lines) = self.disk_lines(file) {
            return lines.get(index).cloned();
        }
        if let Some(listing) = self.report.source_files.iter().find(|f| f.path == file) {
            if let Some(text) = listing.lines.get(index) {
                return Some(text.clone());
            }
        }
        let text = self.page_rows().get(file)?.get(&line)?;
        Some((*text).to_owned())
    }

    fn page_rows(&self) -> &HashMap<&'a str, HashMap<u32, &'a str>> {
        self.page.get_or_init(|| {
            let mut rows: HashMap<&str, HashMap<u32, &str>> = HashMap::new();
            for view in self.report.kernels.iter().filter_map(|k| k.source.as_ref()) {
                for row in &view.lines {
                    let (Some(file), Some(line)) = (view.file_of(row), row.line) else {
                        continue;
                    };
                    rows.entry(file)
                        .or_default()
                        .entry(line)
                        .or_insert(row.text.as_str());
                }
            }
            rows
        })
    }

    /// Every line of `file` at hand: the whole file when it is on disk or
    /// listed in the export, else the CUDA rows of the source page.
    pub fn all_lines(&self, file: &str) -> Vec<(u32, String)> {
        let lines = self.all_lines_of(file);
        if !lines.is_empty() {
            return lines;
        }
        self.recorded(file)
            .map(|recorded| self.all_lines_of(&recorded))
            .unwrap_or_default()
    }

    fn all_lines_of(&self, file: &str) -> Vec<(u32, String)> {
        let numbered = |lines: &[String]| -> Vec<(u32, String)> {
            lines
                .iter()
                .enumerate()
                .map(|(i, t)| (i as u32 + 1, t.clone()))
                .collect()
        };
        if let Some(lines) = self.disk_lines(file) {
            return numbered(&lines);
        }
        if let Some(listing) = self.report.source_files.iter().find(|f| f.path == file) {
            return numbered(&listing.lines);
        }
        let mut rows: Vec<(u32, String)> = self
            .report
            .kernels
            .iter()
            .filter_map(|k| k.source.as_ref())
            .flat_map(|s| s.lines.iter().map(move |row| (s, row)))
            .filter(|(s, row)| s.file_of(row) == Some(file))
            .filter_map(|(_, row)| Some((row.line?, row.text.clone())))
            .collect();
        rows.sort();
        rows.dedup();
        rows
    }

    /// The path on this machine where `file` is found, if any.
    pub fn local_path(&self, file: &str) -> Option<PathBuf> {
        let mut candidates: Vec<PathBuf> = Vec::new();
        let mut mapped = file.to_owned();
        for (from, to) in &self.maps {
            if let Some(rest) = file.strip_prefix(from.as_str()) {
                mapped = format!("{to}{rest}");
                break;
            }
        }
        candidates.push(PathBuf::from(&mapped));
        if let Some(root) = &self.root {
            candidates.push(root.join(mapped.trim_start_matches('/')));
            if let Some(name) = Path::new(file).file_name() {
                candidates.push(root.join(name));
            }
        }
        candidates.into_iter().find(|p| p.is_file())
    }

    fn disk_lines(&self, file: &str) -> Option<Rc<[String]>> {
        if let Some(cached) = self.disk.borrow().get(file) {
            return cached.clone();
        }
        let lines = self
            .local_path(file)
            .and_then(|p| std::fs::read_to_string(p).ok())
            .map(|text| text.lines().map(str::to_owned).collect::<Rc<[String]>>());
        self.disk
            .borrow_mut()
            .insert(file.to_owned(), lines.clone());
        lines
    }
}

impl SourceSearch {
    /// `file` as it is shown and written (human, JSON, SARIF, annotations,
    /// baselines): the first `--path-map` whose FROM starts it rewritten,
    /// and a path under the working directory (the repository root, in CI)
    /// relative to it, as code scanning needs.
    pub fn shown(&self, file: &str) -> String {
        let mut mapped = file.to_owned();
        for (from, to) in &self.maps {
            if let Some(rest) = file.strip_prefix(from.as_str()) {
                let rest = if to.is_empty() || to.ends_with('/') {
                    rest.trim_start_matches('/')
                } else {
                    rest
                };
                mapped = format!("{to}{rest}");
                break;
            }
        }
        if let Ok(cwd) = std::env::current_dir() {
            let cwd = cwd.to_string_lossy();
            if let Some(rest) = mapped.strip_prefix(cwd.as_ref()) {
                if let Some(relative) = rest.strip_prefix('/') {
                    return relative.to_owned();
                }
            }
        }
        mapped
    }
}

/// Parses `FROM=TO`.
pub fn parse_path_map(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((from, to)) if !from.is_empty() => Ok((from.to_owned(), to.to_owned())),
        _ => Err(format!("`{text}` is not FROM=TO")),
    }
}
