//! The memory suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

mod common;

use common::{bench, check_suite, corrupted, Share};
use perftest_cases::{cases_in, verify, Case, Feature, Suite};

/// Cases lavapipe cannot run, as (id substring, reason substring): the test fails when a case
/// is skipped for another reason, or when a listed skip no longer happens.
/// Lavapipe (Mesa 22.3) binds at most 128 MB of storage buffer, so the bandwidth sweep stops
/// there (the latency sweep uses device addresses and runs to 512 MB); and it offers 32 KB of
/// shared memory, so the carve-out family's 48, 64 and 128 KB declarations are skipped.
const EXPECTED_SKIPS: &[(&str, &str)] = &[
    ("mem.sweep.bandwidth.256mb", "maxStorageBufferRange"),
    ("mem.sweep.bandwidth.512mb", "maxStorageBufferRange"),
    ("mem.carveout.shared48kb.", "maxComputeSharedMemorySize"),
    ("mem.carveout.shared64kb.", "maxComputeSharedMemorySize"),
    ("mem.carveout.shared128kb.", "maxComputeSharedMemorySize"),
];

// Two interleaved shares, one test each: the harness's threads verify them side by side.
#[test]
fn every_memory_case_verifies_or_is_skipped_as_expected_share_0() {
    let share = Share { index: 0, of: 2 };
    check_suite(Suite::Memory, share, EXPECTED_SKIPS, |_, _| {});
}

#[test]
fn every_memory_case_verifies_or_is_skipped_as_expected_share_1() {
    let share = Share { index: 1, of: 2 };
    check_suite(Suite::Memory, share, EXPECTED_SKIPS, |_, _| {});
}

#[test]
fn lavapipe_offers_what_the_memory_suite_needs() {
    let (instance, bench) = bench();
    let caps = *bench.context().caps();
    eprintln!("{caps:#?}");
    // What the memory suite's verification on lavapipe relies on: 8- and 16-bit storage and
    // arithmetic, subgroup ballot, 20 KB of shared memory per workgroup.
    assert!(caps.has(Feature::StorageBuffer8Bit) && caps.has(Feature::ShaderInt8));
    assert!(
        caps.has(Feature::StorageBuffer16Bit)
            && caps.has(Feature::ShaderInt16)
            && caps.has(Feature::ShaderFloat16)
    );
    assert!(caps.subgroup_ballot);
    assert!(caps.max_compute_shared_memory >= 20 << 10);
    drop(bench);
    assert!(instance.validation_messages().is_empty());
}

/// The buffer-layout family alone (the suite's shares verify it too): every case verifies,
/// the 20-byte stride included (lavapipe offers `scalarBlockLayout`); a one-bit change fails;
/// and each read-back fails against the model of another case of the family (another stride
/// or layout, or another pattern), so a wrong CPU expectation is caught.
#[test]
fn every_buffer_layout_case_verifies_and_fails_against_another_model() {
    let (instance, mut bench) = bench();
    assert!(bench.context().caps().has(Feature::ScalarBlockLayout));
    let cases: Vec<Case> = cases_in(&[Suite::Memory])
        .into_iter()
        .filter(|c| c.family.label() == "buffer_layout")
        .collect();
    assert_eq!(cases.len(), 22);
    for (i, case) in cases.iter().enumerate() {
        let readback = bench
            .prepare(case)
            .and_then(|k| bench.verify(k))
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let outcome = verify(case, &readback);
        assert!(outcome.passed(), "{}: {:?}", case.id, outcome.first);
        assert!(!verify(case, &corrupted(&readback)).passed(), "{}", case.id);
        // The next layout with the same pattern; the read-write twins and the raw view read the
        // bytes of the 16-byte structures, so those are checked against the other pattern.
        let other = &cases[if i < 16 { i + 2 } else { i ^ 1 }];
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
