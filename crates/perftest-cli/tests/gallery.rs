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

/// The first launch on a fresh H100 and H200 (`results/nvidia-*-probe/first-launch.txt`): in
/// every run, each of the engine probe's six rankings holds the full run's two fastest
/// candidates (by `results/nvidia-*.json`) and names the full run's winner first.
#[test]
fn the_first_launches_rank_like_the_full_runs() {
    for gpu in ["h100", "h200"] {
        let full = load_report(&root().join(format!("results/nvidia-{gpu}.json"))).unwrap();
        let text = std::fs::read_to_string(
            root().join(format!("results/nvidia-{gpu}-probe/first-launch.txt")),
        )
        .unwrap();
        let launches = text.matches("=== launch").count();
        assert_eq!(launches, 3, "{gpu}: {launches} launches");
        let mut rankings = 0;
        for line in text.lines() {
            // ` 4-byte loads, linear : StructuredBuffer<float>.Load 2873 > ByteAddressBuffer.Load 2853 (Gload/s)`
            let Some((head, list)) = line.split_once(" : ").or_else(|| line.split_once(": "))
            else {
                continue;
            };
            let Some(pattern) = head
                .trim()
                .strip_suffix(" loads, uniform")
                .map(|_| "uniform")
                .or_else(|| head.trim().ends_with("loads, linear").then_some("linear"))
                .or_else(|| head.trim().ends_with("loads, random").then_some("random"))
            else {
                continue;
            };
            let bytes: u32 = head.trim().split('-').next().unwrap().parse().unwrap();
            let measured: Vec<&str> = list
                .trim_end_matches(" (Gload/s)")
                .split(" > ")
                .map(|c| c.rsplit_once(' ').unwrap().0)
                .collect();
            // The full run's candidates of this ranking (the quick profile's families), fastest
            // first.
            let mut candidates: Vec<(f64, String)> = full
                .cases
                .iter()
                .filter(|c| c.bytes_per_load == bytes && c.id.ends_with(&format!(".{pattern}")))
                .filter(|c| {
                    perftest_cases::QUICK_PROFILE
                        .iter()
                        .any(|q| c.id == format!("{q}.{pattern}"))
                })
                .filter_map(|c| {
                    let m = c.measurement.as_ref()?;
                    let mut s = m.samples_ns.clone();
                    s.sort_by(f64::total_cmp);
                    let ns = s[s.len() / 2] / m.groups as f64;
                    Some((
                        ns,
                        c.name.trim_end_matches(&format!(" {pattern}")).to_string(),
                    ))
                })
                .collect();
            candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
            assert!(candidates.len() >= 2, "{gpu} {bytes} {pattern}");
            assert_eq!(measured[0], candidates[0].1, "{gpu}: {line}");
            assert!(
                measured.contains(&candidates[1].1.as_str()),
                "{gpu}: {line}"
            );
            rankings += 1;
        }
        assert_eq!(
            rankings, 18,
            "{gpu}: six rankings in each of three launches"
        );
    }
}
