//! The HTML report in a real browser: headless Chromium loads the file,
//! runs its script, and the rendered DOM is read back. The table must hold
//! the JSON document's groups, in rank order; the chart one bar per place
//! it shows; each place with a CUDA line its line; and the browser's console
//! must stay silent. A screenshot of each page is kept in
//! `target/ci-artifacts/`.
//!
//! Chromium is found as `$CHROMIUM`, else `chromium`, `chromium-browser` or
//! `google-chrome` on `PATH`. Without one the tests say so and pass, unless
//! `NCU_LINT_REQUIRE_BROWSER` is set (CI sets it, and installs Chromium).

use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;
use serde_json::Value;

mod common;
use common::{fixture, ncu_lint, spilling_copy, stdout, temp_dir};

const MAX_BARS: usize = 20;

fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ci-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| {
            ["chromium", "chromium-browser", "google-chrome"].map(|name| dir.join(name))
        })
        .find(|candidate| candidate.is_file())
}

/// The browser, or `None` (and a note) where there is none and none is required.
fn browser() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("NCU_LINT_REQUIRE_BROWSER").is_none(),
            "NCU_LINT_REQUIRE_BROWSER is set but no Chromium was found"
        );
        eprintln!("no Chromium found: the HTML report is not checked in a browser");
    }
    found
}

/// `ncu-lint check` of `args` in `format`: its stdout.
fn check(format: &str, args: &[String]) -> String {
    let mut argv = vec![
        "check",
        "--no-config",
        "--fail-on",
        "never",
        "--format",
        format,
    ];
    argv.extend(args.iter().map(String::as_str));
    let output = ncu_lint(&argv);
    assert!(output.status.success(), "{}", common::stderr(&output));
    stdout(&output)
}

/// What Chromium rendered of `page` (after its script ran), and what its
/// console said. `fragment` is appended to the page's address.
fn render(browser: &Path, page: &Path, fragment: &str) -> (String, Vec<String>) {
    let profile = format!("dom-{}", page.file_stem().unwrap().to_string_lossy());
    let output = headless(browser, &profile)
        .args(["--enable-logging=stderr", "--v=0", "--dump-dom"])
        .arg(format!("file://{}{fragment}", page.display()))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let console = String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|line| line.contains(":CONSOLE"))
        .map(str::to_owned)
        .collect();
    (String::from_utf8(output.stdout).unwrap(), console)
}

fn screenshot(browser: &Path, page: &Path, name: &str) {
    let shot = artifacts().join(name);
    let _ = std::fs::remove_file(&shot);
    let status = headless(browser, &format!("shot-{name}"))
        .args(["--hide-scrollbars", "--window-size=1280,2400"])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap()
        .status;
    assert!(status.success());
    let size = std::fs::metadata(&shot).map_or(0, |m| m.len());
    assert!(size > 10_000, "screenshot {name}: {size} bytes");
}

