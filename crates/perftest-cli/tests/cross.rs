//! `perftest compare` of reports from different GPUs: the H200 run beside every published table
//! of the original (`tests/fixtures/sebbbi/`). The advice across GPUs for the 16-byte and
//! 4-byte paths is re-derived here from the files themselves: each table's milliseconds (lower
//! is faster), the H200 report's original-scale milliseconds.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The H200 report and every published table, in a fixed order.
fn inputs() -> Vec<PathBuf> {
    let mut files = vec![common::committed_report()];
    let dir = common::published_tables();
    let mut tables: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    tables.sort();
    files.extend(tables);
    files
}

fn compare(files: &[PathBuf], format: &str) -> String {
    let mut args = vec!["compare".to_string()];
    args.extend(files.iter().map(|f| f.to_str().unwrap().to_string()));
    args.extend(["--format".to_string(), format.to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = common::perftest(&args);
    assert!(run.code == Some(0), "{}", run.stderr);
    run.stdout
}

/// Case name (lowercase) -> milliseconds, read from the file itself.
fn milliseconds(file: &Path) -> HashMap<String, f64> {
    let text = std::fs::read_to_string(file).unwrap();
    if file.extension().is_some_and(|e| e == "json") {
        let report: Value = serde_json::from_str(&text).unwrap();
        return report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| {
                let ms = c["derived"]["original_ms"].as_f64()?;
                Some((c["name"].as_str()?.to_lowercase(), ms))
            })
            .collect();
    }
    text.lines()
        .filter_map(|l| {
            let (name, rest) = l.rsplit_once(": ")?;
            let ms = rest
                .split_whitespace()
                .next()?
                .strip_suffix("ms")?
                .parse()
                .ok()?;
            Some((name.trim().to_lowercase(), ms))
        })
        .collect()
}

/// On how many files `choice` is the fastest of `candidates` or within 5% of it, of the files
/// that hold it and another of them.
fn holds(files: &[PathBuf], choice: &str, candidates: &[&str]) -> (usize, usize) {
    let (mut holds, mut of) = (0, 0);
    for file in files {
        let ms = milliseconds(file);
        let times: Vec<(&str, f64)> = candidates
            .iter()
            .filter_map(|c| Some((*c, *ms.get(&c.to_lowercase())?)))
            .collect();
        // A file that lacks the choice, or has nothing to set beside it, says nothing.
        if times.len() < 2 || !times.iter().any(|(c, _)| *c == choice) {
            continue;
        }
        of += 1;
        let fastest = times.iter().map(|(_, t)| *t).fold(f64::MAX, f64::min);
        // Throughput within 5% of the best: time at most best / 0.95.
        if times
            .iter()
            .any(|(c, t)| *c == choice && *t <= fastest / 0.95)
        {
            holds += 1;
        }
    }
    (holds, of)
}

#[test]
fn the_paths_advice_across_gpus_is_what_the_files_say() {
    let files = inputs();
    assert!(files.len() >= 11);
    let json: Value = serde_json::from_str(&compare(&files, "json")).unwrap();
    let advice = json["advice"].as_array().unwrap();
    let verdict = |id: &str| advice.iter().find(|v| v["id"] == id).unwrap().clone();
    for (id, choice, candidates) in [
        (
            "across.16byte",
            "StructuredBuffer<float4>.Load linear",
            [
                "StructuredBuffer<float4>.Load linear",
                "ByteAddressBuffer.Load4 linear",
                "Buffer<RGBA32f>.Load linear",
                "Texture2D<RGBA32F>.Load linear",
            ],
        ),
        (
            "across.4byte",
            "ByteAddressBuffer.Load linear",
            [
                "StructuredBuffer<float>.Load linear",
                "ByteAddressBuffer.Load linear",
                "Buffer<R32f>.Load linear",
                "Texture2D<R32F>.Load linear",
            ],
        ),
    ] {
        let v = verdict(id);
        let resource = choice.rsplit_once(' ').unwrap().0;
        assert!(v["text"].as_str().unwrap().starts_with(resource), "{v}");
        let (expected_holds, expected_of) = holds(&files, choice, &candidates);
        assert_eq!(
            (v["holds"].as_u64().unwrap(), v["of"].as_u64().unwrap()),
            (expected_holds as u64, expected_of as u64),
            "{v}"
        );
    }
    assert_eq!(json["columns"].as_array().unwrap().len(), files.len());
}

#[test]
fn ten_reports_read_in_200_columns_and_every_format_says_the_advice() {
    let files: Vec<PathBuf> = inputs().into_iter().take(11).collect();
    let text = compare(&files, "text");
    for line in text.lines() {
        assert!(line.chars().count() <= 200, "{line}");
    }
    assert!(text.contains("Advice across GPUs:"), "{text}");
    assert!(text.contains("  G11: "), "{text}");
    let markdown = compare(&files, "markdown");
    assert!(markdown.contains("**Advice across GPUs**"), "{markdown}");
    let html = compare(&files, "html");
    assert!(html.contains("<h2>Advice across GPUs</h2>"), "{html}");
    assert!(html.contains("across.16byte"));
}

/// The collection: the original's README tables and every file of `results/published/` read
/// as reports, 25 GPUs or more of at least AMD, NVIDIA and Intel, compared in one command.
#[test]
fn the_collection_holds_25_gpus_of_three_vendors_and_compares_in_one_command() {
    let published = root().join("results/published");
    let mut files = inputs();
    let mut extra: Vec<PathBuf> = std::fs::read_dir(&published)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "csv"))
        .collect();
    extra.sort();
    // Every file is named in SOURCES.md.
    let sources = std::fs::read_to_string(published.join("SOURCES.md")).unwrap();
    for file in &extra {
        let name = file.file_name().unwrap().to_str().unwrap();
        assert!(sources.contains(name), "{name} is not in SOURCES.md");
    }
    files.extend(extra);
    let json: Value = serde_json::from_str(&compare(&files, "json")).unwrap();
    let columns = json["columns"].as_array().unwrap();
    assert_eq!(columns.len(), files.len());
    let mut devices: Vec<String> = columns[1..]
        .iter()
        .map(|c| c["device"].as_str().unwrap().to_lowercase())
        .collect();
    devices.sort();
    devices.dedup();
    assert!(devices.len() >= 25, "{} GPUs: {devices:?}", devices.len());
    for vendor in [
        &["amd", "radeon"][..],
        &["nvidia", "geforce", "quadro"][..],
        &["intel"][..],
    ] {
        let n = devices
            .iter()
            .filter(|d| vendor.iter().any(|v| d.contains(v)))
            .count();
        assert!(n >= 2, "{vendor:?}: {n} GPUs in {devices:?}");
    }
    let apis: Vec<&str> = columns.iter().map(|c| c["api"].as_str().unwrap()).collect();
    for api in ["Direct3D 11", "Direct3D 12", "Vulkan"] {
        assert!(apis.iter().any(|a| a.starts_with(api)), "{api}: {apis:?}");
    }
}

