//! Any text as a rule pack: load and validate it, and describe its problems.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match ncu_lint::rules::load_pack("fuzz.toml", text) {
        Ok(pack) => {
            for problem in &pack.warnings {
                let _ = problem.to_string();
            }
        }
        Err(error) => {
            for problem in &error.problems {
                let _ = problem.to_string();
            }
        }
    }
});
