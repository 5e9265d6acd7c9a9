//! Any bytes as an `.ncu-rep` report: the container reader, the messages,
//! the line tables of embedded cubins, and the default rules over what it
//! reads. An error is fine; a panic is a bug.
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
    if let Ok(report) = ncu_lint::ingest::import_report_bytes("fuzz.ncu-rep", data) {
        let _ = ncu_lint::rules::check(&report, rules());
    }
});
