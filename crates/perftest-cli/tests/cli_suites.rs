//! End-to-end tests of the `perftest` binary, each checked for its one-line `perftest: `
//! message, its documented exit code and the absence of a panic (see `common`).
//!
//! Suites: the original is the default, each suite lists its own cases, filters work
//! within them, reports record them; the memory sweep runs on lavapipe within a small working
//! set.

// They send Unix signals and make FIFOs and device nodes: Unix only. The Windows build is run
// the same way under Wine by `cargo xtask windows`.
#![cfg(unix)]
// clippy.toml's test exemptions cover `#[test]` functions only, not the helpers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

#[test]
fn suite_original_is_the_default() {
    let default = perftest(&["--list-cases"]);
    default.expect_code(SUCCESS);
    let explicit = perftest(&["--list-cases", "--suite", "original"]);
    explicit.expect_code(SUCCESS);
    assert_eq!(default.stdout, explicit.stdout);
    assert_eq!(default.stdout.lines().count(), ALL_CASES);
}

#[test]
fn suite_all_lists_each_case_with_its_suite() {
    for args in [
        &["--list-cases", "--suite", "all"][..],
        &[
            "--list-cases",
            "--suite",
            "original,modern",
            "--suite",
            "memory",
        ][..],
    ] {
        let run = perftest(args);
        run.expect_code(SUCCESS);
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert!(lines.len() >= ALL_CASES, "{args:?}:\n{run}");
        let suites: Vec<&str> = lines
            .iter()
            .map(|l| l.split_whitespace().next().unwrap_or(""))
            .collect();
        assert!(
            suites.iter().all(|s| [
                "original", "modern", "texture", "memory", "graphics", "transfer"
            ]
            .contains(s)),
            "{args:?}:\n{run}"
        );
        assert_eq!(
            suites.iter().filter(|s| **s == "original").count(),
            ALL_CASES
        );
        assert!(lines[0].contains("typed.r8.uniform"), "{run}");
    }
}

#[test]
fn filter_works_within_the_suites() {
    let run = perftest(&["--list-cases", "--suite", "original", "--filter", "cbuffer"]);
    run.expect_code(SUCCESS);
    assert_eq!(run.stdout.lines().count(), 3, "{run}");
    perftest(&[
        "--list-cases",
        "--suite",
        "all",
        "--filter",
        "nothing-matches-this",
    ])
    .expect_one_line_error(USAGE, &["nothing-matches-this"]);
}

#[test]
fn unknown_suite_is_a_usage_error_listing_the_names() {
    for args in [
        &["--suite", "orignal"][..],
        &["--suite", "original,bogus", "--list-cases"][..],
        &["--suite", ""][..],
    ] {
        perftest(args).expect_usage_error(&[
            "'--suite <SUITE>'",
            "original, modern, texture, memory, graphics, transfer, answers, all",
        ]);
    }
}

/// `--suite answers` lists, from every suite, the cases the findings and the guidance read
/// (each line with its suite), fewer than all; with a suite named beside it, that suite whole.
#[test]
fn answers_lists_what_the_answers_read_from_every_suite() {
    let ids_by_suite = |args: &[&str]| -> Vec<(String, String)> {
        let run = perftest(args);
        run.expect_code(SUCCESS);
        run.stdout
            .lines()
            .map(|l| {
                let mut words = l.split_whitespace();
                let suite = words.next().unwrap_or("").to_string();
                (suite, words.next().unwrap_or("").to_string())
            })
            .collect()
    };
    let answers = ids_by_suite(&["--list-cases", "--suite", "answers"]);
    let all = ids_by_suite(&["--list-cases", "--suite", "all"]);
    assert!(
        answers.len() < all.len() / 2,
        "{} of {}",
        answers.len(),
        all.len()
    );
    let suites: std::collections::BTreeSet<&str> =
        answers.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(suites.len(), 6, "{suites:?}");
    for id in [
        "typed.rgba8.random",
        "mem.const.push",
        "xfer.launch.submit_wait",
    ] {
        assert!(answers.iter().any(|(_, i)| i == id), "{id}");
    }
    assert!(answers.iter().all(|a| all.contains(a)));
    let with_memory = ids_by_suite(&["--list-cases", "--suite", "answers,memory"]);
    let memory = all.iter().filter(|(s, _)| s == "memory");
    assert!(memory.clone().all(|m| with_memory.contains(m)));
    assert_eq!(
        with_memory.len(),
        answers.iter().filter(|(s, _)| s != "memory").count() + memory.count()
    );
}

/// Every suite holds cases now: listing one alone succeeds and lists only its own cases.
#[test]
fn every_suite_lists_its_own_cases() {
    for (suite, prefix) in [
        ("original", ""),
        ("modern", "modern."),
        ("Texture", "tex."),
        ("memory", "mem."),
        ("transfer", "xfer."),
    ] {
        let run = perftest(&["--list-cases", "--suite", suite]);
        run.expect_code(SUCCESS);
        let ids: Vec<&str> = run
            .stdout
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert!(!ids.is_empty(), "{suite}:\n{run}");
        assert!(
            ids.iter().all(|id| id.starts_with(prefix)),
            "{suite}:\n{run}"
        );
    }
}

