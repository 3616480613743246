//! Claims about buffer loads: typed, raw, structured, device addresses, widths and layouts.

use super::rule::{faster, near, not_slower, Claim, Figure, Rule, Test, MARGIN};
use super::sources::*;

/// `amd.typed_channels`: one-channel 32-bit typed loads against four-channel 8-bit ones of
/// the same 4 bytes, linear (the `typed.channels` finding); the claim names a factor of 4,
/// so it holds within 1.2x of 4.
pub const TYPED_CHANNELS: Claim = Claim {
    id: "amd.typed_channels",
    vendor: "AMD",
    source: AMD_GCN,
    claim: "Coalesced single-channel typed buffer loads of up to 32 bits take a quarter of the \
            time of multi-channel ones (4 against 16 clocks per wave).",
    rule: Rule::Tests(&[Test {
        figure: Figure::Finding("typed.channels"),
        band: near(4.0),
    }]),
};

/// `intel.raw_vs_typed`: raw against typed loads of 4 bytes, linear (the `raw.vs_typed`
/// finding); holds when raw is at least 1.2x faster.
pub const RAW_VS_TYPED: Claim = Claim {
    id: "intel.raw_vs_typed",
    vendor: "Intel",
    source: INTEL_CONSTANTS,
    claim: "For consecutive loads, a raw (byte-address) buffer beats a typed buffer.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Finding("raw.vs_typed"),
        band: faster(1.2),
    }]),
};

/// `qualcomm.vector4_loads`: bytes per second of 16-byte structured (`uvec4`) loads against
/// 4-byte ones, linear and random (geometric mean); holds when the wide loads move at least
/// 1.2x the bytes.
pub const VECTOR4_LOADS: Claim = Claim {
    id: "qualcomm.vector4_loads",
    vendor: "Qualcomm",
    source: QCOM_OPENCL,
    claim: "Vectorize memory accesses to 128 bits (four 32-bit values) per lane to reach the \
            most bandwidth.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Bytes(&[
            ("structured.float4.linear", "structured.float.linear"),
            ("structured.float4.random", "structured.float.random"),
        ]),
        band: faster(1.2),
    }]),
};

/// `intel.narrow_loads`: 32-bit loads against 8- and 16-bit ones (loads per second, linear,
/// geometric mean); holds when the narrow loads are not 1.2x faster per load, so reading a
/// value through a narrow type saves nothing.
pub const NARROW_LOADS: Claim = Claim {
    id: "intel.narrow_loads",
    vendor: "Intel",
    source: INTEL_GRANULARITY,
    claim: "Access memory in quantities of at least 32 bits: narrower loads cost as much per \
            load and so move fewer bytes.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("mem.narrow.u32.linear", "mem.narrow.u8.linear"),
            ("mem.narrow.u32.linear", "mem.narrow.u16.linear"),
        ]),
        band: not_slower(),
    }]),
};

/// `intel.narrow_gather`: 32-bit against 8- and 16-bit loads at random addresses (geometric
/// mean); holds when the 32-bit gathers are at least 1.2x faster per load.
pub const NARROW_GATHER: Claim = Claim {
    id: "intel.narrow_gather",
    vendor: "Intel",
    source: INTEL_MEMORY_ACCESS,
    claim: "Gathers of 1- and 2-byte elements are inefficient; prefer 4-byte or contiguous \
            accesses.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("mem.narrow.u32.random", "mem.narrow.u8.random"),
            ("mem.narrow.u32.random", "mem.narrow.u16.random"),
        ]),
        band: faster(1.2),
    }]),
};

