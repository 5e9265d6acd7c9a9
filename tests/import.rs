//! The importer on the real exports in fixtures/: every lab form, every
//! corpus file, each trap of the lab README and each quirk of SOURCES.tsv.

mod common;

use common::{corpus, fixture, ncu_lint, stderr, stdout, temp_dir, unpacked};
use ncu_lint::ingest::{IngestError, import};
use ncu_lint::model::{Form, Kernel, Report};
use ncu_lint::value::Value;

fn load(paths: &[&str]) -> Report {
    let paths: Vec<String> = paths.iter().map(|p| fixture(p)).collect();
    import(&paths).unwrap_or_else(|e| panic!("{:?}", miette::Report::new(e)))
}

fn load_corpus(prefix: &str) -> Report {
    import(&[corpus(prefix)]).unwrap_or_else(|e| panic!("{:?}", miette::Report::new(e)))
}

fn value(kernel: &Kernel, key: &str) -> Value {
    kernel
        .metrics
        .get(key)
        .unwrap_or_else(|| panic!("{} has no {key}", kernel.name))
        .value
        .clone()
}

const LAB_RESULT_EXPORTS: [&str; 13] = [
    "lab/details.csv.xz",
    "lab/details_all.csv.xz",
    "lab/details_instances.csv.xz",
    "lab/details_label_name.csv.xz",
    "lab/details_metric_names.csv.xz",
    "lab/details_units_base.csv.xz",
    "lab/direct_stdout.csv.xz",
    "lab/metrics_raw_stdout.csv",
    "lab/metrics_stdout.csv",
    "lab/raw.csv.xz",
    "lab/raw_units_base.csv.xz",
    "lab/source_cuda_sass.csv.xz",
    "lab/source_sass.csv.xz",
];

#[test]
fn every_lab_export_yields_the_26_results() {
    for path in LAB_RESULT_EXPORTS {
        let report = load(&[path]);
        assert_eq!(report.kernels.len(), 26, "{path}");
        assert!(report.unattached.is_empty(), "{path}");
    }
}

#[test]
fn lab_result_ids_are_0_to_25_in_order() {
    let report = load(&["lab/details.csv.xz"]);
    let ids: Vec<_> = report.kernels.iter().map(|k| k.id).collect();
    assert_eq!(ids, (0..26).map(Some).collect::<Vec<_>>());
    let k = &report.kernels[0];
    assert_eq!(k.name, "copy_coalesced(const float *, float *, int)");
    assert_eq!(k.launch.block, Some([256, 1, 1]));
    assert_eq!(k.launch.grid, Some([65536, 1, 1]));
    assert_eq!(k.launch.cc.as_deref(), Some("9.0"));
    assert_eq!(k.launch.device, Some(0));
}

#[test]
fn session_summary_and_cuda_listing_forms() {
    let session = load(&["lab/session.csv"]);
    assert_eq!(session.files[0].form, Form::Session);
    assert!(session.kernels.is_empty());
    assert_eq!(
        session.session["Nsight Compute Target"],
        "2025.3.1.0 (build 36398880) (public-release)"
    );
    assert_eq!(session.session["Device 0.display_name"], "NVIDIA H200");

    let summary = load(&["lab/summary_per_kernel.csv.xz"]);
    assert_eq!(summary.files[0].form, Form::Summary);
    assert_eq!(summary.kernels.len(), 26);
    assert!(
        summary
            .kernels
            .iter()
            .all(|k| k.id.is_none() && k.invocations == Some(1))
    );

    let listing = load(&["lab/source_cuda.csv"]);
    assert_eq!(listing.files[0].form, Form::Source);
    assert_eq!(listing.source_files.len(), 1);
    assert_eq!(listing.source_files[0].path, "/tmp/w/lab.cu");
    assert_eq!(
        listing.source_files[0].lines[12],
        "__global__ void copy_coalesced(const float* __restrict__ in, float* __restrict__ out, int n) {"
    );
}

