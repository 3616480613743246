//! The expert as a test: the findings agree with what the original's author wrote under each of
//! his published tables (`tests/fixtures/sebbbi/`, from sebbbi/perftest's README). Each claim
//! below is one of his conclusions about that GPU, in our words, checked against the finding
//! perftest derives from his table. Where his table says otherwise than his prose (the prose
//! was written for an older table, or generalises from one row), the claim holds the table's
//! answer and says so (`TABLE:`); `docs/src/findings.md` lists those cases and why.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

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

/// Checks that each `(id, low, high)` finding of `fixture` lies in `[low, high]`; returns the
/// advice.
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

/// The cases a finding rests on, in its order.
fn cases_of(fixture: &str, id: &str) -> Vec<String> {
    let path = common::published_tables().join(fixture);
    let output = common::command(&[])
        .args(["render", path.to_str().unwrap(), "--format", "json"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let found = json["findings"].as_array().unwrap();
    let f = found.iter().find(|f| f["id"] == id);
    let f = f.unwrap_or_else(|| panic!("{fixture}: no finding {id}"));
    f["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

/// The advice lines resting on finding `id`.
fn advice_on<'a>(advice: &'a [Value], id: &str) -> Vec<&'a str> {
    advice
        .iter()
        .filter(|a| a["findings"].as_array().unwrap().iter().any(|f| f == id))
        .map(|a| a["text"].as_str().unwrap())
        .collect()
}

/// The five GCN tables: the author analyses GCN2 and says the ratios of GCN3, GCN4 and both
/// GCN5 parts are identical, so his GCN2 conclusions are checked on all five.
const GCN: [&str; 5] = [
    "amd-gcn2-r9-390x.txt",
    "amd-gcn3-r9-fury-56-cu.txt",
    "amd-gcn4-rx-480.txt",
    "amd-gcn5-vega-frontier-edition.txt",
    "amd-gcn5-7nm-radeon-vii.txt",
];

#[test]
fn gcn_coalesces_one_channel_loads_and_offloads_uniform_raw_loads_to_the_scalar_unit() {
    for fixture in GCN {
        let advice = claims(
            fixture,
            &[
                // Typed loads: only one-channel ones coalesce, about 4x; linear and uniform
                // coalesce alike (uniform is no faster than linear).
                ("typed.coalescing.ch1", 3.0, 5.0),
                ("typed.coalescing.ch2", 0.9, 1.1),
                ("typed.coalescing.ch4", 0.9, 1.1),
                ("uniform.typed", 0.9, 1.1),
                // Every width and channel width at the same rate (random).
                ("typed.width", 0.85, 1.15),
                ("typed.width64", 0.85, 1.15),
                // One-dword raw loads coalesce 4x on linear access; wider ones do not.
                ("raw.coalescing.load", 3.0, 5.0),
                ("raw.coalescing.load2", 0.9, 1.1),
                // Uniform raw loads go to the scalar unit: 2d 4x, 4d 2x faster; 1d is no
                // faster than its (already coalesced) linear load.
                ("uniform.raw.load2", 3.0, 5.0),
                ("uniform.raw.load4", 1.7, 2.3),
                ("uniform.raw.load", 0.75, 1.35),
                // Full-speed 128-bit raw loads; alignment free.
                ("raw.wide_random", 0.9, 1.2),
                ("raw.unaligned", 0.95, 1.05),
                // TABLE: random Load3 is "slightly slower" than Load4 in the prose; the
                // table has it at 0.56x the rate.
                ("raw.load3_random", 0.5, 0.65),
                // Texture loads: like typed loads, but no coalescing of one-channel linear
                // loads and no scalar offload of uniform ones.
                ("texture.vs_typed.ch1", 0.2, 0.35),
                ("texture.vs_typed.ch2", 0.9, 1.1),
                ("texture.vs_typed.ch4", 0.9, 1.1),
                ("uniform.texture", 0.9, 1.1),
                // Random access of wide formats slightly slower.
                ("texture.random_wide", 0.7, 0.95),
                // Structured loads are raw loads of the same width.
                ("structured.vs_raw", 0.9, 1.1),
                // Constant buffers: no special hardware, the same as typed and structured
                // loads; a uniform index about 4x faster (scalar loads).
                ("cbuffer.vs_typed.linear", 0.9, 1.1),
                ("cbuffer.vs_typed.random", 0.9, 1.1),
                ("cbuffer.vs_structured.linear", 0.9, 1.1),
                ("cbuffer.vs_structured.random", 0.9, 1.1),
                ("cbuffer.divergent", 2.0, 5.0),
            ],
        );
        // The best bytes per clock of typed loads: R32 coalesced, or RGBA32.
        let best = &cases_of(fixture, "best.type.typed")[0];
        assert!(
            ["typed.r32f.linear", "typed.rgba32f.linear"].contains(&best.as_str()),
            "{fixture}: {best}"
        );
        // Moving per-lane data from a constant buffer to a structured buffer gains nothing
        // here: no advice says to.
        assert!(
            advice_on(&advice, "cbuffer.divergent").is_empty(),
            "{fixture}: {advice:?}"
        );
        // The scalar unit's gain is advice, with the widths it holds for.
        let uniform = advice_on(&advice, "uniform.raw");
        assert!(
            uniform.len() == 1 && uniform[0].contains("Load2 (") && !uniform[0].contains("Load ("),
            "{fixture}: {uniform:?}"
        );
    }
}

/// The claims the author makes for Maxwell and, "ratios identical", for Pascal and Kepler.
const NVIDIA_BEFORE_VOLTA: [(&str, f64, f64); 11] = [
    // No typed load coalesces; channel count and width do not matter up to 64 bits.
    ("typed.coalescing", 0.9, 1.15),
    ("typed.channels", 0.9, 1.15),
    ("typed.width64", 0.9, 1.1),
    // 128-bit typed loads at half rate, and 128-bit structured loads.
    ("typed.width", 0.45, 0.6),
    ("structured.width", 0.45, 0.6),
    // Alignment free.
    ("raw.unaligned", 0.95, 1.05),
    // Texture loads perform like typed loads.
    ("texture.vs_typed", 0.9, 1.1),
    // A per-lane constant buffer index is dead slow (up to 200x and more).
    ("cbuffer.divergent", 100.0, 5000.0),
    // The compiler's uniform-address fast path: up to 28x (warp width 32), for typed,
    // structured and texture loads.
    ("uniform.typed", 15.0, 70.0),
    ("uniform.structured", 15.0, 100.0),
    ("uniform.texture", 10.0, 70.0),
];

#[test]
fn maxwell_splits_wide_raw_loads_and_punishes_divergent_constant_buffers() {
    let fixture = "nvidia-maxwell-gtx-980-ti.txt";
    claims(fixture, &NVIDIA_BEFORE_VOLTA);
    let advice = claims(
        fixture,
        &[
            // No raw coalescing either.
            ("raw.coalescing.load", 0.9, 1.2),
            // Wide raw loads are split: 4d several times slower than 1d.
            ("raw.wide", 3.5, 6.0),
            ("raw.wide_random", 3.5, 10.0),
            // TABLE: the prose has 1d raw loads as fast as typed ones; the table has them
            // 1.56x faster.
            ("raw.vs_typed.b4", 1.4, 1.7),
            // TABLE: "random access of wide formats slightly slower" for textures; the table
            // has it at the same rate.
            ("texture.random_wide", 0.95, 1.05),
            // TABLE: the prose says the uniform fast path covers all buffer types; not raw
            // Load in the table.
            ("uniform.raw.load", 0.9, 1.1),
        ],
    );
    // The best bytes per clock of typed loads: 64 bits or more.
    let best = &cases_of(fixture, "best.type.typed")[0];
    assert!(
        ["typed.rgba16f", "typed.rg32f", "typed.rgba32f"]
            .iter()
            .any(|f| best.starts_with(f)),
        "{best}"
    );
    // Moving per-lane data to a structured buffer gains about 11.8x (not the 615x of a
    // uniform index): the advice quotes the move.
    let cbuffer = advice_on(&advice, "cbuffer.divergent");
    assert!(
        cbuffer.len() == 1 && cbuffer[0].contains("a StructuredBuffer<float4> (11."),
        "{cbuffer:?}"
    );
}

#[test]
fn pascal_and_kepler_give_maxwells_ratios() {
    for fixture in [
        "nvidia-pascal-gtx-1070-ti.txt",
        "nvidia-kepler-600-700-series.txt",
    ] {
        claims(fixture, &NVIDIA_BEFORE_VOLTA);
        claims(fixture, &[("raw.wide", 3.5, 6.0)]);
    }
    // TABLE: on Kepler's table the uniform fast path covers raw Load and Load2 (51x, 83x),
    // unlike Maxwell's.
    claims(
        "nvidia-kepler-600-700-series.txt",
        &[("uniform.raw.load", 30.0, 70.0)],
    );
}

#[test]
fn volta_speeds_up_raw_loads_and_structured_loads_lose_the_uniform_path() {
    let fixture = "nvidia-volta-titan-v.txt";
    claims(
        fixture,
        &[
            // Common loads as on Pascal.
            ("typed.width", 0.45, 0.6),
            ("texture.vs_typed", 0.9, 1.15),
            // Raw loads well ahead of typed ones at 4 bytes.
            ("raw.vs_typed.b4", 1.8, 2.5),
            // The uniform fast path no longer covers structured loads, and gains less.
            ("uniform.structured", 0.8, 1.2),
            ("uniform.typed", 4.0, 12.0),
            ("cbuffer.divergent", 100.0, 500.0),
        ],
    );
    // TABLE: the prose calls raw loads the best choice; in the table structured loads are
    // faster still, at 4 and at 16 bytes.
    assert_eq!(
        cases_of(fixture, "best.4byte")[0],
        "structured.float.linear"
    );
    assert_eq!(
        cases_of(fixture, "best.16byte")[0],
        "structured.float4.linear"
    );
}

#[test]
fn turing_splits_wide_raw_loads_again() {
    claims(
        "nvidia-turing-rtx-2080-ti.txt",
        &[
            // Wide raw loads close to Maxwell and Pascal again.
            ("raw.wide", 3.0, 8.0),
            // The uniform fast path back at 20x and more, but not for structured loads...
            ("uniform.typed", 15.0, 40.0),
            ("uniform.structured.float", 0.9, 1.1),
            // TABLE: ...except float2, 2.1x in the table.
            ("uniform.structured.float2", 1.9, 2.3),
            ("cbuffer.divergent", 100.0, 1000.0),
            // TABLE: the prose has RGBA32 buffer loads at full rate on Turing and Ampere; the
            // table has them at half the load rate of RG32 (the same bytes per second).
            ("typed.width", 0.45, 0.55),
        ],
    );
}

#[test]
fn ampere_samples_rgba32f_bilinear_at_quarter_rate() {
    claims(
        "nvidia-ampere-rtx-3090.txt",
        &[
            // Bilinear RGBA32F at quarter rate, nearest RGBA32F at half rate like its loads.
            ("sample.bilinear_wide", 0.2, 0.3),
            ("sample.nearest_wide", 0.4, 0.6),
            // Like Turing otherwise.
            ("uniform.typed", 5.0, 30.0),
            ("uniform.structured.float", 0.7, 1.1),
            ("cbuffer.divergent", 100.0, 1000.0),
            // TABLE: RGBA32 buffer loads at half the load rate of RG32, not full rate.
            ("typed.width", 0.45, 0.6),
        ],
    );
}

#[test]
fn gen9_favours_raw_buffers_and_texture_loads() {
    let fixture = "intel-gen9-hd-630-i7-6700k.txt";
    claims(
        fixture,
        &[
            // Every typed width and channel count at the same rate; no coalescing.
            ("typed.width", 0.9, 1.1),
            ("typed.width64", 0.9, 1.1),
            ("typed.channels", 0.9, 1.1),
            ("typed.coalescing", 1.0, 1.3),
            // A uniform-address fast path up to 6x for typed loads, and raw loads too.
            ("uniform.typed.ch1", 4.0, 7.0),
            ("uniform.typed.ch4", 4.0, 7.0),
            ("uniform.raw.load2", 5.0, 8.0),
            // Raw against typed: 1d 5x, 2d (linear) 2.5x, 4d (linear) 1.4x.
            ("raw.vs_typed.b4", 4.0, 6.0),
            ("raw.vs_typed.b8", 2.0, 3.0),
            ("raw.vs_typed.b16", 1.2, 1.6),
            // 2d and 4d random raw loads about 2x slower than linear ones.
            ("raw.coalescing.load2", 1.4, 2.5),
            ("raw.coalescing.load4", 1.5, 2.5),
            // 3d raw loads as fast as 4d; alignment does not matter much.
            ("raw.load3_random", 0.9, 1.2),
            ("raw.unaligned", 0.85, 1.2),
            // Structured as raw.
            ("structured.vs_raw", 0.9, 1.1),
            // Constant buffers: about 20x faster with a uniform index; per lane like typed
            // loads; structured loads up to 2x faster (linear).
            ("cbuffer.divergent", 15.0, 25.0),
            ("cbuffer.vs_typed.linear", 0.9, 1.1),
            ("cbuffer.vs_typed.random", 0.9, 1.1),
            ("cbuffer.vs_structured.linear", 0.5, 0.8),
            // Texture loads: RGBA32 at half speed (linear), uniform ones 4x faster, and
            // generally over 2x faster than the same format from a buffer.
            ("texture.width", 0.35, 0.6),
            ("uniform.texture", 3.0, 5.0),
            ("texture.vs_typed", 2.0, 3.0),
        ],
    );
    // The best bytes per clock of typed loads: the widest, RGBA32.
    assert!(cases_of(fixture, "best.type.typed")[0].starts_with("typed.rgba32f"));
}

#[test]
fn gen11_halves_the_raw_advantage_and_samples_rgba32f_bilinear_at_quarter_rate() {
    claims(
        "intel-gen11-iris-plus-i7-1065g7.txt",
        &[
            // Raw loads 2.5x faster than typed ones instead of 5x.
            ("raw.vs_typed.b4", 2.0, 3.0),
            // The uniform-address speed-up about twice Gen9's.
            ("uniform.typed", 8.0, 14.0),
            ("sample.bilinear_wide", 0.2, 0.3),
            ("sample.nearest_wide", 0.35, 0.6),
            ("typed.width", 0.9, 1.1),
        ],
    );
}

/// A contributed table (`results/published/`), by file name.
fn contributed(file: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/published");
    dir.join(file).to_str().unwrap().to_string()
}

/// The author's older tables of the same architectures (his 2017 output, 72 or 45 cases) give
/// the conclusions their cases allow: GCN's coalescing and scalar unit; Maxwell's, Pascal's and
/// Kepler's half-rate 128-bit and split wide raw loads, and, before the drivers' uniform-load
/// optimisation his prose dates to later drivers, no uniform fast path; Gen9's raw loads.
#[test]
fn the_older_tables_of_the_same_architectures_agree() {
    for file in [
        "amd-radeon-7970-ge-d3d11-perftest-legacy.txt",
        "amd-r9-fury-x-d3d11-perftest-legacy.txt",
        "amd-radeon-rx-vega-64-d3d11-perftest-legacy.txt",
    ] {
        claims(
            &contributed(file),
            &[
                ("typed.coalescing.ch1", 3.0, 5.0),
                ("typed.coalescing.ch4", 0.9, 1.1),
                ("uniform.typed", 0.9, 1.1),
                ("raw.coalescing.load", 3.0, 5.0),
                ("uniform.raw.load2", 3.0, 5.0),
                ("uniform.raw.load4", 1.7, 2.3),
                ("raw.wide_random", 0.9, 1.2),
                ("raw.unaligned", 0.95, 1.05),
                ("texture.vs_typed.ch1", 0.2, 0.35),
                ("texture.vs_typed.ch4", 0.9, 1.1),
                ("uniform.texture", 0.9, 1.1),
            ],
        );
    }
    for file in [
        "nvidia-gtx-980-d3d11-perftest-legacy.txt",
        "nvidia-titan-x-pascal-d3d11-perftest-legacy.txt",
        "nvidia-quadro-k1100m-d3d11-perftest-legacy.txt",
    ] {
        claims(
            &contributed(file),
            &[
                ("typed.width", 0.45, 0.6),
                ("typed.coalescing", 0.9, 1.1),
                ("raw.wide", 3.5, 6.0),
                ("raw.unaligned", 0.95, 1.05),
                ("uniform.typed", 0.9, 1.1),
            ],
        );
    }
    claims(
        &contributed("intel-hd-530-i7-6700k-d3d11-perftest-legacy.txt"),
        &[
            ("typed.width", 0.9, 1.1),
            ("typed.coalescing", 1.0, 1.3),
            ("raw.vs_typed.b4", 4.0, 6.0),
            ("raw.vs_typed.b8", 2.0, 3.0),
            ("raw.vs_typed.b16", 1.2, 1.6),
            ("raw.load3_random", 0.9, 1.2),
            ("texture.vs_typed", 2.0, 3.0),
            ("texture.width", 0.35, 0.6),
        ],
    );
}

/// Every advice line of every table (the README's and the contributed ones) quotes gains of
/// at least 1.2x: each `N.Nx` it prints.
#[test]
fn no_advice_quotes_a_gain_under_one_point_two() {
    let contributed =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/published");
    let dirs = [common::published_tables(), contributed];
    let paths = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "csv"));
    let mut tables = 0;
    for path in paths {
        tables += 1;
        let name = path.to_str().unwrap().to_string();
        let (_, advice) = findings(&name);
        for a in &advice {
            let text = a["text"].as_str().unwrap();
            for word in text.split([' ', '(', ')']) {
                let Some(number) = word.trim_end_matches([',', '.', ':']).strip_suffix('x') else {
                    continue;
                };
                if let Ok(gain) = number.parse::<f64>() {
                    assert!(gain >= 1.2, "{name}: {text}");
                }
            }
        }
    }
    assert_eq!(tables, 29);
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
