//! Diagnoses from the memory model: the access width, the stride between
//! adjacent threads, misalignment, the n-way conflict, and the fix they
//! point to, on the lab's kernels and on kernels written after the model.

mod common;

use common::{fixture, ncu_lint};
use serde_json::Value;

fn findings(pages: [&str; 2]) -> Vec<Value> {
    let files: Vec<String> = pages.iter().map(|p| fixture(p)).collect();
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        &files[0],
        &files[1],
    ]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["findings"].as_array().unwrap().clone()
}

/// `check`'s findings for a twin set's as-is build, from its raw and
/// source pages.
fn twin_findings(set: &str) -> Vec<Value> {
    findings([
        &format!("twins/{set}.raw.csv.xz"),
        &format!("twins/{set}.source.csv.xz"),
    ])
}

fn lab() -> Vec<Value> {
    findings(["lab/raw.csv.xz", "lab/source_cuda_sass.csv.xz"])
}

fn unseen() -> Vec<Value> {
    findings(["unseen/raw.csv.xz", "unseen/source.csv.xz"])
}

/// The finding of `rule` on the kernel whose name starts with `kernel`.
fn finding<'a>(all: &'a [Value], kernel: &str, rule: &str) -> &'a Value {
    all.iter()
        .find(|f| {
            let name = f["kernel"]["name"].as_str().unwrap();
            (name.starts_with(kernel) || name.starts_with(&format!("void {kernel}")))
                && f["rule"] == rule
        })
        .unwrap_or_else(|| panic!("no {rule} on {kernel}"))
}

fn value(f: &Value, name: &str) -> Option<f64> {
    f["values"][name].as_f64()
}

/// A finding's impact term `name`; the test fails naming it where it is
/// unknown.
fn term(f: &Value, name: &str) -> f64 {
    f["impact"]["terms"][name].as_f64().unwrap_or_else(|| {
        panic!(
            "{} {}: no {name} in {}",
            f["kernel"]["name"], f["rule"], f["impact"]
        )
    })
}

fn fix(f: &Value) -> &str {
    f["fix"].as_str().unwrap_or_else(|| panic!("no fix: {f}"))
}

#[test]
fn strided_loads_and_stores_on_the_lab() {
    let all = lab();
    let f = finding(&all, "load_stride2", "global-load-efficiency");
    assert_eq!(
        (value(f, "access_bytes"), value(f, "stride_bytes")),
        (Some(4.0), Some(8.0))
    );
    assert!(
        fix(f).starts_with("adjacent threads read 8 bytes apart with 4-byte loads"),
        "{}",
        fix(f)
    );
    assert!(fix(f).contains("unit-stride (x[i])"));
    for (kernel, rule) in [
        ("load_stride32", "global-load-efficiency"),
        ("store_stride32", "global-store-efficiency"),
    ] {
        let f = finding(&all, kernel, rule);
        assert_eq!(value(f, "stride_at_least"), Some(32.0), "{kernel}");
        assert_eq!(
            value(f, "stride_bytes"),
            None,
            "{kernel}: only a bound follows"
        );
        assert!(fix(f).contains("at least 32 bytes apart"), "{}", fix(f));
    }
}

#[test]
fn an_array_of_structures_and_a_misaligned_load_on_the_lab() {
    let all = lab();
    let f = finding(&all, "aos_scale_x", "global-load-efficiency");
    assert_eq!(value(f, "stride_bytes"), Some(12.0));
    assert_eq!(value(f, "fields"), Some(3.0));
    assert!(fix(f).contains("3-field structures") && fix(f).contains("structure of arrays"));
    let f = finding(&all, "load_misaligned", "sector-waste");
    assert_eq!(value(f, "misaligned"), Some(1.0));
    assert!(
        fix(f).starts_with("misaligned 4-byte accesses"),
        "{}",
        fix(f)
    );
    assert_eq!(
        value(finding(&all, "load_stride2", "sector-waste"), "misaligned"),
        Some(0.0)
    );
}

