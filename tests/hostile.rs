//! Hostile and damaged `.ncu-rep` reports (scripts/hostile.py writes them
//! from a real report: cut, zeroed, lengths and counts set to 0, -1, 2^31
//! and off by one, string tables removed, metric name indexes past the
//! table, a 2 GB sparse file, broken xz streams, an xz bomb): none panics,
//! each is exit 2 with the damage named, or a warning that names the loss.
//! Their time and memory are measured by bench/hostile.py.

mod common;

use common::{fixture, ncu_lint, stderr, temp_dir};

#[test]
fn every_hostile_report_is_named_damaged_never_a_panic_or_a_clean_exit() {
    let dir = temp_dir("hostile");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/hostile.py");
    let made = std::process::Command::new("python3")
        .args([
            script,
            &fixture("inline/inline.ncu-rep.xz"),
            &dir.to_string_lossy(),
        ])
        .status()
        .expect("python3 runs scripts/hostile.py");
    assert!(made.success());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 30, "{names:?}");
    for name in &names {
        let path = dir.join(name);
        let out = ncu_lint(&["check", "--no-config", &path.to_string_lossy()]);
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{name}: {err}");
        let code = out.status.code();
        assert!(
            code == Some(2) || (matches!(code, Some(0 | 1)) && err.contains("warning")),
            "{name}: exit {code:?} without a warning: {err}"
        );
        // Damage is named as such, with where it is when it is in the file.
        assert!(
            err.contains("damaged") || err.contains("empty") || err.contains("ends inside"),
            "{name}: {err}"
        );
    }
    let out = ncu_lint(&[
        "check",
        "--no-config",
        &dir.join("result-counts-zero.ncu-rep").to_string_lossy(),
    ]);
    let err = stderr(&out);
    assert!(
        err.contains("none of the report's") && err.contains("holds a kernel result"),
        "{err}"
    );
    let out = ncu_lint(&[
        "check",
        "--no-config",
        &dir.join("string-tables-removed.ncu-rep").to_string_lossy(),
    ]);
    assert!(stderr(&out).contains("metric names point past the report's string table"));
}

#[test]
fn a_cut_report_shows_the_findings_of_what_it_read_and_fails() {
    // The lab report cut in its second half: the kernels before the cut
    // are linted, their findings shown, and the run exits 2.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut xz2::read::XzDecoder::new(
            std::fs::File::open(fixture("lab/lab_full.ncu-rep.xz")).unwrap(),
        ),
        &mut bytes,
    )
    .unwrap();
    let dir = temp_dir("hostile_cut");
    let cut = dir.join("lab_cut.ncu-rep");
    std::fs::write(&cut, &bytes[..bytes.len() * 3 / 4]).unwrap();
    let out = ncu_lint(&["check", "--no-config", &cut.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2));
    let text = common::stdout(&out);
    assert!(text.contains("smem_stride<float, 32>"), "{text}");
    let err = stderr(&out);
    assert!(err.contains("lab_cut.ncu-rep is damaged at byte "), "{err}");
    let read: usize = err
        .split(" kernel result(s) were read before it")
        .next()
        .and_then(|s| s.rsplit("; ").next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!((10..26).contains(&read), "{read}");
}