/// Case name (lowercase) -> median milliseconds of perftest-vk's CSV (its `original` rows).
fn csv_milliseconds(file: &Path) -> HashMap<String, f64> {
    let mut reader = csv::Reader::from_path(file).unwrap();
    let headers = reader.headers().unwrap().clone();
    let at = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (suite, test, median) = (at("suite"), at("test"), at("median_ms"));
    reader
        .records()
        .map(Result::unwrap)
        .filter(|r| &r[suite] == "original")
        .map(|r| (r[test].to_lowercase(), r[median].parse().unwrap()))
        .collect()
}

/// `Buffer<R8>.Load linear`'s time over `Buffer<R8>.Load uniform`'s (the uniform-address
/// speed-up), read from the file itself; the 2017 output names them `Load R8 ...`.
fn uniform_speedup(file: &Path) -> f64 {
    let ms = if file.extension().is_some_and(|e| e == "csv") {
        csv_milliseconds(file)
    } else {
        milliseconds(file)
    };
    let get = |new: &str, old: &str| *ms.get(new).or_else(|| ms.get(old)).unwrap();
    // Per channel count, the median over its three formats; the question's answer is the
    // largest of the three.
    let ratio = |format: &str| {
        get(
            &format!("buffer<{format}>.load linear"),
            &format!("load {format} linear"),
        ) / get(
            &format!("buffer<{format}>.load uniform"),
            &format!("load {format} invariant"),
        )
    };
    [
        ["r8", "r16f", "r32f"],
        ["rg8", "rg16f", "rg32f"],
        ["rgba8", "rgba16f", "rgba32f"],
    ]
    .iter()
    .map(|formats| {
        let mut v: Vec<f64> = formats.iter().map(|f| ratio(f)).collect();
        v.sort_by(f64::total_cmp);
        v[1]
    })
    .fold(0.0, f64::max)
}

