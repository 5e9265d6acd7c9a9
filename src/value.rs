//! Cell values as Nsight Compute prints them, and their units.
//!
//! ncu prints numbers with thousands separators (`25,853,952`), with two
//! decimals under `--print-fp` (`1024.00`), as instanced lists
//! (`240; 240; 240`), and marks absent data as `n/a`, `no data`, `-` or an
//! empty cell. Absent data is [`Value::Missing`], never zero.
//!
//! ```
//! use ncu_lint::value::{parse_value, Value};
//! assert_eq!(parse_value("25,853,952").unwrap(), Value::Number(25_853_952.0));
//! assert_eq!(parse_value("n/a").unwrap(), Value::Missing);
//! ```

use serde::Serialize;

/// Most values in one instanced cell (`1; 2; 3; ...`); a longer list stays
/// text.
pub const MAX_INSTANCES: usize = 1 << 16;

/// One parsed cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// A finite number.
    Number(f64),
    /// Per-instance values (`--print-metric-instances values`, histograms).
    Instances(Vec<f64>),
    /// Text that is not a number (`cudaFuncCachePreferNone`, a GPU name).
    Text(String),
    /// No data: `n/a`, `no data`, `-` or an empty cell.
    Missing,
}

impl Value {
    /// The number this value holds, if it is one; instanced values give their sum.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            Value::Instances(v) => Some(v.iter().sum()),
            Value::Text(_) | Value::Missing => None,
        }
    }

    /// Scales numeric values by `factor` (unit normalisation).
    pub fn scaled(self, factor: f64) -> Value {
        if factor == 1.0 {
            return self;
        }
        match self {
            Value::Number(n) => Value::Number(n * factor),
            Value::Instances(v) => Value::Instances(v.into_iter().map(|n| n * factor).collect()),
            other => other,
        }
    }
}

/// A cell that holds a number ncu could not compute (`nan`, `inf`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("`{raw}` is not a finite number")]
pub struct NotFinite {
    /// The cell as printed.
    pub raw: String,
}

/// Parses one cell. Text stays text; only non-finite numbers are refused.
pub fn parse_value(raw: &str) -> Result<Value, NotFinite> {
    let trimmed = raw.trim();
    if is_missing(trimmed) {
        return Ok(Value::Missing);
    }
    match parse_number(trimmed) {
        Some(Ok(n)) => return Ok(Value::Number(n)),
        Some(Err(e)) => return Err(e),
        None => {}
    }
    if trimmed.contains(';') {
        let mut values = Vec::new();
        for part in trimmed.split(';').take(MAX_INSTANCES + 1) {
            match parse_number(part.trim()) {
                Some(Ok(n)) => values.push(n),
                Some(Err(e)) => return Err(e),
                None => return Ok(Value::Text(trimmed.to_owned())),
            }
        }
        if values.len() > MAX_INSTANCES {
            return Ok(Value::Text(trimmed.to_owned()));
        }
        return Ok(Value::Instances(values));
    }
    Ok(Value::Text(trimmed.to_owned()))
}

/// Whether a trimmed cell means "no data".
pub fn is_missing(trimmed: &str) -> bool {
    matches!(trimmed, "" | "-" | "n/a" | "N/A" | "no data" | "No Data")
}