/// `nvidia.smallest_type`: 8-bit, 16-bit and half loads against 32-bit ones (loads per
/// second, linear, geometric mean); holds when a value read through the small type costs at
/// most 1.2x a 32-bit one, so the smaller footprint is close to free.
pub const SMALLEST_TYPE: Claim = Claim {
    id: "nvidia.smallest_type",
    vendor: "NVIDIA",
    source: NV_SHADERS,
    claim: "Store buffer data in the smallest type that holds its range (packing bits by hand \
            where needed): smaller data costs less to read.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("mem.narrow.u8.linear", "mem.narrow.u32.linear"),
            ("mem.narrow.u16.linear", "mem.narrow.u32.linear"),
            ("mem.narrow.f16.linear", "mem.narrow.u32.linear"),
        ]),
        band: not_slower(),
    }]),
};

/// `intel.soa_layout`: loads of a 4-byte field kept in its own packed array against the same
/// field read from 64-byte structures (`mem.layout.soa` against `mem.layout.aos64`), linear
/// and random (loads per second, geometric mean); holds when the field's own array is at
/// least 1.2x faster.
pub const SOA_LAYOUT: Claim = Claim {
    id: "intel.soa_layout",
    vendor: "Intel",
    source: INTEL_CONSTANTS,
    claim: "Use most of every cache line: when a shader reads one field of a large structure, \
            move that field into its own array (structure of arrays).",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("mem.layout.soa.linear", "mem.layout.aos64.linear"),
            ("mem.layout.soa.random", "mem.layout.aos64.random"),
        ]),
        band: faster(1.2),
    }]),
};

/// `nvidia.structured_stride`: structured `uint4` loads of a member of 32-byte structures
/// (padded to a multiple of 16 bytes) against 20-byte ones (`mem.layout.stride32` against
/// `mem.layout.stride20`, whose kernel declares the scalar layout), linear and random (loads
/// per second, geometric mean); holds when the padded stride is at least 1.2x faster.
pub const STRUCTURED_STRIDE: Claim = Claim {
    id: "nvidia.structured_stride",
    vendor: "NVIDIA",
    source: NV_STRUCTURED,
    claim: "Pad structured-buffer elements to a multiple of 16 bytes: with a 20-byte stride a \
            float4 member straddles cache lines.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("mem.layout.stride32.linear", "mem.layout.stride20.linear"),
            ("mem.layout.stride32.random", "mem.layout.stride20.random"),
        ]),
        band: faster(1.2),
    }]),
};

/// `amd.rgb32_formats`: bytes per second of raw 16-byte loads against 12-byte ones, linear
/// and random; holds when the 16-byte loads move at least 1.2x the bytes (a 12-byte load is
/// then no cheaper than a 16-byte one).
pub const RGB32_FORMATS: Claim = Claim {
    id: "amd.rgb32_formats",
    vendor: "AMD",
    source: AMD_RDNA,
    claim: "Three-channel 32-bit (96-bit) formats are a poor choice: a 12-byte access costs \
            as much as a 16-byte one.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Bytes(&[
            ("raw.load4.linear", "raw.load3.linear"),
            ("raw.load4.random", "raw.load3.random"),
        ]),
        band: faster(1.2),
    }]),
};

/// `amd.descriptor_vs_address`: 16-byte loads through a storage-buffer descriptor against
/// the same loads through a buffer device address, 16 KB and 64 MB, linear and random
/// (geometric mean); holds when the descriptor path is at least 1.2x faster.
pub const DESCRIPTOR_VS_ADDRESS: Claim = Claim {
    id: "amd.descriptor_vs_address",
    vendor: "AMD",
    source: AMD_WAVE,
    claim: "Loads through a buffer descriptor are often faster than loads from per-lane \
            pointers (global or device addresses).",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("modern.ws.16kb.aligned.linear", "modern.ws.16kb.bda.linear"),
            ("modern.ws.16kb.aligned.random", "modern.ws.16kb.bda.random"),
            ("modern.ws.64mb.aligned.linear", "modern.ws.64mb.bda.linear"),
            ("modern.ws.64mb.aligned.random", "modern.ws.64mb.bda.random"),
        ]),
        band: faster(1.2),
    }]),
};

