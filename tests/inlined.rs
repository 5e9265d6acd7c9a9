//! Kernels whose code comes from several files: CUDA that inlines a
//! header's `__device__` functions and CUB, and Triton kernels that inline
//! `triton/language/standard.py` or Inductor's helpers. The source page
//! gives such a launch one block per file; the report's line table gives
//! each instruction its own file. Findings sit at the file and line of the
//! access, read either way.

mod common;

use common::{check_json, fixture, ncu_lint, stderr};
use ncu_lint::model::{Report, kernel_name};

fn import(paths: &[String]) -> Report {
    ncu_lint::ingest::import(paths).unwrap_or_else(|e| panic!("{paths:?}: {e}"))
}

/// The pages of a fixture report: raw and source.
fn pages(dir: &str, name: &str) -> Vec<String> {
    vec![
        fixture(&format!("{dir}/{name}.raw.csv.xz")),
        fixture(&format!("{dir}/{name}.source.csv.xz")),
    ]
}

fn report(dir: &str, name: &str) -> String {
    fixture(&format!("{dir}/{name}.ncu-rep.xz"))
}

/// Each finding as `rule kernel file:line`, with the file's name only,
/// sorted.
fn places(paths: &[String]) -> Vec<String> {
    // Line-scoped rules: the launch pack's findings are the kernel's. The
    // Inductor modules the report recorded under /tmp/p are here, as a
    // user's are on their machine.
    let mut args = vec![
        "check",
        "--no-config",
        "--format",
        "json",
        "--ignore",
        "launch/*",
        "--path-map",
        "/tmp/p=fixtures/triton",
    ];
    args.extend(paths.iter().map(String::as_str));
    let out = ncu_lint(&args);
    assert!(out.status.code() != Some(2), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut places: Vec<String> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let kernel = kernel_name::normalize(f["kernel"]["name"].as_str().unwrap());
            let kernel = kernel.split('(').next().unwrap().to_owned();
            let at = match f["location"]["file"].as_str() {
                Some(file) => format!(
                    "{}:{}",
                    file.rsplit('/').next().unwrap(),
                    f["location"]["line"]
                ),
                None => "kernel".to_owned(),
            };
            // To three digits: the raw page rounds what the report holds.
            let value = |name: &str| {
                f["values"][name]
                    .as_f64()
                    .map_or("-".to_owned(), |v| format!("{v:.3}"))
            };
            format!(
                "{} {kernel} {at} {} {}",
                f["rule"].as_str().unwrap(),
                value("efficiency"),
                value("excess")
            )
        })
        .collect();
    places.sort();
    places
}

#[test]
fn every_block_of_a_multi_file_launch_is_attached() {
    for (dir, name) in [
        ("triton", "triton"),
        ("triton", "compiled"),
        ("inline", "inline"),
    ] {
        let report = import(&pages(dir, name));
        assert!(
            report.unattached.is_empty(),
            "{name}: {:?}",
            report.unattached
        );
        let with_lines = report
            .kernels
            .iter()
            .filter(|k| k.source.as_ref().is_some_and(|s| !s.lines.is_empty()))
            .count();
        assert!(with_lines > 0, "{name}");
    }
    let inline = import(&pages("inline", "inline"));
    let block_sum = inline
        .kernels
        .iter()
        .find(|k| k.name.starts_with("block_sum"))
        .unwrap();
    let view = block_sum.source.as_ref().unwrap();
    assert_eq!(view.files.len(), 7, "{:?}", view.files);
    assert!(view.own_file().unwrap().ends_with("/kernels.cu"));
}

