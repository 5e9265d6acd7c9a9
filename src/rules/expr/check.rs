//! Type checking: every name known, every function known with its arity,
//! numbers where numbers go and truth values where they go.

use super::{BinaryOp, Expr, ExprError, ExprErrorKind, ExprKind, FUNCTIONS, Type, UnaryOp};

impl Expr {
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
}
