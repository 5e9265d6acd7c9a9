//! Diagnostic codes: one per problem, never shared, so that a code in a CI
//! log names exactly one thing to look up.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::{ncu_lint, stderr, temp_dir};
use ncu_lint::rules::error::{ProblemFile, ProblemKind};
use regex::Regex;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn sources() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// Every code written in the source (`code(ncu_lint::...)`), where it is.
fn static_codes() -> Vec<(String, String)> {
    let code = Regex::new(r#"code\((ncu_lint::[a-z_:]+)\)|code = "(ncu_lint::[a-z_:]+)""#).unwrap();
    let mut out = Vec::new();
    for (path, text) in sources() {
        for (i, line) in text.lines().enumerate() {
            for c in code.captures_iter(line) {
                let name = c.get(1).or(c.get(2)).unwrap().as_str().to_owned();
                out.push((name, format!("{}:{}", path.display(), i + 1)));
            }
        }
    }
    out
}

#[test]
fn every_code_names_one_problem() {
    let mut seen: HashMap<String, String> = HashMap::new();
    let statics = static_codes();
    assert!(statics.len() >= 20, "the scan finds the codes: {statics:?}");
    for (code, at) in statics {
        if let Some(first) = seen.insert(code.clone(), at.clone()) {
            panic!("{code} is used at {first} and at {at}");
        }
    }
    for file in [ProblemFile::Pack, ProblemFile::Config] {
        for kind in ProblemKind::ALL {
            let code = format!("ncu_lint::{}::{}", file.name(), kind.name());
            assert!(
                seen.insert(code.clone(), "ProblemKind".into()).is_none(),
                "{code} is both a problem kind and a written code"
            );
        }
    }
}

#[test]
fn every_diagnostic_has_a_code() {
    for (path, text) in sources() {
        let lines: Vec<&str> = text.lines().collect();
        let mut in_diagnostic = false;
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("#[derive(") {
                in_diagnostic = line.contains("Diagnostic");
            }
            if !in_diagnostic || !line.contains("#[error(") || line.contains("transparent") {
                continue;
            }
            let near = lines[i.saturating_sub(3)..(i + 8).min(lines.len())].join("\n");
            assert!(
                near.contains("code("),
                "{}:{}: a diagnostic without a code",
                path.display(),
                i + 1
            );
        }
    }
}

#[test]
fn a_config_problem_has_a_config_code() {
    let dir = temp_dir("codes_config");
    let config = dir.join("ncu-lint.toml");
    std::fs::write(&config, "[severity]\nno-such-rule = \"error\"\n").unwrap();
    let out = ncu_lint(&[
        "check",
        "--config",
        &config.to_string_lossy(),
        &common::fixture("lab/raw.csv.xz"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(text.contains("ncu_lint::config::unknown_name"), "{text}");
    assert!(!text.contains("ncu_lint::pack::"), "{text}");
}
