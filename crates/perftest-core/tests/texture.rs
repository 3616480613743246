//! The texture suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::sync::Arc;

use perftest_cases::{cases_in, reference_sum, verify, KernelParams, Readback, Suite, Support};
use perftest_core::InstanceOptions;
use perftest_core::{compute_targets, select, Bench, Context, DeviceChoice, Error, Instance};

/// Cases lavapipe cannot run, as (id substring, reason substring): the test fails when a case
/// is skipped for another reason, or when a listed skip no longer happens.
const EXPECTED_SKIPS: &[(&str, &str)] = &[];

fn bench() -> (Arc<Instance>, Bench) {
    let options = InstanceOptions {
        validation: true,
        ..Default::default()
    };
    let instance = Arc::new(Instance::new(&options).expect("validated instance"));
    let targets = compute_targets(instance.handle(), instance.api_version()).unwrap();
    let summaries: Vec<_> = targets.iter().map(|t| t.summary.clone()).collect();
    let choice = DeviceChoice {
        index: None,
        name: Some("llvmpipe".into()),
    };
    let i = select(&summaries, &choice).expect("lavapipe (llvmpipe) must be installed");
    let bench = Bench::new(Context::new(instance.clone(), &targets[i]).unwrap()).unwrap();
    (instance, bench)
}

/// `readback` with the top mantissa bit of the first thread's first lane flipped: a change of
/// a quarter to a half of the value, which every family's tolerance must reject.
fn corrupted(readback: &Readback) -> Readback {
    let mut bad = readback.clone();
    if let Some(first) = bad.sums.first_mut() {
        first[0] = f32::from_bits(first[0].to_bits() ^ (1 << 22));
    }
    bad
}

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

#[test]
fn every_texture_case_verifies_or_is_skipped_as_expected() {
    let (instance, mut bench) = bench();
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let cases = cases_in(&[Suite::Texture]);
    assert!(!cases.is_empty());
    for case in &cases {
        if let Support::Skipped(reason) = bench.support(case) {
            skipped.push((case.id.clone(), reason));
            continue;
        }
        let readback = match bench.prepare(case).and_then(|k| bench.verify(k)) {
            Ok(r) => r,
            Err(Error::Unsupported { reason, .. }) => {
                skipped.push((case.id.clone(), reason));
                continue;
            }
            Err(e) => {
                failures.push(format!("{}: {e}", case.id));
                continue;
            }
        };
        if case.id.starts_with("tex.offcentre.") && case.pattern.name() != "uniform" {
            eprintln!(
                "{}: largest error {:.2e}",
                case.id,
                largest_error(case, &readback)
            );
        }
        let outcome = verify(case, &readback);
        if !outcome.passed() {
            failures.push(format!("{}: {:?}", case.id, outcome.first));
        } else if verify(case, &corrupted(&readback)).passed() {
            failures.push(format!("{}: a one-bit change still passed", case.id));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} texture cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    for (id, reason) in &skipped {
        assert!(
            EXPECTED_SKIPS
                .iter()
                .any(|(i, r)| id.contains(i) && reason.contains(r)),
            "unexpected skip of {id}: {reason}"
        );
    }
    for (i, r) in EXPECTED_SKIPS {
        assert!(
            skipped
                .iter()
                .any(|(id, reason)| id.contains(i) && reason.contains(r)),
            "expected lavapipe to skip a case matching {i} ({r}); none was"
        );
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}
