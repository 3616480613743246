//! The findings agree with what the original's author wrote under each of his published tables
//! (`tests/fixtures/sebbbi/`, from sebbbi/perftest's README): each claim below is his, about
//! that GPU, checked against the finding perftest derives from his table.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

mod common;

use std::process::Stdio;

use serde_json::Value;

/// `perftest render FIXTURE --format json`'s findings, by id, and its advice.
fn findings(fixture: &str) -> (Vec<(String, f64, Value)>, Vec<Value>) {
    let path = common::published_tables().join(fixture);
    let output = common::command(&[])
        .args(["render", path.to_str().unwrap(), "--format", "json"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let found = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["id"].as_str().unwrap().to_string(),
                f["value"].as_f64().unwrap(),
                f["beyond_noise"].clone(),
            )
        })
        .collect();
    (found, json["advice"].as_array().unwrap().clone())
}

/// Checks that each `(id, low, high)` finding of `fixture` lies in `[low, high]`.
fn claims(fixture: &str, expected: &[(&str, f64, f64)]) -> Vec<Value> {
    let (found, advice) = findings(fixture);
    for &(id, low, high) in expected {
        let Some((_, value, noise)) = found.iter().find(|(f, _, _)| f == id) else {
            panic!("{fixture}: no finding {id}");
        };
        assert!(
            (low..=high).contains(value),
            "{fixture}: {id} = {value:.3}, the author's analysis says {low}..{high}"
        );
        // A published table has one figure per case: no noise estimate.
        assert!(noise.is_null(), "{fixture}: {id} beyond_noise {noise}");
    }
    advice
}

#[test]
fn gcn2_one_channel_loads_coalesce_wide_raw_loads_are_native() {
    claims(
        "amd-gcn2-r9-390x.txt",
        &[
            // 1-channel linear typed loads coalesce about 4x; 4-channel ones do not.
            ("typed.coalescing", 3.0, 5.0),
            ("typed.channels", 3.0, 5.0),
            // Random typed loads run at about the same rate whatever the width.
            ("typed.width", 0.8, 1.25),
            // 128-bit raw loads at full speed, alignment free.
            ("raw.wide_random", 0.8, 1.5),
            ("raw.unaligned", 0.9, 1.1),
            // Structured buffers are raw buffers of the same width.
            ("structured.vs_raw", 0.9, 1.1),
            // Constant buffers: no special hardware; uniform ones go through scalar loads.
            ("cbuffer.divergent", 1.5, 5.0),
            // Texture loads do not coalesce.
            ("texture.vs_typed", 0.15, 0.4),
        ],
    );
}

#[test]
fn maxwell_splits_wide_raw_loads_and_punishes_divergent_constant_buffers() {
    let advice = claims(
        "nvidia-maxwell-gtx-980-ti.txt",
        &[
            ("typed.coalescing", 0.9, 1.2),
            // Up to 64 bits full rate, 128 bits half rate.
            ("typed.width64", 0.9, 1.1),
            ("typed.width", 0.4, 0.6),
            // Wide raw loads are split into narrow ones.
            ("raw.wide", 3.0, 6.0),
            ("raw.wide_random", 3.0, 10.0),
            ("raw.unaligned", 0.95, 1.05),
            ("cbuffer.divergent", 100.0, 1000.0),
            // A uniform-address fast path for typed loads, not for raw ones.
            ("uniform.typed", 10.0, 40.0),
            ("uniform.raw", 0.8, 1.5),
            ("texture.vs_typed", 0.8, 1.25),
        ],
    );
    assert_eq!(advice[0]["findings"][0], "cbuffer.divergent", "{advice:?}");
}

#[test]
fn volta_makes_raw_loads_the_fastest_and_structured_loads_lose_the_uniform_path() {
    claims(
        "nvidia-volta-titan-v.txt",
        &[
            ("raw.vs_typed", 1.8, 2.5),
            ("uniform.structured", 0.8, 1.2),
            ("uniform.typed", 4.0, 12.0),
            ("cbuffer.divergent", 100.0, 500.0),
        ],
    );
}

#[test]
fn turing_splits_wide_raw_loads_again() {
    claims(
        "nvidia-turing-rtx-2080-ti.txt",
        &[
            ("raw.wide", 3.0, 8.0),
            ("uniform.structured", 0.8, 1.2),
            ("uniform.typed", 10.0, 40.0),
            ("cbuffer.divergent", 100.0, 1000.0),
        ],
    );
}

#[test]
fn ampere_samples_rgba32f_bilinear_at_quarter_rate() {
    claims(
        "nvidia-ampere-rtx-3090.txt",
        &[
            ("sample.bilinear_wide", 0.2, 0.3),
            ("sample.nearest_wide", 0.4, 0.6),
            ("uniform.typed", 5.0, 30.0),
            ("cbuffer.divergent", 100.0, 1000.0),
        ],
    );
}

#[test]
fn gen9_favours_raw_buffers_and_texture_loads() {
    claims(
        "intel-gen9-hd-630-i7-6700k.txt",
        &[
            // Every typed width and channel count at the same rate, no coalescing.
            ("typed.width", 0.9, 1.1),
            ("typed.coalescing", 1.0, 1.5),
            // Uniform addresses about 6x faster, raw loads included.
            ("uniform.typed", 4.0, 7.0),
            ("uniform.raw", 2.0, 5.0),
            // Raw loads about 5x faster than typed; structured equal to raw.
            ("raw.vs_typed", 4.0, 6.0),
            ("structured.vs_raw", 0.9, 1.1),
            // Texture loads about 2.5x faster than buffer loads; uniform ones 4x faster still.
            ("texture.vs_typed", 2.0, 3.0),
            ("uniform.texture", 3.0, 5.0),
            ("cbuffer.divergent", 10.0, 30.0),
        ],
    );
}

#[test]
fn every_table_gives_findings_and_advice_in_every_format() {
    let dir = common::published_tables();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let (found, advice) = findings(&name);
        assert!(found.len() >= 10, "{name}: {} findings", found.len());
        assert!(!advice.is_empty(), "{name}: no advice");
        for (format, heading) in [
            ("text", "Findings, from a published table"),
            ("markdown", "**Findings**"),
            ("html", "<h2>Findings</h2>"),
        ] {
            let output = common::command(&[])
                .args(["render", path.to_str().unwrap(), "--format", format])
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&output.stdout);
            assert!(text.contains(heading), "{name} {format}");
            assert!(text.contains("cbuffer.divergent"), "{name} {format}");
        }
    }
}