#[test]
fn bank_conflicts_on_the_lab() {
    let all = lab();
    let f = finding(&all, "transpose_tiled", "shared-bank-conflict");
    assert_eq!(
        (value(f, "conflict_ways"), value(f, "access_bytes")),
        (Some(32.0), Some(4.0))
    );
    assert!(fix(f).contains("[32][33]"), "{}", fix(f));
    let f = finding(&all, "smem_stride<double, 2>", "shared-bank-conflict");
    assert_eq!(value(f, "conflict_ways"), Some(2.0));
    assert_eq!(value(f, "access_bytes"), Some(8.0));
    assert_eq!(value(f, "wavefronts_ideal"), Some(2.0));
    assert_eq!(value(f, "threads_per_wavefront"), Some(16.0));
    assert!(
        fix(f).contains("8-byte elements need 2 wavefronts by themselves"),
        "{}",
        fix(f)
    );
}

#[test]
fn kernels_written_after_the_model() {
    let all = unseen();
    let cases = [
        ("load_float2_stride2", "global-load-efficiency", 8.0, 16.0),
        ("aos5_scale_a", "global-load-efficiency", 4.0, 20.0),
        ("aos5_scale_a", "global-store-efficiency", 4.0, 20.0),
        ("short_stride4", "global-load-efficiency", 2.0, 8.0),
        ("double_stride3", "global-load-efficiency", 8.0, 24.0),
    ];
    for (kernel, rule, width, stride) in cases {
        let f = finding(&all, kernel, rule);
        assert_eq!(value(f, "access_bytes"), Some(width), "{kernel}");
        assert_eq!(
            value(f, "stride_bytes"),
            Some(stride),
            "{kernel}: {}",
            fix(f)
        );
    }
    assert!(
        fix(finding(&all, "aos5_scale_a", "global-load-efficiency")).contains("5-field structures")
    );
    let f = finding(&all, "store_misaligned", "sector-waste");
    assert_eq!(value(f, "misaligned"), Some(1.0), "{}", fix(f));
    let shared = [
        ("smem_float_stride4", 4.0, 4.0),
        ("smem_float2_stride2", 8.0, 2.0),
        ("smem_short_stride4", 2.0, 2.0),
    ];
    for (kernel, width, ways) in shared {
        let f = finding(&all, kernel, "shared-bank-conflict");
        assert_eq!(value(f, "access_bytes"), Some(width), "{kernel}");
        assert_eq!(
            value(f, "conflict_ways"),
            Some(ways),
            "{kernel}: {}",
            fix(f)
        );
    }
}

#[test]
fn without_a_source_page_the_kernels_numbers_decide_or_nothing_does() {
    // The raw page alone: bytes per sector is the kernel's, and the width
    // is unknown (these sections do not count instructions by width), so
    // no stride is claimed and the fix is the rule's own.
    let raw = fixture("lab/raw.csv.xz");
    let out = ncu_lint(&["check", "--no-config", "--format", "json", &raw]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "global-load-efficiency")
        .unwrap();
    assert!(f["values"]["stride_bytes"].is_null(), "{f}");
    assert!(f["fix"].is_null(), "{f}");
}

#[test]
fn explain_works_an_example_for_each_rule() {
    for rule in common::RULES {
        let text = common::stdout(&ncu_lint(&["explain", "--no-config", rule]));
        let section = text.split("## How the cause is found").nth(1).unwrap_or("");
        assert!(section.contains("Worked example"), "{rule}: {text}");
    }
}

