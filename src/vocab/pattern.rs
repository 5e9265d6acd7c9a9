//! Globs over rule ids and kernel names, as configuration, packs and pack
//! tests write them.

use globset::{Glob, GlobMatcher};

/// A rule id or kernel name glob: `*` any run of characters (`/` too), `?`
/// one; everything else stands for itself, brackets and braces included, as
/// kernel names are full of them (`{lambda(int)#1}`, `operator[]`).
#[derive(Debug, Clone)]
pub struct Pattern {
    text: String,
    /// `None` when the glob is too large to compile; then it matches itself only.
    matcher: Option<GlobMatcher>,
}

impl Pattern {
    /// Compiles a glob.
    pub fn glob(text: &str) -> Pattern {
        let mut source = String::with_capacity(text.len());
        for piece in text.split_inclusive(['*', '?']) {
            match piece.strip_suffix(['*', '?']) {
                Some(literal) => {
                    source.push_str(&globset::escape(literal));
                    source.push_str(&piece[literal.len()..]);
                }
                None => source.push_str(&globset::escape(piece)),
            }
        }
        Pattern {
            text: text.to_owned(),
            matcher: Glob::new(&source).ok().map(|g| g.compile_matcher()),
        }
    }

    /// Whether `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        match &self.matcher {
            Some(matcher) => matcher.is_match(text),
            None => self.text == text,
        }
    }

    /// Whether the pattern has wildcards.
    pub fn is_glob(&self) -> bool {
        self.text.contains(['*', '?'])
    }

    /// The pattern as written.
    pub fn text(&self) -> &str {
        &self.text
    }
}
