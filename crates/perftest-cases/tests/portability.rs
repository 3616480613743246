//! The skip rules on a synthetic MoltenVK-like device: Vulkan over Metal on an iOS-class GPU,
//! with `VK_KHR_portability_subset`, no BC textures, no filtering of 32-bit floats, no 64-bit
//! atomics and 32 KB of shared memory (which every shared-memory kernel fits, but not the
//! carve-out family's 48 KB and larger declarations). Every skip must come from a rule that
//! names what the device lacks, and everything else must run.

use perftest_cases::memory_kind;
use perftest_cases::{
    all_cases, support, DeviceCaps, DeviceNeed, ExtraFormat, Feature, FeatureSet, Format,
    FormatSupport, MemoryKind, PortabilityFeature, PortabilitySubset, Suite, Support,
};

/// The memory types of the synthetic device, with their heap (one, shared with the host).
const UNIFIED_TYPES: [(u32, u64); 3] = [
    (memory_kind::DEVICE_LOCAL, 6 << 30),
    (
        memory_kind::DEVICE_LOCAL | memory_kind::HOST_VISIBLE | memory_kind::HOST_COHERENT,
        6 << 30,
    ),
    (
        memory_kind::HOST_VISIBLE | memory_kind::HOST_COHERENT | memory_kind::HOST_CACHED,
        6 << 30,
    ),
];

/// What MoltenVK reports on an iOS-class Apple GPU (values as MoltenVK documents them, rounded
/// to what the rules look at).
fn moltenvk_like() -> DeviceCaps {
    let full = FormatSupport {
        uniform_texel_buffer: true,
        sampled_image: true,
        linear_filter: true,
        storage_image: true,
        linear_sampled_image: true,
        linear_tiling_filter: true,
    };
    let no_filter = FormatSupport {
        linear_filter: false,
        ..full
    };
    DeviceCaps {
        // MoltenVK offers neither 64-bit atomics, BC textures nor VK_KHR_shader_clock.
        features: FeatureSet::all()
            .with(Feature::Int64Atomics, false)
            .with(Feature::TextureCompressionBc, false)
            .with(Feature::ShaderSubgroupClock, false),
        formats: Format::ALL.map(|f| match f {
            Format::R32f | Format::Rg32f | Format::Rgba32f => no_filter,
            _ => full,
        }),
        subgroup_ballot: true,
        max_storage_buffer_range: 1 << 30,
        device_local_bytes: 6 << 30,
        max_compute_shared_memory: 32 << 10,
        max_workgroup_invocations: 1024,
        max_workgroup_size: [1024, 1024, 64],
        extra_formats: ExtraFormat::ALL.map(|f| {
            if f.is_compressed() {
                FormatSupport::default()
            } else {
                full
            }
        }),
        graphics_queue: true,
        // Unified memory with a private, a shared and a cached shared type: every kind of
        // memory the transfer suite reads resolves (the resolution itself is tested beside
        // `MemoryKind`).
        memory_kinds: MemoryKind::ALL.map(|kind| kind.resolve(&UNIFIED_TYPES, u32::MAX)),
        transfer_queue: false,
        host_timeline_threads: true,
        // One queue family: no buffer can be shared concurrently.
        concurrent_family: None,
        portability: Some(PortabilitySubset {
            events: true,
            image_view_format_reinterpretation: true,
            image_view_format_swizzle: true,
            image_view_2d_on_3d_image: false,
            mutable_comparison_samplers: true,
            sampler_mip_lod_bias: false,
            min_vertex_input_binding_stride_alignment: 4,
        }),
    }
}

/// The reasons a MoltenVK-like device may give, each naming what it lacks.
const EXPECTED_REASONS: [&[&str]; 7] = [
    &["SAMPLED_IMAGE_FILTER_LINEAR"],
    &["textureCompressionBC", "_BLOCK does not support"],
    &["shaderBufferInt64Atomics"],
    &["maxComputeSharedMemorySize"],
    &["shaderSubgroupClock"],
    &["no transfer-only queue"],
    &["one queue family"],
];

