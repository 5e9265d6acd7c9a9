//! What PyTorch's Inductor records of a Triton kernel it generated: the
//! fused FX source nodes and the ATen operators they came from. The graph's
//! wrapper module, in the same cache directory as the kernel's own module
//! (`<cache>/<2 letters>/c<hash>.py`), says above each kernel
//!
//! ```text
//! # kernel path: /tmp/inductor/mr/cmrc...py
//! # Topologically Sorted Source Nodes: [view_15, silu, mul_13], Original ATen: [aten.view, aten.silu, aten.mul]
//! ```
//!
//! so a finding in `triton_poi_fused_..._2` can say which part of a model
//! it came from. The cache is found from the kernel's recorded path, on
//! disk as it is or through `--source-root` and `--path-map`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde::Serialize;

/// Wrapper modules read from one cache directory at most: a long-lived
/// cache holds thousands; the ones of a profiled run are few.
const MAX_MODULES: usize = 4096;
/// A wrapper module larger than this is not read.
const MAX_MODULE_BYTES: u64 = 16 << 20;

/// The source nodes and ATen operators Inductor fused into one kernel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Provenance {
    /// The FX graph's nodes, in topological order (`view_15`, `silu`).
    pub source_nodes: Vec<String>,
    /// The ATen operators of those nodes (`aten.silu`).
    pub aten: Vec<String>,
}

/// Provenance of kernels by the path their module was recorded at, read
/// from each cache directory once.
#[derive(Debug, Default)]
pub struct Cache {
    read: HashMap<PathBuf, HashMap<String, Rc<Provenance>>>,
}

impl Cache {
    /// What Inductor records of the kernel whose module was recorded at
    /// `recorded` and is at `local` on this machine.
    pub fn provenance(&mut self, recorded: &str, local: &Path) -> Option<Rc<Provenance>> {
        let dir = local.parent()?.parent()?.to_path_buf();
        let known = self
            .read
            .entry(dir)
            .or_insert_with_key(|dir| read_cache(dir));
        known.get(recorded).cloned()
    }
}

/// Whether `path` looks like a module Inductor generated (a Python file,
/// `c<hash>.py` under a two-character directory).
pub fn is_generated_module(path: &str) -> bool {
    let mut parts = path.rsplit(['/', '\\']);
    let (Some(name), Some(dir)) = (parts.next(), parts.next()) else {
        return false;
    };
    name.starts_with('c') && name.ends_with(".py") && dir.len() == 2
}

/// Every kernel path a cache directory's wrapper modules name, with what
/// they record of it.
fn read_cache(dir: &Path) -> HashMap<String, Rc<Provenance>> {
    let mut found = HashMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    let modules = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| std::fs::read_dir(e.path()).ok())
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .take(MAX_MODULES);
    for module in modules {
        let small = std::fs::metadata(&module).is_ok_and(|m| m.len() <= MAX_MODULE_BYTES);
        let Some(text) = small
            .then(|| std::fs::read_to_string(&module).ok())
            .flatten()
        else {
            continue;
        };
        found.extend(kernels_of_wrapper(&text));
    }
    found
}

/// The kernels a wrapper module names (`# kernel path:`) and the nodes
/// recorded on the line after each.
pub fn kernels_of_wrapper(text: &str) -> Vec<(String, Rc<Provenance>)> {
    let mut kernels = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(path) = line.strip_prefix("# kernel path: ") else {
            continue;
        };
        let Some(provenance) = lines.peek().and_then(|next| nodes(next)) else {
            continue;
        };
        kernels.push((path.trim().to_owned(), Rc::new(provenance)));
    }
    kernels
}

/// `# Topologically Sorted Source Nodes: [a, b], Original ATen: [aten.x]`
/// (older versions: `# Source Nodes: ...`).
fn nodes(line: &str) -> Option<Provenance> {
    let rest = line.split_once("Source Nodes: [")?.1;
    let (nodes, rest) = rest.split_once("], Original ATen: [")?;
    let aten = rest.trim_end().strip_suffix(']')?;
    let list = |text: &str| -> Vec<String> {
        text.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    };
    Some(Provenance {
        source_nodes: list(nodes),
        aten: list(aten),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapper_names_each_kernel_and_its_nodes() {
        let text = "\n# kernel path: /tmp/i/mr/cmr.py\n# Topologically Sorted Source Nodes: [view_15, silu], Original ATen: [aten.view, aten.silu]\n# Source node to ATen node mapping:\n";
        let kernels = kernels_of_wrapper(text);
        assert_eq!(kernels.len(), 1);
        assert_eq!(kernels[0].0, "/tmp/i/mr/cmr.py");
        assert_eq!(kernels[0].1.source_nodes, ["view_15", "silu"]);
        assert_eq!(kernels[0].1.aten, ["aten.view", "aten.silu"]);
        assert!(kernels_of_wrapper("# kernel path: /x.py\nno nodes\n").is_empty());
    }

    #[test]
    fn generated_modules_are_told_by_their_path() {
        assert!(is_generated_module("/tmp/p/inductor/mr/cmrcmgx.py"));
        assert!(!is_generated_module("/opt/triton/language/standard.py"));
        assert!(!is_generated_module("/tmp/p/kernels.py"));
    }
}
