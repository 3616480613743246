use super::*;
use crate::samples::{as_published, case, spread_report};
use crate::schema::CaseResult;

/// A report of `(id, ns per workgroup)` pairs ([`spread_report`]).
fn report(cases: &[(&str, f64)], spread: f64) -> Report {
    spread_report(cases, spread)
}

/// The verdict `id` of `report`.
fn verdict(report: &Report, id: &str) -> Verdict {
    guidance(report, &crate::findings::findings(report))
        .into_iter()
        .find(|v| v.id == id)
        .unwrap_or_else(|| panic!("no verdict {id}"))
}

/// Every case id the table names.
fn named_cases() -> Vec<&'static str> {
    let mut out = Vec::new();
    for claim in claims() {
        let Rule::Tests(tests) = claim.rule else {
            continue;
        };
        for t in tests {
            match t.figure {
                Figure::Ratio(pairs) | Figure::Bytes(pairs) | Figure::RatioElse(pairs, _) => {
                    out.extend(pairs.iter().flat_map(|(a, b)| [*a, *b]));
                }
                Figure::Custom(cases, _) => out.extend(cases),
                Figure::Finding(_) => {}
            }
        }
    }
    out
}

#[test]
fn every_claim_has_one_verdict_with_a_stable_id() {
    let r = report(&[], 0.0);
    let v = guidance(&r, &crate::findings::findings(&r));
    assert_eq!(v.len(), 71);
    let ids: Vec<&str> = v.iter().map(|v| v.id.as_str()).collect();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), 71, "duplicate ids");
    for id in &ids {
        let well_formed = id.split('.').count() == 2
            && id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '_');
        assert!(well_formed, "{id}");
    }
    // The order is the table's, first and last.
    assert_eq!(ids[0], "nvidia.cbuffer_divergent");
    assert_eq!(ids[70], "amd.pixel_export");
    // An empty report measures nothing, and says why for every claim.
    assert!(v.iter().all(|v| v.verdict == Outcome::NotMeasured));
    assert!(
        v.iter().all(|v| v.reason.is_some()),
        "a verdict without reason"
    );
    assert!(v.iter().all(|v| !v.source.url.is_empty()));
}

#[test]
fn claims_with_a_rule_are_counted_and_the_rest_name_what_would_measure_them() {
    let with_rule = claims()
        .filter(|c| matches!(c.rule, Rule::Tests(_)))
        .count();
    assert_eq!(with_rule, 64);
    for claim in claims() {
        if let Rule::NoCase(why) = claim.rule {
            assert!(why.starts_with("no case measures this yet"), "{}", claim.id);
        }
    }
}

#[test]
fn every_case_and_finding_a_rule_names_exists() {
    for id in named_cases() {
        assert!(
            perftest_cases::case_for_id(id).is_some(),
            "unknown case {id}"
        );
    }
    let ratio_findings: Vec<&str> = crate::findings::RULES
        .iter()
        .chain(crate::findings::TRANSFER_RULES)
        .map(|r| r.id)
        .chain(crate::findings::GROUPS.iter().map(|g| g.id))
        .collect();
    for claim in claims() {
        let Rule::Tests(tests) = claim.rule else {
            continue;
        };
        for t in tests {
            if let Figure::Finding(id) | Figure::RatioElse(_, id) = t.figure {
                assert!(
                    ratio_findings.contains(&id),
                    "{}: no finding {id}",
                    claim.id
                );
            }
        }
    }
}

#[test]
fn a_rule_with_a_fallback_reads_the_finding_where_its_cases_are_absent() {
    // The clamp-to-edge cases: nearest R8 2x, RGBA8 1.33x the bilinear rate.
    let clamp = report(
        &[
            ("tex.addr.clamp.nearest.r8.linear", 10.0),
            ("tex.addr.clamp.bilinear.r8.linear", 20.0),
            ("tex.addr.clamp.nearest.rgba8.linear", 15.0),
            ("tex.addr.clamp.bilinear.rgba8.linear", 20.0),
            ("tex.sample.bilinear.rgba8.linear", 20.0),
            ("tex.mip.trilinear.rgba8.linear", 40.0),
            ("tex.mip.aniso16.rgba8.linear", 400.0),
        ],
        0.0,
    );
    let v = verdict(&clamp, "imagination.filter_cost_order");
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - (0.5f64 * 0.75).sqrt()).abs() < 1e-9);
    assert!(v
        .cases
        .contains(&"tex.addr.clamp.nearest.rgba8.linear".to_string()));
    // Only the original's repeat-mode cases, at the same rate: the finding says a tie.
    let repeat = report(
        &[
            ("tex.sample.nearest.rgba8.linear", 20.0),
            ("tex.sample.bilinear.rgba8.linear", 20.0),
            ("tex.mip.trilinear.rgba8.linear", 40.0),
            ("tex.mip.aniso16.rgba8.linear", 400.0),
        ],
        0.0,
    );
    let v = verdict(&repeat, "imagination.filter_cost_order");
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    assert!((v.value.unwrap_or(0.0) - 1.0).abs() < 1e-9);
    assert_eq!(v.cases[0], "tex.sample.bilinear.rgba8.linear");
}