#[test]
fn a_launch_repeated_keeps_its_blocks_apart() {
    // Inductor's kernel 4 runs twice in the step: two results, each with
    // its own two blocks (standard.py and its module).
    let report = import(&pages("triton", "compiled"));
    let twice: Vec<_> = report
        .kernels
        .iter()
        .filter(|k| k.name == "triton_per_fused__to_copy__unsafe_view_add_mul_sum_view_4")
        .collect();
    assert_eq!(twice.len(), 2);
    for kernel in twice {
        let view = kernel.source.as_ref().unwrap();
        assert_eq!(view.files.len(), 2, "{:?}", view.files);
        assert!(view.files[0].ends_with("triton/language/standard.py"));
    }
}

#[test]
fn findings_sit_at_the_header_line_of_the_access() {
    let found = places(&pages("inline", "inline"));
    let at = |rule: &str, kernel: &str, place: &str| {
        found
            .iter()
            .any(|f| f.starts_with(&format!("{rule} {kernel} {place} ")))
    };
    // The row walk of util.cuh:18, inlined into sum_rows.
    assert!(
        at("global-load-efficiency", "sum_rows", "util.cuh:18"),
        "{found:#?}"
    );
    // The column read of util.cuh:24, inlined into tile_transpose.
    assert!(
        at("shared-bank-conflict", "tile_transpose", "util.cuh:24"),
        "{found:#?}"
    );
    // Not line 18 or 24 of kernels.cu, which the kernel's own file would give.
    assert!(
        !found
            .iter()
            .any(|f| f.contains("kernels.cu:18") || f.contains("kernels.cu:24"))
    );
    // The same walk one column per thread is coalesced.
    assert!(
        !found.iter().any(|f| f.contains(" sum_columns ")),
        "{found:#?}"
    );
}

#[test]
fn a_triton_reduction_is_placed_at_the_users_call_of_tl_sum() {
    // Its code is standard.py's (line 293, `core.reduce`); the kernel calls
    // it at kernels.py:81 (`acc += tl.sum(...)`), which the line table does
    // not record: the kernel's line that calls it.
    let found = places(&pages("triton", "triton"));
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("shared-bank-conflict column_sum_f32 kernels.py:81 ")),
        "{found:#?}"
    );
    assert!(
        !found.iter().any(|f| f.contains("standard.py")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("global-load-efficiency load_stride2_bf16 kernels.py:27 ")),
        "{found:#?}"
    );
}

#[test]
fn natively_and_through_the_pages_the_same_findings_at_the_same_places() {
    for (dir, name) in [
        ("triton", "triton"),
        ("triton", "compiled"),
        ("inline", "inline"),
    ] {
        let native = places(&[report(dir, name)]);
        assert!(!native.is_empty(), "{name}");
        assert_eq!(native, places(&pages(dir, name)), "{name}");
    }
}

/// Compares the native source view of every result with the source
/// page's, instruction by instruction (by address) and column by column;
/// returns the number of cells compared, and the mismatches.
/// The opcode of a SASS text as the page prints it (`@!P0 LDG.E.U16 R4,
/// ...` is `LDG`).
fn opcode(sass: &str) -> &str {
    let text = sass.trim();
    let text = match text.strip_prefix('@') {
        Some(rest) => rest.split_once(' ').map_or("", |(_, r)| r.trim_start()),
        None => text,
    };
    text.split(['.', ' ']).next().unwrap_or("")
}

/// An address operand's register number and offset (`R2.64+0x808` and
/// `R2+0x808` are both register 2, offset 2056).
fn address_operand(sass: &str) -> Option<(String, i64)> {
    let (base, offset) = ncu_lint::memory_model::sass_address(sass)?;
    let register = base.split(['.', '+']).next()?.to_owned();
    Some((register, offset))
}

/// Instructions compared by opcode: how many the native view names, and
/// how many of those are the page's; and of the memory instructions whose
/// address the native view gives, how many give the page's.
#[derive(Default)]
struct Opcodes {
    listed: usize,
    named: usize,
    right: usize,
    addressed: usize,
    addresses_right: usize,
}

