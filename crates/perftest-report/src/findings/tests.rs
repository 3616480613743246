use super::*;
use crate::samples::{as_published, measurement, sample_report, spread_report};
use crate::schema::CaseResult;

/// A report of `(id, ns per workgroup)` pairs ([`spread_report`]).
fn report(cases: &[(&str, f64)], spread: f64) -> Report {
    spread_report(cases, spread)
}

#[test]
fn a_ratio_finding_states_its_value_cases_and_noise() {
    // Per-lane cbuffer indexing 40x slower than uniform.
    let r = report(
        &[
            ("cbuffer.float4.uniform", 10.0),
            ("cbuffer.float4.linear", 400.0),
            ("structured.float4.linear", 20.0),
        ],
        0.01,
    );
    let f = findings(&r);
    let d = f.get("cbuffer.divergent").unwrap();
    assert!((d.value - 40.0).abs() < 1e-9, "{}", d.value);
    assert_eq!(d.cases, ["cbuffer.float4.uniform", "cbuffer.float4.linear"]);
    assert_eq!(d.beyond_noise, Some(true));
    assert!(
        d.statement.contains("per-lane index is 40.0x slower"),
        "{}",
        d.statement
    );
    assert_eq!(f.advice[0].findings, ["cbuffer.divergent"]);
    // The advice quotes what moving the data gains: the structured buffer against the
    // per-lane constant buffer (20x), not the uniform index (40x).
    assert!(
        f.advice[0].text.contains("40.0x slower")
            && f.advice[0]
                .text
                .contains("a StructuredBuffer<float4> (20.0x)"),
        "{}",
        f.advice[0].text
    );
}

#[test]
fn advice_names_only_the_remedies_that_gain() {
    // A per-lane constant buffer 3x slower than a uniform index, but a structured buffer is
    // no faster (1.05x) and a raw Load4 is 1.5x faster: only the raw buffer is named.
    let mut cases = vec![
        ("cbuffer.float4.uniform", 10.0),
        ("cbuffer.float4.linear", 30.0),
        ("structured.float4.linear", 30.0 / 1.05),
        ("raw.load4.linear", 20.0),
    ];
    let f = findings(&report(&cases, 0.0));
    let text = &f.advice[0].text;
    assert!(
        text.contains("a ByteAddressBuffer (Load4) (1.5x)"),
        "{text}"
    );
    assert!(!text.contains("StructuredBuffer"), "{text}");
    // Where no remedy gains 1.2x, no advice about constant buffers at all.
    cases[3].1 = 28.0;
    let f = findings(&report(&cases, 0.0));
    assert!(
        f.advice.iter().all(|a| a.findings != ["cbuffer.divergent"]),
        "{:?}",
        f.advice
    );
}

#[test]
fn a_question_asked_per_width_says_which_widths_it_holds_for() {
    // A scalar-unit-like GPU: uniform Load2 and Load4 fast, Load not (its linear coalesces).
    let r = report(
        &[
            ("raw.load.uniform", 10.0),
            ("raw.load.linear", 10.5),
            ("raw.load2.uniform", 10.0),
            ("raw.load2.linear", 40.0),
            ("raw.load4.uniform", 20.0),
            ("raw.load4.linear", 40.0),
        ],
        0.0,
    );
    let f = findings(&r);
    let summary = f.get("uniform.raw").unwrap();
    assert!((summary.value - 4.0).abs() < 1e-9, "{}", summary.value);
    assert_eq!(
        summary.statement,
        "Uniform-address raw loads against per-lane (linear) ones: a uniform-address fast path \
         for Load2 4.00x, Load4 2.00x; no faster than linear addresses for Load 1.05x."
    );
    assert!((f.get("uniform.raw.load").unwrap().value - 1.05).abs() < 1e-9);
    assert!(f.get("uniform.raw.load3").is_none());
    let advice = f
        .advice
        .iter()
        .find(|a| a.findings == ["uniform.raw"])
        .unwrap();
    assert!(
        advice
            .text
            .contains("per-lane addresses for Load2 (4.0x), Load4 (2.0x)."),
        "{}",
        advice.text
    );
}