#[test]
fn a_moltenvk_like_device_skips_only_what_it_lacks() {
    let caps = moltenvk_like();
    let cases = all_cases();
    let mut skipped_by_reason = [0usize; EXPECTED_REASONS.len()];
    for case in &cases {
        if let Support::Skipped(reason) = support(case, &caps) {
            let kind = EXPECTED_REASONS
                .iter()
                .position(|patterns| patterns.iter().any(|p| reason.contains(p)))
                .unwrap_or_else(|| panic!("{}: unexpected reason {reason}", case.id));
            skipped_by_reason[kind] += 1;
            // The same case runs once the device has what the reason names.
            let mut fixed = caps;
            match kind {
                0 => {
                    fixed.formats = Format::ALL.map(|_| FormatSupport {
                        linear_filter: true,
                        ..caps.formats[0]
                    })
                }
                1 => {
                    fixed.features = fixed.features.with(Feature::TextureCompressionBc, true);
                    fixed.extra_formats = ExtraFormat::ALL.map(|_| caps.extra_formats[0]);
                }
                2 => fixed.features = fixed.features.with(Feature::Int64Atomics, true),
                3 => fixed.max_compute_shared_memory = 128 << 10,
                4 => fixed.features = fixed.features.with(Feature::ShaderSubgroupClock, true),
                5 => fixed.transfer_queue = true,
                _ => fixed.concurrent_family = Some(1),
            }
            assert_eq!(support(case, &fixed), Support::Supported, "{}", case.id);
        }
    }
    for (reason, count) in EXPECTED_REASONS.iter().zip(skipped_by_reason) {
        assert!(count > 0, "no case skipped for {reason:?}");
    }
    // Every suite still has most of its cases.
    for suite in Suite::ALL {
        let in_suite: Vec<_> = cases.iter().filter(|c| c.suite == suite).collect();
        let running = in_suite
            .iter()
            .filter(|c| support(c, &caps) == Support::Supported)
            .count();
        assert!(
            running * 4 > in_suite.len() * 3,
            "{suite:?}: {running} of {}",
            in_suite.len()
        );
    }
}

#[test]
fn a_missing_portability_feature_is_a_skip_reason() {
    let caps = moltenvk_like();
    let need = DeviceNeed::Portability(PortabilityFeature::SamplerMipLodBias);
    let reason = need
        .missing(&caps)
        .expect("MoltenVK-like lacks samplerMipLodBias");
    assert!(reason.contains("VK_KHR_portability_subset"), "{reason}");
    assert!(reason.contains("samplerMipLodBias"), "{reason}");
    assert_eq!(
        DeviceNeed::Portability(PortabilityFeature::Events).missing(&caps),
        None
    );
    // A device without the extension has every feature of core Vulkan.
    let full_vulkan = DeviceCaps {
        portability: None,
        ..caps
    };
    for feature in [
        PortabilityFeature::Events,
        PortabilityFeature::ImageViewFormatReinterpretation,
        PortabilityFeature::ImageViewFormatSwizzle,
        PortabilityFeature::ImageView2dOn3dImage,
        PortabilityFeature::MutableComparisonSamplers,
        PortabilityFeature::SamplerMipLodBias,
    ] {
        assert_eq!(DeviceNeed::Portability(feature).missing(&full_vulkan), None);
        assert!(DeviceNeed::Portability(feature)
            .missing(&DeviceCaps {
                portability: Some(PortabilitySubset::default()),
                ..caps
            })
            .is_some_and(|r| r.contains(feature.vk_name())));
    }
}

/// No case uses a behaviour the portability subset makes optional today (every image view
/// keeps its image's format, type and identity swizzle; no sampler has a LOD bias; no events):
/// a device that has none of them still runs every case its other features allow.
#[test]
fn no_case_needs_a_portability_feature_today() {
    let none = DeviceCaps {
        portability: Some(PortabilitySubset::default()),
        ..moltenvk_like()
    };
    for case in all_cases() {
        if let Support::Skipped(reason) = support(&case, &none) {
            assert!(!reason.contains("portability"), "{}: {reason}", case.id);
        }
    }
}
