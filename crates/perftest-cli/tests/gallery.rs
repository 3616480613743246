//! The results gallery is generated: each committed report's Markdown (`results/*.md`, which
//! the book's device chapters include) is what `perftest render --format markdown` makes of its
//! JSON today, each H100-vs-H200 comparison (`results/h100-vs-h200/*.txt`) is what `perftest
//! compare` prints for the two committed reports, and every change the H100-vs-H200 chapter
//! quotes is in one of those comparisons.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::path::{Path, PathBuf};

use perftest_cli::compare::{compare, render};
use perftest_cli::export::{exporter, ExportFormat};
use perftest_cli::report_file::load_report;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn every_committed_report_renders_to_its_committed_markdown() {
    let results = root().join("results");
    let mut checked = 0;
    for entry in std::fs::read_dir(&results).unwrap() {
        let json = entry.unwrap().path();
        let md = json.with_extension("md");
        if json.extension().is_none_or(|e| e != "json") || !md.is_file() {
            continue;
        }
        let report = load_report(&json).unwrap();
        let made = exporter(ExportFormat::Markdown).serialize(&report).unwrap();
        let committed = std::fs::read(&md).unwrap();
        assert!(
            made == committed,
            "{} is not what `perftest render {} --format markdown` writes today; render it again",
            md.display(),
            json.display()
        );
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} reports with Markdown");
}

/// The suites' file suffixes and the comparison files' names.
const SUITES: [(&str, &str); 4] = [
    ("", "original"),
    ("-modern", "modern"),
    ("-texture", "texture"),
    ("-memory", "memory"),
];

#[test]
fn the_h100_vs_h200_comparisons_are_what_compare_prints() {
    for (suffix, name) in SUITES {
        let a_label = format!("results/nvidia-h200{suffix}.json");
        let b_label = format!("results/nvidia-h100{suffix}.json");
        let a = load_report(&root().join(&a_label)).unwrap();
        let b = load_report(&root().join(&b_label)).unwrap();
        let made = render(&compare(&a, &b), &a_label, &b_label);
        let file = root().join(format!("results/h100-vs-h200/{name}.txt"));
        let committed = std::fs::read_to_string(&file).unwrap();
        assert!(
            made == committed,
            "{} is not what `perftest compare {a_label} {b_label}` prints today",
            file.display()
        );
    }
}

#[test]
fn the_h100_vs_h200_chapter_quotes_the_comparisons() {
    let chapter = std::fs::read_to_string(root().join("docs/src/gallery/h100-vs-h200.md")).unwrap();
    let comparisons: String = SUITES
        .iter()
        .map(|(_, name)| {
            std::fs::read_to_string(root().join(format!("results/h100-vs-h200/{name}.txt")))
                .unwrap()
        })
        .collect();
    // Every signed change (`-11.87%`) and every median (`0.36%`) the chapter quotes.
    let mut quoted = 0;
    for word in chapter.split(|c: char| c.is_whitespace() || "(),`".contains(c)) {
        let number = word.trim_end_matches(['.', ';', ':']);
        let is_change = number.ends_with('%')
            && number.contains('.')
            && number[..number.len() - 1]
                .trim_start_matches(['+', '-'])
                .parse::<f64>()
                .is_ok();
        if is_change {
            assert!(
                comparisons.contains(number),
                "the chapter quotes {number}, which no comparison prints"
            );
            quoted += 1;
        }
    }
    assert!(quoted >= 15, "only {quoted} figures quoted");
}
