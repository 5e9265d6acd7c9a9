//! Triton kernels and a torch.compile'd step (fixtures/triton/), read
//! natively and through their pages: findings at the `tl.load` lines, bf16
//! read as 2-byte accesses, masked lanes named as such.

mod common;

use common::{first_finding, fixture, ncu_lint, stderr};

/// The findings of `check --format json` on `paths`.
fn findings(paths: &[String]) -> Vec<serde_json::Value> {
    let mut args = vec!["check", "--no-config", "--format", "json"];
    args.extend(paths.iter().map(String::as_str));
    let out = ncu_lint(&args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["findings"].as_array().unwrap().clone()
}

/// Both ways of reading a fixture report: natively, and raw + source.
fn both_ways(name: &str) -> [Vec<String>; 2] {
    [
        vec![fixture(&format!("triton/{name}.ncu-rep.xz"))],
        vec![
            fixture(&format!("triton/{name}.raw.csv.xz")),
            fixture(&format!("triton/{name}.source.csv.xz")),
        ],
    ]
}

fn of<'a>(found: &'a [serde_json::Value], rule: &str, kernel: &str) -> Vec<&'a serde_json::Value> {
    found
        .iter()
        .filter(|f| f["rule"] == rule && f["kernel"]["name"].as_str().unwrap().starts_with(kernel))
        .collect()
}

#[test]
fn bf16_loads_are_two_byte_accesses() {
    for paths in both_ways("triton") {
        let found = findings(&paths);
        let bf16 = of(&found, "global-load-efficiency", "load_stride2_bf16");
        assert_eq!(bf16.len(), 1, "{paths:?}");
        assert_eq!(bf16[0]["values"]["access_bytes"], 2.0, "{paths:?}");
        assert_eq!(bf16[0]["location"]["line"], 27);
        let fix = bf16[0]["fix"].as_str().unwrap();
        assert!(fix.contains("2-byte loads"), "{fix}");
    }
}

#[test]
fn masked_lanes_are_named_not_read_as_a_stride() {
    for paths in both_ways("triton") {
        let found = findings(&paths);
        let masked = of(&found, "global-load-efficiency", "every_third_masked");
        assert_eq!(masked.len(), 1, "{paths:?}");
        let values = &masked[0]["values"];
        let lanes = values["active_lanes"].as_f64().unwrap();
        assert!((lanes - 32.0 / 3.0).abs() < 0.1, "{lanes}");
        assert_eq!(values["masked"], 1.0);
        assert!(values["stride_bytes"].is_null() && values["stride_at_least"].is_null());
        let fix = masked[0]["fix"].as_str().unwrap();
        assert!(
            fix.starts_with("only 10.7 of a warp's 32 lanes are active per load"),
            "{fix}"
        );
    }
}

#[test]
fn a_load_triton_splits_per_element_is_read_as_the_threads_elements() {
    // interleave_masked loads the even elements under a mask Triton
    // resolves itself: four LDGs on line 44, one address register, offsets
    // 0x0, 0x8, 0x800 and 0x808 with lanes 16 bytes apart per instruction.
    // A thread reads 2 elements of each 16 bytes, 8 bytes apart: one
    // element in two, not the 16-byte stride one instruction shows.
    let [native, pages] = both_ways("triton");
    let found = findings(&pages);
    let even = of(&found, "global-load-efficiency", "interleave_masked");
    let even = even.iter().find(|f| f["location"]["line"] == 44).unwrap();
    let values = &even["values"];
    assert_eq!(values["instruction_stride_bytes"], 16.0, "{values}");
    assert_eq!(values["elements_per_thread"], 2.0, "{values}");
    assert_eq!(values["stride_bytes"], 8.0, "{values}");
    assert_eq!(values["used_share"], 0.5, "{values}");
    let fix = even["fix"].as_str().unwrap();
    assert!(fix.contains("one element in 2, 8 bytes apart"), "{fix}");
    // And it says how that meets the kernel's per-instruction efficiency.
    assert!(
        fix.contains("uses 4 of every 16 bytes it moves, as the efficiency above counts"),
        "{fix}"
    );
    // Natively the addresses come from the cubin's encoding: every finding
    // of the kernel has the pages' diagnosis, value for value.
    let diagnosis = |found: &[serde_json::Value]| -> Vec<(u64, String, serde_json::Value)> {
        let mut all: Vec<_> = found
            .iter()
            .filter(|f| {
                f["kernel"]["name"]
                    .as_str()
                    .unwrap()
                    .starts_with("interleave_masked")
            })
            .map(|f| {
                let values = &f["values"];
                let keys = [
                    "instruction_stride_bytes",
                    "elements_per_thread",
                    "stride_bytes",
                    "used_share",
                ];
                let picked: serde_json::Map<String, serde_json::Value> = keys
                    .iter()
                    .map(|k| ((*k).to_owned(), values[*k].clone()))
                    .collect();
                (
                    f["location"]["line"].as_u64().unwrap_or(0),
                    f["rule"].as_str().unwrap().to_owned(),
                    serde_json::Value::Object(picked),
                )
            })
            .collect();
        all.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        all
    };
    let native = diagnosis(&findings(&native));
    assert_eq!(native, diagnosis(&found));
    assert!(
        native
            .iter()
            .any(|(line, _, v)| *line == 44 && v["elements_per_thread"] == 2.0),
        "{native:?}"
    );
}