#[test]
fn a_structure_written_a_field_at_a_time_is_told_to_go_out_whole() {
    // stores_blind4.cu: each thread writes the fields of its structure with
    // one store each; measured, one or two vector stores a structure saved
    // 77% (eight floats), 60% (eight bytes) and 26% (four shorts).
    let all = twin_findings("stores_blind4");
    for rule in ["global-store-efficiency", "sector-waste"] {
        let f = finding(&all, "store_struct<unsigned char, 8>", rule);
        assert_eq!(
            (value(f, "fields"), value(f, "store_access")),
            (Some(8.0), Some(1.0)),
            "{rule}"
        );
        assert!(
            fix(f).starts_with("each thread writes all 8 fields of a structure of 8 bytes here"),
            "{rule}: {}",
            fix(f)
        );
        let f = finding(&all, "store_struct<float, 8>", rule);
        assert_eq!(value(f, "stride_at_least"), Some(32.0), "{rule}");
        assert!(
            fix(f).starts_with(
                "each thread makes 8 4-byte stores here and adjacent threads write at least 32 bytes apart: a structure of 32 bytes"
            ),
            "{rule}: {}",
            fix(f)
        );
        assert!(
            fix(f).contains("write it whole with vector stores"),
            "{rule}"
        );
    }
    // A thread that writes a row of its own (32 stores and more) keeps the
    // row-walk fix (rows.cu's embed copies a row of 256 a thread).
    let rows = findings(["twins/rows.raw.csv.xz", "twins/rows.source.csv.xz"]);
    let f = finding(&rows, "embed<256>", "global-store-efficiency");
    assert!(!fix(f).contains("vector stores"), "{}", fix(f));
    // Read back the same way (stores_blind8.cu: 56% saved by one 8-byte
    // load and store of eight bytes).
    let all = twin_findings("stores_blind8");
    let f = finding(
        &all,
        "update_struct<unsigned char, 8>",
        "global-load-efficiency",
    );
    assert!(
        fix(f).starts_with("each thread reads all 8 fields of a structure of 8 bytes here"),
        "{}",
        fix(f)
    );
    // Structures no wider vector fits (three floats, three bytes) and a
    // naive transpose's stores keep their own fixes.
    let all = twin_findings("stores_blind2");
    let f = finding(&all, "store_fields<float, 3>", "global-store-efficiency");
    assert!(
        fix(f).contains("structure of arrays") && !fix(f).contains("vector"),
        "{}",
        fix(f)
    );
    let lab = lab();
    let f = finding(&lab, "transpose_naive", "global-store-efficiency");
    assert!(fix(f).contains("(a transpose)"), "{}", fix(f));
    assert_eq!(value(f, "contiguous_bytes"), None);
}

#[test]
fn a_structure_scattered_a_field_at_a_time_is_told_to_go_out_whole() {
    // stores_blind8.cu: each thread writes its four floats to a permuted
    // place, four stores from one address register at offsets 0, 4, 8 and
    // 12 (a run of 16 bytes); one float4 store saved 63%. Its lanes are a
    // sector or more apart, as a transpose's are, but a transpose's stores
    // are a row apart, not one run (the lab's transpose_naive above).
    let all = twin_findings("stores_blind8");
    for rule in ["global-store-efficiency", "sector-waste"] {
        let f = finding(&all, "scatter_struct<4>", rule);
        assert_eq!(
            (value(f, "stride_at_least"), value(f, "contiguous_bytes")),
            (Some(32.0), Some(16.0)),
            "{rule}"
        );
        assert!(
            fix(f).starts_with(
                "each thread makes 4 4-byte stores here and adjacent threads write at least 32 bytes apart: a structure of 16 bytes"
            ),
            "{rule}: {}",
            fix(f)
        );
    }
}

#[test]
fn a_loop_over_structures_is_told_apart_from_a_row_walk_by_its_address_step() {
    // stores_blind16.cu: grid-stride walks over structures written a field
    // at a time, each pass's address rebuilt from the index times the
    // structure (`LEA R4, P0, R0, UR10, 0x5`: 32 bytes); the fix that saved
    // is a vector store of the structure, not a warp a row.
    let walks = twin_findings("stores_blind16");
    for rule in ["global-store-efficiency", "sector-waste"] {
        let f = finding(&walks, "store_struct_walk<double, 4>", rule);
        assert_eq!(value(f, "run_jumps"), Some(1.0), "{rule}");
        assert!(
            fix(f).starts_with(
                "each thread writes a run of 32 contiguous bytes on each pass of its loop, one 8-byte store a field"
            ) && fix(f).contains("(2 of 16 bytes"),
            "{rule}: {}",
            fix(f)
        );
        let f = finding(&walks, "store_struct_walk<unsigned short, 8>", rule);
        assert!(
            fix(f).starts_with("each thread writes all 8 fields of a structure of 16 bytes here"),
            "{rule}: {}",
            fix(f)
        );
    }
    // rows_heldout.cu: a thread a row, its address register stepped by the
    // run it just read (`IADD3 R2, P1, R2, 0x80, RZ` after 32 loads of 4
    // bytes): the row walk's fix stands.
    let rows = twin_findings("rows_heldout");
    let f = finding(&rows, "layernorm_rows<768>", "global-load-efficiency");
    assert_eq!(value(f, "run_jumps"), Some(0.0));
    assert!(fix(f).contains("give each row a warp"), "{}", fix(f));
}

