//! The texture suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use common::every_case_verifies;
use perftest_cases::{reference_sum, Case, KernelParams, Readback, Suite};

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
    // some slack (sRGB, BC1/BC4/BC5): how far lavapipe is from the exact model.
    let slack = ["rgba8srgb", "bc1", "bc4", "bc5"]
        .iter()
        .any(|f| case.id.starts_with(&format!("tex.fmt.load.{f}.")));
    let filtered = case.id.starts_with("tex.offcentre.") || case.id.starts_with("tex.mip.");
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
    texture_storage, texel_buffer_formats, texture_formats, texture_mips);