/// Headless Chromium with a fresh profile of its own (tests run at once).
fn headless(browser: &Path, profile: &str) -> Command {
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", temp_dir(profile).display()));
    command
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The rendered table's rows: (hidden, data-kernel, data-rules).
fn table_rows(dom: &str) -> Vec<(bool, String, String)> {
    let body = &dom[dom.find("<tbody>").unwrap()..dom.find("</tbody>").unwrap()];
    let row = Regex::new(r"<tr ([^>]*)>").unwrap();
    row.captures_iter(body)
        .map(|c| {
            let attributes = &c[1];
            let get = |name: &str| {
                Regex::new(&format!(r#"data-{name}="([^"]*)""#))
                    .unwrap()
                    .captures(attributes)
                    .map(|m| unescape(&m[1]))
                    .unwrap_or_default()
            };
            (attributes.contains("hidden"), get("kernel"), get("rules"))
        })
        .collect()
}

/// Bars of the chart `id` (its `<figure>`), and how many are hidden.
fn bars(dom: &str, id: &str) -> (usize, usize) {
    let Some(start) = dom.find(&format!("id=\"{id}\"")) else {
        return (0, 0);
    };
    let figure = &dom[start..start + dom[start..].find("</figure>").unwrap()];
    let bar = Regex::new(r#"<g class="bar"[^>]*>"#).unwrap();
    let all: Vec<&str> = bar.find_iter(figure).map(|m| m.as_str()).collect();
    (
        all.len(),
        all.iter().filter(|b| b.contains("hidden")).count(),
    )
}

/// Checks the page of `args` against their JSON document; the screenshot
/// is `name`.png.
fn rendered_page_matches_json(args: &[String], name: &str) {
    let Some(browser) = browser() else { return };
    let json: Value = serde_json::from_str(&check("json", args)).unwrap();
    let groups = json["groups"].as_array().unwrap();
    let page = temp_dir(name).join(format!("{name}.html"));
    std::fs::write(&page, check("html", args)).unwrap();

    let (dom, console) = render(&browser, &page, "");
    assert!(console.is_empty(), "console: {console:#?}");
    assert!(
        dom.contains("data-ready=\"true\""),
        "the page's script did not finish"
    );
    let rows = table_rows(&dom);
    assert_eq!(rows.len(), groups.len());
    for (row, group) in rows.iter().zip(groups) {
        assert!(!row.0);
        assert_eq!(row.1, group["name"].as_str().unwrap());
        let rules: Vec<&str> = group["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert_eq!(row.2, rules.join(" "));
    }
    let charted = groups
        .iter()
        .filter(|g| g["severity"] != "note" && g["saved_ns"].as_f64().is_some_and(|ns| ns > 0.0))
        .count()
        .min(MAX_BARS);
    assert_eq!(bars(&dom, "chart-places"), (charted, 0));
    let with_line = groups.iter().filter(|g| !g["location"].is_null()).count();
    assert_eq!(dom.matches("class=\"cuda-line hot\"").count(), with_line);
    let total = groups.len();
    assert!(dom.contains(&format!(">{total} of {total} places<")));

    // A rule chosen in the address hides every place without it.
    let rule = rows[0].2.split(' ').next().unwrap().to_owned();
    let (filtered, console) = render(&browser, &page, &format!("#rule={rule}"));
    assert!(console.is_empty(), "console: {console:#?}");
    let shown: Vec<_> = table_rows(&filtered).into_iter().filter(|r| !r.0).collect();
    assert!(!shown.is_empty());
    assert!(shown.iter().all(|r| r.2.split(' ').any(|r| r == rule)));
    let expected = groups
        .iter()
        .filter(|g| {
            g["rules"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r == rule.as_str())
        })
        .count();
    assert_eq!(shown.len(), expected);
    assert!(filtered.contains(&format!(">{expected} of {total} places<")));

    screenshot(&browser, &page, &format!("{name}.png"));
}

#[test]
fn the_lab_report_renders_its_groups_bars_and_lines() {
    rendered_page_matches_json(
        &[
            fixture("lab/raw.csv.xz"),
            fixture("lab/source_cuda_sass.csv.xz"),
        ],
        "html-lab",
    );
}

#[test]
fn a_large_run_shows_every_group_and_charts_the_top_ones() {
    // Four real reports at once: the lab, eight kernels profiled later, a
    // training step and a published report; 40 places, more than the chart
    // draws.
    let args: Vec<String> = [
        "lab/raw.csv.xz",
        "unseen/raw.csv.xz",
        "step/raw.csv.xz",
        "reports/16_aplainjane-shared_report.raw.csv.xz",
    ]
    .iter()
    .map(|f| fixture(f))
    .chain(["--each".to_owned()])
    .collect();
    rendered_page_matches_json(&args, "html-large");
}

#[test]
fn the_page_fetches_nothing() {
    // No browser needed: a CI artifact opened offline must render whole.
    let page = check(
        "html",
        &[
            fixture("lab/raw.csv.xz"),
            fixture("lab/source_cuda_sass.csv.xz"),
        ],
    );
    let fetch = Regex::new(
        r#"(?i)(src|href)\s*=\s*["'](https?:|//)|@import|url\(|<link\b|fetch\(|XMLHttpRequest"#,
    )
    .unwrap();
    assert_eq!(fetch.find(&page).map(|m| m.as_str()), None);
    assert!(page.contains("<style>") && page.contains("<script>") && page.contains("<svg"));
    // Every link stays in the page.
    let links = Regex::new(r#"href="([^"]*)""#).unwrap();
    for link in links.captures_iter(&page) {
        let target = link[1].strip_prefix('#').expect("an in-page link");
        assert!(page.contains(&format!("id=\"{target}\"")), "#{target}");
    }
}

#[test]
fn a_diff_page_shows_what_got_worse_and_what_was_fixed() {
    let dir = temp_dir("html_diff");
    let raw = fixture("lab/raw.csv.xz");
    let spilling = spilling_copy(&dir);
    let diff = |base: &str, head: &str| {
        ncu_lint(&[
            "diff",
            "--no-config",
            "--format",
            "html",
            base,
            "--against",
            head,
        ])
    };
    let worse = diff(&raw, &spilling);
    assert_eq!(worse.status.code(), Some(1));
    let page = stdout(&worse);
    assert!(
        page.contains(
            "<h2 class=\"kernel\">register_nospill(const float *, float *, int) (launch 1"
        )
    );
    assert!(page.contains("new warning</span> <span class=\"rule\">register-spill</span>"));
    assert!(page.contains("register-spill</span> spills: 0 → 1,048,576"));
    let fixed = diff(&spilling, &raw);
    assert_eq!(
        fixed.status.code(),
        Some(0),
        "the reverse is an improvement"
    );
    assert!(stdout(&fixed).contains("fixed</span> <span class=\"rule\">register-spill</span>"));
    assert!(stdout(&diff(&raw, &raw)).contains("id=\"no-change\""));

    let Some(browser) = browser() else { return };
    let path = dir.join("html-diff.html");
    std::fs::write(&path, &page).unwrap();
    let (dom, console) = render(&browser, &path, "");
    assert!(console.is_empty(), "console: {console:#?}");
    let count = |id: &str| {
        Regex::new(&format!(r#"id="{id}">(\d+)<"#))
            .unwrap()
            .captures(&dom)
            .map(|c| c[1].parse::<usize>().unwrap())
    };
    assert_eq!(
        count("new-count"),
        Some(dom.matches("<li class=\"new\">").count())
    );
    assert!(count("new-count").is_some_and(|n| n >= 1));
    assert!(count("worse-count").is_some_and(|n| n >= 1));
    screenshot(&browser, &path, "html-diff.png");
}

#[test]
fn the_per_rule_chart_adds_up_to_the_places() {
    // load efficiency and wasted sectors at one line are one cause: the
    // per-rule bars must not count it twice.
    for files in [
        vec![
            fixture("lab/raw.csv.xz"),
            fixture("lab/source_cuda_sass.csv.xz"),
        ],
        vec![fixture("triton/compiled.ncu-rep.xz")],
        vec![
            fixture("twins/twins.raw.csv.xz"),
            fixture("twins/twins.source.csv.xz"),
        ],
    ] {
        let page = check("html", &files);
        let chart = page
            .split("id=\"chart-rules\"")
            .nth(1)
            .map_or("", |rest| rest.split("</figure>").next().unwrap_or(""));
        let charted: f64 = chart
            .split("data-ns=\"")
            .skip(1)
            .map(|s| s.split('"').next().unwrap().parse::<f64>().unwrap())
            .sum();
        let json = check("json", &files);
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        let places: f64 = doc["groups"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["severity"] != "note")
            .filter_map(|g| g["saved_ns"].as_f64())
            .sum();
        let bars = chart.matches("data-ns=").count();
        assert!(
            (charted - places).abs() <= 1.0 * bars as f64 + 1e-6 * places,
            "{files:?}: per rule {charted} ns, places {places} ns"
        );
    }
}

#[test]
fn the_charts_say_when_notes_with_an_estimate_are_left_out() {
    // The torch.compile'd step: cuDNN kernels' findings are notes with an
    // estimate, listed in rank in the table but not charted.
    let page = check("html", &[fixture("triton/compiled.ncu-rep.xz")]);
    let json = check("json", &[fixture("triton/compiled.ncu-rep.xz")]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let notes = doc["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["severity"] == "note" && g["saved_ns"].as_f64().is_some_and(|ns| ns > 0.0))
        .count();
    assert!(notes > 0);
    assert!(
        page.contains(&format!(
            "top places that can fail the gate, over all launches; {notes} note"
        )),
        "{notes} notes"
    );
    assert!(page.contains("Estimated time saved per rule (places that can fail the gate)"));
    // Where no note has an estimate (the held-out twins), the captions say
    // nothing of notes.
    let twins = check("html", &[fixture("twins/heldout.raw.csv.xz")]);
    assert!(
        twins
            .contains("<figcaption>Estimated time saved per place (top places, over all launches)")
    );
}

/// The page's layout at a window `width`: the document's width beyond the
/// window (horizontal overflow), the median height of the table's rows,
/// and their number; measured by a script added to a copy of the page.
fn layout(browser: &Path, page: &Path, width: u32) -> (f64, f64, usize) {
    let html = std::fs::read_to_string(page).unwrap();
    let measure = "<script>addEventListener('load', () => {\
        const rows = [...document.querySelectorAll('#groups tbody tr')].filter(r => !r.hidden)\
          .map(r => r.getBoundingClientRect().height).sort((a, b) => a - b);\
        const over = document.documentElement.scrollWidth - document.documentElement.clientWidth;\
        document.body.setAttribute('data-layout', [over, rows.length ? rows[rows.length >> 1] : 0, rows.length].join(' '));\
      });</script>";
    let copy = page.with_file_name(format!(
        "{}-measured-{width}.html",
        page.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::write(&copy, html.replace("</body>", &format!("{measure}</body>"))).unwrap();
    let output = headless(browser, &format!("layout-{width}"))
        .args([
            "--hide-scrollbars",
            &format!("--window-size={width},900"),
            "--dump-dom",
        ])
        .arg(format!("file://{}", copy.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8(output.stdout).unwrap();
    let measured = dom
        .split("data-layout=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no layout measured at {width} px"));
    let numbers: Vec<f64> = measured.split(' ').map(|n| n.parse().unwrap()).collect();
    (numbers[0], numbers[1], numbers[2] as usize)
}

#[test]
fn the_page_fits_the_window_with_rows_as_tall_as_their_content() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = temp_dir("html_layout");
    let pages = [
        (
            "lab",
            vec![
                fixture("lab/raw.csv.xz"),
                fixture("lab/source_cuda_sass.csv.xz"),
            ],
        ),
        // A real torch.compile step: long Inductor, cuDNN and ATen names.
        (
            "compiled",
            vec![fixture("triton/compiled.ncu-rep.xz"), "--all".to_owned()],
        ),
    ];
    for (name, args) in pages {
        let page = dir.join(format!("{name}.html"));
        std::fs::write(&page, check("html", &args)).unwrap();
        for width in [900, 1280, 1920] {
            let (overflow, median_row, rows) = layout(&browser, &page, width);
            assert!(rows > 0, "{name} at {width} px: no rows");
            assert!(
                overflow <= 0.0,
                "{name} at {width} px: {overflow} px too wide"
            );
            assert!(
                median_row < 120.0,
                "{name} at {width} px: rows {median_row} px high (median)"
            );
        }
        screenshot(&browser, &page, &format!("html-{name}-layout.png"));
    }
}