#[test]
fn inductors_rotary_backward_is_masked_on_every_load_line() {
    // Both halves of each rotary pair loaded under complementary masks
    // (fixtures/triton/inductor/mr/...py): a third of the lanes active.
    for paths in both_ways("compiled") {
        let found = findings(&paths);
        let rotary = of(
            &found,
            "global-load-efficiency",
            "triton_poi_fused_add_mul_neg_select_slice_backward",
        );
        assert_eq!(rotary.len(), 8, "{paths:?}");
        for finding in rotary {
            assert_eq!(finding["values"]["masked"], 1.0, "{finding}");
            assert_eq!(finding["values"]["access_bytes"], 2.0, "{finding}");
            assert!(
                finding["location"]["file"]
                    .as_str()
                    .unwrap()
                    .ends_with(".py")
            );
        }
    }
}

#[test]
fn a_kernel_inductor_generated_names_its_source_nodes_and_aten_ops() {
    // The report recorded the modules under /tmp/p/inductor; they are in
    // fixtures/triton/inductor here.
    let report = fixture("triton/compiled.ncu-rep.xz");
    let mapped = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        "--path-map",
        "/tmp/p=fixtures/triton",
        &report,
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&mapped.stdout).unwrap();
    let rotary = first_finding(&doc, "triton_poi_fused_add_mul_neg_select_slice_backward");
    let inductor = &rotary["kernel"]["inductor"];
    let aten: Vec<&str> = inductor["aten"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(
        aten.contains(&"aten.slice_backward") && aten.contains(&"aten.stack"),
        "{aten:?}"
    );
    assert!(inductor["source_nodes"].as_array().unwrap().len() > 10);
    // cuDNN's kernel is no Inductor kernel; without the modules at hand
    // nothing is claimed.
    for f in doc["findings"].as_array().unwrap() {
        let name = f["kernel"]["name"].as_str().unwrap();
        assert_eq!(
            name.starts_with("triton_"),
            !f["kernel"]["inductor"].is_null(),
            "{name}"
        );
    }
    let elsewhere = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        "--path-map",
        "/tmp/p=fixtures/no-such-cache",
        &report,
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&elsewhere.stdout).unwrap();
    let found = doc["findings"].as_array().unwrap();
    assert!(found.iter().all(|f| f["kernel"]["inductor"].is_null()));
    let human = ncu_lint(&[
        "check",
        "--no-config",
        "--path-map",
        "/tmp/p=fixtures/triton",
        &fixture("triton/compiled.ncu-rep.xz"),
    ]);
    let text = common::stdout(&human);
    assert!(text.contains("  Inductor fused: permute_26, "), "{text}");
}

