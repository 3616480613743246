//! The gallery of every GPU is generated when the book is built, from the files it is given: a
//! page per file (its findings, advice and the table `perftest render --format markdown`
//! writes), a page per family, an index linking every page, and summary lines listing them all.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::path::{Path, PathBuf};

use perftest_cli::gallery::{pages, summary_lines, table, Sources, FOLDER};

/// The crate's folder: the fixtures are under `tests/fixtures/`.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A report and the original's README tables.
fn sources() -> Sources {
    Sources {
        reports: vec![PathBuf::from("tests/fixtures/reports/nvidia-h200.json")],
        folders: vec![PathBuf::from("tests/fixtures/sebbbi")],
        answers: Vec::new(),
    }
}

#[test]
fn every_file_gets_a_page_that_the_index_and_the_summary_list() {
    let root = root();
    let tables = std::fs::read_dir(root.join("tests/fixtures/sebbbi"))
        .unwrap()
        .filter(|e| {
            let path = e.as_ref().unwrap().path();
            path.extension().is_some_and(|x| x == "txt" || x == "csv")
        })
        .count();
    let pages = pages(&root, &sources()).unwrap();
    assert_eq!(pages[0].path, format!("{FOLDER}/index.md"));
    let gpus = pages
        .iter()
        .filter(|p| !p.path.contains("/family-"))
        .count()
        - 1;
    assert_eq!(gpus, 1 + tables, "a page per file");
    let families = pages.len() - 1 - gpus;
    assert!(families >= 6, "{families} family pages");
    let summary = summary_lines(&pages);
    let mut seen = std::collections::HashSet::new();
    for page in &pages {
        assert!(seen.insert(&page.path), "two pages at {}", page.path);
        assert!(summary.contains(&format!("]({})", page.path)), "{summary}");
        let name = Path::new(&page.path).file_name().unwrap().to_str().unwrap();
        if page.path != pages[0].path {
            assert!(pages[0].text.contains(&format!("]({name})")), "{name}");
        }
    }
}

#[test]
fn a_report_page_holds_its_rendered_table() {
    let root = root();
    let file = root.join("tests/fixtures/reports/nvidia-h200.json");
    let pages = pages(&root, &sources()).unwrap();
    let page = pages
        .iter()
        .find(|p| p.path == format!("{FOLDER}/nvidia-h200.md"))
        .expect("the report's page");
    assert!(
        page.text.starts_with("# NVIDIA H200 (Vulkan"),
        "{}",
        page.text
    );
    let rendered = table(&file).unwrap();
    assert!(rendered.len() > 1000);
    assert!(page.text.ends_with(&rendered));
}

#[test]
fn a_missing_folder_is_named() {
    let mut sources = sources();
    sources
        .folders
        .push(PathBuf::from("tests/fixtures/no-such-folder"));
    let error = pages(&root(), &sources).unwrap_err();
    assert!(error.contains("no-such-folder"), "{error}");
}

/// An answers run gets its own page, listed by the index, and no column across GPUs: its GPU
/// has a page already, and a GPU counts once in the comparison.
#[test]
fn an_answers_run_gets_a_page_and_no_column() {
    let root = root();
    let mut with = sources();
    with.answers.push(PathBuf::from(
        "tests/fixtures/reports/nvidia-h200-memory.json",
    ));
    let before = pages(&root, &sources()).unwrap();
    let after = pages(&root, &with).unwrap();
    assert_eq!(after.len(), before.len() + 1);
    let page = after
        .iter()
        .find(|p| p.path == format!("{FOLDER}/nvidia-h200-memory.md"))
        .expect("the answers run's page");
    assert!(page.title.ends_with(", every answer)"), "{}", page.title);
    assert!(
        page.text.contains("**Vendor guidance"),
        "the page shows the verdicts"
    );
    assert!(after[0].text.contains("](nvidia-h200-memory.md)"));
    // The family pages (the matrix across GPUs) are the same with or without it.
    let families = |p: &[perftest_cli::gallery::Page]| -> Vec<String> {
        p.iter()
            .filter(|p| p.path.contains("/family-"))
            .map(|p| p.text.clone())
            .collect()
    };
    assert_eq!(families(&before), families(&after));
}
