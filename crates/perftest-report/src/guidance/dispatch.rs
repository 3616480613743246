//! Claims about descriptors, pipeline layouts and dispatch shape.

use super::rule::{faster, not_slower, Claim, Figure, Rule, Test};
use super::sources::*;

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

/// `arm.update_after_bind`: no case yet.
pub const UPDATE_AFTER_BIND: Claim = Claim {
    id: "arm.update_after_bind",
    vendor: "Arm",
    source: ARM_CONSTANT_DATA,
    claim: "Update-after-bind descriptors cost nothing on the GPU.",
    rule: Rule::NoCase(
        "no case measures this yet: it needs an update-after-bind twin of a descriptor-indexed \
         case",
    ),
};

/// `intel.workgroup_8x8`: no case yet.
pub const WORKGROUP_8X8: Claim = Claim {
    id: "intel.workgroup_8x8",
    vendor: "Intel",
    source: INTEL_COMPUTE,
    claim: "8x8 workgroups usually perform well; 256 threads or more per group can hurt \
            occupancy; shape the group like the access pattern.",
    rule: Rule::NoCase(
        "no case measures this yet: every case runs 256 threads; it needs a workgroup size and \
         shape sweep",
    ),
};

/// `nvidia.workgroup_64`: no case yet.
pub const WORKGROUP_64: Claim = Claim {
    id: "nvidia.workgroup_64",
    vendor: "NVIDIA",
    source: NV_INTRINSICS,
    claim: "Make workgroups a multiple of 32 threads; 64 is usually the sweet spot.",
    rule: Rule::NoCase(
        "no case measures this yet: every case runs 256 threads; it needs a workgroup size \
         sweep",
    ),
};

/// `amd.workgroup_multiple_64`: no case yet.
pub const WORKGROUP_MULTIPLE_64: Claim = Claim {
    id: "amd.workgroup_multiple_64",
    vendor: "AMD",
    source: AMD_LAYERS,
    claim: "Make the workgroup size a multiple of 64 for every AMD generation.",
    rule: Rule::NoCase(
        "no case measures this yet: every case runs 256 threads; it needs a workgroup size \
         sweep",
    ),
};

/// `arm.workgroup_64_max`: no case yet.
pub const WORKGROUP_64_MAX: Claim = Claim {
    id: "arm.workgroup_64_max",
    vendor: "Arm",
    source: ARM_LAYERS,
    claim: "Use at most 64 threads per workgroup (above all with barriers or shared memory), \
            each dimension a multiple of 4.",
    rule: Rule::NoCase(
        "no case measures this yet: it needs a workgroup size sweep with a shared-memory and \
         barrier variant",
    ),
};

/// `arm.image_locality`: no case yet.
pub const IMAGE_LOCALITY: Claim = Claim {
    id: "arm.image_locality",
    vendor: "Arm",
    source: ARM_LAYERS,
    claim: "One-dimensional workgroups reading 2D images have poor spatial locality; use 2D \
            groups.",
    rule: Rule::NoCase(
        "no case measures this yet: texture cases always run 16x16 groups; it needs 256x1 \
         twins",
    ),
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
