//! Output formats on the lab fixtures: human (with the CUDA line shown from
//! the export itself), GitHub annotations, JUnit, Markdown and SARIF.

mod common;

use common::{fixture, ncu_lint, stdout};

const LAB: [&str; 2] = [
    "fixtures/lab/raw.csv.xz",
    "fixtures/lab/source_cuda_sass.csv.xz",
];

fn check(format: &str, files: &[&str]) -> String {
    let mut args = vec!["check", "--format", format, "--color", "never"];
    args.extend_from_slice(files);
    let out = ncu_lint(&args);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    stdout(&out)
}

#[test]
fn human_shows_the_cuda_line_from_the_export_with_no_cu_file() {
    assert!(
        !std::path::Path::new("/tmp/w/lab.cu").exists(),
        "the test needs lab.cu absent"
    );
    let text = check("human", &LAB);
    assert!(
        text.contains(" 62 │ out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];"),
        "{text}"
    );
    assert!(text.contains("╭─[/tmp/w/lab.cu:62:1]"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn human_without_a_source_page_shows_the_deciding_values() {
    let text = check("human", &["fixtures/lab/raw.csv.xz"]);
    assert!(text.contains("decided by excess = 16,252,928"), "{text}");
    assert!(
        text.contains("read from fixtures/lab/raw.csv.xz:"),
        "{text}"
    );
}

#[test]
fn human_prefers_the_cu_file_found_through_a_path_map() {
    let out = ncu_lint(&[
        "check",
        "--color",
        "never",
        "--path-map",
        "/tmp/w/=fixtures/lab/",
        LAB[0],
        LAB[1],
    ]);
    let text = stdout(&out);
    // The export trims the line; the file on disk keeps its indentation.
    assert!(
        text.contains(" 62 │     out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];"),
        "{text}"
    );
    // The path shown is the mapped one.
    assert!(text.contains("╭─[fixtures/lab/lab.cu:62:5]"), "{text}");
}

#[test]
fn github_annotations() {
    insta::assert_snapshot!(check("github", &LAB));
}

#[test]
fn junit_report() {
    insta::assert_snapshot!(check("junit", &LAB));
}

#[test]
fn markdown_summary() {
    insta::assert_snapshot!(check("markdown", &LAB));
}

fn sarif(files: &[&str]) -> serde_json::Value {
    serde_json::from_str(&check("sarif", files)).unwrap()
}

#[test]
fn sarif_has_rules_results_and_stable_fingerprints() {
    let log = sarif(&LAB);
    let run = &log["runs"][0];
    assert_eq!(log["version"], "2.1.0");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "ncu-lint");
    assert!(
        driver["informationUri"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
    for rule in driver["rules"].as_array().unwrap() {
        for key in ["shortDescription", "fullDescription", "help"] {
            assert!(
                rule[key]["text"].as_str().is_some_and(|t| !t.is_empty()),
                "{key} of {}",
                rule["id"]
            );
        }
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 25);
    let tiled = results
        .iter()
        .find(|r| r["ruleId"] == "shared-bank-conflict")
        .unwrap();
    let location = &tiled["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "file:///tmp/w/lab.cu");
    assert_eq!(location["region"]["startLine"], 62);

    // Fingerprints ignore measured values: the same profile in base units,
    // whose numbers print differently, gives the same kernel-level prints.
    let prints = |log: &serde_json::Value| -> Vec<String> {
        let mut v: Vec<String> = log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["partialFingerprints"]["ncuLintFinding/v1"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        prints(&sarif(&["fixtures/lab/raw.csv.xz"])),
        prints(&sarif(&["fixtures/lab/raw_units_base.csv.xz"]))
    );
    assert_eq!(prints(&log), prints(&sarif(&LAB)));
}

/// Runs `@microsoft/sarif-multitool validate --rule-kind "Sarif;Gh"` when
/// `.ci/run` has installed it (it sets SARIF_MULTITOOL); elsewhere says so.
#[test]
fn sarif_passes_the_multitool_validator() {
    let Some(tool) = std::env::var_os("SARIF_MULTITOOL") else {
        eprintln!(
            "skipped: SARIF_MULTITOOL is not set (.ci/run installs @microsoft/sarif-multitool)"
        );
        return;
    };
    let dir = common::temp_dir("sarif_validate");
    for (name, files) in [
        ("lab", &LAB[..]),
        ("details", &["fixtures/lab/details_all.csv.xz"][..]),
    ] {
        let input = dir.join(format!("{name}.sarif"));
        let output = dir.join(format!("{name}.validation.sarif"));
        std::fs::write(&input, check("sarif", files)).unwrap();
        let status = std::process::Command::new(&tool)
            .args([
                "validate",
                "--rule-kind",
                "Sarif;Gh",
                "--level",
                "Error;Warning;Note",
                "-o",
            ])
            .arg(&output)
            .arg(&input)
            .status()
            .expect("the validator runs");
        assert!(status.success(), "{name}: validator exited {status}");
        let report: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&output).unwrap()).unwrap();
        let errors: Vec<&serde_json::Value> = report["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["level"] == "error")
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    let _ = fixture("lab/raw.csv.xz");
}
