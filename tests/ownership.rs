//! Where the user can act: findings in library code placed at the user's
//! line that calls it, library kernels labelled in every name form ncu
//! prints, ATen copies of the user's layouts kept as warnings, library
//! notes worth their threshold shown, and the access that costs named on a
//! line of several. fixtures/actions: kernels.cu (a bf16 gather through
//! cuda_bf16.hpp's __ldg; a line with a 32-way and a broadcast shared load)
//! and layouts.py (PyTorch copies), profiled on an H200.

mod common;

use common::{check_json, fixture, ncu_lint, stdout};
use serde_json::Value;

fn findings_of<'d>(doc: &'d Value, kernel: &str) -> Vec<&'d Value> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kernel"]["name"].as_str().unwrap().starts_with(kernel))
        .collect()
}

fn file_name(path: &Value) -> &str {
    path.as_str().unwrap().rsplit('/').next().unwrap()
}

#[test]
fn a_load_made_in_a_toolkit_header_is_placed_at_the_users_line() {
    let pages = [
        fixture("actions/actions.raw.csv.xz"),
        fixture("actions/actions.source.csv.xz"),
    ];
    let native = [fixture("actions/actions.ncu-rep.xz")];
    for paths in [&pages[..], &native[..]] {
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let doc = check_json(&paths);
        let gather = findings_of(&doc, "bf16_gather");
        assert_eq!(gather.len(), 2, "{paths:?}");
        for f in gather {
            let location = &f["location"];
            assert_eq!(file_name(&location["file"]), "kernels.cu", "{f}");
            assert_eq!(location["line"], 37, "{f}");
            let inlined = &location["inlined_from"];
            assert_eq!(inlined["library"], "the CUDA toolkit");
            assert_eq!(file_name(&inlined["file"]), "cuda_bf16.hpp");
            assert_eq!(inlined["line"], 1828);
            let message = f["message"].as_str().unwrap();
            assert!(message.contains("line 37 holds 100% of it"), "{message}");
            assert!(
                message.contains("the access is made at cuda_bf16.hpp:1828 (the CUDA toolkit), inlined at this line"),
                "{message}"
            );
        }
    }
}

#[test]
fn no_finding_is_placed_in_toolkit_triton_or_inductor_files() {
    let sets: [&[&str]; 6] = [
        &[
            "actions/actions.raw.csv.xz",
            "actions/actions.source.csv.xz",
        ],
        &["actions/actions.ncu-rep.xz"],
        &["triton/triton.raw.csv.xz", "triton/triton.source.csv.xz"],
        &["triton/triton.ncu-rep.xz"],
        &[
            "triton/compiled.raw.csv.xz",
            "triton/compiled.source.csv.xz",
        ],
        &["triton/compiled.ncu-rep.xz"],
    ];
    let mut moved = 0;
    for set in sets {
        let paths: Vec<String> = set.iter().map(|p| fixture(p)).collect();
        let mut args = vec!["--all"];
        args.extend(paths.iter().map(String::as_str));
        let doc = check_json(&args);
        for f in doc["findings"].as_array().unwrap() {
            let Some(file) = f["location"]["file"].as_str() else {
                continue;
            };
            for library in ["/include/", "triton/language/", "_inductor/runtime/"] {
                assert!(!file.contains(library), "{set:?}: {f}");
            }
            moved += usize::from(f["location"]["inlined_from"].is_object());
        }
    }
    // The gather's two rules on both paths, the Triton reduction on both,
    // the Inductor reduction's launches on both.
    assert!(moved >= 8, "{moved}");
}

#[test]
fn a_triton_reduction_speaks_of_what_its_author_controls() {
    let doc = check_json(&[&fixture("triton/triton.ncu-rep.xz")]);
    let sum = findings_of(&doc, "column_sum_f32")
        .into_iter()
        .find(|f| f["rule"] == "shared-bank-conflict")
        .unwrap();
    assert_eq!(file_name(&sum["location"]["file"]), "kernels.py");
    assert_eq!(sum["location"]["line"], 81);
    assert_eq!(sum["location"]["inlined_from"]["library"], "Triton");
    let fix = sum["fix"].as_str().unwrap();
    assert!(
        fix.contains("num_warps") && fix.contains("block sizes"),
        "{fix}"
    );
    assert!(!fix.contains("pad"), "{fix}");
}

