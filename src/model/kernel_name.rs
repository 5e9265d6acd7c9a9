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

/// A kernel name reduced for matching across pages and reports: template
/// argument casts dropped (`smem_stride<float, (int)32>` is
/// `smem_stride<float, 32>`), namespace qualifiers dropped (a report stores
/// `rtracer::build_meshes(rtracer::MeshConfig*)`, its raw page prints
/// `build_meshes(MeshConfig*)`) and whitespace removed (older exports print
/// `Kernel2(bool*,bool*)`).
///
/// ```
/// use ncu_lint::model::kernel_name::normalize;
/// assert_eq!(
///     normalize("void smem_stride<float, (int)32>(float *, int)"),
///     normalize("void smem_stride<float, 32>(float *, int)"),
/// );
/// ```
pub fn normalize(name: &str) -> String {
    let uncast = CAST.replace_all(name, "$1");
    let unqualified = QUALIFIER.replace_all(&uncast, "");
    unqualified.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A namespace or class qualifier (`rtracer::`, `(anonymous namespace)::`,
/// `<unnamed>::`, and `unnamed>::` as some ncu versions print it):
/// demanglers of different ncu versions print some and leave others out,
/// so matching ignores them.
static QUALIFIER: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern, compiled by the unit tests: it cannot fail at run time.
    #[allow(clippy::expect_used)]
    let regex =
        Regex::new(r"(?:[A-Za-z_][A-Za-z0-9_]*|\(anonymous namespace\)|<unnamed>|unnamed>)::")
            .expect("the qualifier pattern is valid");
    regex
});

/// A kernel name without namespace and class qualifiers, spaces kept:
/// `void at::native::elementwise_kernel<...>` and ncu's other spelling
/// `void elementwise_kernel<...>` read alike.
///
/// ```
/// use ncu_lint::model::kernel_name::unqualified;
/// assert_eq!(
///     unqualified("void at::<unnamed>::CatArrayBatchedCopy<at::<unnamed>::OpaqueType<2>>(int)"),
///     "void CatArrayBatchedCopy<OpaqueType<2>>(int)"
/// );
/// ```
pub fn unqualified(name: &str) -> String {
    QUALIFIER.replace_all(name, "").into_owned()
}

/// How long a template argument list may be in a short name before the
/// arguments that do not fit are elided.
const SHORT_TEMPLATE: usize = 32;

/// A kernel name short enough for a table: no return type, no parameter
/// list, no namespaces, no casts in template arguments, and long argument
/// lists cut to the arguments that fit (`…` for the rest).
///
/// ```
/// use ncu_lint::model::kernel_name::short;
/// assert_eq!(short("void smem_stride<float, 2>(float *, int)"), "smem_stride<float, 2>");
/// assert_eq!(
///     short("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char *, 1>>(int, T2, T3)"),
///     "vectorized_elementwise_kernel<4, FillFunctor<float>, …>"
/// );
/// ```
pub fn short(name: &str) -> String {
    let uncast = CAST.replace_all(name.trim(), "$1");
    let name = uncast
        .replace("(anonymous namespace)::", "")
        .replace("<unnamed>::", "");
    let head = &name[..parameter_list(&name).unwrap_or(name.len())];
    let head = head.trim_end();
    let function = match last_top_level_space(head) {
        Some(i) => &head[i + 1..],
        None => head,
    };
    let short = shorten_templates(without_namespace(function));
    if short.is_empty() {
        name.to_owned()
    } else {
        short
    }
}

/// Where the parameter list starts: the first `(` outside template
/// arguments that does not open `(anonymous namespace)`.
fn parameter_list(name: &str) -> Option<usize> {
    let mut angle = 0usize;
    let mut skip_until = 0;
    for (i, c) in name.char_indices() {
        if i < skip_until {
            continue;
        }
        match c {
            '<' => angle += 1,
            '>' => angle = angle.saturating_sub(1),
            '(' if angle == 0 => {
                if name[i..].starts_with("(anonymous namespace)") {
                    skip_until = i + "(anonymous namespace)".len();
                    continue;
                }
                return (i > 0).then_some(i);
            }
            _ => {}
        }
    }
    None
}