// Trap: the source page does not escape quotes inside source text (lab.cu line 8).
#[test]
fn trap_unescaped_quotes_in_source_text() {
    let listing = load(&["lab/source_cuda.csv"]);
    assert_eq!(
        listing.source_files[0].lines[7],
        "  fprintf(stderr, \"%s:%d %s\\n\", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)"
    );
    assert_eq!(listing.source_files[0].lines[8], "");
}

// Trap: `smem_stride<float, (int)32>` on the source page is `smem_stride<float, 32>` elsewhere.
#[test]
fn trap_template_names_match_across_pages() {
    let report = load(&["lab/raw.csv.xz", "lab/source_cuda_sass.csv.xz"]);
    assert!(report.unattached.is_empty());
    let k = &report.kernels[12];
    assert_eq!(k.name, "void smem_stride<float, 32>(float *, int)");
    let source = k.source.as_ref().expect("attached");
    assert_eq!(
        source.function,
        "void smem_stride<float, (int)32>(float *, int)"
    );
    for kernel in &report.kernels {
        let source = kernel
            .source
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no source", kernel.name));
        assert_eq!(
            ncu_lint::model::kernel_name::normalize(&source.function),
            kernel.normalized_name()
        );
    }
}

#[test]
fn cuda_sass_view_keeps_lines_and_each_instruction_once() {
    let report = load(&["lab/source_cuda_sass.csv.xz"]);
    let source = report.kernels[0].source.as_ref().unwrap();
    assert_eq!(source.own_file(), Some("/tmp/w/lab.cu"));
    let lines: Vec<u32> = source.lines.iter().filter_map(|l| l.line).collect();
    assert_eq!(lines, [13, 14, 15, 16]);
    assert_eq!(source.lines[2].text, "if (i < n) out[i] = in[i];");
    let mut addresses: Vec<&str> = source
        .instructions
        .iter()
        .filter_map(|i| i.address.as_deref())
        .collect();
    let total = addresses.len();
    addresses.sort();
    addresses.dedup();
    assert_eq!(addresses.len(), total, "an instruction is kept twice");
    let stg = source
        .instructions
        .iter()
        .find(|i| i.text.contains("STG.E"))
        .unwrap();
    assert_eq!(stg.line, Some(15));
    let excess = source.column("L1 Wavefronts Shared Excessive");
    assert!(
        excess.is_none(),
        "copy_coalesced's block has no shared columns"
    );
    let tiled = report.kernels[8].source.as_ref().unwrap();
    let col = tiled.column("L1 Wavefronts Shared Excessive").unwrap();
    let line62 = tiled.lines.iter().find(|l| l.line == Some(62)).unwrap();
    assert_eq!(line62.cells[col], Value::Number(16_252_928.0));
}

#[test]
fn sass_view_repeats_blocks_verbatim_and_one_is_kept() {
    let report = load(&["lab/source_sass.csv.xz"]);
    assert_eq!(report.kernels.len(), 26);
    let names: Vec<&str> = report.kernels.iter().map(|k| k.name.as_str()).collect();
    let mut unique = names.clone();
    unique.dedup();
    assert_eq!(unique.len(), 26);
    assert!(report.kernels.iter().all(|k| k.id.is_none()));
}

