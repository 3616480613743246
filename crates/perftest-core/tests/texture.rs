//! The texture suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use common::{corrupted, every_case_verifies};
use perftest_cases::{
    case_for_id, cases_in, reference_sum, verify, Case, KernelParams, Readback, Suite, Support,
};

/// Cases lavapipe cannot run, as (id substring, reason substring): the test fails when a case
/// is skipped for another reason, or when a listed skip no longer happens.
const EXPECTED_SKIPS: &[(&str, &str)] = &[];

/// The largest |gpu - model| / sum of |terms| over the lanes of `readback` (printed, to show
/// how far the driver is from the model).
fn largest_error(case: &perftest_cases::Case, readback: &Readback) -> f32 {
    let params = KernelParams::for_case(case);
    let [wx, _] = case.workgroup_size();
    let mut worst = 0.0f32;
    for (t, got) in readback.sums.iter().enumerate() {
        let local = (t % 256) as u32;
        let want = reference_sum(case, params, [local % wx, local / wx]);
        for ((g, w), scale) in got.iter().zip(want.sum).zip(want.abs_sum) {
            worst = worst.max((g - w).abs() / scale.max(f32::MIN_POSITIVE));
        }
    }
    worst
}

/// Prints how far lavapipe is from the exact model for the cases where the model allows some
/// slack.
fn inspect(case: &Case, readback: &Readback) {
    // Filtered blends (off-centre, mips), and the formats whose decode the model allows
    // some slack (sRGB, BC1/BC4/BC5; the sRGB filtering cases): how far lavapipe is from the
    // exact model.
    let slack = ["rgba8srgb", "bc1", "bc4", "bc5"]
        .iter()
        .any(|f| case.id.starts_with(&format!("tex.fmt.load.{f}.")));
    let filtered = ["tex.offcentre.", "tex.mip.", "tex.srgb."]
        .iter()
        .any(|p| case.id.starts_with(p));
    if slack || (filtered && case.pattern.name() != "uniform") {
        eprintln!(
            "{}: largest error {:.2e}",
            case.id,
            largest_error(case, readback)
        );
    }
}

// One test per family: `every_case_verifies::texture_address` and so on.
every_case_verifies!(Suite::Texture, EXPECTED_SKIPS, inspect;
    texture_address, texture_unnormalized, texture_offcentre, texture_gather, texture_shape,
    texture_storage, texture_tiling, texel_buffer_formats, texture_formats, texture_mips,
    texture_separate, texture_precision, texture_srgb);

/// Verifies each case of `family` (`ids` starting with `prefix`), checks that a one-bit change
/// fails, and that its read-back fails against the model of the case `wrong` names for it
/// (another pattern, format or decode), so that a wrong CPU expectation is caught; no
/// validation message. Returns the number of cases checked.
fn verifies_and_fails_against_another_model(prefix: &str, wrong: fn(&str) -> String) -> usize {
    let (instance, mut bench) = common::bench();
    let all = cases_in(&[Suite::Texture]);
    let cases: Vec<&Case> = all.iter().filter(|c| c.id.starts_with(prefix)).collect();
    for case in &cases {
        assert_eq!(bench.support(case), Support::Supported, "{}", case.id);
        let readback = bench
            .prepare(case)
            .and_then(|k| bench.verify(k))
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let outcome = verify(case, &readback);
        assert!(outcome.passed(), "{}: {:?}", case.id, outcome.first);
        assert!(!verify(case, &corrupted(&readback)).passed(), "{}", case.id);
        let other_id = wrong(&case.id);
        let other = case_for_id(&other_id).unwrap_or_else(|| panic!("no case {other_id}"));
        assert!(
            !verify(&other, &readback).passed(),
            "{} passed as {other_id}",
            case.id
        );
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
    cases.len()
}

/// The linear read-back of a case against its random model and the others against the
/// linear one.
fn other_pattern(id: &str) -> String {
    match id.strip_suffix(".linear") {
        Some(stem) => format!("{stem}.random"),
        None => {
            let stem = id.rsplit_once('.').map_or(id, |(s, _)| s);
            format!("{stem}.linear")
        }
    }
}

/// The separate-sampler cases fail against the model of another pattern.
#[test]
fn separate_samplers_verify_and_fail_against_another_model() {
    assert_eq!(
        verifies_and_fails_against_another_model("tex.separate.", other_pattern),
        24
    );
}

/// The medium-precision cases fail against the model of another pattern.
#[test]
fn medium_precision_samples_verify_and_fail_against_another_model() {
    assert_eq!(
        verifies_and_fails_against_another_model("tex.mediump.", other_pattern),
        24
    );
}

/// The UNORM twin of an sRGB case: the same kernel and bytes, the texels not decoded.
fn unorm_twin(id: &str) -> String {
    let rest = id.trim_start_matches("tex.srgb.");
    let (mode, pattern) = rest.split_once('.').unwrap();
    match mode {
        "bilinear" => format!("tex.sample.bilinear.rgba8.{pattern}"),
        _ => format!("tex.mip.{mode}.rgba8.{pattern}"),
    }
}

/// The sRGB cases fail against their UNORM twins' models (a missing decode is caught).
#[test]
fn srgb_samples_verify_and_fail_against_the_unorm_model() {
    assert_eq!(
        verifies_and_fails_against_another_model("tex.srgb.", unorm_twin),
        9
    );
}

/// The linear-tiling twins on their own: lavapipe samples linearly tiled R8, RGBA8 and RGBA32F,
/// so each case runs and verifies; its read-back fails against the other pattern's model (a
/// one-bit change fails too, in `every_case_verifies`), and no validation message.
#[test]
fn every_linear_tiling_case_verifies_and_fails_against_another_model() {
    use perftest_cases::{cases_in, verify, Support};
    let (instance, mut bench) = common::bench();
    let cases: Vec<Case> = cases_in(&[Suite::Texture])
        .into_iter()
        .filter(|c| c.family.label() == "texture_tiling")
        .collect();
    assert_eq!(cases.len(), 18);
    for (i, case) in cases.iter().enumerate() {
        assert_eq!(bench.support(case), Support::Supported, "{}", case.id);
        let readback = bench
            .prepare(case)
            .and_then(|k| bench.verify(k))
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let outcome = verify(case, &readback);
        assert!(outcome.passed(), "{}: {:?}", case.id, outcome.first);
        // Cases come linear then random for each read and format.
        let other = &cases[i ^ 1];
        assert_ne!(other.pattern, case.pattern);
        assert!(
            !verify(other, &readback).passed(),
            "{} passed as {}",
            case.id,
            other.id
        );
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}