/// `intel.readonly_buffers`: 16-byte structured and raw loads from a buffer declared
/// `readonly` against their twins declared read-write (`mem.layout.stride16` and
/// `mem.layout.raw` against `mem.layout.rw.*`), linear and random (loads per second,
/// geometric mean); holds when the read-only loads are at least 1.2x faster.
pub const READONLY_BUFFERS: Claim = Claim {
    id: "intel.readonly_buffers",
    vendor: "Intel",
    source: INTEL_UAVS,
    claim: "Reading data declared read-only is much faster than reading read-write buffers.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "mem.layout.stride16.linear",
                "mem.layout.rw.stride16.linear",
            ),
            (
                "mem.layout.stride16.random",
                "mem.layout.rw.stride16.random",
            ),
            ("mem.layout.raw.linear", "mem.layout.rw.raw.linear"),
            ("mem.layout.raw.random", "mem.layout.rw.raw.random"),
        ]),
        band: faster(1.2),
    }]),
};

/// `arm.robust_buffer_access`: original buffer loads (`ByteAddressBuffer.Load` and `Load4`,
/// `StructuredBuffer<float4>`, `cbuffer{float4}`, linear and random) against their twins whose
/// pipeline asks for robust buffer access (`mem.robust.*`, `VK_EXT_pipeline_robustness`),
/// loads per second, geometric mean over the eight pairs; holds when the plain loads are at
/// least [`MARGIN`] (1.2x) faster, and does not hold otherwise.
pub const ROBUST_BUFFER_ACCESS: Claim = Claim {
    id: "arm.robust_buffer_access",
    vendor: "Arm",
    source: ARM_ROBUST,
    claim: "Robust buffer access costs performance on uniform and storage buffer loads; turn \
            it off in release builds.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("raw.load.linear", "mem.robust.raw.load.linear"),
            ("raw.load.random", "mem.robust.raw.load.random"),
            ("raw.load4.linear", "mem.robust.raw.load4.linear"),
            ("raw.load4.random", "mem.robust.raw.load4.random"),
            (
                "structured.float4.linear",
                "mem.robust.structured.float4.linear",
            ),
            (
                "structured.float4.random",
                "mem.robust.structured.float4.random",
            ),
            ("cbuffer.float4.linear", "mem.robust.cbuffer.float4.linear"),
            ("cbuffer.float4.random", "mem.robust.cbuffer.float4.random"),
        ]),
        band: faster(MARGIN),
    }]),
};

/// `arm.specialization_constants`: the constant-buffer loads whose mask the compiler sees
/// against those whose mask is run-time data, uniform, linear and random (geometric mean);
/// holds when the compile-time form is at least 1.2x faster. Only the mask is a compile-time
/// constant here, not the control flow the claim is about.
pub const SPECIALIZATION_CONSTANTS: Claim = Claim {
    id: "arm.specialization_constants",
    vendor: "Arm",
    source: ARM_SPECIALIZATION,
    claim: "Values known when the pipeline is built (specialization constants) beat the same \
            values read from uniforms or push constants.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("mem.const.nomask.uniform", "cbuffer.float4.uniform"),
            ("mem.const.nomask.linear", "cbuffer.float4.linear"),
            ("mem.const.nomask.random", "cbuffer.float4.random"),
        ]),
        band: faster(1.2),
    }]),
};

/// The buffer-load claims, in the research order.
pub const CLAIMS: [Claim; 13] = [
    TYPED_CHANNELS,
    RAW_VS_TYPED,
    VECTOR4_LOADS,
    NARROW_LOADS,
    NARROW_GATHER,
    SMALLEST_TYPE,
    SOA_LAYOUT,
    STRUCTURED_STRIDE,
    RGB32_FORMATS,
    DESCRIPTOR_VS_ADDRESS,
    READONLY_BUFFERS,
    ROBUST_BUFFER_ACCESS,
    SPECIALIZATION_CONSTANTS,
];
