//! Times, byte counts and shares as reports print them.

/// `saved` as a percentage of the profile's time.
pub fn share(saved: Option<f64>, profile_ns: Option<f64>) -> Option<String> {
    let (saved, total) = (saved?, profile_ns?);
    (total > 0.0).then(|| format!("{:.1}%", 100.0 * saved / total))
}

/// A time in the unit that reads best: `850 ns`, `12.3 µs`, `2.85 ms`, `1.20 s`.
pub fn duration(ns: f64) -> String {
    match ns {
        n if n < 1e3 => format!("{n:.0} ns"),
        n if n < 1e6 => format!("{:.1} µs", n / 1e3),
        n if n < 1e9 => format!("{:.2} ms", n / 1e6),
        n => format!("{:.2} s", n / 1e9),
    }
}

/// A byte count in decimal units: `4.2 KB`, `33.6 MB`, `2.1 GB`.
pub fn bytes(b: f64) -> String {
    match b {
        b if b < 1e3 => format!("{b:.0} B"),
        b if b < 1e6 => format!("{:.1} KB", b / 1e3),
        b if b < 1e9 => format!("{:.1} MB", b / 1e6),
        b => format!("{:.1} GB", b / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_well() {
        assert_eq!(duration(850.0), "850 ns");
        assert_eq!(duration(12_345.0), "12.3 µs");
        assert_eq!(duration(2_850_000.0), "2.85 ms");
        assert_eq!(bytes(33_554_432.0), "33.6 MB");
        assert_eq!(share(Some(1.0), Some(8.0)).as_deref(), Some("12.5%"));
        assert_eq!(share(Some(1.0), None), None);
    }
}
