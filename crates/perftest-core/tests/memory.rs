//! The memory suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::sync::Arc;

use perftest_cases::{cases_in, verify, Readback, Suite, Support};
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

/// `readback` with one bit of its first result word flipped (the result buffer where the
/// family has one, else the first thread's first lane). In a lane the bit is the top mantissa
/// bit: a change of a quarter to a half of the value, which integer results (compared
/// exactly) and float sums (compared within a tolerance) must both reject.
fn corrupted(readback: &Readback) -> Readback {
    let mut bad = readback.clone();
    if let Some(byte) = bad.written.first_mut() {
        *byte ^= 1;
    } else if let Some(first) = bad.sums.first_mut() {
        first[0] = f32::from_bits(first[0].to_bits() ^ (1 << 22));
    }
    bad
}

#[test]
fn every_memory_case_verifies_or_is_skipped_as_expected() {
    let (instance, mut bench) = bench();
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let cases = cases_in(&[Suite::Memory]);
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
        let outcome = verify(case, &readback);
        if !outcome.passed() {
            failures.push(format!("{}: {:?}", case.id, outcome.first));
        } else if verify(case, &corrupted(&readback)).passed() {
            failures.push(format!("{}: a one-bit change still passed", case.id));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} memory cases failed:\n{}",
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

#[test]
fn lavapipe_offers_what_the_memory_suite_needs() {
    let (instance, bench) = bench();
    let caps = *bench.context().caps();
    eprintln!("{caps:#?}");
    // What the memory suite's verification on lavapipe relies on: 8- and 16-bit storage and
    // arithmetic, subgroup ballot, 20 KB of shared memory per workgroup.
    assert!(caps.storage_buffer_8bit && caps.shader_int8);
    assert!(caps.storage_buffer_16bit && caps.shader_int16 && caps.shader_float16);
    assert!(caps.subgroup_ballot);
    assert!(caps.max_compute_shared_memory >= 20 << 10);
    drop(bench);
    assert!(instance.validation_messages().is_empty());
}
