//! The memory suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use common::{bench, every_case_verifies};
use perftest_cases::{Feature, Suite};

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

// One test per family: `every_case_verifies::narrow_loads` and so on.
every_case_verifies!(Suite::Memory, EXPECTED_SKIPS, |_, _| {};
    narrow_loads, constant_paths, shared_memory, pointer_chase, cache_sweep, cache_carveout,
    shader_clock);

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
