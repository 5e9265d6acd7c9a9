//! How serious a finding is ([`Severity`]), the level that fails a run
//! ([`FailOn`]), and their conversions to the names other tools use: SARIF
//! levels, miette's severities, Nsight Compute's rule kinds.

use std::fmt;
use std::str::FromStr;

/// How serious a finding is; these are also SARIF's levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing.
    Note,
    /// Worth fixing.
    Warning,
    /// Must be fixed.
    Error,
}

impl Severity {
    /// Parses `note`, `warning` or `error`.
    pub fn parse(text: &str) -> Option<Severity> {
        text.parse().ok()
    }

    /// Parses a severity, or `off` (`Some(None)`), as configuration and
    /// `--severity` give it.
    pub fn parse_or_off(text: &str) -> Option<Option<Severity>> {
        match text {
            "off" => Some(None),
            _ => Severity::parse(text).map(Some),
        }
    }

    /// The lower-case name, which is also the SARIF level.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// The severity of a Nsight Compute rule result of kind `ERR`, `WRN`
    /// or `INF` (unknown kinds are warnings).
    pub fn of_ncu_kind(kind: &str) -> Severity {
        match kind {
            "ERR" => Severity::Error,
            "INF" => Severity::Note,
            _ => Severity::Warning,
        }
    }
}

/// Not one of `note`, `warning`, `error`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown severity `{0}`: expected note, warning or error")]
pub struct UnknownSeverity(pub String);

impl FromStr for Severity {
    type Err = UnknownSeverity;

    fn from_str(text: &str) -> Result<Severity, UnknownSeverity> {
        match text {
            "note" => Ok(Severity::Note),
            "warning" => Ok(Severity::Warning),
            "error" => Ok(Severity::Error),
            _ => Err(UnknownSeverity(text.to_owned())),
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<Severity> for miette::Severity {
    fn from(severity: Severity) -> miette::Severity {
        match severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Note => miette::Severity::Advice,
        }
    }
}

/// The least severity that fails a run (exit 1), or `never`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FailOn {
    /// Errors fail.
    Error,
    /// Warnings and errors fail.
    #[default]
    Warning,
    /// Any finding fails.
    Note,
    /// Nothing fails.
    Never,
}

impl FailOn {
    /// The least failing severity; `None` for `never`.
    pub fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Note => Some(Severity::Note),
            FailOn::Never => None,
        }
    }

    /// Whether a finding of `severity` fails the run.
    pub fn fails(self, severity: Severity) -> bool {
        self.threshold().is_some_and(|least| severity >= least)
    }
}

impl FromStr for FailOn {
    type Err = UnknownSeverity;

    fn from_str(text: &str) -> Result<FailOn, UnknownSeverity> {
        match text {
            "never" => Ok(FailOn::Never),
            _ => Ok(match text.parse::<Severity>()? {
                Severity::Error => FailOn::Error,
                Severity::Warning => FailOn::Warning,
                Severity::Note => FailOn::Note,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for severity in [Severity::Note, Severity::Warning, Severity::Error] {
            assert_eq!(severity.name().parse::<Severity>(), Ok(severity));
        }
        assert!("fatal".parse::<Severity>().is_err());
        assert_eq!(Severity::parse_or_off("off"), Some(None));
    }

    #[test]
    fn fail_on_compares_severities() {
        assert!(FailOn::Warning.fails(Severity::Error));
        assert!(!FailOn::Warning.fails(Severity::Note));
        assert!(!FailOn::Never.fails(Severity::Error));
        assert_eq!("never".parse::<FailOn>(), Ok(FailOn::Never));
        assert_eq!("note".parse::<FailOn>(), Ok(FailOn::Note));
    }
}
