//! Horizontal bar charts as inline SVG: one bar per item, its length the
//! item's share of the largest, its label and value beside it.

use std::fmt::Write as _;

use super::{attributes, escape};

/// One bar: what it is, how long, and the attributes the page's filters read.
pub struct Bar {
    /// The label left of the bar.
    pub label: String,
    /// The value the length shows.
    pub value: f64,
    /// The value as printed right of the bar.
    pub shown: String,
    /// The tooltip.
    pub title: String,
    /// `data-*` attributes, already named (`("rules", "a b")`).
    pub data: Vec<(&'static str, String)>,
}

/// Characters of a bar's label shown; longer labels are cut.
pub const LABEL_CHARS: usize = 48;

const WIDTH: f64 = 900.0;
const LABEL: f64 = 340.0;
const VALUE: f64 = 110.0;
const ROW: f64 = 22.0;

/// An SVG chart of `bars` (in the order given), `id` naming it.
pub fn bars(id: &str, caption: &str, bars: &[Bar]) -> String {
    let largest = bars.iter().map(|b| b.value).fold(0.0_f64, f64::max);
    let height = ROW * bars.len() as f64 + 4.0;
    let mut out = format!(
        "<figure class=\"chart\" id=\"{id}\"><figcaption>{}</figcaption>\
         <svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {height}\" \
         width=\"{WIDTH}\" height=\"{height}\" role=\"img\" aria-label=\"{}\">",
        escape(caption),
        escape(caption)
    );
    let span = WIDTH - LABEL - VALUE;
    for (i, bar) in bars.iter().enumerate() {
        let y = ROW * i as f64 + 2.0;
        let length = if largest > 0.0 {
            (bar.value / largest * span).max(1.0)
        } else {
            1.0
        };
        let data = attributes(&bar.data);
        let _ = write!(
            out,
            "<g class=\"bar\"{data}><title>{}</title>\
             <text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{LABEL}\" y=\"{y}\" width=\"{length:.1}\" height=\"{}\" rx=\"2\"></rect>\
             <text class=\"value\" x=\"{:.1}\" y=\"{}\">{}</text></g>",
            escape(&bar.title),
            LABEL - 8.0,
            y + 15.0,
            escape(&truncate(&bar.label, LABEL_CHARS)),
            ROW - 6.0,
            LABEL + length + 6.0,
            y + 15.0,
            escape(&bar.shown)
        );
    }
    out.push_str("</svg></figure>\n");
    out
}

/// `text` cut to `max` characters, an ellipsis marking the cut.
fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max - 1).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_and_escape_their_text() {
        let bar = |label: &str, value: f64| Bar {
            label: label.into(),
            value,
            shown: format!("{value}"),
            title: label.into(),
            data: vec![("rules", "a&b".into())],
        };
        let svg = bars("c", "t", &[bar("k<float>", 10.0), bar("j", 5.0)]);
        assert_eq!(svg.matches("<g class=\"bar\"").count(), 2);
        assert!(svg.contains(&format!("width=\"{:.1}\"", WIDTH - LABEL - VALUE)));
        assert!(svg.contains(&format!("width=\"{:.1}\"", (WIDTH - LABEL - VALUE) / 2.0)));
        assert!(svg.contains("k&lt;float&gt;") && svg.contains("data-rules=\"a&amp;b\""));
        assert_eq!(truncate("abcdef", 4), "abc…");
    }
}
