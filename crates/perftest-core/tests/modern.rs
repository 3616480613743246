//! The modern suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use common::{bench, every_case_verifies};
use perftest_cases::{Feature, Suite};

/// Cases lavapipe cannot run, as (id substring, reason substring): the test fails when a case
/// is skipped for another reason, or when a listed skip no longer happens.
const EXPECTED_SKIPS: &[(&str, &str)] = &[
    // 256 MB working sets through descriptors: lavapipe's maxStorageBufferRange is 128 MB (the
    // device-address path, modern.ws.256mb.bda.*, runs).
    ("modern.ws.256mb.structured.", "maxStorageBufferRange"),
    ("modern.ws.256mb.raw.", "maxStorageBufferRange"),
    ("modern.ws.256mb.aligned.", "maxStorageBufferRange"),
    ("modern.tex.", "shaderSampledImageArrayDynamicIndexing"),
    (
        "modern.slot.nonuniform.",
        "shaderStorageBufferArrayNonUniformIndexing",
    ),
    (
        "modern.alias.nonuniform.",
        "shaderStorageBufferArrayNonUniformIndexing",
    ),
    (
        "modern.regions.slots.linear",
        "shaderStorageBufferArrayNonUniformIndexing",
    ),
    (
        "modern.regions.slots.random",
        "shaderStorageBufferArrayNonUniformIndexing",
    ),
    // Nor update-after-bind descriptors.
    (
        "modern.uab.slot.uniform.",
        "descriptorBindingStorageBufferUpdateAfterBind",
    ),
    (
        "modern.uab.slot.nonuniform.",
        "shaderStorageBufferArrayNonUniformIndexing",
    ),
    ("modern.uab.tex.", "shaderSampledImageArrayDynamicIndexing"),
];

// One test per family: `every_case_verifies::bindless_texture` and so on.
every_case_verifies!(Suite::Modern, EXPECTED_SKIPS, |_, _| {};
    bindless_texture, working_set, buffer_path, descriptor_index, update_after_bind, typed_alias, eight_regions,
    store, atomic);

#[test]
fn lavapipe_offers_what_the_modern_suite_needs() {
    let (instance, bench) = bench();
    let caps = *bench.context().caps();
    eprintln!("{caps:#?}");
    // What the modern suite's verification on lavapipe relies on (Mesa 22.3 lavapipe lacks
    // sampled-image array indexing and non-uniform indexing: those cases are skipped).
    assert!(
        caps.has(Feature::BufferDeviceAddress)
            && caps.has(Feature::ShaderInt64)
            && caps.has(Feature::Int64Atomics)
    );
    assert!(caps.has(Feature::StorageBufferDynamic) && caps.subgroup_ballot);
    assert!(caps.max_storage_buffer_range >= 64 << 20);
    assert!(caps.device_local_bytes >= 1 << 30);
    drop(bench);
    assert!(instance.validation_messages().is_empty());
}

/// The update-after-bind twins verify against their originals' models where the device offers
/// update-after-bind descriptors (and what the originals need), and are skipped naming what is
/// missing where not (lavapipe 22.3).
#[test]
fn every_update_after_bind_case_verifies_and_fails_against_another_model() {
    common::check_twins(Suite::Modern, "update_after_bind", 6, "the device lacks");
}
