//! Splitting an expression into tokens with their byte spans.

use std::ops::Range;

use super::ExprError;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Token {
    Number(f64),
    Ident(String),
    Op(&'static str),
    LParen,
    RParen,
    Comma,
}

/// The tokens of `text`, each with its span.
pub(super) fn tokenize(text: &str) -> Result<Vec<(Token, Range<usize>)>, ExprError> {
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
