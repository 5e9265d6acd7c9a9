//! Problems in a TOML file the user wrote (a rule pack or the
//! configuration) as miette diagnostics that point into it.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, NamedSource, Severity, SourceCode, SourceSpan};

/// What kind of problem a pack has; each is a diagnostic code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The TOML does not parse or does not fit the pack schema.
    Syntax,
    /// Two rules share an id.
    DuplicateId,
    /// An id is not kebab-case.
    BadId,
    /// An expression does not parse.
    Expression,
    /// A name used in an expression or message is not an input, derived value or parameter.
    UnknownName,
    /// A function that does not exist.
    UnknownFunction,
    /// A value of the wrong type (a number where a truth value is needed).
    Type,
    /// A value outside what the field accepts (severity, scope, form).
    BadValue,
    /// A metric name no catalog knows (a warning).
    UnknownMetric,
    /// Documentation a rule must have is missing.
    MissingDocs,
}

impl ProblemKind {
    /// Every kind, for listing the codes.
    pub const ALL: [ProblemKind; 10] = [
        ProblemKind::Syntax,
        ProblemKind::DuplicateId,
        ProblemKind::BadId,
        ProblemKind::Expression,
        ProblemKind::UnknownName,
        ProblemKind::UnknownFunction,
        ProblemKind::Type,
        ProblemKind::BadValue,
        ProblemKind::UnknownMetric,
        ProblemKind::MissingDocs,
    ];

    /// The last part of the diagnostic code.
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::Syntax => "syntax",
            ProblemKind::DuplicateId => "duplicate_id",
            ProblemKind::BadId => "bad_id",
            ProblemKind::Expression => "expression",
            ProblemKind::UnknownName => "unknown_name",
            ProblemKind::UnknownFunction => "unknown_function",
            ProblemKind::Type => "type",
            ProblemKind::BadValue => "bad_value",
            ProblemKind::UnknownMetric => "unknown_metric",
            ProblemKind::MissingDocs => "missing_docs",
        }
    }
}

/// Which file a problem is in: a rule pack or the configuration. It is the
/// middle part of the diagnostic code (`ncu_lint::config::unknown_name`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemFile {
    /// A rule pack.
    Pack,
    /// The configuration file or the flags over it.
    Config,
}

impl ProblemFile {
    /// The middle part of the diagnostic code.
    pub fn name(self) -> &'static str {
        match self {
            ProblemFile::Pack => "pack",
            ProblemFile::Config => "config",
        }
    }
}

/// One problem in a pack, with the span it concerns.
#[derive(Debug, Clone)]
pub struct PackProblem {
    /// Its kind (the code's last part).
    pub kind: ProblemKind,
    /// The file it is in (the code's middle part).
    pub file: ProblemFile,
    /// What is wrong.
    pub message: String,
    /// The pack text, named by its path.
    pub source: NamedSource<String>,
    /// The main span and its label.
    pub span: SourceSpan,
    /// The label on the span.
    pub label: String,
    /// A second span (the first definition of a duplicate id).
    pub also: Option<(SourceSpan, String)>,
    /// How to fix it.
    pub help: Option<String>,
    /// Error, or warning for problems that do not refuse the pack.
    pub severity: Severity,
}

impl PackProblem {
    /// An error of `kind` at `span` (clamped to the text) of `source`.
    pub fn error(
        kind: ProblemKind,
        message: String,
        source: NamedSource<String>,
        span: std::ops::Range<usize>,
        label: &str,
    ) -> PackProblem {
        let len = source.inner().len();
        let start = span.start.min(len);
        let end = span.end.clamp(start, len);
        PackProblem {
            kind,
            file: ProblemFile::Pack,
            message,
            source,
            span: (start, end - start).into(),
            label: label.to_owned(),
            also: None,
            help: None,
            severity: Severity::Error,
        }
    }

    /// The diagnostic code: `ncu_lint::<file>::<kind>`.
    pub fn code(&self) -> String {
        format!("ncu_lint::{}::{}", self.file.name(), self.kind.name())
    }

    /// The same problem, in the configuration rather than a pack.
    pub fn in_config(mut self) -> PackProblem {
        self.file = ProblemFile::Config;
        self
    }

    /// 1-based line and column of the main span.
    pub fn line_column(&self) -> (usize, usize) {
        let text = self.source.inner();
        let offset = self.span.offset().min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, str::len) + 1;
        (line, column)
    }

    /// Whether this problem refuses the pack.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for PackProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, column) = self.line_column();
        write!(
            f,
            "{}:{line}:{column}: {}",
            self.source.name(),
            self.message
        )
    }
}

impl std::error::Error for PackProblem {}

impl Diagnostic for PackProblem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code()))
    }

    fn severity(&self) -> Option<Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let main = LabeledSpan::new_primary_with_span(Some(self.label.clone()), self.span);
        let also = self
            .also
            .iter()
            .map(|(span, label)| LabeledSpan::new_with_span(Some(label.clone()), *span));
        Some(Box::new(std::iter::once(main).chain(also)))
    }
}