fn compare_columns(
    native: &Report,
    pages: &Report,
    ambiguous: &mut usize,
    opcodes: &mut Opcodes,
) -> (usize, Vec<String>) {
    use ncu_lint::value::Value;
    let mut compared = 0;
    let mut differ = Vec::new();
    for (n, p) in native.kernels.iter().zip(&pages.kernels) {
        assert_eq!(n.id, p.id);
        // A page block with no counters (no SourceCounters section) is what
        // no native view says.
        let page_view = p.source.as_ref().filter(|v| !v.columns.is_empty());
        let (Some(nv), Some(pv)) = (&n.source, page_view) else {
            if page_view.is_some() {
                differ.push(format!("{}: no native view", p.name));
            }
            continue;
        };
        let by_address: std::collections::HashMap<&str, &ncu_lint::model::SourceRow> = nv
            .instructions
            .iter()
            .filter_map(|r| Some((r.address.as_deref()?, r)))
            .collect();
        for prow in &pv.instructions {
            let address = prow.address.as_deref().unwrap();
            let Some(nrow) = by_address.get(address) else {
                differ.push(format!("{}: {address} not native", p.name));
                continue;
            };
            let place = |v: &ncu_lint::model::SourceView, r: &ncu_lint::model::SourceRow| {
                (v.file_of(r).map(str::to_owned), r.line)
            };
            opcodes.listed += 1;
            if !nrow.text.is_empty() {
                opcodes.named += 1;
                opcodes.right += usize::from(opcode(&nrow.text) == opcode(&prow.text));
                if let Some(native_address) = address_operand(&nrow.text) {
                    opcodes.addressed += 1;
                    let right = address_operand(&prow.text).as_ref() == Some(&native_address);
                    opcodes.addresses_right += usize::from(right);
                    if !right {
                        differ.push(format!(
                            "{} {address}: `{}` vs page `{}`",
                            p.name,
                            nrow.text,
                            prow.text.trim()
                        ));
                    }
                }
            }
            // ncu lists an instruction under every line whose row is at its
            // address. Where inlined code is nested in headers (CUB), the
            // page's path order loses which is innermost: the native place
            // is then one header line, the page's kept one another.
            let nested = nrow.call_site.is_some()
                && pv.own_file() != pv.file_of(prow)
                && nv.own_file() != nv.file_of(nrow);
            if nested && place(nv, nrow) != place(pv, prow) {
                *ambiguous += 1;
            } else if place(nv, nrow) != place(pv, prow) {
                differ.push(format!(
                    "{} {address}: place {:?} vs page {:?}",
                    p.name,
                    place(nv, nrow),
                    place(pv, prow)
                ));
            }
            for (c, label) in nv.columns.iter().enumerate() {
                // The page prints 0 where the report holds no instance, and
                // leaves out a column that is 0 throughout.
                let zero = Value::Number(0.0);
                let as_page = |v: &'_ Value| match v {
                    Value::Missing => zero.clone(),
                    other => other.clone(),
                };
                let ours = as_page(&nrow.cells[c]);
                let theirs = pv
                    .column(label)
                    .map_or(zero.clone(), |i| as_page(&prow.cells[i]));
                compared += 1;
                let same = match (&ours, &theirs) {
                    (Value::Number(a), Value::Number(b)) => (a - b).abs() <= 1e-6 * b.abs() + 0.5,
                    (a, b) => a == b,
                };
                if !same {
                    differ.push(format!(
                        "{} {address} {label}: native {ours:?} vs page {theirs:?}",
                        p.name
                    ));
                }
            }
        }
    }
    (compared, differ)
}