/// Parses a number with optional thousands separators, without allocating.
///
/// Returns `None` for text that is not a number, `Some(Err)` for `nan` and
/// infinities. Separators must group digits by three (`1,759,000.00`), so a
/// list such as `1,2` stays text.
pub fn parse_number(s: &str) -> Option<Result<f64, NotFinite>> {
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return None;
    }
    if let Some(n) = plain_integer(bytes) {
        return Some(Ok(n));
    }
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    if ["nan", "inf", "infinity"]
        .iter()
        .any(|word| body.eq_ignore_ascii_case(word))
    {
        return Some(Err(NotFinite { raw: s.to_owned() }));
    }
    if !body
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b',' | b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    if !body
        .as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_digit() || *b == b'.')
    {
        return None;
    }
    // Copy without separators into a stack buffer: f64::from_str needs contiguous text.
    let mut buf = [0u8; 64];
    let mut len = 0;
    if body.contains(',') && !has_grouped_thousands(body) {
        return None;
    }
    for &b in bytes {
        if b == b',' {
            continue;
        }
        if len == buf.len() {
            return None;
        }
        buf[len] = b;
        len += 1;
    }
    let text = std::str::from_utf8(&buf[..len]).ok()?;
    let n: f64 = text.parse().ok()?;
    if n.is_finite() {
        Some(Ok(n))
    } else {
        Some(Err(NotFinite { raw: s.to_owned() }))
    }
}

/// Most cells of a page are counts (`131072`, `0`): read without the float
/// parser when the digits fit an f64 exactly (15 of them).
fn plain_integer(bytes: &[u8]) -> Option<f64> {
    if bytes.len() > 15 {
        return None;
    }
    let mut n: u64 = 0;
    for &b in bytes {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        n = n * 10 + u64::from(digit);
    }
    Some(n as f64)
}

/// `1,234,567.89`: a head of 1-3 digits, then groups of exactly three.
fn has_grouped_thousands(body: &str) -> bool {
    let integer = body.split(['.', 'e', 'E']).next().unwrap_or("");
    let mut groups = integer.split(',');
    let head = groups.next().unwrap_or("");
    (1..=3).contains(&head.len())
        && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
}

/// A unit brought to its base form, with the factor that converts values.
#[derive(Debug, Clone, PartialEq)]
pub struct NormalizedUnit {
    /// The base unit: `byte`, `ns`, `hz`, `byte/s`, `%/byte`, ...
    pub unit: String,
    /// Multiply a value in the original unit by this to get the base unit.
    pub factor: f64,
}

/// Normalises ncu's auto-scaled units (`Kbyte`, `Mbyte/s`, `Ghz`, `us`,
/// `nsecond`, `sector/us`, ...) to the base units `--print-units base` uses.
///
/// ncu scales bytes by powers of 1000 (1.02 Kbyte/block is 1,024 byte/block).
///
/// ```
/// use ncu_lint::value::normalize_unit;
/// let u = normalize_unit("Mbyte/s");
/// assert_eq!((u.unit.as_str(), u.factor), ("byte/s", 1e6));
/// ```
pub fn normalize_unit(unit: &str) -> NormalizedUnit {
    let unit = unit.trim();
    let (num, den) = match unit.split_once('/') {
        Some((n, d)) => (n, Some(d)),
        None => (unit, None),
    };
    let (num_base, num_factor) = base_of(num, false);
    match den {
        None => NormalizedUnit {
            unit: num_base.to_owned(),
            factor: num_factor,
        },
        Some(den) => {
            let (den_base, den_factor) = base_of(den, true);
            NormalizedUnit {
                unit: format!("{num_base}/{den_base}"),
                factor: num_factor / den_factor,
            }
        }
    }
}

/// The factor [`normalize_unit`] gives for `unit`, without building the
/// base unit's name.
pub fn unit_factor(unit: &str) -> f64 {
    let unit = unit.trim();
    match unit.split_once('/') {
        Some((num, den)) => base_of(num, false).1 / base_of(den, true).1,
        None => base_of(unit, false).1,
    }
}

