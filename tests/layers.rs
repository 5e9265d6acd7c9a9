//! The modules' layering, read from the source: configuration and rules
//! share `vocab` and import neither each other nor the linter above them;
//! values import nothing of the readers that use them.

use std::path::{Path, PathBuf};

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found
}

/// Places under `module` (a file or directory of `src/`) that name one of
/// `forbidden` (`crate::config`, ...), outside comments.
fn imports(module: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let path = root.join(module);
    let files = if path.is_dir() {
        sources(&path)
    } else {
        vec![path.with_extension("rs")]
    };
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for name in forbidden {
                if code.contains(name) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn config_and_rules_do_not_import_each_other() {
    let config = imports("config", &["crate::rules", "crate::lint"]);
    let rules = imports("rules", &["crate::config", "crate::lint"]);
    assert!(config.is_empty(), "{config:#?}");
    assert!(rules.is_empty(), "{rules:#?}");
}

#[test]
fn the_shared_vocabulary_imports_nothing_of_the_crate() {
    let vocab = imports("vocab", &["crate::"]);
    assert!(vocab.is_empty(), "{vocab:#?}");
}

#[test]
fn values_do_not_reach_into_the_readers() {
    let value = imports("value", &["crate::ingest"]);
    assert!(value.is_empty(), "{value:#?}");
}
