//! The graphics suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model and fails once a result is changed by one bit; a wrong
//! CPU expectation (another case's model) fails each family; the render-pass path (without
//! dynamic rendering) and `VK_KHR_dynamic_rendering` (a Vulkan 1.2 instance) verify and time
//! like Vulkan 1.3's dynamic rendering. Synchronization validation is on wherever a test draws
//! (the layer tracks render-pass attachments; this layer version does not track dynamic
//! rendering's). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use common::{bench_with, every_case_verifies, synchronized_bench};
use perftest_cases::{cases_in, verify, Case, Suite};

// One test per family: `every_case_verifies::fragment_loads` and so on.
every_case_verifies!(Suite::Graphics, &[], |_, _| {};
    fragment_loads, texture_derivatives, vertex_fetch);

fn case(id: &str) -> Case {
    cases_in(&[Suite::Graphics, Suite::Original])
        .into_iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

/// A case of each graphics family, and a case of the same family whose model must not match
/// the first one's results.
const WRONG_MODELS: [(&str, &str); 4] = [
    ("frag.typed.rgba8.linear", "frag.typed.rgba8.random"),
    (
        "frag.tex.sample.bilinear.rgba8.linear",
        "frag.tex.sample.bilinear.rgba8.random",
    ),
    (
        "vertex.input.rgba8.x2.interleaved",
        "vertex.input.rgba8.x1.interleaved",
    ),
    (
        "frag.deriv.implicit.lod1.rgba8",
        "frag.deriv.implicit.lod0.rgba8",
    ),
];

#[test]
fn a_wrong_cpu_expectation_fails_every_graphics_family() {
    let (instance, mut bench) = synchronized_bench();
    for (id, other) in WRONG_MODELS {
        let (right, wrong) = (case(id), case(other));
        let kernel = bench.prepare(&right).unwrap();
        let readback = bench.verify(kernel).unwrap();
        assert!(
            verify(&right, &readback).passed(),
            "{id} fails its own model"
        );
        let outcome = verify(&wrong, &readback);
        assert!(
            !outcome.passed(),
            "{id}'s results passed {other}'s model: {outcome:?}"
        );
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}

#[test]
fn render_passes_verify_and_time_like_dynamic_rendering() {
    let (instance, mut bench) = synchronized_bench();
    assert!(
        bench.context().dynamic_rendering(),
        "lavapipe offers Vulkan 1.3: perftest enables dynamic rendering there"
    );
    bench.context_mut().set_dynamic_rendering(false);
    assert!(!bench.context().dynamic_rendering());
    for (id, _) in WRONG_MODELS {
        let case = case(id);
        let kernel = bench.prepare(&case).unwrap();
        let readback = bench.verify(kernel).unwrap();
        let outcome = verify(&case, &readback);
        assert!(outcome.passed(), "{id} with render passes: {outcome:?}");
        let times = bench.time(kernel, [3, 1, 1], 2).unwrap();
        assert_eq!(times.len(), 2);
        assert!(times.iter().all(|t| !t.is_zero()), "{id}: {times:?}");
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}

#[test]
fn draws_interleave_with_dispatches() {
    let (instance, mut bench) = synchronized_bench();
    let ids = [
        "typed.rgba8.linear",
        "frag.typed.rgba8.linear",
        "vertex.pull.raw.rgba32f.x4",
        "frag.deriv.lod.lod2.rgba32f",
    ];
    let kernels: Vec<_> = ids
        .iter()
        .map(|id| bench.prepare(&case(id)).unwrap())
        .collect();
    let batch: Vec<_> = kernels.iter().map(|&k| (k, [2, 1, 1])).collect();
    let times = bench.time_batch(&batch).unwrap();
    assert_eq!(times.len(), ids.len());
    assert!(times.iter().all(|t| !t.is_zero()), "{times:?}");
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}

#[test]
fn a_vulkan_1_2_instance_draws_through_vk_khr_dynamic_rendering() {
    use perftest_core::ash::vk;
    use perftest_core::InstanceOptions;
    let (instance, mut bench) = bench_with(InstanceOptions {
        validation: true,
        synchronization_validation: true,
        max_api_version: Some(vk::API_VERSION_1_2),
        ..Default::default()
    });
    assert_eq!(instance.api_version(), vk::API_VERSION_1_2);
    assert!(
        bench.context().dynamic_rendering(),
        "lavapipe offers VK_KHR_dynamic_rendering: perftest enables it on a 1.2 instance"
    );
    for (id, _) in WRONG_MODELS {
        let case = case(id);
        let kernel = bench.prepare(&case).unwrap();
        let outcome = verify(&case, &bench.verify(kernel).unwrap());
        assert!(outcome.passed(), "{id} on Vulkan 1.2: {outcome:?}");
        assert_eq!(bench.time(kernel, [2, 1, 1], 2).unwrap().len(), 2);
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}
