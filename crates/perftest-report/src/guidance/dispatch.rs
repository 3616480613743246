//! Claims about descriptors, pipeline layouts and dispatch shape.

use super::rule::{faster, not_slower, same, Claim, Figure, Rule, Test, MARGIN};
use super::sources::*;
use super::workgroups::{
    eight_by_eight, row_of_64_linear, sixty_four_of_best, small_groups_linear,
    small_groups_with_barriers, EXCHANGE, RAW_LINEAR, RAW_RANDOM, SWEEPS, TEXTURE_2D, TEXTURE_ALL,
};

/// `nvidia.descriptor_fast_space`: no case yet.
pub const DESCRIPTOR_FAST_SPACE: Claim = Claim {
    id: "nvidia.descriptor_fast_space",
    vendor: "NVIDIA",
    source: NV_LAYERS,
    claim: "Keep a pipeline layout's non-bindless descriptors within 256 bytes so the shader \
            reads them from fast storage.",
    rule: Rule::NoCase(
        "no case measures this yet: it needs loads through pipeline layouts under and over \
         256 bytes of descriptors",
    ),
};

/// `amd.small_pipeline_layout`: no case yet.
pub const SMALL_PIPELINE_LAYOUT: Claim = Claim {
    id: "amd.small_pipeline_layout",
    vendor: "AMD",
    source: AMD_LAYERS,
    claim: "Keep the pipeline layout (root signature) small, about 13 DWORDs, or it spills to \
            memory and costs an extra indirection.",
    rule: Rule::NoCase(
        "no case measures this yet: it needs a push-constant size sweep reading the last word, \
         and a dynamic-buffer count sweep",
    ),
};

/// `nvidia.bindless`: raw 16-byte loads through a descriptor array indexed uniformly against
/// the original's loads through a bound buffer (the same addressing), linear and random
/// (geometric mean); holds when the array is at most 1.2x slower.
pub const BINDLESS: Claim = Claim {
    id: "nvidia.bindless",
    vendor: "NVIDIA",
    source: NV_DESCRIPTORS,
    claim: "Prefer a bindless design: indexing a large descriptor array costs no more than a \
            bound resource.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("modern.slot.uniform.load4.linear", "raw.load4.linear"),
            ("modern.slot.uniform.load4.random", "raw.load4.random"),
        ]),
        band: not_slower(),
    }]),
};

/// `arm.update_after_bind`: descriptor-indexed loads (eight storage-buffer slots: `Load4`
/// linear and random and `Load` linear with a uniform index, `Load4` random with a non-uniform
/// one; 32 textures sampled with a uniform index and four per wave) against their twins whose
/// set layout, bindings and pool are created for update-after-bind descriptors
/// (`modern.uab.*`), loads per second, geometric mean over the six pairs; holds when the two
/// are within [`MARGIN`] (1.2x) of each other, a tie, and does not hold otherwise.
pub const UPDATE_AFTER_BIND: Claim = Claim {
    id: "arm.update_after_bind",
    vendor: "Arm",
    source: ARM_CONSTANT_DATA,
    claim: "Update-after-bind descriptors cost nothing on the GPU.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "modern.slot.uniform.load4.linear",
                "modern.uab.slot.uniform.load4.linear",
            ),
            (
                "modern.slot.uniform.load4.random",
                "modern.uab.slot.uniform.load4.random",
            ),
            (
                "modern.slot.uniform.load.linear",
                "modern.uab.slot.uniform.load.linear",
            ),
            (
                "modern.slot.nonuniform.load4.random",
                "modern.uab.slot.nonuniform.load4.random",
            ),
            ("modern.tex.uniform", "modern.uab.tex.uniform"),
            ("modern.tex.nonuniform.n4", "modern.uab.tex.nonuniform.n4"),
        ]),
        band: same(),
    }]),
};

/// `intel.workgroup_8x8`: RGBA8 texel loads from 8x8 groups against the fastest texture
/// group shape of the sweep (8x4 to 32x32, 64x1, 256x1), and linear raw loads from 64x1 groups
/// (the shape Intel gives for linear access) against the fastest size (32 to 1024 x 1); holds
/// when both are within [`super::MARGIN`] (1.2x) of the best.
pub const WORKGROUP_8X8: Claim = Claim {
    id: "intel.workgroup_8x8",
    vendor: "Intel",
    source: INTEL_COMPUTE,
    claim: "8x8 workgroups usually perform well; 256 threads or more per group can hurt \
            occupancy; shape the group like the access pattern.",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::Custom(&TEXTURE_ALL, eight_by_eight),
            band: not_slower(),
        },
        Test {
            figure: Figure::Custom(&RAW_LINEAR, row_of_64_linear),
            band: not_slower(),
        },
    ]),
};