#[test]
fn a_faster_claim_holds_beyond_its_threshold_and_fails_below_it() {
    // Uniform cbuffer 40x faster than per-lane; structured per-lane 8x faster than cbuffer.
    let holds = report(
        &[
            ("cbuffer.float4.uniform", 10.0),
            ("cbuffer.float4.linear", 400.0),
            ("structured.float4.linear", 50.0),
        ],
        0.01,
    );
    let v = verdict(&holds, "nvidia.cbuffer_divergent");
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 40.0).abs() < 1e-9);
    assert_eq!(
        v.cases,
        [
            "cbuffer.float4.uniform",
            "cbuffer.float4.linear",
            "structured.float4.linear"
        ]
    );
    // The second test fails: structured per-lane loads only 1.1x faster.
    let fails = report(
        &[
            ("cbuffer.float4.uniform", 10.0),
            ("cbuffer.float4.linear", 400.0),
            ("structured.float4.linear", 364.0),
        ],
        0.01,
    );
    let v = verdict(&fails, "nvidia.cbuffer_divergent");
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    assert!(v.reason.unwrap_or_default().contains("at least 1.20"));
}

#[test]
fn a_difference_within_the_noise_is_not_measured() {
    // Structured per-lane loads 1.25x faster than cbuffer ones, but the samples spread 40%.
    let r = report(
        &[
            ("structured.float4.uniform", 10.0),
            ("cbuffer.float4.uniform", 12.5),
        ],
        0.4,
    );
    let v = verdict(&r, "nvidia.structured_equals_cbuffer");
    assert_eq!(v.verdict, Outcome::NotMeasured);
    assert!(v.reason.unwrap_or_default().contains("noise"));
    // The same 1.25x with tight samples: a measured difference, so "equivalent" fails.
    let r = report(
        &[
            ("structured.float4.uniform", 10.0),
            ("cbuffer.float4.uniform", 12.5),
        ],
        0.01,
    );
    let v = verdict(&r, "nvidia.structured_equals_cbuffer");
    assert_eq!(v.verdict, Outcome::DoesNotHold);
}

#[test]
fn a_named_factor_holds_near_it_and_not_far_from_it() {
    let trilinear = |ns: f64| {
        report(
            &[
                ("tex.sample.bilinear.r8.linear", 10.0),
                ("tex.mip.trilinear.r8.linear", ns),
                ("tex.sample.bilinear.rgba8.linear", 10.0),
                ("tex.mip.trilinear.rgba8.linear", ns),
                ("tex.sample.bilinear.rgba16f.linear", 10.0),
                ("tex.mip.trilinear.rgba16f.linear", ns),
            ],
            0.01,
        )
    };
    assert_eq!(
        verdict(&trilinear(20.0), "arm.trilinear_cost").verdict,
        Outcome::Holds
    );
    assert_eq!(
        verdict(&trilinear(30.0), "arm.trilinear_cost").verdict,
        Outcome::DoesNotHold
    );
    assert_eq!(
        verdict(&trilinear(10.0), "arm.trilinear_cost").verdict,
        Outcome::DoesNotHold
    );
}

#[test]
fn absent_and_skipped_cases_are_named_in_the_reason() {
    let mut r = report(&[("tex.load.r32f.linear", 10.0)], 0.0);
    r.cases.push(CaseResult::skipped(
        &case("tex.load.rgba32f.linear"),
        "RGBA32F sampled image not supported",
    ));
    let v = verdict(&r, "qualcomm.image_vs_buffer");
    assert_eq!(v.verdict, Outcome::NotMeasured);
    let reason = v.reason.unwrap_or_default();
    assert!(
        reason.contains("tex.load.rgba32f.linear skipped: RGBA32F sampled image not supported"),
        "{reason}"
    );
    assert!(
        reason.contains("the report lacks structured.float.linear"),
        "{reason}"
    );
    assert_eq!(v.cases.len(), 4);
}

#[test]
fn the_published_volta_table_contradicts_structured_equals_cbuffer() {
    // sebbbi's Titan V table: cbuffer{float4} uniform 1.381 ms, StructuredBuffer<float4>
    // uniform 8.890 ms; one figure per case, no noise estimate.
    let mut r = report(
        &[
            ("cbuffer.float4.uniform", 1.381),
            ("structured.float4.uniform", 8.890),
        ],
        0.0,
    );
    as_published(&mut r, "nvidia-volta-titan-v.txt");
    let v = verdict(&r, "nvidia.structured_equals_cbuffer");
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    assert!((v.value.unwrap_or(0.0) - 1.381 / 8.890).abs() < 1e-6);
    assert!(v.reason.unwrap_or_default().contains("no noise estimate"));
}

#[test]
fn a_finding_within_the_noise_is_not_measured() {
    // Raw loads 1.3x faster than typed ones, samples spread 50%: the finding's intervals
    // overlap, and a tie would not hold.
    let noisy = report(
        &[("raw.load.linear", 10.0), ("typed.r32f.linear", 13.0)],
        0.5,
    );
    let v = verdict(&noisy, "intel.raw_vs_typed");
    assert_eq!(v.verdict, Outcome::NotMeasured);
    assert!(v.reason.unwrap_or_default().contains("noise"));
    assert_eq!(v.cases, ["raw.load.linear", "typed.r32f.linear"]);
    let tight = report(
        &[("raw.load.linear", 10.0), ("typed.r32f.linear", 13.0)],
        0.01,
    );
    assert_eq!(
        verdict(&tight, "intel.raw_vs_typed").verdict,
        Outcome::Holds
    );
}