#[test]
fn a_width_asked_by_several_formats_takes_their_median_and_names_the_outlier() {
    // One-channel typed loads: R8 and R16F coalesce 4x, R32F is an odd row at 1x.
    let r = report(
        &[
            ("typed.r8.linear", 10.0),
            ("typed.r8.random", 40.0),
            ("typed.r16f.linear", 10.0),
            ("typed.r16f.random", 38.0),
            ("typed.r32f.linear", 10.0),
            ("typed.r32f.random", 10.0),
        ],
        0.0,
    );
    let f = findings(&r);
    let ch1 = f.get("typed.coalescing.ch1").unwrap();
    assert!((ch1.value - 3.8).abs() < 1e-9, "{}", ch1.value);
    assert!(
        ch1.statement.contains("the median of 3 formats (outlier: ")
            && ch1.statement.contains("1.00x"),
        "{}",
        ch1.statement
    );
}

#[test]
fn a_tie_crowns_no_fastest() {
    // StructuredBuffer<float4> 2% faster than ByteAddressBuffer.Load4: a tie.
    let r = report(
        &[
            ("structured.float4.linear", 10.0),
            ("raw.load4.linear", 10.2),
            ("typed.rgba32f.linear", 20.0),
        ],
        0.0,
    );
    let f = findings(&r);
    let b = f.get("best.16byte").unwrap();
    assert!(
        b.statement
            .starts_with("No 16-byte per-lane load (linear) is the fastest"),
        "{}",
        b.statement
    );
    let advice = f
        .advice
        .iter()
        .find(|a| a.findings == ["best.16byte"])
        .unwrap();
    assert!(
        advice
            .text
            .contains("StructuredBuffer<float4>.Load or ByteAddressBuffer.Load4: 2.0x faster"),
        "{}",
        advice.text
    );
}

#[test]
fn a_difference_within_the_noise_says_so_and_gives_no_advice() {
    // 3% apart with samples spread 20%: the intervals overlap.
    let r = report(
        &[
            ("cbuffer.float4.uniform", 10.0),
            ("cbuffer.float4.linear", 10.3),
        ],
        0.2,
    );
    let f = findings(&r);
    assert_eq!(
        f.get("cbuffer.divergent").unwrap().beyond_noise,
        Some(false)
    );
    assert!(f.advice.is_empty(), "{:?}", f.advice);
}

#[test]
fn a_partial_report_names_the_findings_it_lacks() {
    let r = report(
        &[("raw.load.linear", 10.0), ("raw.load4.linear", 40.0)],
        0.0,
    );
    let f = findings(&r);
    assert!((f.get("raw.wide").unwrap().value - 4.0).abs() < 1e-9);
    let missing: Vec<&str> = f.missing.iter().map(|m| m.id.as_str()).collect();
    assert!(missing.contains(&"cbuffer.divergent"), "{missing:?}");
    assert!(!missing.contains(&"raw.wide"));
    // raw.vs_typed has its raw cases of 4 and 16 bytes: those are not missing.
    let vs = f.missing.iter().find(|m| m.id == "raw.vs_typed").unwrap();
    assert!(
        vs.cases.contains(&"typed.r32f.linear".to_string()),
        "{:?}",
        vs.cases
    );
    assert!(
        !vs.cases.contains(&"raw.load.linear".to_string()),
        "{:?}",
        vs.cases
    );
    // No original case at all: nothing is missing (a report of another suite).
    assert!(findings(&report(&[], 0.0)).missing.is_empty());
    // A case that only a per-width question asks is an original case too.
    let only = findings(&report(&[("raw.load2.uniform", 10.0)], 0.0));
    assert!(
        only.missing.iter().any(|m| m.id == "cbuffer.divergent"),
        "{:?}",
        only.missing
    );
}

#[test]
fn published_tables_have_no_noise_estimate() {
    let mut r = report(
        &[("raw.load.linear", 10.0), ("raw.load4.linear", 40.0)],
        0.0,
    );
    as_published(&mut r, "t.txt");
    let f = findings(&r);
    assert_eq!(f.get("raw.wide").unwrap().beyond_noise, None);
    assert_eq!(f.published.as_deref(), Some("sebbbi/perftest, Direct3D 11"));
}