#[test]
fn a_structure_of_a_line_or_less_is_read_whole_not_given_a_warp_a_row() {
    // stores_blind22.cu's twenty floats (80 bytes) read a field at a time
    // by 16 blocks walking the array: read whole with five float4 loads,
    // they saved 14%. The run jumps on each pass, so it is a structure,
    // not a row read in pieces.
    let walks = twin_findings("stores_blind22");
    for rule in ["global-load-efficiency", "sector-waste"] {
        let f = finding(&walks, "load_struct_walk<float, 20>", rule);
        assert_eq!(value(f, "run_jumps"), Some(1.0), "{rule}");
        assert!(
            fix(f).starts_with(
                "each thread reads a run of 80 contiguous bytes on each pass of its loop"
            ) && fix(f).contains("(5 of 16 bytes"),
            "{rule}: {}",
            fix(f)
        );
    }
}

#[test]
fn shorts_converted_to_float_are_told_to_convert_through_a_floats_bits() {
    // stores_blind23.cu's shorts read whole, each half converted as a short
    // or with masks and shifts, compiled to I2F.U16 and ran 3.5% slower
    // (eight shorts on 16 blocks); through a float's bits they saved 3.3%.
    // The as-is loads feed I2FP.F32.U32: the fix says how to keep that rate.
    let walks = twin_findings("stores_blind23");
    for rule in ["global-load-efficiency", "sector-waste"] {
        for kernel in ["load_shorts_unpacked<8, 0>", "load_shorts_unpacked<12, 1>"] {
            let f = finding(&walks, kernel, rule);
            assert_eq!(value(f, "halves_to_float"), Some(1.0), "{rule} {kernel}");
            assert!(
                fix(f).contains("__uint_as_float(0x4B000000u | (w & 0xffffu)) - 8388608.f")
                    && fix(f).contains("compile to I2F.U16"),
                "{rule} {kernel}: {}",
                fix(f)
            );
        }
        // Bytes and floats have no halves; bf16s become floats by a shift,
        // not a conversion (rows.cu's embedding).
        for kernel in [
            "load_struct_walk<unsigned char, 12>",
            "load_struct_walk<float, 10>",
        ] {
            let f = finding(&walks, kernel, rule);
            assert_eq!(value(f, "halves_to_float"), None, "{rule} {kernel}");
            assert!(!fix(f).contains("I2F.U16"), "{rule} {kernel}: {}", fix(f));
        }
    }
    let rows = twin_findings("rows");
    let embed = finding(&rows, "embed<768>", "global-load-efficiency");
    assert_eq!(value(embed, "halves_to_float"), Some(0.0));
    assert!(!fix(embed).contains("I2F.U16"), "{}", fix(embed));
}

#[test]
fn narrow_integers_converted_with_i2f_are_told_to_convert_through_a_floats_bits() {
    // stores_blind24.cu's signed shorts load as LDG.E.U16 and convert with
    // I2F.S16, on the quarter-rate conversion pipe; read whole and
    // converted through a float's bits they saved 7.9% and 11%. The fix
    // says so, and the walk's estimate counts the conversions' time.
    let walks = twin_findings("stores_blind24");
    for rule in ["global-load-efficiency", "sector-waste"] {
        for kernel in [
            "load_signed_shorts_unpacked<8, 1>",
            "load_signed_shorts_unpacked<12, 1>",
        ] {
            let f = finding(&walks, kernel, rule);
            assert_eq!(value(f, "narrow_to_float"), Some(1.0), "{rule} {kernel}");
            assert_eq!(value(f, "halves_to_float"), Some(0.0), "{rule} {kernel}");
            assert!(
                fix(f).contains("__int_as_float(0x4B400000 + v) - 12582912.f")
                    && fix(f).contains("the I2F each 2-byte field gets here"),
                "{rule} {kernel}: {}",
                fix(f)
            );
            let share = term(f, "walk_convert_share");
            assert!((0.1..0.25).contains(&share), "{rule} {kernel}: {share}");
        }
        // Unsigned shorts convert with I2FP.F32.U32 at full rate: no
        // conversion to count, and the other advice.
        let f = finding(&walks, "load_shorts_unpacked<16, 1>", rule);
        assert_eq!(value(f, "narrow_to_float"), Some(0.0), "{rule}");
        assert!(!fix(f).contains("0x4B400000"), "{rule}: {}", fix(f));
        assert_eq!(
            f["impact"]["terms"]["walk_convert_share"].as_f64(),
            Some(0.0),
            "{rule}"
        );
    }
}