#[test]
fn equal_descriptor_and_address_loads_contradict_amds_claim() {
    let mut cases = Vec::new();
    for size in ["16kb", "64mb"] {
        for pattern in ["linear", "random"] {
            let ns = if pattern == "linear" { 10.0 } else { 25.0 };
            cases.push((format!("modern.ws.{size}.aligned.{pattern}"), ns));
            cases.push((format!("modern.ws.{size}.bda.{pattern}"), ns * 1.001));
        }
    }
    let pairs: Vec<(&str, f64)> = cases.iter().map(|(id, ns)| (id.as_str(), *ns)).collect();
    let v = verdict(&report(&pairs, 0.0), "amd.descriptor_vs_address");
    assert_eq!(v.verdict, Outcome::DoesNotHold, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.001).abs() < 1e-6);
}

#[test]
fn linear_scaling_of_constant_addresses_reads_the_subgroup_size() {
    // Every lane its own address: 32x slower, as linear scaling with 32 lanes says.
    let mut r = report(
        &[
            ("cbuffer.float4.uniform", 10.0),
            ("cbuffer.float4.linear", 320.0),
        ],
        0.0,
    );
    assert_eq!(
        verdict(&r, "nvidia.constant_unique_addresses").verdict,
        Outcome::Holds
    );
    // With 64 lanes the same 32x is half of linear.
    r.device.subgroup_size = 64;
    let v = verdict(&r, "nvidia.constant_unique_addresses");
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    assert!((v.value.unwrap_or(0.0) - 0.5).abs() < 1e-9);
    r.device.subgroup_size = 0;
    let v = verdict(&r, "nvidia.constant_unique_addresses");
    assert_eq!(v.verdict, Outcome::NotMeasured);
}

#[test]
fn bytes_rules_weigh_the_load_width() {
    // 128-bit shared loads at a third of the 32-bit rate move 4/3 of the bytes: holds.
    let r = report(
        &[
            ("mem.shared.width.128", 30.0),
            ("mem.shared.width.32", 10.0),
        ],
        0.0,
    );
    let v = verdict(&r, "intel.shared_vec4");
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 4.0 / 3.0).abs() < 1e-9);
    // At a quarter of the rate they move the same bytes: does not hold.
    let r = report(
        &[
            ("mem.shared.width.128", 40.0),
            ("mem.shared.width.32", 10.0),
        ],
        0.0,
    );
    assert_eq!(
        verdict(&r, "intel.shared_vec4").verdict,
        Outcome::DoesNotHold
    );
}

/// A report of the buffer-layout cases `ids`, each at `a` ns per workgroup for the first of
/// each pair and `b` for the second, linear and random.
fn layout_report(pairs: &[(&str, &str)], a: f64, b: f64) -> Report {
    let mut cases = Vec::new();
    for (first, second) in pairs {
        for pattern in ["linear", "random"] {
            cases.push((format!("mem.layout.{first}.{pattern}"), a));
            cases.push((format!("mem.layout.{second}.{pattern}"), b));
        }
    }
    let refs: Vec<(&str, f64)> = cases.iter().map(|(id, ns)| (id.as_str(), *ns)).collect();
    report(&refs, 0.0)
}

#[test]
fn layout_claims_hold_beyond_a_fifth_and_fail_within_it() {
    let claims: [(&str, &[(&str, &str)]); 3] = [
        ("intel.soa_layout", &[("soa", "aos64")]),
        ("nvidia.structured_stride", &[("stride32", "stride20")]),
        (
            "intel.readonly_buffers",
            &[("stride16", "rw.stride16"), ("raw", "rw.raw")],
        ),
    ];
    for (id, pairs) in claims {
        // The recommended form in 10 ns per workgroup, the other in 15: 1.5x, holds.
        let v = verdict(&layout_report(pairs, 10.0, 15.0), id);
        assert_eq!(v.verdict, Outcome::Holds, "{id}: {:?}", v.reason);
        assert!((v.value.unwrap_or(0.0) - 1.5).abs() < 1e-9, "{id}");
        assert_eq!(v.cases.len(), 4 * pairs.len(), "{id}");
        // 1.1x: within the margin, does not hold.
        let v = verdict(&layout_report(pairs, 10.0, 11.0), id);
        assert_eq!(v.verdict, Outcome::DoesNotHold, "{id}: {:?}", v.reason);
        assert!((v.value.unwrap_or(0.0) - 1.1).abs() < 1e-9, "{id}");
        assert!(
            v.reason.is_some_and(|r| r.contains("at least 1.20")),
            "{id}"
        );
        // Slower: does not hold either.
        let v = verdict(&layout_report(pairs, 15.0, 10.0), id);
        assert_eq!(v.verdict, Outcome::DoesNotHold, "{id}");
    }
    // Without the scalar layout the 20-byte stride is skipped: not measured, and why.
    let mut r = layout_report(&[("stride32", "stride20")], 10.0, 15.0);
    for c in &mut r.cases {
        if c.id.contains("stride20") {
            c.measurement = None;
            c.status = crate::schema::CaseStatus::Skipped {
                reason: "the device lacks scalarBlockLayout".to_string(),
            };
        }
    }
    let v = verdict(&r, "nvidia.structured_stride");
    assert_eq!(v.verdict, Outcome::NotMeasured);
    assert!(v.reason.is_some_and(|r| r.contains("scalarBlockLayout")));
}