#[test]
fn a_published_spread_bounds_the_noise() {
    // A per-lane constant buffer 1.5x slower than a uniform index, one figure each.
    let mut r = report(
        &[
            ("cbuffer.float4.uniform", 10.0),
            ("cbuffer.float4.linear", 15.0),
            ("structured.float4.linear", 5.0),
        ],
        0.0,
    );
    for c in &mut r.cases {
        if let Some(m) = &mut c.measurement {
            m.samples_ns.truncate(1);
        }
    }
    let with_cv = |cv: f64| {
        let mut r = r.clone();
        for c in &mut r.cases {
            c.source_cv = Some(cv);
        }
        findings(&r)
    };
    // Frames that vary 2%: the figures are far apart.
    let steady = with_cv(0.02);
    assert_eq!(
        steady.get("cbuffer.divergent").unwrap().beyond_noise,
        Some(true)
    );
    // Frames that vary 150%: 1.5x is within the noise, and no advice rests on it.
    let noisy = with_cv(1.5);
    assert_eq!(
        noisy.get("cbuffer.divergent").unwrap().beyond_noise,
        Some(false)
    );
    assert!(
        noisy
            .advice
            .iter()
            .all(|a| a.findings != ["cbuffer.divergent"]),
        "{:?}",
        noisy.advice
    );
    // No spread given: no noise estimate.
    assert_eq!(
        findings(&r).get("cbuffer.divergent").unwrap().beyond_noise,
        None
    );
}

#[test]
fn the_best_path_per_width_ranks_every_resource_type() {
    let r = report(
        &[
            ("structured.float4.linear", 10.0),
            ("raw.load4.linear", 30.0),
            ("typed.rgba32f.linear", 20.0),
            ("structured.float.linear", 5.0),
        ],
        0.0,
    );
    let f = findings(&r);
    let b = f.get("best.16byte").unwrap();
    assert_eq!(
        b.cases,
        [
            "structured.float4.linear",
            "typed.rgba32f.linear",
            "raw.load4.linear"
        ]
    );
    assert!((b.value - 2.0).abs() < 1e-9);
    assert!(b.statement.starts_with(
        "The fastest 16-byte per-lane load (linear) is StructuredBuffer<float4>.Load linear"
    ));
    assert_eq!(
        f.get("best.4byte").unwrap().cases,
        ["structured.float.linear"]
    );
    // With 132 SMs (the sample device) and a 1 GHz clock: bytes per clock and SM.
    let mut clocked = r.clone();
    clocked.settings.clock_mhz = Some(1000.0);
    let f = findings(&clocked);
    let per = f.get("best.bytes_per_clock").unwrap();
    // float4: 65536 loads x 16 B in 10 ns per group.
    let expected = 65536.0 * 16.0 / 10e-9 / 1e9 / 132.0;
    assert!(
        (per.value - expected).abs() < 1e-9,
        "{} {expected}",
        per.value
    );
    assert!(findings(&r).get("best.bytes_per_clock").is_none());
}

#[test]
fn verdicts_name_the_rates_the_analyses_use() {
    assert_eq!(rules::rate(0.26), "quarter rate (0.26x)");
    assert_eq!(rules::rate(0.5), "half rate (0.50x)");
    assert_eq!(rules::rate(1.04), "the same rate (1.04x)");
    assert_eq!(rules::rate(0.7), "0.70x the rate (1.4x slower)");
    assert_eq!(rules::faster(0.5), "2.00x slower");
}

#[test]
fn every_rule_id_is_unique_and_its_cases_exist() {
    let mut ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), before);
    let all = perftest_cases::all_cases();
    for rule in RULES {
        for id in [rule.a, rule.b] {
            assert!(all.iter().any(|c| c.id == id), "{}: no case {id}", rule.id);
        }
    }
    // The per-width questions: ids unique among all rules, every pair's cases real.
    let mut every: Vec<String> = RULES.iter().map(|r| r.id.to_string()).collect();
    for group in GROUPS {
        every.push(group.id.to_string());
        for width in group.widths {
            every.push(format!("{}.{}", group.id, width.key));
            for (a, b) in width.pairs {
                for id in [a, b] {
                    assert!(
                        all.iter().any(|c| c.id == *id),
                        "{}: no case {id}",
                        group.id
                    );
                }
            }
        }
    }
    let count = every.len();
    every.sort_unstable();
    every.dedup();
    assert_eq!(every.len(), count);
}

#[test]
fn the_sweep_gives_a_finding_per_cache_level() {
    use crate::hierarchy::curves::h200;
    let mut r = sample_report();
    r.cases = (12..=29)
        .map(|shift| {
            let case = perftest_cases::case_for_id(&format!(
                "mem.sweep.latency.{}",
                if shift >= 20 {
                    format!("{}mb", 1u64 << (shift - 20))
                } else {
                    format!("{}kb", 1u64 << (shift - 10))
                }
            ))
            .unwrap();
            let ops = case.ops_per_group() as f64;
            // One workgroup per dispatch: its time is the ops times the latency in ns.
            let ns = h200(f64::from(1u32 << shift)) * ops;
            CaseResult::measured(&case, measurement(1, &[ns; 6]))
        })
        .collect();
    r.settings.clock_mhz = Some(1000.0);
    let f = findings(&r);
    let l1 = f.get("cache.l1").unwrap();
    assert!((l1.value - 35.0).abs() < 1e-6, "{}", l1.value);
    assert_eq!(
        l1.statement,
        "L1: up to 128 KB, 35.0 ns per dependent load (35 cycles)."
    );
    let memory = f.get("cache.memory").unwrap();
    assert!((memory.value - 690.0).abs() < 1e-6);
    assert!(
        memory.statement.starts_with("memory: from "),
        "{}",
        memory.statement
    );
    assert!(f.get("cache.l2").is_some(), "{:?}", f.findings);
}

