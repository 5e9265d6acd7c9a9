//! Message templates: text with `{name}` placeholders for inputs, derived
//! values and parameters. `{name:.1}` prints one decimal, `{name:%}` a
//! percentage (0.94 as `94%`), `{name:%.1}` a percentage with one decimal;
//! a plain `{name}` prints whole numbers with thousands separators and other
//! numbers with three significant digits. `{{` and `}}` are literal braces.
//!
//! ```
//! use ncu_lint::rules::template::Template;
//! let t = Template::parse("{share:%} of {total} sectors").unwrap();
//! assert_eq!(t.render(&|n| if n == "share" { Some(0.333) } else { Some(12582912.0) }), "33% of 12,582,912 sectors");
//! ```

use std::ops::Range;

/// How a placeholder prints its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Whole numbers with separators, others to three significant digits.
    Auto,
    /// A fixed number of decimals.
    Fixed(usize),
    /// A fraction as a percentage with this many decimals.
    Percent(usize),
}

/// One piece of a template.
#[derive(Debug, Clone, PartialEq)]
pub enum Segment {
    /// Literal text.
    Text(String),
    /// A value, with where its name is in the template text.
    Value {
        /// The name.
        name: String,
        /// How to print it.
        format: Format,
        /// The name's span in the template text.
        span: Range<usize>,
    },
}

/// A parsed message template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    /// Its pieces.
    pub segments: Vec<Segment>,
}

impl Template {
    /// Parses a template; the error gives a message and a span in the text.
    pub fn parse(text: &str) -> Result<Template, (String, Range<usize>)> {
        let mut segments = Vec::new();
        let mut literal = String::new();
        let mut rest = text.char_indices().peekable();
        while let Some((i, c)) = rest.next() {
            match c {
                '{' if rest.peek().map(|&(_, c)| c) == Some('{') => {
                    rest.next();
                    literal.push('{');
                }
                '}' if rest.peek().map(|&(_, c)| c) == Some('}') => {
                    rest.next();
                    literal.push('}');
                }
                '{' => {
                    let Some(close) = text[i..].find('}').map(|j| i + j) else {
                        return Err((
                            "`{` is never closed; write `{{` for a brace".into(),
                            i..text.len(),
                        ));
                    };
                    let inner = &text[i + 1..close];
                    let (name, spec) = inner.split_once(':').unwrap_or((inner, ""));
                    let name = name.trim();
                    if name.is_empty()
                        || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    {
                        return Err((
                            format!("`{{{inner}}}` is not a placeholder name"),
                            i..close + 1,
                        ));
                    }
                    let format = parse_format(spec).ok_or_else(|| {
                        (
                            format!("unknown format `{spec}`: use .N, % or %.N"),
                            i..close + 1,
                        )
                    })?;
                    if !literal.is_empty() {
                        segments.push(Segment::Text(std::mem::take(&mut literal)));
                    }
                    let start = i + 1 + (inner.len() - inner.trim_start().len());
                    segments.push(Segment::Value {
                        name: name.to_owned(),
                        format,
                        span: start..start + name.len(),
                    });
                    while rest.peek().is_some_and(|&(j, _)| j <= close) {
                        rest.next();
                    }
                }
                '}' => return Err(("unmatched `}`; write `}}` for a brace".into(), i..i + 1)),
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            segments.push(Segment::Text(literal));
        }
        Ok(Template { segments })
    }

    /// The placeholder names with their spans.
    pub fn names(&self) -> impl Iterator<Item = (&str, &Range<usize>)> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Value { name, span, .. } => Some((name.as_str(), span)),
            Segment::Text(_) => None,
        })
    }

    /// Renders with `lookup`; an undefined value prints as `?`.
    pub fn render(&self, lookup: &dyn Fn(&str) -> Option<f64>) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            match segment {
                Segment::Text(t) => out.push_str(t),
                Segment::Value { name, format, .. } => match lookup(name) {
                    Some(v) => out.push_str(&format_number(v, *format)),
                    None => out.push('?'),
                },
            }
        }
        out
    }
}

impl Template {
    /// Renders only when every value it names is defined and non-zero.
    pub fn render_if_known(&self, lookup: &dyn Fn(&str) -> Option<f64>) -> Option<String> {
        self.render_if_known_or_zero(lookup, &|_| false)
    }

    /// As [`Template::render_if_known`], except that the values `zero_ok`
    /// names may be zero: a saving of nothing is a number worth saying.
    pub fn render_if_known_or_zero(
        &self,
        lookup: &dyn Fn(&str) -> Option<f64>,
        zero_ok: &dyn Fn(&str) -> bool,
    ) -> Option<String> {
        self.names()
            .all(|(name, _)| lookup(name).is_some_and(|v| v != 0.0 || zero_ok(name)))
            .then(|| self.render(lookup))
    }
}

fn parse_format(spec: &str) -> Option<Format> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Some(Format::Auto);
    }
    if let Some(rest) = spec.strip_prefix('%') {
        return match rest.strip_prefix('.') {
            None if rest.is_empty() => Some(Format::Percent(0)),
            Some(d) => d.parse().ok().filter(|&d| d <= 6).map(Format::Percent),
            None => None,
        };
    }
    spec.strip_prefix('.')
        .and_then(|d| d.parse().ok())
        .filter(|&d| d <= 12)
        .map(Format::Fixed)
}

/// Prints a number as a template placeholder would.
pub fn format_number(value: f64, format: Format) -> String {
    match format {
        Format::Fixed(d) => format!("{value:.d$}"),
        Format::Percent(d) => format!("{:.d$}%", value * 100.0),
        Format::Auto if value.fract() == 0.0 && value.abs() < 1e15 => group_thousands(value as i64),
        Format::Auto => {
            let magnitude = value.abs().log10().floor() as i32;
            let decimals = (2 - magnitude).clamp(0, 6) as usize;
            format!("{value:.decimals$}")
        }
    }
}

fn group_thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(format_number(16_252_928.0, Format::Auto), "16,252,928");
        assert_eq!(format_number(-1234.0, Format::Auto), "-1,234");
        assert_eq!(format_number(10.138613, Format::Auto), "10.1");
        assert_eq!(format_number(0.3169, Format::Auto), "0.317");
        assert_eq!(format_number(0.9394, Format::Percent(0)), "94%");
        assert_eq!(format_number(0.8, Format::Percent(1)), "80.0%");
        assert_eq!(format_number(32.0, Format::Fixed(1)), "32.0");
    }

    #[test]
    fn placeholders_and_errors() {
        let t = Template::parse("{{x}} {a:.2} and { b }").unwrap();
        let names: Vec<_> = t.names().map(|(n, s)| (n, s.clone())).collect();
        assert_eq!(names, [("a", 7..8), ("b", 19..20)]);
        assert_eq!(t.render(&|n| (n == "a").then_some(1.0)), "{x} 1.00 and ?");
        assert_eq!(Template::parse("oops {a").unwrap_err().1, 5..7);
        assert_eq!(Template::parse("{a:x}").unwrap_err().1, 0..5);
        assert_eq!(Template::parse("a } b").unwrap_err().1, 2..3);
    }
}
