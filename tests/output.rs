//! `-o/--output FILE`: every format of `check`, `diff` and `dump` written to
//! a file, whole, with the exit status it has on standard output.

mod common;

use common::{fixture, ncu_lint, stderr, stdout, temp_dir};

#[test]
fn check_writes_each_format_to_a_file_with_the_same_exit_status() {
    let dir = temp_dir("output_check");
    let raw = fixture("lab/raw.csv.xz");
    let source = fixture("lab/source_cuda_sass.csv.xz");
    for format in [
        "human", "json", "sarif", "github", "junit", "markdown", "html",
    ] {
        let file = dir.join(format!("lab.{format}"));
        let to_file = ncu_lint(&[
            "check",
            "--no-config",
            "--format",
            format,
            "-o",
            &file.to_string_lossy(),
            &raw,
            &source,
        ]);
        let to_stdout = ncu_lint(&["check", "--no-config", "--format", format, &raw, &source]);
        assert_eq!(
            to_file.status.code(),
            Some(1),
            "{format}: {}",
            stderr(&to_file)
        );
        assert_eq!(to_file.status.code(), to_stdout.status.code(), "{format}");
        assert!(stdout(&to_file).is_empty(), "{format}");
        let written = std::fs::read_to_string(&file).unwrap();
        assert_eq!(written, stdout(&to_stdout), "{format}");
    }
    // Nothing is left beside the files.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 7, "{names:?}");
}

#[test]
fn diff_and_dump_write_to_a_file() {
    let dir = temp_dir("output_diff");
    let raw = fixture("lab/raw.csv.xz");
    let diff = dir.join("diff.md");
    let out = ncu_lint(&[
        "diff",
        "--no-config",
        "--format",
        "markdown",
        "--output",
        &diff.to_string_lossy(),
        &raw,
        "--against",
        &raw,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let printed = ncu_lint(&[
        "diff",
        "--no-config",
        "--format",
        "markdown",
        &raw,
        "--against",
        &raw,
    ]);
    let written = std::fs::read_to_string(&diff).unwrap();
    assert!(!written.is_empty());
    assert_eq!(written, stdout(&printed));
    let dump = dir.join("dump.json");
    let out = ncu_lint(&["dump", "-o", &dump.to_string_lossy(), &raw]);
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dump).unwrap()).unwrap();
    assert_eq!(doc["kernels"].as_array().unwrap().len(), 26);
}

#[test]
fn an_output_that_cannot_be_written_is_an_error_and_leaves_nothing() {
    let dir = temp_dir("output_bad");
    let file = dir.join("no-such-dir").join("out.json");
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--format",
        "json",
        "-o",
        &file.to_string_lossy(),
        &fixture("lab/raw.csv.xz"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert!(!file.exists());
}

#[test]
fn a_path_map_rewrites_every_path_written() {
    // The lab was profiled in /tmp/w.
    let raw = fixture("lab/raw.csv.xz");
    let source = fixture("lab/source_cuda_sass.csv.xz");
    for format in ["sarif", "json", "github", "markdown", "human"] {
        let out = ncu_lint(&[
            "check",
            "--no-config",
            "--format",
            format,
            "--path-map",
            "/tmp/w=kernels",
            &raw,
            &source,
        ]);
        let text = stdout(&out);
        assert!(text.contains("kernels/lab.cu"), "{format}: {text}");
        assert!(!text.contains("/tmp/w/lab.cu"), "{format}");
    }
    // The text of the line is still found under the recorded path.
    let out = ncu_lint(&[
        "check",
        "--no-config",
        "--path-map",
        "/tmp/w=kernels",
        &raw,
        &source,
    ]);
    assert!(
        stdout(&out).contains("╭─[kernels/lab.cu:87"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("acc += float(s[(threadIdx.x * STRIDE + k)"));
}