#[test]
fn a_published_texel_rate_is_set_beside_the_fastest_sampling() {
    // 4 texels per clock and core published; 100 ns per group of 65536 samples at 1 GHz on
    // 132 units: 65536 / 100 / 132 = 4.96 texels per clock and unit.
    let mut r = report(
        &[
            ("tex.sample.nearest.r8.linear", 100.0),
            ("typed.r8.linear", 10.0),
        ],
        0.0,
    );
    r.device.vendor_id = 0x13b5;
    r.device.peak_per_unit = Some(crate::schema::PeakRates {
        texels_per_clock: 4,
        fma_per_clock: 32,
        pixels_per_clock: 2,
    });
    r.settings.clock_mhz = Some(1000.0);
    let f = findings(&r);
    let p = f.get("peak.texel").unwrap();
    let per_clock = 65536.0 / 100.0 / 132.0;
    assert!((p.value - per_clock / 4.0).abs() < 1e-9, "{}", p.value);
    assert!(
        p.statement.contains("texels per clock and core"),
        "{}",
        p.statement
    );
    assert_eq!(p.cases, ["tex.sample.nearest.r8.linear"]);
    r.device.peak_per_unit = None;
    assert!(findings(&r).get("peak.texel").is_none());
}

#[test]
fn transfer_findings_say_where_uploads_go_and_what_a_launch_costs() {
    let r = report(
        &[
            ("xfer.copy.upload.mapped_write.64kb", 5_000.0),
            ("xfer.copy.upload.staged.64kb", 50_000.0),
            ("xfer.copy.readback.mapped_read.1mb", 10_000_000.0),
            ("xfer.copy.readback.cached_read.1mb", 500_000.0),
            ("xfer.copy.upload.transfer_queue.256mb", 12_000_000.0),
            ("xfer.copy.upload.compute_queue.256mb", 10_000_000.0),
            ("xfer.launch.submit_wait", 20_000.0),
            ("xfer.launch.dispatch.1", 5_002.0),
            ("xfer.launch.dispatch.1024", 5_000.0 + 2.0 * 1024.0),
        ],
        0.01,
    );
    let f = findings(&r);
    let staged = f.get("upload.mapped_vs_staged").unwrap();
    assert!((staged.value - 10.0).abs() < 1e-9, "{}", staged.value);
    let mapped_read = f.get("readback.mapped_vs_cached").unwrap();
    assert!((mapped_read.value - 0.05).abs() < 1e-9);
    let queue = f.get("copy.transfer_queue").unwrap();
    assert!(
        queue.statement.contains("1.20x slower"),
        "{}",
        queue.statement
    );
    let upload = f.get("upload.bandwidth").unwrap();
    assert_eq!(upload.cases, ["xfer.copy.upload.compute_queue.256mb"]);
    assert!((upload.value - 26.8435456).abs() < 1e-6, "{}", upload.value);
    assert!(
        f.get("readback.bandwidth").is_none(),
        "no readback at 16 MB or more"
    );
    let fixed = f.get("launch.fixed_cost").unwrap();
    assert!((fixed.value - 5_000.0).abs() < 1e-6, "{}", fixed.value);
    assert!(
        fixed.statement.contains("5.00 us once"),
        "{}",
        fixed.statement
    );
    assert!((f.get("launch.submit").unwrap().value - 20.0).abs() < 1e-9);
    let texts: Vec<&str> = f.advice.iter().map(|a| a.text.as_str()).collect();
    assert!(
        texts[0].starts_with("Never read mapped device-local memory"),
        "{texts:?}"
    );
    assert!(texts[0].contains("20.0x slower"), "{texts:?}");
    assert!(
        texts[1].contains("write mapped device-local memory directly: 10.0x faster"),
        "{texts:?}"
    );
    // The transfer findings are not the original's: a transfer report names none missing.
    assert!(f.missing.is_empty(), "{:?}", f.missing);
}