#[test]
fn a_pass_that_reloads_its_address_from_the_constant_bank_waits_for_it() {
    // stores_blind23.cu's six floats a field at a time on 16 blocks: the
    // as-is loop loads the input's address again each pass (LDC.64 R2,
    // c[0x0][0x210], executed as often as the loads, its register the
    // loads' base), 128 passes of a warp that each wait 34 cycles of the
    // kernel's ~126,000; the fixed build loads it once a warp, before the
    // loop. Eight floats build their address with LEA from a uniform
    // register: only the grid's size comes from the bank, once a warp. The
    // structure's fix says so where the loop reloads it.
    let term = |all: &[Value], kernel: &str, rule: &str, name: &str| {
        term(finding(all, kernel, rule), name)
    };
    let (as_is, fixed) = (
        twin_findings("stores_blind23"),
        twin_findings("stores_blind23_fixed"),
    );
    for rule in ["global-load-efficiency", "sector-waste"] {
        let reload = term(
            &as_is,
            "load_struct_walk<float, 6>",
            rule,
            "walk_reload_cost",
        );
        assert!((0.03..0.04).contains(&reload), "{rule}: {reload}");
        let eight = term(
            &as_is,
            "load_struct_walk<float, 8>",
            rule,
            "walk_reload_cost",
        );
        assert_eq!(eight, 0.0, "{rule}");
        let six = finding(&as_is, "load_struct_walk<float, 6>", rule);
        assert_eq!(value(six, "address_reloads"), Some(1.0), "{rule}");
        assert!(
            fix(six).contains("from the constant bank again"),
            "{rule}: {}",
            fix(six)
        );
        let eight = finding(&as_is, "load_struct_walk<float, 8>", rule);
        assert_eq!(value(eight, "address_reloads"), Some(0.0), "{rule}");
        assert!(
            !fix(eight).contains("constant bank"),
            "{rule}: {}",
            fix(eight)
        );
    }
    // Read whole, the six floats make three 8-byte loads at a third of the
    // sectors' use, still a finding, whose loop no longer waits.
    let once = term(
        &fixed,
        "load_struct_walk<float, 6>",
        "global-load-efficiency",
        "walk_reload_cost",
    );
    assert_eq!(once, 0.0);
}

#[test]
fn narrow_loads_that_wait_at_the_lsus_queue_cost_the_instructions_a_fix_removes() {
    // stores_blind21.cu's twenty-four bytes a field at a time on 528 blocks
    // (25 warps an SM): the warps waited 10.1 of their 26.0 cycles an
    // instruction for the LSU's queue (lg_throttle), and three 8-byte
    // loads in place of twenty-four remove 7 of 8 load instructions: their
    // share of that wait, about a third of the kernel's time, where its fix
    // saved 31%. Eight floats on 16 blocks (8 warps an SM) do not wait
    // there.
    let walks = twin_findings("stores_blind21");
    for rule in ["global-load-efficiency", "sector-waste"] {
        let f = finding(&walks, "load_struct_walk<unsigned char, 24>", rule);
        let term = |name: &str| term(f, name);
        assert!((0.35..0.4).contains(&term("walk_queue_share")), "{rule}");
        assert!((0.3..0.36).contains(&term("walk_queue_cost")), "{rule}");
        let speedup = f["impact"]["speedup"].as_f64().unwrap();
        assert!((0.3..0.36).contains(&speedup), "{rule}: {speedup}");
    }
    let small = twin_findings("stores_blind19");
    let f = finding(
        &small,
        "load_struct_walk<float, 8>",
        "global-load-efficiency",
    );
    let cost = f["impact"]["terms"]["walk_queue_cost"].as_f64().unwrap();
    assert!(cost < 0.001, "{cost}");
}

