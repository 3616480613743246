//! The memory chapter's cache-hierarchy figures come from the committed H200 and H100 memory
//! runs: the levels the section finds in each report (latency, capacity with its resolution)
//! are the ones the chapter states, the H200's levels table and carve-out table are quoted
//! verbatim, and the same levels open the README and the getting-started chapter.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use perftest_cli::hierarchy::{hierarchy, hierarchy_text};
use perftest_cli::report_file::load_report;

/// The section of `report`'s hierarchy, with latencies in cycles only at a given clock.
fn section(report: &perftest_cli::report::Report) -> Option<String> {
    hierarchy(report).map(|h| hierarchy_text(&h, report.settings.clock_mhz))
}

/// The rows of the section's latency-levels table.
fn level_rows(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.contains("Latency levels:"))
        .skip(2)
        .take_while(|l| l.starts_with("    "))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_book_states_the_levels_of_the_committed_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("docs/src/suites/memory.md")).unwrap();
    let front = std::fs::read_to_string(root.join("README.md")).unwrap();
    let started = std::fs::read_to_string(root.join("docs/src/getting-started.md")).unwrap();
    for (file, quoted) in [
        ("nvidia-h200-memory.json", true),
        ("nvidia-h100-memory.json", false),
    ] {
        let report = load_report(&root.join("results").join(file)).unwrap();
        let text = section(&report).expect("a sweep section");
        let rows = level_rows(&text);
        let names: Vec<&str> = rows
            .iter()
            .map(|r| r.split("  ").find(|w| !w.trim().is_empty()).unwrap().trim())
            .collect();
        assert_eq!(
            names,
            ["L1", "L2 near", "L2 far", "memory"],
            "{file}:\n{text}"
        );
        for row in &rows {
            if quoted {
                assert!(
                    readme.contains(row.as_str()),
                    "{file}: the chapter lacks {row:?}"
                );
                assert!(front.contains(row.as_str()), "{file}: README lacks {row:?}");
                assert!(
                    started.contains(row.trim()),
                    "{file}: getting started lacks {row:?}"
                );
            }
            // The latency and, for caches, the capacity with its resolution.
            let words: Vec<&str> = row.split_whitespace().collect();
            let latency = words.iter().find(|w| w.contains('.')).unwrap();
            assert!(
                readme.contains(latency),
                "{file}: the chapter lacks latency {latency}"
            );
            if let Some(at) = words.iter().position(|w| w.starts_with('±')) {
                let capacity = format!("{} {} {}", words[at - 2], words[at - 1], words[at]);
                assert!(
                    readme.contains(&capacity),
                    "{file}: the chapter lacks {capacity}"
                );
            }
        }
    }
}

#[test]
fn the_book_quotes_the_carveout_table_of_the_h200_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let chapter = std::fs::read_to_string(root.join("docs/src/suites/memory.md")).unwrap();
    let report = load_report(&root.join("results/nvidia-h200-memory.json")).unwrap();
    let text = section(&report).expect("a sweep section");
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("L1 beside shared memory"))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .collect();
    assert!(rows.len() >= 6, "{text}");
    for row in rows {
        assert!(chapter.contains(row), "the chapter lacks {row:?}");
    }
}
