//! The modern suite chapter's table mapping perftest-vk's 161 "bindless" cases to perftest ids matches what
//! `perftest --list-cases --suite modern` lists.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use std::collections::HashSet;

const BEGIN: &str = "<!-- perftest-vk mapping: begin -->";
const END: &str = "<!-- perftest-vk mapping: end -->";

/// The ids in the last column of the chapter's mapping table, in order.
fn table_ids() -> Vec<String> {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/src/suites/modern.md"
    ))
    .expect("docs/src/suites/modern.md");
    let start = readme.find(BEGIN).expect("mapping table start marker") + BEGIN.len();
    let end = readme[start..].find(END).expect("mapping table end marker") + start;
    readme[start..end]
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.contains("perftest id"))
        .map(|l| {
            let cells: Vec<&str> = l.trim().trim_matches('|').split('|').collect();
            let last = cells.last().expect("a cell").trim();
            assert!(
                last.starts_with('`') && last.ends_with('`') && last.len() > 2,
                "last cell must be one id in backticks: {l}"
            );
            last.trim_matches('`').to_string()
        })
        .collect()
}

#[test]
fn readme_maps_each_perftest_vk_case_to_a_listed_modern_case() {
    let ids = table_ids();
    assert_eq!(ids.len(), 161, "perftest-vk's bindless suite has 161 cases");
    let unique: HashSet<&str> = ids.iter().map(String::as_str).collect();
    assert_eq!(unique.len(), ids.len(), "an id appears twice in the table");

    let out = common::command(&[])
        .args(["--list-cases", "--suite", "modern"])
        .output()
        .expect("run perftest");
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let listed: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(listed.len() >= 161, "{} modern cases listed", listed.len());
    let listed_set: HashSet<&str> = listed.iter().copied().collect();
    assert_eq!(listed_set.len(), listed.len(), "duplicate ids listed");
    let missing: Vec<&str> = unique.difference(&listed_set).copied().collect();
    assert!(
        missing.is_empty(),
        "in the chapter, not listed: {missing:?}"
    );
    // Everything listed beyond the mapping is the suite's own addition: the 256 MB sets and
    // the update-after-bind twins.
    let extra: Vec<&str> = listed_set
        .difference(&unique)
        .copied()
        .filter(|id| !id.starts_with("modern.ws.256mb.") && !id.starts_with("modern.uab."))
        .collect();
    assert!(
        extra.is_empty(),
        "listed, not in the chapter's table: {extra:?}"
    );
}