#[test]
fn a_scatters_loads_that_queue_behind_its_lone_sector_requests_wait_on_the_store_path() {
    // stores_blind9.cu's four floats scattered a field at a time by 264
    // blocks that walk the array (result 7): every write request carries
    // one sector, the warps wait 98% of their time at their next load,
    // about twenty round trips a load, and 1% at the LSU's queues. The wait
    // past a round trip is the requests' queue, four fifths of it the
    // stores' (four stores a load): the store path is past its bound, and
    // the fix's float4 saves what keeps the DRAM under scatter_dram_share,
    // where it saved 59%. Four floats written in place (stores_blind3.cu)
    // send whole lines: no such wait.
    let scatters = twin_findings("stores_blind9");
    let walk = scatters
        .iter()
        .find(|f| f["kernel"]["id"] == 7 && f["rule"] == "global-store-efficiency")
        .expect("stores_blind9 result 7");
    assert!(term(walk, "lone_sector_share") > 0.99);
    let queued = term(walk, "load_queue_share");
    assert!((0.7..0.8).contains(&queued), "{queued}");
    assert!(term(walk, "store_path_share") > queued);
    let speedup = walk["impact"]["speedup"].as_f64().unwrap();
    assert!((0.5..0.6).contains(&speedup), "{speedup}");
    let in_place = twin_findings("stores_blind3");
    let f = finding(
        &in_place,
        "store_struct<float, 4>",
        "global-store-efficiency",
    );
    assert_eq!(term(f, "lone_sector_share"), 0.0);
    assert_eq!(term(f, "load_queue_share"), 0.0);
}

#[test]
fn a_walks_fix_takes_its_share_of_the_busiest_data_pipe_not_of_its_sectors() {
    // stores_blind19.cu: structures read a field at a time by a grid-stride
    // loop on 16 to 32 blocks. The L1 merges the fields' sectors, so the
    // wasted sectors' share says little; the fix's vector loads remove 15
    // of 16 load instructions for sixteen bytes (one 16-byte load), 7 of 8
    // for eight shorts, 1 of 2 for four doubles (two 16-byte loads), and
    // that share of the busiest SM's data pipe is what it can save, above
    // the round trips of the passes it keeps.
    let walks = twin_findings("stores_blind19");
    for (kernel, cut) in [
        ("load_struct_walk<unsigned char, 16>", 15.0 / 16.0),
        ("load_struct_walk<unsigned short, 8>", 7.0 / 8.0),
        ("load_struct_walk<double, 4>", 1.0 / 2.0),
    ] {
        for rule in ["global-load-efficiency", "sector-waste"] {
            let f = finding(&walks, kernel, rule);
            let term = |name: &str| term(f, name);
            // The pipe's global share (no shared memory here) is all of it.
            assert!(
                (term("walk_load_cut") - cut).abs() < 0.01,
                "{kernel} {rule}: {}",
                term("walk_load_cut")
            );
            let (now, p) = (term("walk_pipe_now"), 2.5_f64);
            let kept = (1.0 - now.powf(p) + (now * (1.0 - cut)).powf(p)).powf(1.0 / p);
            assert!(
                (term("walk_pipe_cost") - (1.0 - kept)).abs() < 1e-6,
                "{kernel} {rule}"
            );
            assert!(term("walk_pass_ns") >= 380.0, "{kernel} {rule}");
            if rule == "global-load-efficiency" {
                let speedup = f["impact"]["speedup"].as_f64().unwrap();
                // A reload from the constant bank once a warp, before the
                // loop, adds its one wait.
                let model = term("served_cost")
                    .max(
                        term("walk_pipe_cost").max(term("walk_queue_cost"))
                            + term("walk_reload_cost"),
                    )
                    .min(term("most_a_fix_saves"));
                assert!(
                    (speedup - model).abs() < 1e-9,
                    "{kernel}: {speedup} against {model}"
                );
            }
        }
    }
}

#[test]
fn a_fix_writes_each_structure_a_thread_makes_with_vector_stores_of_its_own() {
    // stores_blind10.cu: scatter_two_structs writes two structures of two
    // floats to two places, four stores from two address registers
    // (`[R2.64]`, `[R2.64+0x4]`, `[R4.64]`, `[R4.64+0x4]`): fixed, two
    // float2 stores, not the one float4 its 16 bytes a thread would take.
    // scatter_in_window's four stores are one run: one float4.
    let all = twin_findings("stores_blind10");
    // Written whole, each scattered pair still covers a sector of its own:
    // the fix keeps half the sectors its field stores touched (a quarter
    // of each used), not the ideal eighth. The window's structures lie side
    // by side: the fix reaches the ideal, a quarter.
    let terms = |kernel: &str| {
        let f = finding(&all, kernel, "global-store-efficiency");
        let term = |name: &str| f["impact"]["terms"][name].as_f64();
        (
            term("stores_per_thread"),
            term("vector_stores_per_thread"),
            term("request_cut"),
            term("fix_keeps").map(|k| (k * 100.0).round() / 100.0),
        )
    };
    assert_eq!(
        terms("scatter_two_structs"),
        (Some(4.0), Some(2.0), Some(0.5), Some(0.5))
    );
    assert_eq!(
        terms("scatter_in_window"),
        (Some(4.0), Some(1.0), Some(0.75), Some(0.25))
    );
}