/// The last space outside template arguments and parentheses: the end of
/// the return type.
fn last_top_level_space(head: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut last = None;
    for (i, c) in head.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.saturating_sub(1),
            ' ' if depth == 0 => last = Some(i),
            _ => {}
        }
    }
    last
}

/// `at::native::kernel<args>` as `kernel<args>`: the qualifiers before the
/// function's own name, outside its template arguments.
fn without_namespace(function: &str) -> &str {
    let end = function.find('<').unwrap_or(function.len());
    match function[..end].rfind("::") {
        Some(i) => &function[i + 2..],
        None => function,
    }
}

/// `name<args>` with each top-level argument list shortened.
fn shorten_templates(name: &str) -> String {
    let mut out = String::new();
    let mut rest = name;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = matching_angle(rest, open) else {
            out.push_str(&rest[open..]);
            return out;
        };
        out.push('<');
        out.push_str(&short_arguments(&rest[open + 1..close]));
        out.push('>');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The index of the `>` that closes the `<` at `open`.
fn matching_angle(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Template arguments without namespaces, as many as fit.
fn short_arguments(arguments: &str) -> String {
    let mut kept = String::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in arguments.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&arguments[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&arguments[start..]);
    for (n, part) in parts.iter().enumerate() {
        let part = drop_namespaces(part.trim());
        let sep = if n == 0 { "" } else { ", " };
        if kept.len() + sep.len() + part.len() > SHORT_TEMPLATE && n > 0 {
            kept.push_str(", …");
            return kept;
        }
        kept.push_str(sep);
        kept.push_str(&part);
    }
    kept
}

/// `at::native::FillFunctor<float>` as `FillFunctor<float>`, nested too.
fn drop_namespaces(text: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            word.clear();
            continue;
        }
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            out.push_str(&word);
            word.clear();
            out.push(c);
        }
    }
    out.push_str(&word);
    out
}

impl Kernel {
    /// The kernel's name for a table (see [`short`]).
    pub fn short_name(&self) -> String {
        short(&self.name)
    }

    /// The kernel's name reduced for matching (see [`normalize`]).
    pub fn normalized_name(&self) -> String {
        normalize(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_keep_what_tells_kernels_apart() {
        let cases = [
            (
                "copy_coalesced(const float *, float *, int)",
                "copy_coalesced",
            ),
            (
                "void smem_stride<double, 2>(double *, int)",
                "smem_stride<double, 2>",
            ),
            ("Kernel2(bool*,bool*,int)", "Kernel2"),
            (
                "void smem_stride<float, (int)32>(float *, int)",
                "smem_stride<float, 32>",
            ),
            (
                "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>(float *, const float *, int, int, int)",
                "softmax_warp_forward<float, float, float, 10, false>",
            ),
            (
                "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8>(T1::Params)",
                "Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8>",
            ),
            (
                "void at::<unnamed>::CatArrayBatchedCopy<at::<unnamed>::OpaqueType<2>, unsigned int, 3, 64, 64>(T1 *, int)",
                "CatArrayBatchedCopy<OpaqueType<2>, unsigned int, 3, …>",
            ),
            ("ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn"),
        ];
        for (name, want) in cases {
            assert_eq!(short(name), want, "{name}");
        }
    }

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
        assert_eq!(
            normalize("rtracer::build_meshes(rtracer::MeshConfig*)"),
            normalize("build_meshes(MeshConfig*)")
        );
        assert_ne!(
            normalize("void smem_stride<float, 32>(float *, int)"),
            normalize("void smem_stride<float, 33>(float *, int)")
        );
    }
}