/// The base of one side of a unit. Time in a numerator is `ns` (as ncu's base
/// printing does); time in a denominator is `s`, so rates read per second.
fn base_of(part: &str, denominator: bool) -> (&str, f64) {
    const BYTES: [(&str, f64); 6] = [
        ("byte", 1.0),
        ("Kbyte", 1e3),
        ("Mbyte", 1e6),
        ("Gbyte", 1e9),
        ("Tbyte", 1e12),
        ("Pbyte", 1e15),
    ];
    const HERTZ: [(&str, f64); 4] = [("hz", 1.0), ("Khz", 1e3), ("Mhz", 1e6), ("Ghz", 1e9)];
    const TIME_NS: [(&str, f64); 8] = [
        ("ns", 1.0),
        ("nsecond", 1.0),
        ("us", 1e3),
        ("usecond", 1e3),
        ("ms", 1e6),
        ("msecond", 1e6),
        ("s", 1e9),
        ("second", 1e9),
    ];
    if let Some((_, f)) = BYTES.iter().find(|(n, _)| *n == part) {
        return ("byte", *f);
    }
    if let Some((_, f)) = HERTZ.iter().find(|(n, _)| *n == part) {
        return ("hz", *f);
    }
    if let Some((_, f)) = TIME_NS.iter().find(|(n, _)| *n == part) {
        return if denominator {
            ("s", *f / 1e9)
        } else {
            ("ns", *f)
        };
    }
    (part, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators_and_print_fp() {
        assert_eq!(parse_value("25,853,952"), Ok(Value::Number(25_853_952.0)));
        assert_eq!(
            parse_value("16,852,881,244,160.00"),
            Ok(Value::Number(16_852_881_244_160.0))
        );
        assert_eq!(parse_value("1024.00"), Ok(Value::Number(1024.0)));
        assert_eq!(parse_value("-3.5"), Ok(Value::Number(-3.5)));
        assert_eq!(parse_value("1e3"), Ok(Value::Number(1000.0)));
    }

    #[test]
    fn missing_is_not_zero() {
        for raw in ["", "-", "n/a", "no data", "  "] {
            assert_eq!(parse_value(raw), Ok(Value::Missing), "{raw:?}");
        }
    }

    #[test]
    fn instanced_values() {
        assert_eq!(
            parse_value("240; 240; 240"),
            Ok(Value::Instances(vec![240.0, 240.0, 240.0]))
        );
        assert_eq!(
            parse_value("32.00; 1,024.00"),
            Ok(Value::Instances(vec![32.0, 1024.0]))
        );
    }

    #[test]
    fn text_stays_text() {
        assert_eq!(parse_value("No-CC"), Ok(Value::Text("No-CC".into())));
        assert_eq!(parse_value("1,2"), Ok(Value::Text("1,2".into())));
        assert_eq!(
            parse_value("8,388,608 (3,145,728; 2,097,152)"),
            Ok(Value::Text("8,388,608 (3,145,728; 2,097,152)".into()))
        );
        assert_eq!(parse_value("e5"), Ok(Value::Text("e5".into())));
    }

    #[test]
    fn non_finite_is_refused() {
        for raw in ["nan", "-nan", "inf", "-inf", "NaN", "1e999"] {
            assert!(parse_value(raw).is_err(), "{raw}");
        }
        assert!(parse_value("1; nan").is_err());
    }

    #[test]
    fn units_normalise_to_base() {
        let cases = [
            ("Kbyte", "byte", 1e3),
            ("Gbyte/s", "byte/s", 1e9),
            ("Ghz", "hz", 1e9),
            ("us", "ns", 1e3),
            ("msecond", "ns", 1e6),
            ("nsecond", "ns", 1.0),
            ("byte/second", "byte/s", 1.0),
            ("sector/ns", "sector/s", 1e9),
            ("sector/us", "sector/s", 1e6),
            ("%/Kbyte", "%/byte", 1e-3),
            ("Kbyte/block", "byte/block", 1e3),
            ("cycle", "cycle", 1.0),
            ("", "", 1.0),
        ];
        for (raw, unit, factor) in cases {
            let n = normalize_unit(raw);
            assert_eq!(n.unit, unit, "{raw}");
            assert_eq!(unit_factor(raw), n.factor, "{raw}");
            assert!(
                (n.factor - factor).abs() <= factor * 1e-12,
                "{raw}: {}",
                n.factor
            );
        }
    }
}
