//! Recursive descent over the tokens, one method per precedence level
//! (`or`, `and`, `not`, comparisons, `+ -`, `* /`, unary, primary), with
//! nesting bounded by [`super::MAX_DEPTH`].

use std::ops::Range;

use super::lex::{Token, tokenize};
use super::{BinaryOp, Expr, ExprError, ExprKind, MAX_DEPTH, MAX_LENGTH, UnaryOp};

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
