//! The `derived__*` metrics a section defines, for reports that store the
//! definitions without the values. The definitions are arithmetic over
//! metric names and numbers (`l1tex__lsu_writeback_active.sum.per_second *
//! 128`, `100.0 * nan_as_zero(a / (b + c))`) with the functions ncu's
//! sections use: `simplify(x)` (x itself) and `nan_as_zero(x)`.
//!
//! Written here because the names (dots, digits after underscores) and
//! functions are ncu's, not those of the rule packs' condition language.

/// Evaluates `expression` with `lookup` giving each metric; `None` where a
/// metric is missing, a function unknown, or the text not arithmetic.
pub fn evaluate(expression: &str, lookup: &dyn Fn(&str) -> Option<f64>) -> Option<f64> {
    let tokens = tokenize(expression)?;
    let mut parser = Parser {
        tokens: &tokens,
        pos: 0,
        lookup,
        depth: 0,
    };
    let value = parser.sum()?;
    (parser.pos == tokens.len()).then_some(value)
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64),
    Name(String),
    Op(char),
    Open,
    Close,
}

fn tokenize(text: &str) -> Option<Vec<Token>> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_digit() || chars[i] == '.' || chars[i] == 'e')
            {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            tokens.push(Token::Number(text.parse().ok()?));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || matches!(chars[i], '_' | '.'))
            {
                i += 1;
            }
            tokens.push(Token::Name(chars[start..i].iter().collect()));
        } else {
            tokens.push(match c {
                '+' | '-' | '*' | '/' => Token::Op(c),
                '(' => Token::Open,
                ')' => Token::Close,
                _ => return None,
            });
            i += 1;
        }
    }
    Some(tokens)
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    lookup: &'a dyn Fn(&str) -> Option<f64>,
    depth: usize,
}

impl Parser<'_> {
    fn sum(&mut self) -> Option<f64> {
        let mut value = self.product()?;
        while let Some(Token::Op(op @ ('+' | '-'))) = self.tokens.get(self.pos) {
            self.pos += 1;
            let right = self.product()?;
            value = if *op == '+' {
                value + right
            } else {
                value - right
            };
        }
        Some(value)
    }

    fn product(&mut self) -> Option<f64> {
        let mut value = self.atom()?;
        while let Some(Token::Op(op @ ('*' | '/'))) = self.tokens.get(self.pos) {
            self.pos += 1;
            let right = self.atom()?;
            value = if *op == '*' {
                value * right
            } else {
                value / right
            };
        }
        Some(value)
    }

    fn atom(&mut self) -> Option<f64> {
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let token = self.tokens.get(self.pos)?.clone();
        self.pos += 1;
        let value = match token {
            Token::Number(n) => Some(n),
            Token::Op('-') => self.atom().map(|v| -v),
            Token::Open => {
                let v = self.sum()?;
                self.close()?;
                Some(v)
            }
            Token::Name(name) if self.tokens.get(self.pos) == Some(&Token::Open) => {
                self.pos += 1;
                let v = self.sum()?;
                self.close()?;
                match name.as_str() {
                    "simplify" => Some(v),
                    "nan_as_zero" => Some(if v.is_finite() { v } else { 0.0 }),
                    _ => None,
                }
            }
            Token::Name(name) => (self.lookup)(&name),
            _ => None,
        };
        self.depth -= 1;
        value
    }

    fn close(&mut self) -> Option<()> {
        (self.tokens.get(self.pos) == Some(&Token::Close)).then(|| self.pos += 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_sections_use() {
        let lookup = |n: &str| match n {
            "l1tex__lsu_writeback_active.sum.per_second" => Some(2.0),
            "a" => Some(1.0),
            "b" => Some(0.0),
            _ => None,
        };
        assert_eq!(
            evaluate("l1tex__lsu_writeback_active.sum.per_second * 128", &lookup),
            Some(256.0)
        );
        assert_eq!(
            evaluate("100.0 * nan_as_zero(simplify(a) / (b + b))", &lookup),
            Some(0.0)
        );
        assert_eq!(evaluate(" ( a * 100 ) / a", &lookup), Some(100.0));
        assert_eq!(evaluate("missing + 1", &lookup), None);
        assert_eq!(evaluate("a +", &lookup), None);
        assert_eq!(evaluate("unknown(a)", &lookup), None);
    }
}