#[test]
fn reports_record_the_suites_and_each_case_suite() {
    // The original's three cbuffer cases (the memory suite's cbuffer cases have other ids).
    let run = perftest_small(&[
        "--filter",
        "cbuffer.float4",
        "--format",
        "json",
        "--suite",
        "all",
    ]);
    run.expect_code(SUCCESS);
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{run}"));
    assert_eq!(report["schema"], "perftest-report/1");
    assert_eq!(
        report["settings"]["suites"],
        serde_json::json!(["original", "modern", "texture", "memory", "graphics", "transfer"])
    );
    // The three original cases, then their fragment-shader twins in the graphics suite (the
    // memory suite's robust and concurrent twins of the linear and random ones left aside).
    let all = report["cases"].as_array().unwrap();
    let twins = all.iter().filter(|c| c["suite"] == "memory").count();
    assert_eq!(twins, 4, "{run}");
    let cases: Vec<&Value> = all.iter().filter(|c| c["suite"] != "memory").collect();
    assert_eq!(cases.len(), 6, "{run}");
    assert!(cases[..3].iter().all(|c| c["suite"] == "original"), "{run}");
    assert!(cases[3..].iter().all(|c| c["suite"] == "graphics"), "{run}");
    for (original, fragment) in cases[..3].iter().zip(&cases[3..]) {
        assert_eq!(fragment["twin"], original["id"], "{run}");
    }
}

#[test]
fn the_sweep_runs_on_lavapipe_within_a_small_working_set() {
    // The memory suite's sweep up to 256 KB: latency and bandwidth rows, the cache-hierarchy
    // section with cycles at the given clock, and nothing above the limit.
    let run = perftest_small(&[
        "--suite",
        "memory",
        "--filter",
        "mem.sweep",
        "--max-working-set",
        "256KB",
        "--clock-mhz",
        "1000",
    ]);
    run.expect_code(SUCCESS);
    let out = &run.stdout;
    assert!(out.contains("Latency 4KB (pointer chase)"), "{run}");
    assert!(out.contains("Latency 256KB (pointer chase)"), "{run}");
    assert!(
        out.contains("Bandwidth 8KB (StructuredBuffer<uint4>.Load linear)"),
        "{run}"
    );
    assert!(!out.contains("512KB"), "{run}");
    assert!(!out.contains("failed"), "{run}");
    let section = out
        .split("Cache hierarchy")
        .nth(1)
        .unwrap_or_else(|| panic!("no cache-hierarchy section:\n{run}"));
    assert!(section.contains("cycles@1000MHz"), "{run}");
    // One row per working set, 4 KB to 256 KB, each with a latency in ns; the refined sweep
    // may add sizes between levels (on lavapipe, whatever the CPU's caches show), never
    // beyond --max-working-set.
    let rows: Vec<&str> = section
        .lines()
        .filter(|l| l.trim_start().starts_with(char::is_numeric))
        .collect();
    for size in [
        "4 KB", "8 KB", "16 KB", "32 KB", "64 KB", "128 KB", "256 KB",
    ] {
        assert!(
            rows.iter().any(|r| r.trim_start().starts_with(size)),
            "{size}:\n{run}"
        );
    }
    assert!(rows.len() >= 7, "{run}");
    let sizes: Vec<f64> = rows
        .iter()
        .map(|r| {
            let words: Vec<&str> = r.split_whitespace().collect();
            let scale = if words[1] == "MB" { 1024.0 } else { 1.0 };
            words[0].parse::<f64>().unwrap() * scale
        })
        .collect();
    assert!(
        sizes.windows(2).all(|w| w[0] < w[1]),
        "rows in order of size:\n{run}"
    );
    assert!(sizes.iter().all(|&kb| kb <= 256.0), "{run}");
    for row in &rows {
        let latency: f64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!(latency > 0.0, "{row}");
    }
    assert!(section.contains("Latency levels:"), "{run}");
    // --no-refine keeps the doubling grid.
    let plain = perftest_small(&[
        "--suite",
        "memory",
        "--filter",
        "mem.sweep.latency",
        "--max-working-set",
        "256KB",
        "--no-refine",
    ]);
    plain.expect_code(SUCCESS);
    let cases = plain
        .stdout
        .lines()
        .filter(|l| {
            l.strip_prefix("Latency ")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count();
    assert_eq!(cases, 7, "{plain}");
    assert!(section.contains("Bandwidth levels:"), "{run}");
    // The latency rows show ns in the table, not loads per second.
    let table_row = out.lines().find(|l| l.starts_with("Latency 4KB")).unwrap();
    assert!(table_row.contains(" ns "), "{table_row}");
}