/// Every report with a source page: the fixtures profiled here, the lab,
/// the unseen kernels' and the published reports', as (report, pages).
fn reports_with_source_pages() -> Vec<(String, Vec<String>)> {
    let mut sets = vec![
        (report("triton", "triton"), pages("triton", "triton")),
        (report("inline", "inline"), pages("inline", "inline")),
        (report("triton", "compiled"), pages("triton", "compiled")),
        (
            fixture("lab/lab_full.ncu-rep.xz"),
            vec![
                fixture("lab/raw.csv.xz"),
                fixture("lab/source_cuda_sass.csv.xz"),
            ],
        ),
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/reports");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            Some(name.strip_suffix(".ncu-rep.xz")?.to_owned())
        })
        .collect();
    names.sort();
    for name in names {
        sets.push((report("reports", &name), pages("reports", &name)));
    }
    sets
}

#[test]
fn native_source_columns_equal_the_source_pages() {
    let mut total = 0;
    let mut ambiguous = 0;
    let mut opcodes = Opcodes::default();
    let mut failures = Vec::new();
    for (native, pages) in reports_with_source_pages() {
        let name = native.rsplit('/').next().unwrap().to_owned();
        let native = import(&[native]);
        let pages = import(&pages);
        let (compared, differ) = compare_columns(&native, &pages, &mut ambiguous, &mut opcodes);
        total += compared;
        if !differ.is_empty() {
            failures.push(format!(
                "{name}: {} of {compared} differ: {:#?}",
                differ.len(),
                &differ[..differ.len().min(20)]
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(total > 100_000, "{total} cells compared");
    // CUB's nested headers in block_sum: a few instructions.
    assert!(ambiguous <= 20, "{ambiguous} nested-inline places differ");
    // The SASS text read natively is the opcode: named for nearly every
    // instruction from Volta to Hopper, and the page's where named.
    let Opcodes {
        listed,
        named,
        right,
        addressed,
        addresses_right,
    } = opcodes;
    eprintln!("opcodes: {named} of {listed} named, {right} of those the page's");
    // Memory instructions read natively give their address register and
    // offset, each the page's (any that differs is a failure above).
    eprintln!("addresses: {addresses_right} of {addressed} the page's");
    assert!(addressed > 1_000, "{addressed} addresses compared");
    assert!(named * 100 >= listed * 95, "{named} of {listed} named");
    assert!(right * 1000 >= named * 995, "{right} of {named} right");
}

#[test]
fn natively_a_header_line_names_the_kernel_line_that_calls_it() {
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        &report("inline", "inline"),
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let finding = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "global-load-efficiency")
        .unwrap();
    let location = &finding["location"];
    assert!(location["file"].as_str().unwrap().ends_with("/util.cuh"));
    assert_eq!(location["line"], 18);
    // `out[row] = row_walk(m, COLS, row);`
    let call = &location["called_from"];
    assert!(
        call["file"].as_str().unwrap().ends_with("/kernels.cu"),
        "{call}"
    );
    assert_eq!(call["line"], 24);
}

#[test]
fn the_inlined_kernels_findings_are_exactly_expected_and_fail_the_gate() {
    // fixtures/inline/EXPECTED.tsv: sum_rows walks a row per thread on 16
    // blocks (its busy L1s spend 32 wavefronts on each request), so a fix
    // is worth most of it; tile_transpose reads a tile down a column.
    let text = std::fs::read_to_string(fixture("inline/EXPECTED.tsv")).unwrap();
    for paths in [pages("inline", "inline"), vec![report("inline", "inline")]] {
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let doc = check_json(&paths);
        for row in text.lines().skip(1) {
            let cells: Vec<&str> = row.split('\t').collect();
            let (kernel, expected) = (cells[0], cells[1]);
            let warned: std::collections::BTreeSet<&str> = doc["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| {
                    kernel_name::normalize(f["kernel"]["name"].as_str().unwrap())
                        .starts_with(&format!("{kernel}("))
                        && f["severity"] != "note"
                })
                .map(|f| f["rule"].as_str().unwrap())
                .collect();
            let want: std::collections::BTreeSet<&str> = match expected {
                "-" => Default::default(),
                list => list.split(',').collect(),
            };
            assert_eq!(warned, want, "{kernel} ({paths:?})");
        }
    }
}