/// A report of the texture chains at `texture` ns per workgroup (256 steps) and the pointer
/// chase at the same working sets at `buffer`.
fn chain_report(buffer: f64, texture: f64) -> Report {
    let mut cases = Vec::new();
    for size in ["16kb", "4mb"] {
        cases.push((format!("mem.sweep.latency.{size}"), buffer));
        for kind in ["fetch", "sample"] {
            cases.push((format!("mem.texchain.{kind}.{size}"), texture));
        }
    }
    let refs: Vec<(&str, f64)> = cases.iter().map(|(id, ns)| (id.as_str(), *ns)).collect();
    report(&refs, 0.0)
}

#[test]
fn dependent_texture_reads_hold_when_a_texture_step_costs_a_fifth_more() {
    let id = "intel.dependent_reads";
    // A texture step takes 1.5x a buffer step: the buffer chain walks 1.5x the steps per second.
    let v = verdict(&chain_report(1000.0, 1500.0), id);
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.5).abs() < 1e-9);
    assert_eq!(v.cases.len(), 6, "each buffer chain once");
    // 1.1x: within the margin.
    let v = verdict(&chain_report(1000.0, 1100.0), id);
    assert_eq!(v.verdict, Outcome::DoesNotHold, "{:?}", v.reason);
    assert!(v.reason.is_some_and(|r| r.contains("at least 1.20")));
    // Texture steps cheaper than buffer steps: does not hold.
    let v = verdict(&chain_report(1500.0, 1000.0), id);
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    // A chain the device skips: not measured, and why.
    let mut r = chain_report(1000.0, 1500.0);
    for c in &mut r.cases {
        if c.id == "mem.texchain.sample.4mb" {
            c.measurement = None;
            c.status = crate::schema::CaseStatus::Skipped {
                reason: "VK_FORMAT_R32G32_SFLOAT does not support SAMPLED_IMAGE".to_string(),
            };
        }
    }
    let v = verdict(&r, id);
    assert_eq!(v.verdict, Outcome::NotMeasured);
    assert!(v.reason.is_some_and(|r| r.contains("SAMPLED_IMAGE")));
}

/// A report of the original texture loads and samples (R8, RGBA8, RGBA32F; linear and random)
/// at `optimal` ns per workgroup and their linear-tiling twins at `linear`.
fn tiling_report(optimal: f64, linear: f64) -> Report {
    let mut cases = Vec::new();
    for (read, twin) in [
        ("load", "tex.load"),
        ("nearest", "tex.sample.nearest"),
        ("bilinear", "tex.sample.bilinear"),
    ] {
        for format in ["r8", "rgba8", "rgba32f"] {
            for pattern in ["linear", "random"] {
                cases.push((format!("{twin}.{format}.{pattern}"), optimal));
                cases.push((
                    format!("tex.tiling.linear.{read}.{format}.{pattern}"),
                    linear,
                ));
            }
        }
    }
    let refs: Vec<(&str, f64)> = cases.iter().map(|(id, ns)| (id.as_str(), *ns)).collect();
    report(&refs, 0.0)
}

#[test]
fn optimal_tiling_holds_when_the_optimal_textures_are_a_fifth_faster() {
    let id = "nvidia.optimal_tiling";
    let v = verdict(&tiling_report(10.0, 13.0), id);
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.3).abs() < 1e-9);
    assert_eq!(v.cases.len(), 36);
    let v = verdict(&tiling_report(10.0, 11.0), id);
    assert_eq!(v.verdict, Outcome::DoesNotHold, "{:?}", v.reason);
    assert!(v.reason.is_some_and(|r| r.contains("at least 1.20")));
    let v = verdict(&tiling_report(13.0, 10.0), id);
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    // A device without linear filtering in linear tiling skips the bilinear twins.
    let mut r = tiling_report(10.0, 13.0);
    for c in &mut r.cases {
        if c.id.starts_with("tex.tiling.linear.bilinear.") {
            c.measurement = None;
            c.status = crate::schema::CaseStatus::Skipped {
                reason: "VK_FORMAT_R8_UNORM does not support SAMPLED_IMAGE_FILTER_LINEAR \
                         (linear tiling)"
                    .to_string(),
            };
        }
    }
    let v = verdict(&r, id);
    assert_eq!(v.verdict, Outcome::NotMeasured);
    assert!(v.reason.is_some_and(|r| r.contains("linear tiling")));
}

#[test]
fn across_counts_each_outcome_and_names_the_exceptions() {
    let gpu = |name: &str, structured_ns: f64| {
        let mut r = report(
            &[
                ("cbuffer.float4.uniform", 10.0),
                ("structured.float4.uniform", structured_ns),
            ],
            0.0,
        );
        r.device.name = name.to_string();
        r
    };
    let (a, b, c) = (gpu("A", 10.5), gpu("B", 60.0), gpu("C", 9.5));
    let empty = report(&[], 0.0);
    let all = across(&[&a, &b, &c, &empty]);
    assert_eq!(all.len(), 71);
    let s = all
        .iter()
        .find(|s| s.id == "nvidia.structured_equals_cbuffer")
        .unwrap_or_else(|| panic!("missing"));
    assert_eq!((s.holds, s.does_not_hold, s.not_measured), (2, 1, 1));
    assert_eq!(s.usual, Outcome::Holds);
    assert_eq!(s.exceptions, ["B"]);
    // No GPU measures it: no usual outcome, no exceptions.
    let n = &all[16];
    assert_eq!((n.holds, n.does_not_hold, n.not_measured), (0, 0, 4));
    assert_eq!(n.usual, Outcome::NotMeasured);
    assert!(n.exceptions.is_empty());
}