#[test]
fn library_kernels_are_labelled_notes_unless_kept() {
    let report = fixture("triton/compiled.ncu-rep.xz");
    let found = findings(std::slice::from_ref(&report));
    let library = |name: &str| {
        found
            .iter()
            .filter(|f| f["kernel"]["name"].as_str().unwrap().contains(name))
            .map(|f| {
                (
                    f["library"].as_str().map(str::to_owned),
                    f["severity"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    for (name, label) in [
        ("cudnn_generated_fort_native_sdpa", "cuDNN"),
        ("cudnn::fusion::", "cuDNN"),
        (
            "at::native::vectorized_elementwise_kernel",
            "ATen (PyTorch)",
        ),
        ("at::native::reduce_kernel", "ATen (PyTorch)"),
    ] {
        let labelled = library(name);
        assert!(!labelled.is_empty(), "{name}");
        for (lib, severity) in labelled {
            assert_eq!(lib.as_deref(), Some(label), "{name}");
            assert_eq!(severity, "note", "{name}");
        }
    }
    // ATen's non-vectorized elementwise path runs where an operand is a
    // strided view: the layout is the user's, and the finding keeps its
    // severity, with the layout's fix.
    let strided: Vec<&serde_json::Value> = found
        .iter()
        .filter(|f| {
            f["kernel"]["name"]
                .as_str()
                .unwrap()
                .contains("at::native::elementwise_kernel")
        })
        .collect();
    assert!(!strided.is_empty());
    for f in strided {
        assert_eq!(f["library"], "ATen (PyTorch)");
        assert!(
            f["fix"].as_str().unwrap().contains("the layout is yours"),
            "{f}"
        );
        assert!(
            !f["message"]
                .as_str()
                .unwrap()
                .contains("code you do not write"),
            "{f}"
        );
    }
    // Inductor's kernels are generated from the user's model: not a library.
    assert!(library("triton_poi_").iter().all(|(lib, _)| lib.is_none()));
    let spill = found
        .iter()
        .find(|f| f["rule"] == "register-spill")
        .unwrap();
    assert!(
        spill["fix"]
            .as_str()
            .unwrap()
            .starts_with("a cuDNN kernel: change what cuDNN is given")
    );
    // Kept, they are at their rule's severity again.
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        "--library-findings",
        "keep",
        &report,
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let spill = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "register-spill")
        .unwrap();
    assert_eq!(spill["severity"], "warning");
    assert_eq!(spill["library"], "cuDNN");
}

#[test]
fn a_kernels_places_add_up_to_at_most_its_estimate() {
    // The rotary backward holds waste on 8 lines: each line carries its
    // share, not the kernel's whole estimate. (The memory pack's: the launch
    // pack's causes are other fixes of the same time.)
    for paths in both_ways("compiled").into_iter().chain(both_ways("triton")) {
        let mut args = vec![
            "check",
            "--no-config",
            "--format",
            "json",
            "--all",
            "--ignore",
            "launch/*",
        ];
        args.extend(paths.iter().map(String::as_str));
        let doc: serde_json::Value = serde_json::from_slice(&ncu_lint(&args).stdout).unwrap();
        let found = doc["findings"].as_array().unwrap();
        let mut by_kernel: std::collections::HashMap<u64, (f64, f64)> = Default::default();
        for group in doc["groups"].as_array().unwrap() {
            let Some(saved) = group["saved_ns"].as_f64() else {
                continue;
            };
            let first = &found[group["findings"][0].as_u64().unwrap() as usize];
            let id = first["kernel"]["id"].as_u64().unwrap();
            by_kernel.entry(id).or_default().0 += saved;
        }
        // A rule's whole-kernel estimate: its lines' estimates added up.
        let mut per_rule: std::collections::HashMap<(u64, String), f64> = Default::default();
        for f in found {
            let saved = f["impact"]["saved_ns"].as_f64().unwrap_or(0.0);
            let key = (
                f["kernel"]["id"].as_u64().unwrap(),
                f["rule"].as_str().unwrap().to_owned(),
            );
            *per_rule.entry(key).or_default() += saved;
        }
        for ((id, _), total) in per_rule {
            let entry = by_kernel.entry(id).or_default();
            entry.1 = entry.1.max(total);
        }
        let kernel_ns: std::collections::HashMap<u64, f64> = found
            .iter()
            .filter_map(|f| {
                Some((
                    f["kernel"]["id"].as_u64()?,
                    f["impact"]["kernel_ns"].as_f64()?,
                ))
            })
            .collect();
        for (id, (places, estimate)) in by_kernel {
            // Different causes in one kernel add up; one cause over many
            // lines does not exceed its kernel-level estimate.
            assert!(
                places <= estimate * 2.0 + 1.0,
                "{paths:?} result {id}: {places} > {estimate}"
            );
            assert!(
                places <= kernel_ns[&id] + 1.0,
                "{paths:?} result {id}: {places} ns of {}",
                kernel_ns[&id]
            );
        }
    }
}

#[test]
fn a_tma_kernels_few_spills_weigh_against_its_shared_memory_work() {
    // cuDNN's flash-attention backward moves its tiles with TMA and wgmma
    // through shared memory; 2,048 of its 1.2 M instructions spill. Weighed
    // against its few LSU global sectors alone they were 27% of the kernel.
    for paths in both_ways("compiled") {
        let found = findings(&paths);
        let spills = of(&found, "register-spill", "cudnn_generated_fort_native_sdpa");
        assert!(!spills.is_empty(), "{paths:?}");
        for spill in spills {
            let share = spill["impact"]["speedup"].as_f64().unwrap();
            assert!(share > 0.0 && share < 0.05, "{share} on {paths:?}");
        }
    }
}
