//! Any bytes as an export: the importer (every form) and the default rules
//! over what it imports. An error is fine; a panic is a bug.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use ncu_lint::rules::ActiveRule;

fn rules() -> &'static [ActiveRule] {
    static RULES: OnceLock<Vec<ActiveRule>> = OnceLock::new();
    RULES.get_or_init(|| {
        let packs = ncu_lint::rules::builtin_packs().unwrap_or_default();
        ncu_lint::rules::activate(&packs).unwrap_or_default()
    })
}

fuzz_target!(|data: &[u8]| {
    if let Ok(report) = ncu_lint::ingest::import_bytes("fuzz.csv", data) {
        let _ = ncu_lint::rules::check(&report, rules());
    }
});
