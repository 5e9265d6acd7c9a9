//! Evaluation, total and three-valued: arithmetic that leaves the finite
//! numbers is undefined, and `and`/`or` decide where one side suffices.

use super::{BinaryOp, Expr, ExprKind, Outcome, UnaryOp};

impl Expr {
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
            ExprKind::Call(name, args) if name == "known_or" => match args.as_slice() {
                [value, fallback] => match value.eval(lookup) {
                    Outcome::Number(n) => Outcome::Number(n),
                    _ => fallback.eval(lookup),
                },
                _ => Outcome::Undefined,
            },
            ExprKind::Call(name, args) => {
                // The functions take one or two arguments: evaluated into
                // an array, not a vector allocated per call.
                let mut values = [0.0; 2];
                if args.len() > values.len() {
                    return Outcome::Undefined;
                }
                for (slot, arg) in values.iter_mut().zip(args) {
                    let Some(value) = arg.eval(lookup).as_number() else {
                        return Outcome::Undefined;
                    };
                    *slot = value;
                }
                match (name.as_str(), &values[..args.len()]) {
                    ("min", [a, b]) => Outcome::number(a.min(*b)),
                    ("max", [a, b]) => Outcome::number(a.max(*b)),
                    ("abs", [a]) => Outcome::number(a.abs()),
                    ("ceil", [a]) => Outcome::number(a.ceil()),
                    ("floor", [a]) => Outcome::number(a.floor()),
                    ("mod", [_, b]) if *b == 0.0 => Outcome::Undefined,
                    ("mod", [a, b]) => Outcome::number(a - b * (a / b).floor()),
                    ("pow", [a, _]) if *a < 0.0 => Outcome::Undefined,
                    ("pow", [a, b]) => Outcome::number(a.powf(*b)),
                    ("log2", [a]) if *a <= 0.0 => Outcome::Undefined,
                    ("log2", [a]) => Outcome::number(a.log2()),
                    _ => Outcome::Undefined,
                }
            }
        }
    }
}