#[test]
fn a_fix_writes_a_structure_with_stores_as_wide_as_its_size_aligns() {
    // Structure i of b bytes starts at i * b: six floats (24 bytes,
    // stores_blind5.cu) align to 8 and take three float2, not the two
    // 16-byte stores their bytes alone would say; three floats (12 bytes,
    // stores_blind2.cu) align to 4 and take three stores, as many as as is:
    // no requests to cut.
    let cut = |set: &str, kernel: &str| {
        let all = twin_findings(set);
        let f = finding(&all, kernel, "global-store-efficiency");
        let term = |name: &str| f["impact"]["terms"][name].as_f64();
        (
            term("stores_per_thread"),
            term("vector_stores_per_thread"),
            term("request_cut"),
        )
    };
    assert_eq!(
        cut("stores_blind5", "void store_struct<float, 6>"),
        (Some(6.0), Some(3.0), Some(0.5))
    );
    assert_eq!(
        cut("stores_blind2", "void store_fields<float, 3>"),
        (Some(3.0), Some(3.0), Some(0.0))
    );
}

#[test]
fn only_stores_that_waste_sectors_have_requests_to_cut() {
    // An inductor kernel (fixtures/triton, compiled) stores two elements a
    // thread, each store's warp contiguous (32 bytes of every sector
    // used): its bytes would fit one vector store a thread, but that is
    // not the fix of a finding about wasted sectors, and its waits on the
    // store path are no saving of it.
    let all = findings([
        "triton/compiled.raw.csv.xz",
        "triton/compiled.source.csv.xz",
    ]);
    let f = finding(
        &all,
        "triton_poi_fused__unsafe_view_add_mul_slice_stack_sub_unbind_view_1",
        "sector-waste",
    );
    let term = |name: &str| f["impact"]["terms"][name].as_f64().unwrap();
    assert_eq!(term("stores_per_thread"), 2.0);
    assert_eq!(term("vector_stores_per_thread"), 1.0);
    assert!(term("store_path_share") > 0.05, "{}", f["impact"]);
    assert_eq!(term("request_cut"), 0.0);
    assert_eq!(term("store_path_cost"), 0.0);
    assert_eq!(f["severity"], "note");
}

#[test]
fn a_fix_that_needs_several_vector_stores_sends_what_each_one_touches() {
    // stores_blind14.cu: six bytes a field, side by side. Each of the
    // fix's three uchar2 stores spans the warp's 192 bytes as each byte
    // store did, and the L1 merges them as it merged the fields (it sent
    // 54% of the sectors its tags saw): the fix still sends 27% of the
    // store sectors, not the ideal sixth. The fixed build sent 7.5 million
    // sectors where the as-is build sent 10.1.
    let all = twin_findings("stores_blind14");
    let terms = |kernel: &str| {
        let f = finding(&all, kernel, "global-store-efficiency");
        let term = |name: &str| f["impact"]["terms"][name].as_f64().unwrap();
        (term("fix_keeps"), term("fix_sends"))
    };
    let (keeps, sends) = terms("void store_struct<unsigned char, 6>");
    assert!((keeps - 1.0 / 6.0).abs() < 0.01, "{keeps}");
    assert!((0.25..0.29).contains(&sends), "{sends}");
    // A run the thread repeats (a grid-stride loop over structures) is a
    // walk's: what it sends fixed is counted as the sectors it keeps.
    let walks = twin_findings("stores_blind5");
    let f = finding(
        &walks,
        "void store_struct_walk<float, 8>",
        "global-store-efficiency",
    );
    let term = |name: &str| f["impact"]["terms"][name].as_f64().unwrap();
    assert_eq!(term("fix_sends"), term("fix_keeps"));
}
