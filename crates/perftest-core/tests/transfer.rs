//! The transfer suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

mod common;

use common::{bench, corrupted};
use perftest_cases::{cases_in, verify, Case, Suite, Support};
use perftest_core::Error;

/// Memory-load cases lavapipe cannot run, as (id substring, reason substring): the test fails
/// when a case is skipped for another reason, or when a listed skip no longer happens.
/// Lavapipe's one memory type is device-local, host-visible, coherent and cached, so it has no
/// uncached host memory; and it binds at most 128 MB of storage buffer, so the 256 MB sets are
/// skipped.
const EXPECTED_SKIPS: &[(&str, &str)] = &[
    ("xfer.memload.host.", "no host uncached memory type"),
    ("xfer.memload.device.256mb.", "maxStorageBufferRange"),
    ("xfer.memload.bar.256mb.", "maxStorageBufferRange"),
    ("xfer.memload.cached.256mb.", "maxStorageBufferRange"),
];

/// The memory-load family's cases of the transfer suite.
fn memory_load_cases() -> Vec<Case> {
    cases_in(&[Suite::Transfer])
        .into_iter()
        .filter(|c| c.family.label() == "memory_loads")
        .collect()
}

#[test]
fn every_memory_load_case_verifies_or_is_skipped_as_expected() {
    let (instance, mut bench) = bench();
    let cases = memory_load_cases();
    assert_eq!(cases.len(), 24);
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
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
        if !verify(case, &readback).passed() {
            failures.push(format!("{}: {:?}", case.id, verify(case, &readback).first));
        } else if verify(case, &corrupted(&readback)).passed() {
            failures.push(format!("{}: a one-bit change still passed", case.id));
        }
    }
    assert!(failures.is_empty(), "failed:\n{}", failures.join("\n"));
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
            skipped.iter().any(|(id, _)| id.contains(i)),
            "expected lavapipe to skip a case matching {i} ({r}); none was"
        );
    }
    assert_eq!(skipped.len(), 15, "{skipped:#?}");
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}
