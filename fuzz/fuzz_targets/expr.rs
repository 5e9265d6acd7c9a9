//! Any text as a rule condition: parse, type-check and evaluate it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ncu_lint::rules::expr::{Type, parse};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(expr) = parse(text) {
        let _ = expr.check(&|name| (name.len() % 2 == 0).then_some(Type::Number));
        let _ = expr.eval(&|name| match name.len() % 3 {
            0 => None,
            1 => Some(0.0),
            _ => Some(name.len() as f64),
        });
    }
});