#[cfg(feature = "serde")]
#[test]
fn outcomes_serialise_in_snake_case() {
    let v = verdict(&report(&[], 0.0), "nvidia.structured_equals_cbuffer");
    let json = serde_json::to_value(&v).unwrap_or_default();
    assert_eq!(json["verdict"], "not_measured");
    assert_eq!(json["source"]["url"], v.source.url.as_str());
    assert_eq!(
        serde_json::to_value(Outcome::DoesNotHold).unwrap_or_default(),
        "does_not_hold"
    );
}

/// The committed original-suite report of the H200 (a copy of the results collection's).
#[cfg(feature = "serde")]
#[test]
fn the_h200_original_report_measures_its_claims() {
    let text = include_str!("../../tests/fixtures/nvidia-h200.json");
    let r: Report = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
    let v = guidance(&r, &crate::findings::findings(&r));
    let measured: Vec<&str> = v
        .iter()
        .filter(|v| v.verdict != Outcome::NotMeasured)
        .map(|v| v.id.as_str())
        .collect();
    assert_eq!(measured.len(), 14, "{measured:?}");
    let get = |id: &str| v.iter().find(|v| v.id == id).map(|v| v.verdict);
    assert_eq!(get("nvidia.cbuffer_divergent"), Some(Outcome::Holds));
    // 1.12x: within "equivalent" on this GPU.
    assert_eq!(
        get("nvidia.structured_equals_cbuffer"),
        Some(Outcome::Holds)
    );
    assert_eq!(get("amd.typed_channels"), Some(Outcome::DoesNotHold));
}

#[test]
fn the_book_documents_every_claim_with_its_source() {
    let book = include_str!("../../../../docs/src/guidance.md");
    for claim in claims() {
        let heading = format!("### `{}`", claim.id);
        let Some(at) = book.find(&heading) else {
            panic!("the guidance chapter lacks {}", claim.id);
        };
        let section = &book[at..];
        let end = section[heading.len()..]
            .find("### ")
            .map_or(section.len(), |e| e + heading.len());
        assert!(
            section[..end].contains(claim.source.url),
            "{}: the chapter does not cite {}",
            claim.id,
            claim.source.url
        );
    }
}

/// The workgroup sweep at `per_thread(id)` nanoseconds per thread: every case of
/// `workgroups::SWEEPS`, the texture rows and the exchange (a group of T threads takes T times
/// as long, so equal figures mean equal loads per second).
fn sweep(per_thread: impl Fn(&str) -> f64) -> Report {
    use super::workgroups::{EXCHANGE, SWEEPS, TEXTURE_ALL};
    let ids: Vec<&str> = SWEEPS
        .iter()
        .chain(&TEXTURE_ALL[6..])
        .chain(&EXCHANGE)
        .copied()
        .collect();
    let cases: Vec<(&str, f64)> = ids
        .iter()
        .map(|id| {
            let threads = perftest_cases::case_for_id(id)
                .unwrap_or_else(|| panic!("no case {id}"))
                .threads();
            (*id, f64::from(threads) * per_thread(id))
        })
        .collect();
    report(&cases, 0.01)
}

#[test]
fn equal_rates_at_every_size_hold_the_best_group_claims_and_not_the_gain_claims() {
    let r = sweep(|_| 1.0);
    for id in [
        "intel.workgroup_8x8",
        "nvidia.workgroup_64",
        "arm.workgroup_64_max",
    ] {
        let v = verdict(&r, id);
        assert_eq!(v.verdict, Outcome::Holds, "{id}: {:?}", v.reason);
        assert!((v.value.unwrap_or(0.0) - 1.0).abs() < 1e-9, "{id}");
    }
    // Nothing gained by a multiple of 64 or by 2D groups: those claims do not hold.
    for id in ["amd.workgroup_multiple_64", "arm.image_locality"] {
        let v = verdict(&r, id);
        assert_eq!(v.verdict, Outcome::DoesNotHold, "{id}: {:?}", v.reason);
        assert!(v.reason.unwrap_or_default().contains("at least 1.20"));
    }
}