/// `nvidia.workgroup_64`: 64-thread groups against the fastest size of the sweep (32 to
/// 1024), the geometric mean over raw linear, raw random and 2D texture loads; holds when 64
/// is within [`super::MARGIN`] (1.2x) of the best.
pub const WORKGROUP_64: Claim = Claim {
    id: "nvidia.workgroup_64",
    vendor: "NVIDIA",
    source: NV_INTRINSICS,
    claim: "Make workgroups a multiple of 32 threads; 64 is usually the sweet spot.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Custom(&SWEEPS, sixty_four_of_best),
        band: not_slower(),
    }]),
};

/// `amd.workgroup_multiple_64`: 64-thread groups against 32-thread ones (the sweep's one size
/// that is not a multiple of 64), raw linear, raw random and texture loads (geometric mean);
/// holds when 64 is at least 1.2x faster per thread (a half-empty wave of 64 lanes).
pub const WORKGROUP_MULTIPLE_64: Claim = Claim {
    id: "amd.workgroup_multiple_64",
    vendor: "AMD",
    source: AMD_LAYERS,
    claim: "Make the workgroup size a multiple of 64 for every AMD generation.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (RAW_LINEAR[1], RAW_LINEAR[0]),
            (RAW_RANDOM[1], RAW_RANDOM[0]),
            (TEXTURE_2D[1], TEXTURE_2D[0]),
        ]),
        band: faster(MARGIN),
    }]),
};

/// `arm.workgroup_64_max`: the fastest group of at most 64 threads against the fastest larger
/// one (128 to 1024), for raw loads exchanged through shared memory with a barrier per load,
/// then for plain linear raw loads; holds when small groups are within [`super::MARGIN`]
/// (1.2x) of large ones, or faster, in both.
pub const WORKGROUP_64_MAX: Claim = Claim {
    id: "arm.workgroup_64_max",
    vendor: "Arm",
    source: ARM_LAYERS,
    claim: "Use at most 64 threads per workgroup (above all with barriers or shared memory), \
            each dimension a multiple of 4.",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::Custom(&EXCHANGE, small_groups_with_barriers),
            band: not_slower(),
        },
        Test {
            figure: Figure::Custom(&RAW_LINEAR, small_groups_linear),
            band: not_slower(),
        },
    ]),
};

/// `arm.image_locality`: RGBA8 texel loads from 16x16 groups against 256x1 ones and from 8x8
/// against 64x1 (geometric mean); holds when the 2D groups are at least 1.2x faster.
pub const IMAGE_LOCALITY: Claim = Claim {
    id: "arm.image_locality",
    vendor: "Arm",
    source: ARM_LAYERS,
    claim: "One-dimensional workgroups reading 2D images have poor spatial locality; use 2D \
            groups.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (TEXTURE_ALL[3], TEXTURE_ALL[7]),
            (TEXTURE_ALL[1], TEXTURE_ALL[6]),
        ]),
        band: faster(MARGIN),
    }]),
};

/// `nvidia.dispatch_overlap`: independent one-group dispatches against dependent ones in one
/// command buffer; holds when the independent ones are at least 1.2x faster (they overlap).
/// Only this half of the claim is measured: no case splits dispatches over command buffers.
pub const DISPATCH_OVERLAP: Claim = Claim {
    id: "nvidia.dispatch_overlap",
    vendor: "NVIDIA",
    source: NV_DOS,
    claim: "Independent dispatches overlap within a command buffer but not across command \
            buffers: avoid many tiny command buffers.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[(
            "xfer.launch.dispatch.1.independent",
            "xfer.launch.dispatch.1",
        )]),
        band: faster(1.2),
    }]),
};

/// The descriptor and dispatch claims, in the research order.
pub const CLAIMS: [Claim; 10] = [
    DESCRIPTOR_FAST_SPACE,
    SMALL_PIPELINE_LAYOUT,
    BINDLESS,
    UPDATE_AFTER_BIND,
    WORKGROUP_8X8,
    WORKGROUP_64,
    WORKGROUP_MULTIPLE_64,
    WORKGROUP_64_MAX,
    IMAGE_LOCALITY,
    DISPATCH_OVERLAP,
];
