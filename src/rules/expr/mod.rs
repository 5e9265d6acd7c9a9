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

mod check;
mod eval;
mod lex;
mod parser;

use std::fmt;
use std::ops::Range;

pub use parser::parse;

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
    /// `min(..)`, `max(..)`, `abs(..)`, `ceil(..)`, `floor(..)`, `mod(..)`,
    /// `known_or(..)`.
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

/// The functions conditions may call, with their arity: `ceil` and
/// `floor` count whole things (the waves a grid takes), `mod(a, b)` what is
/// left of `a` after whole `b`s (the loads a batch of sixteen leaves),
/// `pow(a, b)` is `a` to the power `b` (a smooth maximum of two times; it
/// is undefined for `a` below 0, where a real power has no value),
/// `log2(a)` the power of two `a` is (`pow(2, ceil(log2(a)))` rounds up to
/// a power of two: the L2 slices an aligned region's lines hash over; it is
/// undefined for `a` of 0 or below), `known_or(a, b)` is `a` where it is defined and `b` where it is not (an
/// optional metric the export lacks, a share of nothing).
pub const FUNCTIONS: [(&str, usize); 9] = [
    ("min", 2),
    ("max", 2),
    ("abs", 1),
    ("ceil", 1),
    ("floor", 1),
    ("mod", 2),
    ("pow", 2),
    ("log2", 1),
    ("known_or", 2),
];

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
        // The waves 139 blocks take on 132 SMs of one block each.
        assert_eq!(
            parse("ceil(139 / 132) - floor(139 / 132)")
                .unwrap()
                .eval(&|_| None),
            Outcome::Number(1.0)
        );
        // What a row of 60 loads a lane leaves after batches of sixteen.
        assert_eq!(
            parse("mod(60, 16)").unwrap().eval(&|_| None),
            Outcome::Number(12.0)
        );
        assert_eq!(
            parse("mod(5, 0)").unwrap().eval(&|_| None),
            Outcome::Undefined
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
    fn known_or_stands_in_where_a_value_is_undefined() {
        let e = parse("known_or(stores / sectors, 0) + 1").unwrap();
        assert_eq!(e.check(&all_numbers), Ok(Type::Number));
        assert_eq!(
            e.eval(&num(&[("stores", 3.0), ("sectors", 4.0)])),
            Outcome::Number(1.75)
        );
        // A metric the export lacks, and a share of no sectors.
        assert_eq!(e.eval(&num(&[("sectors", 4.0)])), Outcome::Number(1.0));
        assert_eq!(
            e.eval(&num(&[("stores", 3.0), ("sectors", 0.0)])),
            Outcome::Number(1.0)
        );
        assert_eq!(
            parse("known_or(a, b)").unwrap().eval(&|_| None),
            Outcome::Undefined
        );
    }

    #[test]
    fn pow_raises_and_is_undefined_below_zero() {
        let e = parse("pow(a, b)").unwrap();
        assert_eq!(e.check(&all_numbers), Ok(Type::Number));
        assert_eq!(
            e.eval(&num(&[("a", 4.0), ("b", 0.5)])),
            Outcome::Number(2.0)
        );
        assert_eq!(
            e.eval(&num(&[("a", 2.0), ("b", 3.0)])),
            Outcome::Number(8.0)
        );
        assert_eq!(
            e.eval(&num(&[("a", 0.0), ("b", 2.5)])),
            Outcome::Number(0.0)
        );
        assert_eq!(e.eval(&num(&[("a", -1.0), ("b", 0.5)])), Outcome::Undefined);
        // Two times at the power 2.5, summed and taken back: close to the
        // larger where one dominates, above it where they are alike.
        let smooth = parse("pow(pow(x, 2.5) + pow(y, 2.5), 0.4)").unwrap();
        let Outcome::Number(n) = smooth.eval(&num(&[("x", 1.0), ("y", 0.1)])) else {
            panic!("a number")
        };
        assert!((1.0..1.01).contains(&n), "{n}");
    }

    #[test]
    fn log2_is_the_power_of_two_and_undefined_at_zero_and_below() {
        let e = parse("log2(a)").unwrap();
        assert_eq!(e.check(&all_numbers), Ok(Type::Number));
        assert_eq!(e.eval(&num(&[("a", 8.0)])), Outcome::Number(3.0));
        assert_eq!(e.eval(&num(&[("a", 0.0)])), Outcome::Undefined);
        assert_eq!(e.eval(&num(&[("a", -2.0)])), Outcome::Undefined);
        // Rounded up to a power of two: 2.96 slices' work spans four.
        let slices = parse("pow(2, ceil(log2(a)))").unwrap();
        assert_eq!(slices.eval(&num(&[("a", 2.96)])), Outcome::Number(4.0));
        assert_eq!(slices.eval(&num(&[("a", 1.0)])), Outcome::Number(1.0));
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
