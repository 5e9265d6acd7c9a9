//! The condition language of rule packs: numbers, names (inputs, derived
//! values, parameters), `+ - * /`, comparisons, `and`, `or`, `not`,
//! parentheses and the functions `min`, `max` and `abs`.
//!
//! Evaluation is total: division by zero and arithmetic that leaves the
//! finite numbers give *undefined*, which propagates, and a condition that
//! is undefined does not fire. `and`/`or` follow three-valued logic, so
//! `sectors > 0 and used / sectors < 0.8` is false, not undefined, when
//! `sectors` is 0.
//!
//! ```
//! use ncu_lint::rules::expr::{parse, Type};
//! let e = parse("excess / total >= threshold").unwrap();
//! assert_eq!(e.names(), ["excess", "total", "threshold"]);
//! let value = e.eval(&|name| match name { "excess" => Some(9.0), "total" => Some(10.0), _ => Some(0.1) });
//! assert_eq!(value.as_bool(), Some(true));
//! # let _ = Type::Bool;
//! ```

use std::fmt;
use std::ops::Range;

/// Deepest nesting accepted; deeper input is refused, never a stack overflow.
pub const MAX_DEPTH: usize = 64;
/// Longest expression accepted, in bytes; it also bounds the length of
/// operator chains, which the evaluator walks recursively.
pub const MAX_LENGTH: usize = 4096;

/// A parsed expression with byte spans into its source text.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is in the expression text.
    pub span: Range<usize>,
}

/// Expression nodes.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A number literal.
    Number(f64),
    /// `true` or `false`.
    Bool(bool),
    /// An input, derived value or parameter.
    Name(String),
    /// A prefix operator.
    Unary(UnaryOp, Box<Expr>),
    /// An infix operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `min(..)`, `max(..)`, `abs(..)`.
    Call(String, Vec<Expr>),
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `not x`
    Not,
}

/// Infix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `and`
    And,
    /// `or`
    Or,
}

/// The type of an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    /// A number.
    Number,
    /// A truth value.
    Bool,
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Number => "a number",
            Type::Bool => "a truth value",
        })
    }
}

/// The functions conditions may call, with their arity.
pub const FUNCTIONS: [(&str, usize); 3] = [("min", 2), ("max", 2), ("abs", 1)];

/// What kind of mistake an expression has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExprErrorKind {
    /// It does not parse.
    Syntax,
    /// It names a value that is not there.
    UnknownName,
    /// It calls a function that is not there.
    UnknownFunction,
    /// A value of the wrong type, or a call with the wrong arity.
    Type,
}

/// Why an expression was refused.
#[derive(Debug, Clone, PartialEq)]
pub struct ExprError {
    /// What kind of mistake.
    pub kind: ExprErrorKind,
    /// What is wrong.
    pub message: String,
    /// Where, in the expression text.
    pub span: Range<usize>,
}

impl ExprError {
    fn new(message: impl Into<String>, span: Range<usize>) -> Self {
        ExprError::of(ExprErrorKind::Syntax, message, span)
    }

    fn of(kind: ExprErrorKind, message: impl Into<String>, span: Range<usize>) -> Self {
        ExprError {
            kind,
            message: message.into(),
            span,
        }
    }
}

/// The value of an expression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// A finite number.
    Number(f64),
    /// A truth value.
    Bool(bool),
    /// Division by zero, a missing name, or a non-finite result.
    Undefined,
}