/// The GPUs the collection has under two tools are paired, and only those: the H200 under
/// perftest and perftest-vk, the Titan V and the RTX 2080 Ti under the original's 2017 and
/// current output (not the HD 530 and HD 630 tables, whose names differ). Each answer to the
/// uniform-address question is the speed-up the files give.
#[test]
fn the_same_gpu_under_two_tools_is_set_side_by_side_with_the_files_figures() {
    let mut files = inputs();
    files.insert(
        1,
        root().join("crates/perftest-cli/tests/fixtures/perftest-vk/nvidia-h200.csv"),
    );
    let mut published: Vec<PathBuf> = std::fs::read_dir(root().join("results/published"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "csv"))
        .collect();
    published.sort();
    files.extend(published);
    let json: Value = serde_json::from_str(&compare(&files, "json")).unwrap();
    let same = json["same_gpu"].as_array().unwrap();
    let file_of = |label: &str| {
        let n: usize = label.trim_start_matches('G').parse().unwrap();
        files[n - 1].clone()
    };
    let mut paired: Vec<Vec<String>> = same
        .iter()
        .map(|g| {
            let labels = g["labels"].as_array().unwrap();
            let mut names: Vec<String> = labels
                .iter()
                .map(|l| {
                    let f = file_of(l.as_str().unwrap());
                    f.file_name().unwrap().to_str().unwrap().to_string()
                })
                .collect();
            names.sort();
            names
        })
        .collect();
    paired.sort();
    assert_eq!(
        paired,
        [
            vec!["nvidia-h200.csv", "nvidia-h200.json"],
            vec![
                "nvidia-rtx-2080-ti-d3d11-perftest-legacy.txt",
                "nvidia-turing-rtx-2080-ti.txt"
            ],
            vec![
                "nvidia-titan-v-d3d11-perftest-legacy.txt",
                "nvidia-volta-titan-v.txt"
            ],
        ],
        "{same:#?}"
    );
    for g in same {
        let uniform = g["differences"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["id"] == "across.uniform_fast_path")
            .unwrap();
        let answers = uniform["answers"].as_array().unwrap();
        assert_eq!(answers.len(), 2, "{uniform}");
        for a in answers {
            let expected = uniform_speedup(&file_of(a["label"].as_str().unwrap()));
            let value = a["value"].as_f64().unwrap();
            assert!(
                (value - expected).abs() < 1e-3 * expected,
                "{a} vs {expected}"
            );
            assert_eq!(a["holds"].as_bool().unwrap(), expected >= 1.5, "{a}");
        }
        let flips = answers.iter().any(|a| a["holds"] != answers[0]["holds"]);
        assert_eq!(uniform["flips"].as_bool().unwrap(), flips);
    }
    for format in ["text", "markdown", "html"] {
        let out = compare(&files, format);
        assert!(out.contains("Same GPU across APIs and tools"), "{format}");
        assert!(out.contains("NVidia Volta (Titan V) as G"), "{format}");
    }
}
