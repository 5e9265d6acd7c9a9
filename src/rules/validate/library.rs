//! A pack's `[[library]]` tables: code users do not write, by its kernels'
//! names or its files' paths, what a user can do about it, and how a user's
//! line calls it.

use super::Validator;
use crate::rules::error::ProblemKind;
use crate::rules::pack::Library;
use crate::rules::schema::RawLibrary;

impl Validator<'_> {
    /// A `[[library]]` table: its globs, and its `calls` pattern, which
    /// must be a valid regular expression.
    pub(super) fn library(&mut self, raw: RawLibrary) -> Library {
        let calls = raw
            .calls
            .and_then(|c| match regex::Regex::new(c.get_ref()) {
                Ok(regex) => Some(regex),
                Err(e) => {
                    self.push(
                        ProblemKind::BadValue,
                        format!(
                            "library {}: `calls` is not a regular expression: {e}",
                            raw.name
                        ),
                        c.span(),
                        "a regular expression",
                        None,
                    );
                    None
                }
            });
        let globs = |patterns: &[String]| {
            patterns
                .iter()
                .map(|p| crate::vocab::Pattern::glob(p))
                .collect()
        };
        Library {
            kernels: globs(&raw.kernels),
            files: globs(&raw.files),
            name: raw.name,
            fix: raw.fix,
            keep: raw.keep,
            calls,
        }
    }
}