// Trap: numbers carry thousands separators, units rows, `n/a`, `no data`, `-`.
#[test]
fn trap_numbers_units_rows_and_missing() {
    let report = load(&["lab/raw_units_base.csv.xz"]);
    let spill = &report.kernels[22].metrics["sass__inst_executed_register_spilling"];
    assert_eq!(spill.value, Value::Number(25_853_952.0));
    assert_eq!(spill.raw, "25,853,952");
    assert_eq!(
        report.kernels[12].metrics["gpu__time_duration.sum"].unit,
        "ns"
    );

    let auto = load(&["lab/raw.csv.xz"]);
    let duration = &auto.kernels[12].metrics["gpu__time_duration.sum"];
    assert_eq!(
        (
            duration.raw.as_str(),
            duration.raw_unit.as_str(),
            duration.unit.as_str()
        ),
        ("1.062656", "ms", "ns")
    );
    assert_eq!(duration.value, Value::Number(1_062_656.0));

    let thirteen = load_corpus("13_");
    let empty = &thirteen.kernels[0].metrics["TriageCompute.lts__average_t_sector_hit_rate_srcnode_gpc_realtime.pct"];
    assert_eq!(empty.value, Value::Missing);

    let six = load_corpus("06_");
    let na = six.kernels[0]
        .metrics
        .values()
        .find(|m| m.raw == "n/a")
        .expect("06 has n/a cells");
    assert_eq!(na.value, Value::Missing);

    let fourteen = load_corpus("14_");
    let source = fourteen.kernels[0].source.as_ref().unwrap();
    let size = source.column("Access Size").unwrap();
    assert!(
        source
            .instructions
            .iter()
            .any(|i| i.cells[size] == Value::Missing),
        "`-` is missing"
    );
}