impl Outcome {
    /// The number, if defined.
    pub fn as_number(self) -> Option<f64> {
        match self {
            Outcome::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The truth value, if defined.
    pub fn as_bool(self) -> Option<bool> {
        match self {
            Outcome::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn number(n: f64) -> Outcome {
        if n.is_finite() {
            Outcome::Number(n)
        } else {
            Outcome::Undefined
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64),
    Ident(String),
    Op(&'static str),
    LParen,
    RParen,
    Comma,
}

fn tokenize(text: &str) -> Result<Vec<(Token, Range<usize>)>, ExprError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            while i < bytes.len()
                && (bytes[i].is_ascii_digit() || bytes[i] == b'.' || bytes[i] == b'_')
            {
                i += 1;
            }
            if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
                let mut j = i + 1;
                if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
                    j += 1;
                }
                if j < bytes.len() && bytes[j].is_ascii_digit() {
                    i = j;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let literal: String = text[start..i].chars().filter(|&c| c != '_').collect();
            let n: f64 = literal.parse().map_err(|_| {
                ExprError::new(format!("`{}` is not a number", &text[start..i]), start..i)
            })?;
            if !n.is_finite() {
                return Err(ExprError::new(
                    format!("`{}` is too large for a number", &text[start..i]),
                    start..i,
                ));
            }
            tokens.push((Token::Number(n), start..i));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            tokens.push((Token::Ident(text[start..i].to_owned()), start..i));
            continue;
        }
        let two = text.get(i..i + 2).unwrap_or("");
        let (token, len) = match two {
            "<=" => (Token::Op("<="), 2),
            ">=" => (Token::Op(">="), 2),
            "==" => (Token::Op("=="), 2),
            "!=" => (Token::Op("!="), 2),
            "&&" | "||" => {
                let word = if two == "&&" { "and" } else { "or" };
                return Err(ExprError::new(
                    format!("write `{word}` instead of `{two}`"),
                    i..i + 2,
                ));
            }
            _ => match c {
                b'<' => (Token::Op("<"), 1),
                b'>' => (Token::Op(">"), 1),
                b'+' => (Token::Op("+"), 1),
                b'-' => (Token::Op("-"), 1),
                b'*' => (Token::Op("*"), 1),
                b'/' => (Token::Op("/"), 1),
                b'(' => (Token::LParen, 1),
                b')' => (Token::RParen, 1),
                b',' => (Token::Comma, 1),
                _ => {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    return Err(ExprError::new(
                        format!("unexpected `{ch}`"),
                        i..i + ch.len_utf8(),
                    ));
                }
            },
        };
        tokens.push((token, i..i + len));
        i += len;
    }
    Ok(tokens)
}

struct Parser<'a> {
    tokens: &'a [(Token, Range<usize>)],
    pos: usize,
    end: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos).map(|(t, _)| t)
    }

    fn span(&self) -> Range<usize> {
        self.tokens
            .get(self.pos)
            .map_or(self.end..self.end, |(_, s)| s.clone())
    }

