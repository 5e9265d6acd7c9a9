//! The README and the pages of `docs/`: every relative link resolves to a
//! file of the repository, and every `#anchor` to a heading of its page, as
//! GitHub renders them; the README stays a short page.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every Markdown page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The text outside fenced code blocks, where links are links.
fn prose(text: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The targets of `[text](target)` links.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("](") {
        rest = &rest[start + 2..];
        if let Some(end) = rest.find(')') {
            found.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    found
}

/// A heading's anchor as GitHub makes it: lower case, punctuation other
/// than `-` and `_` dropped, spaces made hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .lines()
        .filter_map(|line| line.strip_prefix('#'))
        .map(|line| slug(line.trim_start_matches('#')))
        .collect()
}

fn broken_links(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap();
    let mut broken = Vec::new();
    for target in links(&prose(&text)) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
        let linked = if file.is_empty() {
            page.to_owned()
        } else {
            page.parent().unwrap().join(file)
        };
        if !linked.exists() {
            broken.push(format!("{}: no file {target}", page.display()));
            continue;
        }
        if !anchor.is_empty() {
            let linked_text = std::fs::read_to_string(&linked).unwrap();
            if !anchors(&linked_text).contains(anchor) {
                broken.push(format!("{}: no heading for {target}", page.display()));
            }
        }
    }
    broken
}

#[test]
fn every_link_of_the_readme_and_the_docs_resolves() {
    let broken: Vec<String> = pages().iter().flat_map(|p| broken_links(p)).collect();
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn the_readme_links_to_each_page_of_the_docs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let linked: BTreeSet<String> = links(&prose(&readme)).into_iter().collect();
    let pages = pages();
    assert!(pages.len() >= 5, "{pages:?}");
    for page in &pages[1..] {
        let name = format!("docs/{}", page.file_name().unwrap().to_string_lossy());
        assert!(linked.contains(&name), "the README does not link {name}");
    }
}

#[test]
fn the_readme_is_short_and_its_quick_start_is_two_commands() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.lines().count() <= 300,
        "{} lines",
        readme.lines().count()
    );
    let quick = readme.split("## Quick start").nth(1).unwrap();
    let block = quick.split("```").nth(1).unwrap();
    let commands: Vec<&str> = block.lines().skip(1).filter(|l| !l.is_empty()).collect();
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert!(commands[0].contains("fixtures/"), "{}", commands[0]);
}

#[test]
fn a_broken_link_is_found() {
    let dir = std::env::temp_dir().join(format!("ncu-lint-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.md");
    std::fs::write(
        &page,
        "# A page\n\n## Its part\n\n[ok](#its-part) [gone](missing.md) [bad](#nowhere)\n\n```\n[code](not-a-link.md)\n```\n",
    )
    .unwrap();
    let broken = broken_links(&page);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(broken[0].contains("missing.md") && broken[1].contains("#nowhere"));
}
