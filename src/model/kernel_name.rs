//! Kernel names as pages print them, reduced to one form for matching:
//! the raw page, the source page and older exports spell template
//! arguments and parameter lists differently.

use std::sync::LazyLock;

use regex::Regex;

use super::Kernel;

/// A template argument cast such as `(int)32` or `(unsigned long)8`.
static CAST: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern, compiled by the unit tests: it cannot fail at run time.
    #[allow(clippy::expect_used)]
    let regex =
        Regex::new(r"\([a-zA-Z_][a-zA-Z0-9_ ]*\)(-?[0-9])").expect("the cast pattern is valid");
    regex
});

/// A kernel name reduced for matching across pages: template argument casts
/// dropped (`smem_stride<float, (int)32>` is `smem_stride<float, 32>`) and
/// whitespace removed (older exports print `Kernel2(bool*,bool*)`).
///
/// ```
/// use ncu_lint::model::kernel_name::normalize;
/// assert_eq!(
///     normalize("void smem_stride<float, (int)32>(float *, int)"),
///     normalize("void smem_stride<float, 32>(float *, int)"),
/// );
/// ```
pub fn normalize(name: &str) -> String {
    CAST.replace_all(name, "$1")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

impl Kernel {
    /// The kernel's name reduced for matching (see [`normalize`]).
    pub fn normalized_name(&self) -> String {
        normalize(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalise_across_pages() {
        assert_eq!(
            normalize("void fa81_kernel<(int)3>(const unsigned char *, int)"),
            normalize("void fa81_kernel<3>(const unsigned char *, int)")
        );
        assert_eq!(
            normalize("Kernel2(bool *, bool *, int)"),
            normalize("Kernel2(bool*,bool*,int)")
        );
        assert_eq!(
            normalize("k<(long)-1>(float *)"),
            normalize("k<-1>(float *)")
        );
        assert_ne!(
            normalize("void smem_stride<float, 32>(float *, int)"),
            normalize("void smem_stride<float, 33>(float *, int)")
        );
    }
}