    fn is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Token::Ident(w)) if w == word)
    }

    fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ExprError::new(
                format!("the expression nests deeper than {MAX_DEPTH} levels"),
                self.span(),
            ));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Expr, ExprError> {
        self.enter()?;
        let mut left = self.and()?;
        while self.is_word("or") {
            self.pos += 1;
            let right = self.and()?;
            left = binary(BinaryOp::Or, left, right);
        }
        self.depth -= 1;
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.not()?;
        while self.is_word("and") {
            self.pos += 1;
            let right = self.not()?;
            left = binary(BinaryOp::And, left, right);
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Expr, ExprError> {
        if self.is_word("not") {
            let start = self.span().start;
            self.pos += 1;
            self.enter()?;
            let inner = self.not()?;
            self.depth -= 1;
            let span = start..inner.span.end;
            return Ok(Expr {
                kind: ExprKind::Unary(UnaryOp::Not, Box::new(inner)),
                span,
            });
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr, ExprError> {
        let left = self.additive()?;
        let op = match self.peek() {
            Some(Token::Op("<")) => BinaryOp::Lt,
            Some(Token::Op("<=")) => BinaryOp::Le,
            Some(Token::Op(">")) => BinaryOp::Gt,
            Some(Token::Op(">=")) => BinaryOp::Ge,
            Some(Token::Op("==")) => BinaryOp::Eq,
            Some(Token::Op("!=")) => BinaryOp::Ne,
            _ => return Ok(left),
        };
        self.pos += 1;
        let right = self.additive()?;
        if matches!(
            self.peek(),
            Some(Token::Op("<" | "<=" | ">" | ">=" | "==" | "!="))
        ) {
            return Err(ExprError::new(
                "comparisons do not chain: write `a < b and b < c`",
                self.span(),
            ));
        }
        Ok(binary(op, left, right))
    }

    fn additive(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.multiplicative()?;
        loop {
            let op = match self.peek() {
                Some(Token::Op("+")) => BinaryOp::Add,
                Some(Token::Op("-")) => BinaryOp::Sub,
                _ => return Ok(left),
            };
            self.pos += 1;
            let right = self.multiplicative()?;
            left = binary(op, left, right);
        }
    }

    fn multiplicative(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Token::Op("*")) => BinaryOp::Mul,
                Some(Token::Op("/")) => BinaryOp::Div,
                _ => return Ok(left),
            };
            self.pos += 1;
            let right = self.unary()?;
            left = binary(op, left, right);
        }
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        if matches!(self.peek(), Some(Token::Op("-"))) {
            let start = self.span().start;
            self.pos += 1;
            self.enter()?;
            let inner = self.unary()?;
            self.depth -= 1;
            let span = start..inner.span.end;
            return Ok(Expr {
                kind: ExprKind::Unary(UnaryOp::Neg, Box::new(inner)),
                span,
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, ExprError> {
        let span = self.span();
        let Some((token, _)) = self.tokens.get(self.pos) else {
            return Err(ExprError::new("the expression ends too early", span));
        };
        match token {
            Token::Number(n) => {
                self.pos += 1;
                Ok(Expr {
                    kind: ExprKind::Number(*n),
                    span,
                })
            }
            Token::Ident(word) if matches!(word.as_str(), "and" | "or" | "not") => Err(
                ExprError::new(format!("expected a value, found `{word}`"), span),
            ),
            Token::Ident(word) => {
                self.pos += 1;
                let kind = match word.as_str() {
                    "true" => ExprKind::Bool(true),
                    "false" => ExprKind::Bool(false),
                    _ if matches!(self.peek(), Some(Token::LParen)) => {
                        return self.call(word.clone(), span);
                    }
                    _ => ExprKind::Name(word.clone()),
                };
                Ok(Expr { kind, span })
            }
            Token::LParen => {
                self.pos += 1;
                let inner = self.or()?;
                if !matches!(self.peek(), Some(Token::RParen)) {
                    return Err(ExprError::new("expected `)`", self.span()));
                }
                self.pos += 1;
                Ok(inner)
            }
            Token::RParen | Token::Comma | Token::Op(_) => {
                let text = match token {
                    Token::RParen => ")",
                    Token::Comma => ",",
                    Token::Op(op) => op,
                    _ => "?",
                };
                Err(ExprError::new(
                    format!("expected a value, found `{text}`"),
                    span,
                ))
            }
        }
    }

    fn call(&mut self, name: String, name_span: Range<usize>) -> Result<Expr, ExprError> {
        self.pos += 1; // (
        self.enter()?;
        let mut args = Vec::new();
        if !matches!(self.peek(), Some(Token::RParen)) {
            loop {
                args.push(self.or()?);
                match self.peek() {
                    Some(Token::Comma) => self.pos += 1,
                    Some(Token::RParen) => break,
                    _ => return Err(ExprError::new("expected `,` or `)`", self.span())),
                }
            }
        }
        let end = self.span().end;
        self.pos += 1; // )
        self.depth -= 1;
        Ok(Expr {
            kind: ExprKind::Call(name, args),
            span: name_span.start..end,
        })
    }
}

fn binary(op: BinaryOp, left: Expr, right: Expr) -> Expr {
    let span = left.span.start..right.span.end;
    Expr {
        kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
        span,
    }
}

/// Parses an expression.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    if text.len() > MAX_LENGTH {
        return Err(ExprError::new(
            format!("the expression is longer than {MAX_LENGTH} bytes"),
            0..text.len(),
        ));
    }
    let tokens = tokenize(text)?;
    if tokens.is_empty() {
        return Err(ExprError::new("the expression is empty", 0..text.len()));
    }
    let mut parser = Parser {
        tokens: &tokens,
        pos: 0,
        end: text.len(),
        depth: 0,
    };
    let expr = parser.or()?;
    if parser.pos < tokens.len() {
        return Err(ExprError::new(
            "unexpected text after the expression",
            parser.span(),
        ));
    }
    Ok(expr)
}

impl Expr {
    /// The names the expression reads, in order of first use.
    pub fn names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let ExprKind::Name(n) = &e.kind {
                if !out.contains(&n.as_str()) {
                    out.push(n.as_str());
                }
            }
        });
        out
    }

    fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Unary(_, inner) => inner.visit(f),
            ExprKind::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| a.visit(f)),
            _ => {}
        }
    }

    /// Checks names, functions and types; `lookup` gives the type of each
    /// known name. Returns the expression's type.
    pub fn check(&self, lookup: &dyn Fn(&str) -> Option<Type>) -> Result<Type, ExprError> {
        let expect = |e: &Expr, want: Type| -> Result<(), ExprError> {
            let got = e.check(lookup)?;
            if got == want {
                Ok(())
            } else {
                Err(ExprError::of(
                    ExprErrorKind::Type,
                    format!("expected {want}, found {got}"),
                    e.span.clone(),
                ))
            }
        };
        match &self.kind {
            ExprKind::Number(_) => Ok(Type::Number),
            ExprKind::Bool(_) => Ok(Type::Bool),
            ExprKind::Name(n) => lookup(n).ok_or_else(|| {
                ExprError::of(
                    ExprErrorKind::UnknownName,
                    format!("unknown name `{n}`"),
                    self.span.clone(),
                )
            }),
            ExprKind::Unary(UnaryOp::Neg, inner) => {
                expect(inner, Type::Number).map(|()| Type::Number)
            }
            ExprKind::Unary(UnaryOp::Not, inner) => expect(inner, Type::Bool).map(|()| Type::Bool),
            ExprKind::Binary(op, a, b) => match op {
                BinaryOp::And | BinaryOp::Or => {
                    expect(a, Type::Bool)?;
                    expect(b, Type::Bool)?;
                    Ok(Type::Bool)
                }
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div => {
                    expect(a, Type::Number)?;
                    expect(b, Type::Number)?;
                    Ok(Type::Number)
                }
                _ => {
                    expect(a, Type::Number)?;
                    expect(b, Type::Number)?;
                    Ok(Type::Bool)
                }
            },
            ExprKind::Call(name, args) => {
                let Some((_, arity)) = FUNCTIONS.iter().find(|(f, _)| f == name) else {
                    let known: Vec<&str> = FUNCTIONS.iter().map(|(f, _)| *f).collect();
                    return Err(ExprError::of(
                        ExprErrorKind::UnknownFunction,
                        format!("unknown function `{name}` (known: {})", known.join(", ")),
                        self.span.start..self.span.start + name.len(),
                    ));
                };
                if args.len() != *arity {
                    return Err(ExprError::of(
                        ExprErrorKind::Type,
                        format!("`{name}` takes {arity} argument(s), found {}", args.len()),
                        self.span.clone(),
                    ));
                }
                for arg in args {
                    expect(arg, Type::Number)?;
                }
                Ok(Type::Number)
            }
        }
    }

    /// Evaluates with `lookup` giving each name's value (`None`: undefined).
    pub fn eval(&self, lookup: &dyn Fn(&str) -> Option<f64>) -> Outcome {
        match &self.kind {
            ExprKind::Number(n) => Outcome::number(*n),
            ExprKind::Bool(b) => Outcome::Bool(*b),
            ExprKind::Name(n) => lookup(n).map_or(Outcome::Undefined, Outcome::number),
            ExprKind::Unary(UnaryOp::Neg, inner) => match inner.eval(lookup) {
                Outcome::Number(n) => Outcome::number(-n),
                _ => Outcome::Undefined,
            },
            ExprKind::Unary(UnaryOp::Not, inner) => match inner.eval(lookup) {
                Outcome::Bool(b) => Outcome::Bool(!b),
                _ => Outcome::Undefined,
            },
            ExprKind::Binary(BinaryOp::And, a, b) => match a.eval(lookup) {
                Outcome::Bool(false) => Outcome::Bool(false),
                left => match (left, b.eval(lookup)) {
                    (_, Outcome::Bool(false)) => Outcome::Bool(false),
                    (Outcome::Bool(true), Outcome::Bool(true)) => Outcome::Bool(true),
                    _ => Outcome::Undefined,
                },
            },
            ExprKind::Binary(BinaryOp::Or, a, b) => match a.eval(lookup) {
                Outcome::Bool(true) => Outcome::Bool(true),
                left => match (left, b.eval(lookup)) {
                    (_, Outcome::Bool(true)) => Outcome::Bool(true),
                    (Outcome::Bool(false), Outcome::Bool(false)) => Outcome::Bool(false),
                    _ => Outcome::Undefined,
                },
            },
            ExprKind::Binary(op, a, b) => {
                let (Outcome::Number(x), Outcome::Number(y)) = (a.eval(lookup), b.eval(lookup))
                else {
                    return Outcome::Undefined;
                };
                match op {
                    BinaryOp::Add => Outcome::number(x + y),
                    BinaryOp::Sub => Outcome::number(x - y),
                    BinaryOp::Mul => Outcome::number(x * y),
                    BinaryOp::Div if y == 0.0 => Outcome::Undefined,
                    BinaryOp::Div => Outcome::number(x / y),
                    BinaryOp::Lt => Outcome::Bool(x < y),
                    BinaryOp::Le => Outcome::Bool(x <= y),
                    BinaryOp::Gt => Outcome::Bool(x > y),
                    BinaryOp::Ge => Outcome::Bool(x >= y),
                    BinaryOp::Eq => Outcome::Bool(x == y),
                    BinaryOp::Ne => Outcome::Bool(x != y),
                    BinaryOp::And | BinaryOp::Or => Outcome::Undefined,
                }
            }
            ExprKind::Call(name, args) => {
                let values: Option<Vec<f64>> =
                    args.iter().map(|a| a.eval(lookup).as_number()).collect();
                let Some(values) = values else {
                    return Outcome::Undefined;
                };
                match (name.as_str(), values.as_slice()) {
                    ("min", [a, b]) => Outcome::number(a.min(*b)),
                    ("max", [a, b]) => Outcome::number(a.max(*b)),
                    ("abs", [a]) => Outcome::number(a.abs()),
                    _ => Outcome::Undefined,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num<'a>(names: &'a [(&'a str, f64)]) -> impl Fn(&str) -> Option<f64> + 'a {
        move |n| names.iter().find(|(k, _)| *k == n).map(|(_, v)| *v)
    }

    fn all_numbers(_: &str) -> Option<Type> {
        Some(Type::Number)
    }

    #[test]
    fn precedence_and_evaluation() {
        let e = parse("1 + 2 * 3 - -4 / 2").unwrap();
        assert_eq!(e.eval(&|_| None), Outcome::Number(9.0));
        let e = parse("not a > 1 and (b < 2 or c == 3)").unwrap();
        assert_eq!(e.check(&all_numbers), Ok(Type::Bool));
        assert_eq!(
            e.eval(&num(&[("a", 0.0), ("b", 5.0), ("c", 3.0)])),
            Outcome::Bool(true)
        );
        assert_eq!(
            parse("max(1, min(5, 3)) + abs(-2)")
                .unwrap()
                .eval(&|_| None),
            Outcome::Number(5.0)
        );
        assert_eq!(
            parse("1_000 * 2.5e-3").unwrap().eval(&|_| None),
            Outcome::Number(2.5)
        );
    }

    #[test]
    fn division_by_zero_is_undefined_and_does_not_fire() {
        let e = parse("x / y < 0.8").unwrap();
        assert_eq!(e.eval(&num(&[("x", 1.0), ("y", 0.0)])), Outcome::Undefined);
        let guarded = parse("y > 0 and x / y < 0.8").unwrap();
        assert_eq!(
            guarded.eval(&num(&[("x", 1.0), ("y", 0.0)])),
            Outcome::Bool(false)
        );
        let either = parse("x / y < 0.8 or y == 0").unwrap();
        assert_eq!(
            either.eval(&num(&[("x", 1.0), ("y", 0.0)])),
            Outcome::Bool(true)
        );
        assert_eq!(
            parse("1e300 * 1e300").unwrap().eval(&|_| None),
            Outcome::Undefined
        );
    }

    #[test]
    fn errors_carry_spans() {
        let err = parse("a < ").unwrap_err();
        assert_eq!(err.message, "the expression ends too early");
        let err = parse("a && b").unwrap_err();
        assert_eq!(
            (err.message.as_str(), err.span.clone()),
            ("write `and` instead of `&&`", 2..4)
        );
        let err = parse("1e999 > a").unwrap_err();
        assert!(err.message.contains("too large"));
        assert_eq!(err.span, 0..5);
        let err = parse("a < b < c").unwrap_err();
        assert!(err.message.contains("do not chain"));
        let err = parse("a $ b").unwrap_err();
        assert_eq!(err.span, 2..3);
    }

    #[test]
    fn type_errors_and_unknowns() {
        let e = parse("ratio + (a > b)").unwrap();
        let err = e.check(&all_numbers).unwrap_err();
        assert_eq!(err.message, "expected a number, found a truth value");
        assert_eq!(err.span, 9..14);
        let e = parse("sqrt(x) > 1").unwrap();
        let err = e.check(&all_numbers).unwrap_err();
        assert!(err.message.starts_with("unknown function `sqrt`"));
        assert_eq!(err.span, 0..4);
        let e = parse("min(x) > 1").unwrap();
        assert!(
            e.check(&all_numbers)
                .unwrap_err()
                .message
                .contains("takes 2")
        );
        let e = parse("nope > 1").unwrap();
        let err = e
            .check(&|n| (n != "nope").then_some(Type::Number))
            .unwrap_err();
        assert_eq!(
            (err.message.as_str(), err.span.clone()),
            ("unknown name `nope`", 0..4)
        );
    }

    #[test]
    fn deep_nesting_is_refused_not_a_crash() {
        let deep = format!("{}1{}", "(".repeat(1_000), ")".repeat(1_000));
        assert!(parse(&deep).unwrap_err().message.contains("deeper than"));
        let negs = format!("{}1", "-".repeat(1_000));
        assert!(parse(&negs).unwrap_err().message.contains("deeper than"));
        let nots = format!("{} true", "not ".repeat(500));
        assert!(parse(&nots).unwrap_err().message.contains("deeper than"));
        let chain = vec!["1"; 5_000].join("+");
        assert!(parse(&chain).unwrap_err().message.contains("longer than"));
        let ok = format!("{}1{}", "(".repeat(30), ")".repeat(30));
        assert!(parse(&ok).is_ok());
    }
}
