//! The memory suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use common::{bench, corrupted, every_case_verifies};
use perftest_cases::{cases_in, verify, Case, Feature, Suite, Support};

/// Cases lavapipe cannot run, as (id substring, reason substring): the test fails when a case
/// is skipped for another reason, or when a listed skip no longer happens.
/// Lavapipe (Mesa 22.3) binds at most 128 MB of storage buffer, so the bandwidth sweep stops
/// there (the latency sweep uses device addresses and runs to 512 MB); and it offers 32 KB of
/// shared memory, so the carve-out family's 48, 64 and 128 KB declarations are skipped; it
/// has no ASTC, so the texture-bandwidth family's ASTC 4x4 images are skipped. It offers no
/// `VK_EXT_pipeline_robustness`, so the robust-buffer-access twins are skipped, and has one
/// queue family, so the concurrent-sharing twins are too.
const EXPECTED_SKIPS: &[(&str, &str)] = &[
    ("mem.robust.", "pipelineRobustness"),
    ("mem.concurrent.", "one queue family"),
    ("mem.sweep.bandwidth.256mb", "maxStorageBufferRange"),
    ("mem.sweep.bandwidth.512mb", "maxStorageBufferRange"),
    ("mem.carveout.shared48kb.", "maxComputeSharedMemorySize"),
    ("mem.carveout.shared64kb.", "maxComputeSharedMemorySize"),
    ("mem.carveout.shared128kb.", "maxComputeSharedMemorySize"),
    (".astc4x4", "textureCompressionASTC_LDR"),
];

// One test per family: `every_case_verifies::narrow_loads` and so on.
every_case_verifies!(Suite::Memory, EXPECTED_SKIPS, |_, _| {};
    narrow_loads, buffer_layout, buffer_robustness, buffer_sharing, constant_paths, shared_memory,
    workgroup_shape, pointer_chase, texture_chain, cache_sweep, cache_carveout, shader_clock,
    texture_bandwidth);

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

/// The workgroup sweep on its own: every size and shape lavapipe allows verifies, with one
/// group's output as long as its threads; a result checked against another case's model (the
/// next thread's loads, another pattern, another shape) fails, as does a one-bit change; and
/// no validation message. Prints each case's loads per second over 8 dispatches of 16,384
/// threads (the same work at every size).
#[test]
fn every_workgroup_size_and_shape_verifies_and_a_wrong_model_fails() {
    let (instance, mut bench) = bench();
    let cases: Vec<_> = cases_in(&[Suite::Memory])
        .into_iter()
        .filter(|c| c.id.starts_with("mem.wg."))
        .collect();
    assert_eq!(cases.len(), 26);
    let find = |id: &str| cases.iter().find(|c| c.id == id).unwrap();
    let mut readbacks = Vec::new();
    for case in &cases {
        assert_eq!(bench.support(case), Support::Supported, "{}", case.id);
        let kernel = bench.prepare(case).unwrap();
        let readback = bench.verify(kernel).unwrap();
        assert_eq!(readback.sums.len(), 4 * case.threads() as usize);
        let outcome = verify(case, &readback);
        assert!(outcome.passed(), "{}: {:?}", case.id, outcome.first);
        assert!(!verify(case, &corrupted(&readback)).passed(), "{}", case.id);
        let groups = 16_384 / case.threads();
        let times = bench.time(kernel, [groups, 1, 1], 8).unwrap();
        let seconds: f64 = times.iter().map(|t| t.as_secs_f64()).sum();
        let loads = 8.0 * f64::from(groups) * case.ops_per_group() as f64;
        eprintln!("{:<48} {:>8.3} Gload/s", case.name, loads / seconds / 1e9);
        readbacks.push((case.id.clone(), readback));
    }
    let readback = |id: &str| &readbacks.iter().find(|(i, _)| i == id).unwrap().1;
    // Wrong expectations: each pair's read-back against the other's model.
    for (got, model) in [
        (
            "mem.wg.exchange.load4.64x1.linear",
            "mem.wg.raw.load4.64x1.linear",
        ),
        (
            "mem.wg.raw.load4.64x1.random",
            "mem.wg.raw.load4.64x1.linear",
        ),
        (
            "mem.wg.tex.load.rgba8.64x1.linear",
            "mem.wg.tex.load.rgba8.8x8.linear",
        ),
    ] {
        let outcome = verify(find(model), readback(got));
        assert!(!outcome.passed(), "{got} passed as {model}");
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}

/// The buffer-layout family alone (its per-family test verifies it too): every case verifies,
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

/// The robust-buffer-access twins verify against their originals' models where the device
/// offers `pipelineRobustness`, and are skipped naming it where not (lavapipe 22.3).
#[test]
fn every_buffer_robustness_case_verifies_and_fails_against_another_model() {
    common::check_twins(Suite::Memory, "buffer_robustness", 8, "pipelineRobustness");
}

/// The concurrent-sharing twins verify against their originals' models on a device of two or
/// more queue families, and are skipped saying so on one of a single family (lavapipe).
#[test]
fn every_buffer_sharing_case_verifies_and_fails_against_another_model() {
    common::check_twins(Suite::Memory, "buffer_sharing", 8, "one queue family");
}

/// The texture chains on their own: each verifies, its read-back fails against the other
/// chains' models (another size, the other way through the texture unit), timed dispatches walk
/// on from where the last one stopped (verification still passes after them), and no
/// validation message.
#[test]
fn every_texture_chain_verifies_and_fails_against_another_model() {
    let (instance, mut bench) = bench();
    let cases: Vec<Case> = cases_in(&[Suite::Memory])
        .into_iter()
        .filter(|c| c.family.label() == "texture_chain")
        .collect();
    assert_eq!(cases.len(), 4);
    for (i, case) in cases.iter().enumerate() {
        let kernel = bench
            .prepare(case)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let times = bench.time(kernel, [2, 1, 1], 3).unwrap();
        assert_eq!(times.len(), 3);
        let readback = bench.verify(kernel).unwrap();
        let outcome = verify(case, &readback);
        assert!(outcome.passed(), "{}: {:?}", case.id, outcome.first);
        assert!(!verify(case, &corrupted(&readback)).passed(), "{}", case.id);
        for other in cases.iter().skip(i + 1).chain(&cases[..i]) {
            assert!(
                !verify(other, &readback).passed(),
                "{} passed as {}",
                case.id,
                other.id
            );
        }
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}
