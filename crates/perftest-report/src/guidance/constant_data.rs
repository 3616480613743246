//! Claims about constant data: constant buffers, push constants, static and dynamic indices,
//! wave-uniform loads.

use super::figures::{push_fastest, unique_addresses};
use super::rule::{faster, not_slower, same, Claim, Figure, Rule, Test};
use super::sources::*;

/// `nvidia.cbuffer_divergent`: holds when a uniform constant-buffer index is at least 1.2x
/// faster than a per-lane one (the `cbuffer.divergent` finding) and a structured buffer read
/// per lane is at least 1.2x faster than the constant buffer read per lane. The value is the
/// first ratio.
pub const CBUFFER_DIVERGENT: Claim = Claim {
    id: "nvidia.cbuffer_divergent",
    vendor: "NVIDIA",
    source: NV_SHADERS,
    claim: "Constant buffers are fast only when every lane of a wave reads the same address; \
            data read with a per-lane index belongs in a storage (structured) buffer.",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::Finding("cbuffer.divergent"),
            band: faster(1.2),
        },
        Test {
            figure: Figure::Ratio(&[("structured.float4.linear", "cbuffer.float4.linear")]),
            band: faster(1.2),
        },
    ]),
};

/// `nvidia.constant_unique_addresses`: the cost of a constant-buffer load whose lanes read
/// as many addresses as a wave has lanes, over the cost of a uniform one, divided by the
/// subgroup size. Linear scaling makes it 1: holds within 1.2x of 1. Only the two ends (one
/// address, every lane its own) are measured, so a curve that bends between them passes.
pub const CONSTANT_UNIQUE_ADDRESSES: Claim = Claim {
    id: "nvidia.constant_unique_addresses",
    vendor: "NVIDIA",
    source: NV_CUDA,
    claim: "Constant loads with different addresses in one warp are serialized: the cost grows \
            in proportion to the number of distinct addresses.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Custom(
            &["cbuffer.float4.uniform", "cbuffer.float4.linear"],
            unique_addresses,
        ),
        band: same(),
    }]),
};

/// `nvidia.structured_equals_cbuffer`: structured-buffer against constant-buffer loads of
/// one `float4` at a uniform address; "equivalent" holds within 1.2x either way.
pub const STRUCTURED_EQUALS_CBUFFER: Claim = Claim {
    id: "nvidia.structured_equals_cbuffer",
    vendor: "NVIDIA",
    source: NV_DESCRIPTORS,
    claim: "From Volta on, constant data read through a structured (storage) buffer is as \
            fast as through a constant buffer (older GPUs favour the constant buffer).",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[("structured.float4.uniform", "cbuffer.float4.uniform")]),
        band: same(),
    }]),
};

/// `nvidia.push_constants_fastest`: a push-constant word against each other constant path
/// (a uniform block with a uniform index, the same without the run-time mask, a broadcast
/// storage load); holds when it is at most 1.2x slower than every one of them. The value is
/// push constants over the fastest of the others the report has.
pub const PUSH_CONSTANTS_FASTEST: Claim = Claim {
    id: "nvidia.push_constants_fastest",
    vendor: "NVIDIA",
    source: NV_DESCRIPTORS,
    claim: "Root (push) constants are the fastest way to give a shader constants: no \
            indirection, against one for a root descriptor and two for a table.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Custom(
            &[
                "mem.const.push",
                "mem.const.ubo.uniform",
                "mem.const.nomask.uniform",
                "mem.const.broadcast",
            ],
            push_fastest,
        ),
        band: not_slower(),
    }]),
};

/// `arm.push_vs_ubo`: a uniform block read with a uniform index against a push-constant
/// word (compute only); holds when the block is at least 1.2x faster.
pub const PUSH_VS_UBO: Claim = Claim {
    id: "arm.push_vs_ubo",
    vendor: "Arm",
    source: ARM_CONSTANT_DATA,
    claim: "Push constants are not always the fastest constant path: on recent Mali drivers a \
            uniform buffer in a descriptor set beat them.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[("mem.const.ubo.uniform", "mem.const.push")]),
        band: faster(1.2),
    }]),
};

