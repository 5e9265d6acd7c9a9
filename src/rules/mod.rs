//! Rules as data: TOML rule packs ([`pack`]), the condition language
//! ([`expr`]), message templates ([`template`]), the metric catalogs
//! ([`catalog`]) and evaluation over a report ([`engine`]).
//!
//! The default pack, `rules/memory.toml`, is embedded in the binary.
//!
//! ```
//! let packs = ncu_lint::rules::builtin_packs().unwrap();
//! assert!(packs[0].rules.iter().any(|r| r.id == "shared-bank-conflict"));
//! ```

pub mod catalog;
pub mod constant_reloads;
mod diagnose;
pub mod engine;
pub mod error;
pub mod explain;
pub mod expr;
pub mod extends;
pub mod finding;
pub mod global_atomics;
mod impact;
pub mod narrow_conversions;
mod next_run;
pub mod pack;
pub mod packtest;
pub mod rule;
pub mod sass_counts;
mod schema;
pub mod store_runs;
pub mod template;
mod validate;
pub mod walk_passes;

use std::collections::HashMap;
use std::path::Path;

pub use crate::vocab::{FailOn, Severity};
pub use engine::{ActiveRule, Checker, check, needed};
pub use error::{PackError, PackProblem, PackReadError, ProblemKind};
pub use finding::{CallSite, CheckResult, Finding, Location, Place, Skip, by_kernel};
pub use pack::{Library, Pack, Rule, load_pack};

/// The packs built into the binary: (path in the repository, text).
pub const BUILTIN: [(&str, &str); 2] = [
    ("rules/memory.toml", include_str!("../../rules/memory.toml")),
    ("rules/launch.toml", include_str!("../../rules/launch.toml")),
];

/// Why rule packs could not be loaded.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[non_exhaustive]
pub enum RulesError {
    /// A pack file could not be read.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Read(#[from] PackReadError),
    /// A pack has errors.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Pack(#[from] PackError),
    /// Two packs define the same rule id.
    #[error("rule `{id}` is defined by both pack `{first}` and pack `{second}`")]
    #[diagnostic(
        code(ncu_lint::pack::duplicate_across_packs),
        help("rule ids are unique across packs; rename one, or leave one pack out")
    )]
    DuplicateAcrossPacks {
        /// The id.
        id: String,
        /// The pack loaded first.
        first: String,
        /// The pack loaded second.
        second: String,
    },
}

/// The built-in packs.
pub fn builtin_packs() -> Result<Vec<Pack>, PackError> {
    BUILTIN
        .iter()
        .map(|(name, text)| validate::load_builtin_pack(name, text))
        .collect()
}

/// Loads a pack file, or every `*.toml` pack in a directory (sorted by name).
pub fn load_path(path: &Path) -> Result<Vec<Pack>, RulesError> {
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|source| PackReadError {
            path: p.display().to_string(),
            source,
        })
    };
    if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)
            .map_err(|source| PackReadError {
                path: path.display().to_string(),
                source,
            })?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        return files.iter().map(|p| load_file(p, &read(p)?)).collect();
    }
    Ok(vec![load_file(path, &read(path)?)?])
}

fn load_file(path: &Path, text: &str) -> Result<Pack, RulesError> {
    let pack = load_pack(&path.display().to_string(), text)?;
    extends::resolve(pack, path.parent().unwrap_or(Path::new(".")), 0)
}

/// The rules of `packs` with their defaults, refusing an id defined twice.
pub fn activate(packs: &[Pack]) -> Result<Vec<ActiveRule>, RulesError> {
    let mut owner: HashMap<&str, &str> = HashMap::new();
    let mut rules = Vec::new();
    for pack in packs {
        for rule in &pack.rules {
            if let Some(first) = owner.insert(&rule.id, &pack.name) {
                return Err(RulesError::DuplicateAcrossPacks {
                    id: rule.id.clone(),
                    first: first.to_owned(),
                    second: pack.name.clone(),
                });
            }
            rules.push(ActiveRule::new(rule.clone()));
        }
    }
    Ok(rules)
}