#[test]
fn the_workgroup_rules_follow_the_sweep() {
    // Half-empty waves of 64 lanes: 32-thread groups take twice as long per thread; 1D
    // texture rows 1.5x as long as 2D groups; barriers cost more in large groups.
    let r = sweep(|id| {
        let slow_32 = if id.contains(".32x1.") || id.contains(".8x4.") {
            2.0
        } else {
            1.0
        };
        let row = if id.contains("tex") && id.contains("x1.") {
            1.5
        } else {
            1.0
        };
        let barrier = match id {
            _ if id.contains("exchange.load4.1024x1") => 3.0,
            _ if id.contains("exchange") && !id.contains(".64x1.") => 1.5 * slow_32,
            _ => slow_32,
        };
        barrier * row
    });
    let v = verdict(&r, "amd.workgroup_multiple_64");
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 2.0).abs() < 1e-9);
    let v = verdict(&r, "arm.image_locality");
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.5).abs() < 1e-9);
    assert_eq!(v.cases[1], "mem.wg.tex.load.rgba8.256x1.linear");
    // 64 is the best exchange size, 1.5x the best larger one.
    let v = verdict(&r, "arm.workgroup_64_max");
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.5).abs() < 1e-9);
    assert!(v
        .cases
        .contains(&"mem.wg.exchange.load4.64x1.linear".to_string()));
    let v = verdict(&r, "nvidia.workgroup_64");
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);

    // Groups of 256 and more twice as fast per thread as smaller ones: 64 and 8x8 fall short
    // of the best, and small groups lose to large ones.
    let large = sweep(|id| {
        let threads = perftest_cases::case_for_id(id).map_or(0, |c| c.threads());
        if threads >= 256 {
            1.0
        } else {
            2.0
        }
    });
    for id in [
        "intel.workgroup_8x8",
        "nvidia.workgroup_64",
        "arm.workgroup_64_max",
    ] {
        let v = verdict(&large, id);
        assert_eq!(v.verdict, Outcome::DoesNotHold, "{id}: {:?}", v.reason);
        assert!((v.value.unwrap_or(0.0) - 0.5).abs() < 1e-9, "{id}");
        assert!(v.reason.unwrap_or_default().contains("at least 0.83"));
    }
}

#[test]
fn a_size_the_device_skips_leaves_the_workgroup_rules_to_the_others() {
    // A device of at most 512 threads per group: the 1024 cases are absent, and the rules read
    // the rest; without the 64-thread case there is no figure.
    let r = sweep(|_| 1.0);
    let mut partial = r.clone();
    partial
        .cases
        .retain(|c| !c.id.contains("1024x1") && !c.id.contains("32x32"));
    let v = verdict(&partial, "nvidia.workgroup_64");
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    let mut no_64 = r;
    no_64
        .cases
        .retain(|c| c.id != "mem.wg.raw.load4.64x1.random");
    let v = verdict(&no_64, "nvidia.workgroup_64");
    assert_eq!(v.verdict, Outcome::NotMeasured);
    assert!(v
        .reason
        .unwrap_or_default()
        .contains("mem.wg.raw.load4.64x1.random"));
}

/// A report of the 8192x4096 texture-bandwidth cases at `(format, ns per workgroup)`: every
/// case's workgroup reads the same texels, so a shorter time is a higher texel rate.
fn texture_bandwidth_report(times: &[(&str, f64)]) -> Report {
    let ids: Vec<(String, f64)> = times
        .iter()
        .map(|(f, ns)| (format!("mem.texbw.8192x4096.{f}"), *ns))
        .collect();
    let refs: Vec<(&str, f64)> = ids.iter().map(|(id, ns)| (id.as_str(), *ns)).collect();
    report(&refs, 0.0)
}

const TEXTURE_BANDWIDTH_CLAIMS: [&str; 3] = [
    "nvidia.32bit_formats",
    "intel.block_compression",
    "arm.texture_compression",
];

#[test]
fn texture_bandwidth_claims_hold_when_texel_rates_follow_the_bytes() {
    // Time in proportion to the bytes a texel takes (memory-bound): every claim holds.
    let by_bytes = [
        ("rgba32f", 16.0),
        ("rgba16f", 8.0),
        ("rgba8", 4.0),
        ("b10g11r11f", 4.0),
        ("bc7", 1.0),
        ("bc1", 0.5),
    ];
    let r = texture_bandwidth_report(&by_bytes);
    for id in TEXTURE_BANDWIDTH_CLAIMS {
        assert_eq!(verdict(&r, id).verdict, Outcome::Holds, "{id}");
    }
    assert!((verdict(&r, "nvidia.32bit_formats").value.unwrap_or(0.0) - 2.0).abs() < 1e-9);
    // BC1 8x and BC7 4x faster than RGBA8: sqrt(32).
    let bc = verdict(&r, "intel.block_compression");
    assert!((bc.value.unwrap_or(0.0) - 32f64.sqrt()).abs() < 1e-9);
    // Without ASTC (NVIDIA's desktop GPUs), Arm's claim is judged on the BC formats, and the
    // cases it read say so.
    let arm = verdict(&r, "arm.texture_compression");
    assert!((arm.value.unwrap_or(0.0) - 32f64.sqrt()).abs() < 1e-9);
    assert!(arm.cases.iter().any(|c| c.ends_with(".bc1")));
    // With ASTC only (a Mali), it is judged on ASTC.
    let astc = texture_bandwidth_report(&[
        ("rgba32f", 16.0),
        ("rgba16f", 8.0),
        ("rgba8", 4.0),
        ("astc4x4", 1.0),
    ]);
    let v = verdict(&astc, "arm.texture_compression");
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 4.0).abs() < 1e-9);
}