/// `arm.dynamic_index`: the constant-buffer loads whose index the compiler sees (no run-time
/// mask) against the same loads with an index computed at run time, uniform addresses;
/// holds when the static index is at least 1.2x faster.
pub const DYNAMIC_INDEX: Claim = Claim {
    id: "arm.dynamic_index",
    vendor: "Arm",
    source: ARM_CONSTANT_DATA,
    claim: "Indexing uniform data dynamically is slower than with an index known when the \
            shader is compiled (it loses the register-mapped uniform path).",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[("mem.const.nomask.uniform", "cbuffer.float4.uniform")]),
        band: faster(1.2),
    }]),
};

/// `sebbbi.wave_uniform_load`: a storage load made wave-uniform and shared with a subgroup
/// broadcast against a plain storage load at a uniform address; holds when the broadcast is
/// at least 1.2x faster (the claim says up to 64x).
pub const WAVE_UNIFORM_LOAD: Claim = Claim {
    id: "sebbbi.wave_uniform_load",
    vendor: "sebbbi",
    source: SEBBBI_GIST,
    claim: "A storage-buffer load at the same address in every lane is still a per-lane load; \
            loading once per wave and broadcasting it is much faster.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[("mem.const.broadcast", "structured.float4.uniform")]),
        band: faster(1.2),
    }]),
};

/// `microsoft.tbuffer_random`: a typed (texel) buffer against a constant buffer, one
/// `float4` per lane at random addresses; holds when the typed buffer is at least 1.2x
/// faster.
pub const TBUFFER_RANDOM: Claim = Claim {
    id: "microsoft.tbuffer_random",
    vendor: "Microsoft",
    source: MS_CONSTANTS,
    claim: "For data indexed arbitrarily per lane, a texture (typed) buffer beats a constant \
            buffer.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[("typed.rgba32f.random", "cbuffer.float4.random")]),
        band: faster(1.2),
    }]),
};

/// `intel.static_constant_offset`: as `arm.dynamic_index` (the same two cases), for Intel's
/// wording; holds when the compile-time offset is at least 1.2x faster.
pub const STATIC_CONSTANT_OFFSET: Claim = Claim {
    id: "intel.static_constant_offset",
    vendor: "Intel",
    source: INTEL_CONSTANTS,
    claim: "Constant reads at offsets known at compile time are faster than at offsets computed \
            at run time.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[("mem.const.nomask.uniform", "cbuffer.float4.uniform")]),
        band: faster(1.2),
    }]),
};

/// `apple.constant_address_space`: the constant (uniform) path at least 1.2x faster than a
/// storage buffer for data every lane reads at one address, and a storage buffer at least
/// 1.2x faster for per-lane data (both `float4`).
pub const CONSTANT_ADDRESS_SPACE: Claim = Claim {
    id: "apple.constant_address_space",
    vendor: "Apple",
    source: APPLE_WWDC16,
    claim: "Pick the address space by use: the constant space for small data every thread \
            reads, the device (storage) space for data read per thread.",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::Ratio(&[("cbuffer.float4.uniform", "structured.float4.uniform")]),
            band: faster(1.2),
        },
        Test {
            figure: Figure::Ratio(&[("structured.float4.linear", "cbuffer.float4.linear")]),
            band: faster(1.2),
        },
    ]),
};

/// The constant-data claims, in the research order.
pub const CLAIMS: [Claim; 10] = [
    CBUFFER_DIVERGENT,
    CONSTANT_UNIQUE_ADDRESSES,
    STRUCTURED_EQUALS_CBUFFER,
    PUSH_CONSTANTS_FASTEST,
    PUSH_VS_UBO,
    DYNAMIC_INDEX,
    WAVE_UNIFORM_LOAD,
    TBUFFER_RANDOM,
    STATIC_CONSTANT_OFFSET,
    CONSTANT_ADDRESS_SPACE,
];