// Trap: the raw bank-conflict counter is noisy; the excess wavefronts are the truth.
#[test]
fn trap_noisy_bank_conflict_counter_is_imported_as_printed() {
    let report = load(&["lab/raw.csv.xz"]);
    for id in [9, 10, 16, 17, 18] {
        let k = &report.kernels[id];
        let counter = value(k, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum")
            .as_number()
            .unwrap();
        assert!(counter > 0.0, "{}", k.name);
        assert_eq!(
            value(k, "derived__memory_l1_wavefronts_shared_excessive"),
            Value::Number(0.0),
            "{}",
            k.name
        );
    }
}

// Trap: 8-byte elements need 2 wavefronts per request, the ideal.
#[test]
fn trap_double_ideal_wavefronts() {
    let report = load(&["lab/raw.csv.xz"]);
    let k = &report.kernels[14];
    assert_eq!(
        value(k, "memory_l1_wavefronts_shared"),
        value(k, "memory_l1_wavefronts_shared_ideal")
    );
    assert_eq!(
        value(k, "derived__memory_l1_wavefronts_shared_excessive"),
        Value::Number(0.0)
    );
}

// Trap: 80.0% efficiency (kernel 4) is imported exactly, not rounded below 80%.
#[test]
fn trap_eighty_percent_is_exact() {
    let report = load(&["lab/raw.csv.xz"]);
    let ratio = value(
        &report.kernels[4],
        "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio",
    );
    assert_eq!(ratio, Value::Number(25.600008));
}

// Trap: shared-memory kernels issue no global loads: zero sectors, so the ratio means nothing.
#[test]
fn trap_shared_kernels_issue_no_global_loads() {
    let report = load(&["lab/raw.csv.xz"]);
    for k in &report.kernels[10..=17] {
        assert_eq!(
            value(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
            Value::Number(0.0),
            "{}",
            k.name
        );
        assert_eq!(
            value(
                k,
                "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"
            ),
            Value::Number(0.0)
        );
    }
}

#[test]
fn nan_is_refused_with_a_warning_and_kept_missing() {
    let report = load(&["lab/raw.csv.xz"]);
    assert_eq!(
        value(&report.kernels[0], "derived_tempMetric4"),
        Value::Missing
    );
    let warning = &report.warnings[0];
    assert!(
        warning.message.contains("derived_tempMetric4")
            && warning.message.contains("not a finite number")
    );
    assert_eq!(warning.count, 24);
    assert_eq!(warning.origin.line, 3);
}

#[test]
fn details_labels_map_to_metric_names_in_every_naming_mode() {
    let key = "derived__local_spilling_requests";
    for path in [
        "lab/details.csv.xz",
        "lab/details_metric_names.csv.xz",
        "lab/details_label_name.csv.xz",
    ] {
        let report = load(&[path]);
        let k = &report.kernels[22];
        assert!(value(k, key).as_number().unwrap() > 0.0, "{path}");
        assert_eq!(
            value(&report.kernels[23], key),
            Value::Number(0.0),
            "{path}"
        );
    }
    let all = load(&["lab/details_all.csv.xz"]);
    let k = &all.kernels[2];
    assert_eq!(
        value(
            k,
            "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"
        ),
        Value::Number(4.0)
    );
    assert_eq!(
        value(k, "NUMA Affinity: GPU Name"),
        Value::Text("NVIDIA H200".into())
    );
}

#[test]
fn details_all_body_items_and_rule_rows() {
    let report = load(&["lab/details_all.csv.xz"]);
    let k = &report.kernels[8];
    assert!(
        k.metrics
            .contains_key("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed")
    );
    assert!(k.metrics.keys().any(|key| {
        key.starts_with("GPU Speed Of Light Hierarchical Roofline Chart (Tensor Core): ")
    }));
    assert!(
        k.ncu_rules
            .iter()
            .any(|r| r.name == "UncoalescedSharedAccess")
    );
}

/// The Workload Distribution chart prints four rows under one label a unit;
/// read in order, they are the raw page's average, maximum, minimum and sum.
#[test]
fn details_all_workload_distribution_rows_are_the_raw_rollups() {
    let all = load(&["lab/details_all.csv.xz"]);
    let raw = load(&["lab/raw.csv.xz"]);
    assert_eq!(all.kernels.len(), raw.kernels.len());
    let mut compared = 0;
    for (details, raw) in all.kernels.iter().zip(&raw.kernels) {
        for unit in ["sm", "lts", "l1tex", "dram", "smsp"] {
            for rollup in ["avg", "max", "min", "sum"] {
                let key = format!("{unit}__cycles_active.{rollup}");
                let got = value(details, &key).as_number().unwrap();
                let want = value(raw, &key).as_number().unwrap();
                assert!(
                    (got - want).abs() <= 0.01 * want.abs().max(1.0),
                    "{}: {key} {got} from the details page, {want} from the raw page",
                    details.name
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 26 * 20);
    let busiest = value(&all.kernels[0], "sm__cycles_active.max");
    assert_ne!(busiest, value(&all.kernels[0], "sm__cycles_active.avg"));
}

#[test]
fn unit_scaling_matches_base_export() {
    let auto = load(&["lab/details.csv.xz"]);
    let base = load(&["lab/details_units_base.csv.xz"]);
    let label = Some("Driver Shared Memory Per Block");
    let a = auto.kernels[0]
        .metrics
        .values()
        .find(|m| m.label.as_deref() == label)
        .unwrap();
    let b = base.kernels[0]
        .metrics
        .values()
        .find(|m| m.label.as_deref() == label)
        .unwrap();
    assert_eq!(
        (a.raw_unit.as_str(), b.raw_unit.as_str()),
        ("Kbyte/block", "byte/block")
    );
    assert_eq!(a.unit, b.unit);
    assert!((a.value.as_number().unwrap() - b.value.as_number().unwrap()).abs() <= 10.0);
}

#[test]
fn stdout_capture_keeps_profiler_lines_and_skips_program_output() {
    let report = load(&["lab/direct_stdout.csv.xz"]);
    let messages = &report.files[0].messages;
    assert!(
        messages
            .iter()
            .any(|m| m.level == "PROF" && m.text.contains("Connected to process"))
    );
    assert_eq!(
        messages
            .iter()
            .filter(|m| m.text.contains("No metrics to show"))
            .count(),
        26
    );
    assert_eq!(report.kernels.len(), 26);
}

#[test]
fn crlf_and_bom_import_exactly_like_the_original() {
    let dir = temp_dir("crlf_bom");
    for original in [
        "lab/metrics_stdout.csv",
        "lab/source_cuda.csv",
        "lab/raw.csv.xz",
    ] {
        let plain = if original.ends_with(".xz") {
            unpacked(original, &dir)
        } else {
            fixture(original)
        };
        let text = std::fs::read_to_string(&plain).unwrap();
        let crlf = dir.join("crlf_bom.csv");
        std::fs::write(&crlf, format!("\u{feff}{}", text.replace('\n', "\r\n"))).unwrap();
        let a = import(std::slice::from_ref(&plain)).unwrap();
        let b = import(&[crlf.to_string_lossy().into_owned()]).unwrap();
        let strip = |r: &Report| {
            let mut json = ncu_lint::dump::to_json(r);
            json["files"][0]["path"] = serde_json::Value::Null;
            json
        };
        assert_eq!(strip(&a), strip(&b), "{original}");
    }
}

#[test]
fn files_of_different_reports_are_refused() {
    let err = import(&[fixture("lab/raw.csv.xz"), fixture("lab/metrics_stdout.csv")]).unwrap_err();
    assert!(
        matches!(err, IngestError::DifferentReports { id: 0, .. }),
        "{err:?}"
    );
}

#[test]
fn pages_of_one_report_merge() {
    let report = load(&[
        "lab/details.csv.xz",
        "lab/raw.csv.xz",
        "lab/source_sass.csv.xz",
    ]);
    assert_eq!(report.kernels.len(), 26);
    let k = &report.kernels[22];
    assert!(
        k.metrics
            .contains_key("sass__inst_executed_register_spilling")
    );
    assert!(k.metrics.contains_key("derived__local_spilling_requests"));
    assert!(!k.ncu_rules.is_empty());
    assert!(report.kernels.iter().all(|k| k.source.is_some()));
    assert_eq!(
        report.files.iter().map(|f| f.form).collect::<Vec<_>>(),
        [Form::Details, Form::Raw, Form::Source]
    );
}

#[test]
fn values_remember_file_line_and_column() {
    let report = load(&["lab/metrics_stdout.csv"]);
    let m = &report.kernels[0].metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"];
    assert_eq!(m.origin.file, 0);
    assert_eq!(m.origin.line, 6);
    let text = std::fs::read_to_string(fixture("lab/metrics_stdout.csv")).unwrap();
    let line = text.lines().nth(5).unwrap();
    assert_eq!(&line[m.origin.column as usize - 1..], "\"0\"");
}

// ---- corpus quirks (SOURCES.tsv), one test per file ----

#[test]
fn corpus_01_raw_with_program_output_kernel_time_and_instances() {
    let r = load_corpus("01_");
    assert_eq!(r.files[0].form, Form::Raw);
    assert_eq!(r.kernels.len(), 3);
    let k = &r.kernels[0];
    assert_eq!(
        k.launch.kernel_time.as_deref(),
        Some("2023-Oct-01 02:39:05")
    );
    assert_eq!((k.launch.block, k.launch.cc.as_deref()), (None, None));
    assert_eq!(
        value(k, "device__attribute_clock_rate"),
        Value::Number(1_759_000.0)
    );
    assert!(
        matches!(value(k, "inst_executed"), Value::Instances(v) if v.len() == 24 && v[0] == 32.0)
    );
    assert!(
        r.files[0]
            .messages
            .iter()
            .any(|m| m.text.starts_with("==PROF== Connected"))
    );
}

#[test]
fn corpus_02_preamble_empty_units_and_template_name() {
    let r = load_corpus("02_");
    assert_eq!(r.kernels.len(), 1);
    let k = &r.kernels[0];
    assert!(
        k.name
            .starts_with("void implicit_convolve_sgemm<float, float, (int)128, (int)5,")
    );
    assert!(k.name.ends_with(')'));
    let m = &k.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"];
    assert_eq!(m.unit, "");
}

#[test]
fn corpus_03_sector_and_request_metrics() {
    let r = load_corpus("03_");
    let k = &r.kernels[0];
    let m = &k.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"];
    assert_eq!(m.unit, "sector");
    assert!(m.value.as_number().unwrap() > 1000.0);
}

#[test]
fn corpus_04_ragged_rows_and_rules_without_speedup() {
    let r = load_corpus("04_");
    assert_eq!(r.kernels.len(), 9);
    let k = &r.kernels[0];
    assert!(k.ncu_rules.iter().all(|rule| rule.speedup.is_none()));
    assert!(k.ncu_rules.iter().any(|rule| rule.section == "LaunchStats"));
    assert!(
        k.metrics
            .values()
            .any(|m| m.value == Value::Text("cudaFuncCachePreferNone".into()))
    );
}

#[test]
fn corpus_05_multiprocess_preamble() {
    let r = load_corpus("05_");
    assert_eq!(r.kernels.len(), 2);
    assert_eq!(
        r.files[0]
            .messages
            .iter()
            .filter(|m| m.text.contains("terminated before first instrumented"))
            .count(),
        2
    );
    let d = &r.kernels[0].metrics["gpu__time_duration.sum"];
    assert_eq!(
        (d.value.clone(), d.unit.as_str()),
        (Value::Number(7488.0), "ns")
    );
}

#[test]
fn corpus_06_speedup_columns_and_scaled_units() {
    let r = load_corpus("06_");
    let k = &r.kernels[0];
    assert!(
        k.ncu_rules
            .iter()
            .any(|rule| rule.speedup.is_some() && rule.speedup_type.is_some())
    );
    let m = &k.metrics["dram__bytes_read.sum"];
    assert_eq!((m.raw_unit.as_str(), m.unit.as_str()), ("Mbyte", "byte"));
    assert_eq!(m.value, Value::Number(2_330_000.0));
}

#[test]
fn corpus_07_partial_results_after_profiler_errors() {
    let r = load_corpus("07_");
    assert_eq!(r.kernels.len(), 3);
    assert_eq!(
        r.files[0]
            .messages
            .iter()
            .filter(|m| m.level == "ERROR")
            .count(),
        2
    );
    assert_eq!(
        value(&r.kernels[0], "l1tex__t_bytes.sum"),
        Value::Number(16_852_881_244_160.0)
    );
}

#[test]
fn corpus_08_no_csv_exits_2_quoting_the_error() {
    let out = ncu_lint(&["dump", &corpus("08_")]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("no Nsight Compute CSV export found"), "{err}");
    assert!(
        err.contains("2 │ ==ERROR== Error: ERR_NVGPUCTRPERM"),
        "quotes the line: {err}"
    );
    assert!(err.contains(":2:1"), "names the line: {err}");
    assert!(stdout(&out).is_empty(), "nothing half-written");
}

#[test]
fn corpus_09_old_labels_stay_addressable_by_section() {
    let r = load_corpus("09_");
    let k = &r.kernels[0];
    assert_eq!(k.name, "Kernel2(bool*,bool*,bool*,bool*,int)");
    assert_eq!(value(k, "GPU Speed Of Light: SOL FB"), Value::Number(1.33));
    assert_eq!(
        k.metrics["GPU Speed Of Light: Memory Frequency"].unit,
        "cycle/s"
    );
}

#[test]
fn corpus_10_lassen_details() {
    let r = load_corpus("10_");
    assert_eq!(r.kernels.len(), 13);
    assert!(
        r.files[0]
            .messages
            .iter()
            .any(|m| m.text.starts_with("==PROF== Connected to process"))
    );
    assert!(
        r.kernels[0]
            .metrics
            .keys()
            .any(|k| k.starts_with("Memory Workload Analysis: "))
    );
}

#[test]
fn corpus_11_156_launches_without_separators() {
    let r = load_corpus("11_");
    assert_eq!(r.kernels.len(), 156);
    assert!(r.kernels.windows(2).all(|w| w[0].id < w[1].id));
    assert!(
        r.kernels
            .iter()
            .any(|k| k.metrics.values().any(|m| m.raw == "998277"))
    );
}

#[test]
fn corpus_12_nvtx_columns() {
    let r = load_corpus("12_");
    let k = &r.kernels[0];
    assert_eq!(k.launch.nvtx.len(), 2);
    let (name, value) = k.launch.nvtx.first().unwrap();
    assert!(name.starts_with("thread Domain:Push/Pop_Range"));
    assert_eq!(
        value,
        "68455  \"<default domain>:compute:none:none:none:none:none:none\" "
    );
    assert!(k.name.starts_with("NTTPhase1_general(Params *, int"));
}

#[test]
fn corpus_13_raw_with_2348_columns_and_prefixed_names() {
    let r = load_corpus("13_");
    let k = &r.kernels[0];
    assert!(k.metrics.len() > 2300);
    assert!(k.metrics.keys().any(|n| n.starts_with("TriageCompute.")));
    assert!(k.metrics.keys().any(|n| n.starts_with("warpsampling:")));
    assert_eq!(
        value(k, "device__attribute_confidential_computing_mode"),
        Value::Text("No-CC".into())
    );
    assert_eq!(k.launch.cc.as_deref(), Some("12.0"));
}

#[test]
fn corpus_14_source_sass_with_metrics() {
    let r = load_corpus("14_");
    let source = r.kernels[0].source.as_ref().unwrap();
    assert_eq!(source.columns.len(), 64);
    assert!(source.column("L1 Wavefronts Shared Excessive").is_some());
    assert!(
        source.instructions[0]
            .address
            .as_deref()
            .unwrap()
            .starts_with("0x")
    );
    assert!(source.lines.is_empty());
}

#[test]
fn corpus_15_base_units_with_separators_and_multiline_rule() {
    let r = load_corpus("15_");
    let k = &r.kernels[0];
    let rule = k
        .ncu_rules
        .iter()
        .find(|rule| rule.name == "LocalMemoryUsage")
        .unwrap();
    assert!(
        rule.description.contains('\n'),
        "a description spanning lines stays one row"
    );
    assert_eq!(rule.speedup, Some(20.13));
    assert_eq!(
        value(k, "dram__cycles_elapsed.avg.per_second"),
        Value::Number(13_352_045_064.9)
    );
}

#[test]
fn corpus_16_source_counters_rules() {
    let r = load_corpus("16_");
    let k = &r.kernels[0];
    let rule = k
        .ncu_rules
        .iter()
        .find(|rule| rule.name == "UncoalescedGlobalAccess")
        .unwrap();
    assert_eq!(rule.speedup, Some(3.556));
    assert_eq!(r.files[0].messages.len(), 2);
}

#[test]
fn corpus_17_sass_only_source_page() {
    let r = load_corpus("17_");
    let k = &r.kernels[0];
    assert!(k.name.starts_with("void fa81_kernel<(int)3>("));
    let source = k.source.as_ref().unwrap();
    assert!(source.columns.is_empty());
    assert!(source.instructions.len() > 3000);
    assert_eq!(
        k.normalized_name(),
        ncu_lint::model::kernel_name::normalize(&k.name.replace("<(int)3>", "<3>"))
    );
}

#[test]
fn corpus_18_no_separators_and_text_values() {
    let r = load_corpus("18_");
    let k = &r.kernels[0];
    assert_eq!(
        value(k, "dram__cycles_elapsed.avg.per_second"),
        Value::Number(3_995_313_115.4)
    );
    assert!(
        k.metrics
            .values()
            .any(|m| m.value == Value::Text("PolicySpread".into()))
    );
    assert_eq!(k.launch.cc.as_deref(), Some("10.0"));
}

#[test]
fn every_corpus_file_imports_or_fails_cleanly() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut imported = 0;
    for path in files
        .iter()
        .filter(|p| p.to_string_lossy().contains(".csv"))
    {
        let out = ncu_lint(&["dump", &path.to_string_lossy()]);
        let name = path.file_name().unwrap().to_string_lossy();
        if name.starts_with("08_") {
            assert_eq!(out.status.code(), Some(2));
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(!json["kernels"].as_array().unwrap().is_empty(), "{name}");
        imported += 1;
    }
    assert_eq!(imported, 17);
}

/// A sum of `column` over `rows` where each row's cells equal `filter`'s
/// and its SASS opcode (before the first `.`) is among `opcodes`, if any.
fn row_sum(
    view: &ncu_lint::model::SourceView,
    rows: &[ncu_lint::model::SourceRow],
    use_: &ncu_lint::ingest::RowUse,
) -> f64 {
    let (Some(column), Some(filter)) = (
        view.column(&use_.column),
        use_.filter
            .iter()
            .map(|(c, v)| Some((view.column(c)?, v)))
            .collect::<Option<Vec<_>>>(),
    ) else {
        return 0.0;
    };
    rows.iter()
        .filter(|r| {
            filter
                .iter()
                .all(|(i, want)| matches!(&r.cells[*i], Value::Text(t) if t == *want))
        })
        .filter(|r| {
            let (opcode, _) = ncu_lint::memory_model::sass_instruction(&r.text);
            let family = opcode.split('.').next().unwrap_or("");
            use_.opcodes.is_empty() || use_.opcodes.iter().any(|o| o == family)
        })
        .filter_map(|r| r.cells[column].as_number())
        .sum()
}

#[test]
fn a_check_keeps_the_instruction_rows_its_rules_read_and_the_entry() {
    // A check's import keeps an instruction row only where a sum the rules
    // read counts it: every such sum, the kernel's entry instruction (its
    // own file, the offsets) and the CUDA lines are what a full import has.
    let rules = ncu_lint::rules::activate(&ncu_lint::rules::builtin_packs().unwrap()).unwrap();
    let needed = std::sync::Arc::new(ncu_lint::rules::needed(&rules));
    let uses = needed.source_rows.clone().unwrap();
    let (mut whole_rows, mut kept_rows) = (0, 0);
    for pages in [
        ["lab/raw.csv.xz", "lab/source_cuda_sass.csv.xz"],
        ["lab/raw.csv.xz", "lab/source_sass.csv.xz"],
        [
            "triton/compiled.raw.csv.xz",
            "triton/compiled.source.csv.xz",
        ],
        ["inline/inline.raw.csv.xz", "inline/inline.source.csv.xz"],
    ] {
        let paths: Vec<String> = pages.iter().map(|p| fixture(p)).collect();
        let whole = import(&paths).unwrap();
        let kept = ncu_lint::ingest::import_needed(&paths, Some(needed.clone())).unwrap();
        for (w, k) in whole.kernels.iter().zip(&kept.kernels) {
            let (Some(wv), Some(kv)) = (&w.source, &k.source) else {
                assert!(w.source.is_none() && k.source.is_none(), "{}", w.name);
                continue;
            };
            whole_rows += wv.instructions.len();
            kept_rows += kv.instructions.len();
            assert_eq!(wv.lines.len(), kv.lines.len(), "{pages:?} {}", w.name);
            assert_eq!(wv.own_file(), kv.own_file(), "{pages:?} {}", w.name);
            let first = |v: &ncu_lint::model::SourceView| {
                v.instructions
                    .iter()
                    .filter_map(|r| ncu_lint::model::address_number(r.address.as_deref()?))
                    .min()
            };
            assert_eq!(first(wv), first(kv), "{pages:?} {}", w.name);
            for u in &uses {
                let (a, b) = (
                    row_sum(wv, &wv.instructions, u),
                    row_sum(kv, &kv.instructions, u),
                );
                assert_eq!(a, b, "{pages:?} {}: {u:?}", w.name);
            }
        }
    }
    // Most instructions are not memory instructions.
    assert!(
        kept_rows * 2 < whole_rows,
        "{kept_rows} of {whole_rows} rows kept"
    );
}