#[test]
fn texture_bandwidth_claims_fail_at_equal_texel_rates_and_name_what_is_missing() {
    // Every format at one texel rate (bound by the texture units, not the memory): a tie.
    let flat: Vec<(&str, f64)> = [
        "rgba32f",
        "rgba16f",
        "rgba8",
        "b10g11r11f",
        "bc7",
        "astc4x4",
        "bc1",
    ]
    .iter()
    .map(|f| (*f, 4.0))
    .collect();
    let r = texture_bandwidth_report(&flat);
    for id in TEXTURE_BANDWIDTH_CLAIMS {
        let v = verdict(&r, id);
        assert_eq!(v.verdict, Outcome::DoesNotHold, "{id}");
        assert!(
            v.reason.is_some_and(|r| r.contains("at least 1.20")),
            "{id}"
        );
    }
    // 1.1x is within the margin: still no.
    let near = texture_bandwidth_report(&[("rgba16f", 4.4), ("rgba8", 4.0), ("b10g11r11f", 4.0)]);
    assert_eq!(
        verdict(&near, "nvidia.32bit_formats").verdict,
        Outcome::DoesNotHold
    );
    // No compressed format measured: Arm's compression test is not measured, and says which
    // cases it lacks.
    let v = verdict(&near, "arm.texture_compression");
    assert_eq!(v.verdict, Outcome::NotMeasured);
    assert!(v
        .reason
        .is_some_and(|r| r.contains("mem.texbw.8192x4096.bc7")));
    // The memory suite's other sizes do not stand in for the image beyond the L2.
    let small = report(
        &[("mem.texbw.64x64.bc1", 1.0), ("mem.texbw.64x64.rgba8", 4.0)],
        0.0,
    );
    assert_eq!(
        verdict(&small, "intel.block_compression").verdict,
        Outcome::NotMeasured
    );
}

/// A report of each original case `ids` (`raw.load4`, ...), linear and random, at `plain` ns
/// per workgroup, and of its twin under `prefix` (`mem.robust`) at `twin`.
fn twin_report(prefix: &str, ids: &[&str], plain: f64, twin: f64) -> Report {
    let mut cases = Vec::new();
    for id in ids {
        for pattern in ["linear", "random"] {
            cases.push((format!("{id}.{pattern}"), plain));
            cases.push((format!("{prefix}.{id}.{pattern}"), twin));
        }
    }
    let refs: Vec<(&str, f64)> = cases.iter().map(|(id, ns)| (id.as_str(), *ns)).collect();
    report(&refs, 0.0)
}

#[test]
fn robust_buffer_access_holds_when_the_plain_loads_are_a_fifth_faster() {
    let ids = [
        "raw.load",
        "raw.load4",
        "structured.float4",
        "cbuffer.float4",
    ];
    let id = "arm.robust_buffer_access";
    // Robust loads at 13 ns per workgroup against 10: the plain ones 1.3x faster, holds.
    let v = verdict(&twin_report("mem.robust", &ids, 10.0, 13.0), id);
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.3).abs() < 1e-9);
    assert_eq!(v.cases.len(), 16);
    // 1.1x: within the margin, a tie, does not hold; robust faster does not hold either.
    for twin in [11.0, 9.0] {
        let v = verdict(&twin_report("mem.robust", &ids, 10.0, twin), id);
        assert_eq!(v.verdict, Outcome::DoesNotHold, "{twin}: {:?}", v.reason);
    }
    // Without the twins (a device without pipelineRobustness): not measured.
    let v = verdict(&report(&[("raw.load4.linear", 10.0)], 0.0), id);
    assert_eq!(v.verdict, Outcome::NotMeasured, "{:?}", v.reason);
}

#[test]
fn update_after_bind_holds_when_the_twins_tie() {
    let pairs = [
        "modern.slot.uniform.load4.linear",
        "modern.slot.uniform.load4.random",
        "modern.slot.uniform.load.linear",
        "modern.slot.nonuniform.load4.random",
        "modern.tex.uniform",
        "modern.tex.nonuniform.n4",
    ];
    let at = |twin: f64| {
        let ids: Vec<(String, f64)> = pairs
            .iter()
            .flat_map(|id| {
                let uab = id.replacen("modern.", "modern.uab.", 1);
                [(id.to_string(), 10.0), (uab, twin)]
            })
            .collect();
        let refs: Vec<(&str, f64)> = ids.iter().map(|(id, ns)| (id.as_str(), *ns)).collect();
        verdict(&report(&refs, 0.0), "arm.update_after_bind")
    };
    // 11 ns per workgroup against 10: within the margin, a tie, holds.
    let v = at(11.0);
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.1).abs() < 1e-9);
    assert_eq!(v.cases.len(), 12);
    // Update-after-bind 1.5x slower, or 1.5x faster: does not hold.
    for twin in [15.0, 10.0 / 1.5] {
        let v = at(twin);
        assert_eq!(v.verdict, Outcome::DoesNotHold, "{twin}: {:?}", v.reason);
    }
}

#[test]
fn concurrent_sharing_holds_when_the_twins_tie() {
    let ids = [
        "raw.load",
        "raw.load4",
        "structured.float4",
        "cbuffer.float4",
    ];
    let id = "nvidia.concurrent_sharing";
    // Concurrent at 11 ns per workgroup against 10: within the margin, a tie, holds.
    let v = verdict(&twin_report("mem.concurrent", &ids, 10.0, 11.0), id);
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.1).abs() < 1e-9);
    assert_eq!(v.cases.len(), 16);
    // Concurrent 1.5x slower, or 1.5x faster: does not hold.
    for twin in [15.0, 10.0 / 1.5] {
        let v = verdict(&twin_report("mem.concurrent", &ids, 10.0, twin), id);
        assert_eq!(v.verdict, Outcome::DoesNotHold, "{twin}: {:?}", v.reason);
    }
}