#[test]
fn the_access_that_costs_is_named_on_a_line_of_several() {
    // kernels.cu:27 holds Qi read down a column (8-way with the compiler's
    // 16-byte loads) and Kj, a broadcast: 1.4 times the ideal on average.
    for paths in [
        vec![
            fixture("actions/actions.raw.csv.xz"),
            fixture("actions/actions.source.csv.xz"),
        ],
        vec![fixture("actions/actions.ncu-rep.xz")],
    ] {
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let doc = check_json(&paths);
        let conflict = findings_of(&doc, "two_loads")[0];
        assert_eq!(conflict["values"]["conflict_ways"], 8.0, "{conflict}");
        let message = conflict["message"].as_str().unwrap();
        assert!(
            message.contains(
                "is 8-way with 16-byte accesses, the line 1.4 times its ideal on average"
            ),
            "{message}"
        );
        assert!(
            conflict["fix"]
                .as_str()
                .unwrap()
                .starts_with("8-way with 16-byte accesses")
        );
    }
}

#[test]
fn aten_copies_of_the_users_layouts_are_warnings_in_every_name_form() {
    // x.t().contiguous() (result 1) and x[:, ::7].clone() (result 2): the
    // raw page as ncu printed it (no namespaces), the mangled and the bare
    // function names, and the report read natively.
    for form in [
        "layouts.raw.csv.xz",
        "layouts.raw.mangled.csv.xz",
        "layouts.raw.function.csv.xz",
        "layouts.ncu-rep.xz",
    ] {
        let doc = check_json(&[&fixture(&format!("actions/{form}"))]);
        let found = doc["findings"].as_array().unwrap();
        let ids: std::collections::BTreeSet<u64> = found
            .iter()
            .map(|f| f["kernel"]["id"].as_u64().unwrap())
            .collect();
        assert_eq!(ids, [1, 2].into(), "{form}");
        for f in found {
            assert_eq!(f["severity"], "warning", "{form}: {f}");
            assert_eq!(f["library"], "ATen (PyTorch)", "{form}");
            let fix = f["fix"].as_str().unwrap();
            assert!(
                fix.contains("x.t().contiguous()") && fix.contains("x[:, ::k]"),
                "{fix}"
            );
        }
    }
}

#[test]
fn a_training_steps_aten_kernels_are_labelled_in_every_form_the_fixtures_hold() {
    // fixtures/step: `void at::<unnamed>::...`, `void at::...`, `void
    // <unnamed>::softmax_warp_*`, and nvjet: every kernel is a library's.
    let doc = check_json(&["--all", &fixture("step/raw.csv.xz")]);
    for f in doc["findings"].as_array().unwrap() {
        assert!(f["library"].is_string(), "{f}");
    }
    // Other forms of such names, matched as the pack matches them.
    let packs = ncu_lint::rules::builtin_packs().unwrap();
    let libraries: Vec<&ncu_lint::rules::Library> =
        packs.iter().flat_map(|p| &p.libraries).collect();
    for name in [
        "native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, 0>(int, float)",
        "void native::reduce_kernel<512, 1, ReduceOp<float, MeanOps<float>>>(ReduceOp)",
        "native::vectorized_elementwise_kernel<8, CUDAFunctor_add<c10::BFloat16>>(int)",
        "void at::<unnamed>::GammaBetaBackwardCUDAKernelTemplate<c10::BFloat16, float>(long)",
        "GammaBetaBackwardCUDAKernelTemplate",
        "vectorized_layer_norm_kernel",
        "_ZN2at6native29vectorized_layer_norm_kernelIN3c108BFloat16EfLb0EEEviT0_PKT_",
    ] {
        let owner = libraries.iter().find(|l| l.owns(name));
        assert_eq!(
            owner.map(|l| l.name.as_str()),
            Some("ATen (PyTorch)"),
            "{name}"
        );
    }
    // A user's kernel of a common name is not ATen's.
    for name in [
        "reduce_kernel(float *)",
        "layer_norm(float *, int)",
        "my_elementwise(float *)",
    ] {
        assert!(!libraries.iter().any(|l| l.owns(name)), "{name}");
    }
}

#[test]
fn library_places_worth_their_threshold_rank_labelled_without_failing() {
    // The torch.compile'd step: cuDNN's flash-attention backward spills,
    // a library's note that is worth more than 1% of its launches.
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--ignore",
        "launch/*",
        &fixture("triton/compiled.raw.csv.xz"),
        &fixture("triton/compiled.source.csv.xz"),
    ]);
    let text = stdout(&out);
    let table: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
    assert!(
        table
            .iter()
            .any(|l| l.contains("register-spill (cuDNN, note)")),
        "{text}"
    );
    // Only the user's places fail the gate.
    let doc = check_json(&[
        "--ignore",
        "launch/*",
        &fixture("triton/compiled.raw.csv.xz"),
        &fixture("triton/compiled.source.csv.xz"),
    ]);
    for f in doc["findings"].as_array().unwrap() {
        if f["severity"] == "warning" {
            assert!(
                f["library"].is_null() || f["library"] == "ATen (PyTorch)",
                "{f}"
            );
        }
    }
}