/// A report of `(first, second)` pairs of ids, the first of each at `a` ns per workgroup and
/// the second at `b`.
fn pair_report(pairs: &[(String, String)], a: f64, b: f64) -> Report {
    let cases: Vec<(&str, f64)> = pairs
        .iter()
        .flat_map(|(x, y)| [(x.as_str(), a), (y.as_str(), b)])
        .collect();
    report(&cases, 0.0)
}

#[test]
fn combined_samplers_hold_from_three_percent_and_a_tie_does_not() {
    let pairs: Vec<(String, String)> = ["nearest", "bilinear"]
        .iter()
        .flat_map(|f| ["rgba8", "rgba32f"].map(move |fmt| (f, fmt)))
        .flat_map(|(f, fmt)| {
            ["linear", "random"].map(|p| {
                (
                    format!("tex.sample.{f}.{fmt}.{p}"),
                    format!("tex.separate.{f}.{fmt}.{p}"),
                )
            })
        })
        .collect();
    let id = "nvidia.combined_samplers";
    // Combined 5% faster: holds.
    let v = verdict(&pair_report(&pairs, 100.0, 105.0), id);
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.05).abs() < 1e-9);
    assert_eq!(v.cases.len(), 16);
    // 2%: a tie, does not hold.
    let v = verdict(&pair_report(&pairs, 100.0, 102.0), id);
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    assert!(v.reason.is_some_and(|r| r.contains("at least 1.03")));
    // Separate faster: does not hold.
    let v = verdict(&pair_report(&pairs, 105.0, 100.0), id);
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    // Without the separate cases (a report of the original suite): not measured.
    let originals: Vec<(&str, f64)> = pairs.iter().map(|(a, _)| (a.as_str(), 100.0)).collect();
    let v = verdict(&report(&originals, 0.0), id);
    assert_eq!(v.verdict, Outcome::NotMeasured);
    assert!(v.reason.is_some_and(|r| r.contains("tex.separate.")));
}

#[test]
fn medium_precision_holds_from_a_fifth_faster() {
    let pairs: Vec<(String, String)> = ["nearest", "bilinear"]
        .iter()
        .flat_map(|f| ["rgba8", "rgba16f"].map(move |fmt| (f, fmt)))
        .flat_map(|(f, fmt)| {
            ["linear", "random"].map(|p| {
                (
                    format!("tex.mediump.{f}.{fmt}.{p}"),
                    format!("tex.sample.{f}.{fmt}.{p}"),
                )
            })
        })
        .collect();
    let id = "arm.sample_precision";
    let v = verdict(&pair_report(&pairs, 10.0, 15.0), id);
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.5).abs() < 1e-9);
    assert_eq!(v.cases.len(), 16);
    // 1.1x: a tie.
    let v = verdict(&pair_report(&pairs, 10.0, 11.0), id);
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    assert!(v.reason.is_some_and(|r| r.contains("at least 1.20")));
}

/// A report of the sRGB rule's cases: UNORM and sRGB trilinear at `tri` ns per workgroup
/// each, UNORM anisotropic at 10 and sRGB anisotropic at `srgb_aniso`; the sRGB trilinear
/// cases at `srgb_tri`.
fn srgb_report(tri: f64, srgb_tri: f64, srgb_aniso: f64) -> Report {
    let mut cases = Vec::new();
    for p in ["linear", "random"] {
        cases.push((format!("tex.mip.trilinear.rgba8.{p}"), tri));
        cases.push((format!("tex.srgb.trilinear.{p}"), srgb_tri));
        cases.push((format!("tex.mip.aniso16.rgba8.{p}"), 10.0));
        cases.push((format!("tex.srgb.aniso16.{p}"), srgb_aniso));
    }
    let refs: Vec<(&str, f64)> = cases.iter().map(|(id, ns)| (id.as_str(), *ns)).collect();
    report(&refs, 0.0)
}

#[test]
fn srgb_aniso_holds_only_when_the_combination_costs_more_than_srgb_alone() {
    let id = "intel.srgb_aniso";
    // sRGB free at trilinear, 1.5x slower anisotropic: holds, the first test's figure.
    let v = verdict(&srgb_report(5.0, 5.0, 15.0), id);
    assert_eq!(v.verdict, Outcome::Holds, "{:?}", v.reason);
    assert!((v.value.unwrap_or(0.0) - 1.5).abs() < 1e-9);
    assert_eq!(v.cases.len(), 8);
    // sRGB 1.5x slower everywhere: slow, but not the combination: does not hold.
    let v = verdict(&srgb_report(5.0, 7.5, 15.0), id);
    assert_eq!(v.verdict, Outcome::DoesNotHold, "{:?}", v.reason);
    // sRGB free everywhere: does not hold.
    let v = verdict(&srgb_report(5.0, 5.0, 10.0), id);
    assert_eq!(v.verdict, Outcome::DoesNotHold);
    // The anisotropic sRGB cases skipped: not measured, and why.
    let mut r = srgb_report(5.0, 5.0, 15.0);
    for c in &mut r.cases {
        if c.id.starts_with("tex.srgb.aniso16.") {
            c.measurement = None;
            c.status = crate::schema::CaseStatus::Skipped {
                reason: "the device lacks samplerAnisotropy".to_string(),
            };
        }
    }
    let v = verdict(&r, id);
    assert_eq!(v.verdict, Outcome::NotMeasured);
    assert!(v.reason.is_some_and(|r| r.contains("samplerAnisotropy")));
}
