//! Claims about bandwidth and caches, shared memory, and transfers.

use super::figures::{compressed_over_rgba8, l2_partitions, shared_takes_l1, COMPRESSED_AND_RGBA8};
use super::rule::{faster, near, not_slower, same, Claim, Figure, Rule, Test, MARGIN};
use super::sources::*;

/// `nvidia.32bit_formats`: the same 8192x4096 image in the 32-bit formats (`B10G11R11F`,
/// `RGBA8`, 128 MB) against `RGBA16F` (256 MB), every one beyond the L2: texels per second
/// (the family's loads, a pair of texels each), geometric mean of the two pairs; holds when
/// the 32-bit formats read the image at least [`MARGIN`] (1.2x) faster.
pub const FORMATS_32BIT: Claim = Claim {
    id: "nvidia.32bit_formats",
    vendor: "NVIDIA",
    source: NV_MEMORY,
    claim: "Prefer 32-bit formats such as R11G11B10 float to 64-bit ones to save bandwidth.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "mem.texbw.8192x4096.b10g11r11f",
                "mem.texbw.8192x4096.rgba16f",
            ),
            ("mem.texbw.8192x4096.rgba8", "mem.texbw.8192x4096.rgba16f"),
        ]),
        band: faster(MARGIN),
    }]),
};

/// `intel.block_compression`: the same 8192x4096 image in `BC1` (16 MB) and `BC7` (32 MB)
/// against `RGBA8` (128 MB, beyond the L2): texels per second, geometric mean of the two
/// pairs; holds when the compressed formats read the image at least [`MARGIN`] faster (a
/// compressed image that fits in the L2 is part of what compression buys: "locality").
pub const BLOCK_COMPRESSION: Claim = Claim {
    id: "intel.block_compression",
    vendor: "Intel",
    source: INTEL_SAMPLING,
    claim: "Block-compressed formats (BC1-BC7) improve bandwidth and locality on large \
            textures.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("mem.texbw.8192x4096.bc1", "mem.texbw.8192x4096.rgba8"),
            ("mem.texbw.8192x4096.bc7", "mem.texbw.8192x4096.rgba8"),
        ]),
        band: faster(MARGIN),
    }]),
};

/// `arm.texture_compression`: two tests on the same 8192x4096 image. Compression: the
/// compressed formats the device has (`ASTC4x4`, `BC7`, `BC1`: those the report measured)
/// against `RGBA8`, texels per second, geometric mean ([`compressed_over_rgba8`]); narrower
/// formats: `RGBA8` against `RGBA16F` and `RGBA16F` against `RGBA32F`. Each holds at
/// [`MARGIN`] faster. Mipmaps and ASTC's decode mode are not measured here.
pub const TEXTURE_COMPRESSION: Claim = Claim {
    id: "arm.texture_compression",
    vendor: "Arm",
    source: ARM_HIGH_TEXTURE,
    claim: "Texture compression, mipmaps and narrower formats cut texture bandwidth (ASTC \
            with a decode mode).",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::Custom(&COMPRESSED_AND_RGBA8, compressed_over_rgba8),
            band: faster(MARGIN),
        },
        Test {
            figure: Figure::Ratio(&[
                ("mem.texbw.8192x4096.rgba8", "mem.texbw.8192x4096.rgba16f"),
                ("mem.texbw.8192x4096.rgba16f", "mem.texbw.8192x4096.rgba32f"),
            ]),
            band: faster(MARGIN),
        },
    ]),
};

/// `nvidia.coalescing`: linear against random 16-byte loads with working sets beyond the L2
/// (64 MB and 256 MB, geometric mean); holds when linear is at least 1.2x faster.
pub const COALESCING: Claim = Claim {
    id: "nvidia.coalescing",
    vendor: "NVIDIA",
    source: NV_CUDA,
    claim: "Scattered or misaligned accesses waste memory transactions; accesses that \
            coalesce use them fully.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "modern.ws.64mb.structured.linear",
                "modern.ws.64mb.structured.random",
            ),
            (
                "modern.ws.256mb.structured.linear",
                "modern.ws.256mb.structured.random",
            ),
        ]),
        band: faster(1.2),
    }]),
};

/// `nvidia.bank_conflicts`: shared-memory loads at each stride (2 to 16 words) against twice
/// that stride (geometric mean); doubling an n-way conflict should halve the rate, so it
/// holds within 1.2x of 2. Stride 1 is left out: conflict-free loads are limited by issue.
pub const BANK_CONFLICTS: Claim = Claim {
    id: "nvidia.bank_conflicts",
    vendor: "NVIDIA",
    source: NV_CUDA,
    claim: "Shared-memory accesses that hit the same bank serialize: an n-way bank conflict \
            costs n times.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("mem.shared.stride.2", "mem.shared.stride.4"),
            ("mem.shared.stride.4", "mem.shared.stride.8"),
            ("mem.shared.stride.8", "mem.shared.stride.16"),
            ("mem.shared.stride.16", "mem.shared.stride.32"),
        ]),
        band: near(2.0),
    }]),
};

/// `intel.shared_vec4`: bytes per second of 128-bit shared-memory loads against 32-bit ones;
/// holds when the wide loads move at least 1.2x the bytes.
pub const SHARED_VEC4: Claim = Claim {
    id: "intel.shared_vec4",
    vendor: "Intel",
    source: INTEL_COMPUTE,
    claim: "Keep shared memory as float4 elements rather than four float arrays: fewer, \
            wider accesses.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Bytes(&[("mem.shared.width.128", "mem.shared.width.32")]),
        band: faster(1.2),
    }]),
};

/// `intel.shared_occupancy`: the L1 without shared memory over the smallest L1 a
/// shared-memory declaration leaves (the carve-out curves behind `cache.carveout`); holds
/// when declaring shared memory shrinks the L1 at least 1.2x. NVIDIA's cost of shared memory
/// (L1) stands in for Intel's (SIMD width).
pub const SHARED_OCCUPANCY: Claim = Claim {
    id: "intel.shared_occupancy",
    vendor: "Intel",
    source: INTEL_COMPUTE,
    claim: "Declaring a lot of shared memory costs the rest of the core (on Intel, SIMD width \
            and occupancy).",
    rule: Rule::Tests(&[Test {
        figure: Figure::Custom(&[], shared_takes_l1),
        band: faster(1.2),
    }]),
};

/// `nvidia.l2_partitions`: the far L2 partition's latency over the near one's (the
/// `cache.l2_far` and `cache.l2_near` findings; 1 where the sweep finds one L2); holds at
/// 1.2x or more.
pub const L2_PARTITIONS: Claim = Claim {
    id: "nvidia.l2_partitions",
    vendor: "NVIDIA",
    source: NV_HOPPER,
    claim: "The L2 has two partitions: data in the near one is served faster than data that \
            spills into the far one.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Custom(&[], l2_partitions),
        band: faster(1.2),
    }]),
};

/// `amd.mapped_device_local`: writing 64 KB into mapped device-local memory at least 1.2x
/// faster than a staging buffer and a copy (the `upload.mapped_vs_staged` finding), and an
/// upload on the transfer queue no more than 1.2x slower than on the compute queue
/// (`copy.transfer_queue`).
pub const MAPPED_DEVICE_LOCAL: Claim = Claim {
    id: "amd.mapped_device_local",
    vendor: "AMD",
    source: AMD_RDNA,
    claim: "Write data the CPU produces straight into host-visible device-local memory, and \
            upload the rest on the copy queue.",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::Finding("upload.mapped_vs_staged"),
            band: faster(1.2),
        },
        Test {
            figure: Figure::Finding("copy.transfer_queue"),
            band: not_slower(),
        },
    ]),
};

/// `nvidia.clear_command`: no case yet.
pub const CLEAR_COMMAND: Claim = Claim {
    id: "nvidia.clear_command",
    vendor: "NVIDIA",
    source: NV_CLEARING,
    claim: "Outside a render pass, clear images with vkCmdClearColorImage rather than a \
            compute shader.",
    rule: Rule::NoCase(
        "no case measures this yet: it needs vkCmdClearColorImage beside a compute-shader clear",
    ),
};

/// `nvidia.concurrent_sharing`: original buffer loads (`ByteAddressBuffer.Load` and `Load4`,
/// `StructuredBuffer<float4>`, `cbuffer{float4}`, linear and random), whose buffers are
/// shared exclusively, against their twins reading the same data from a buffer shared
/// concurrently by two queue families (`mem.concurrent.*`), loads per second, geometric mean
/// over the eight pairs; holds when the two are within [`super::MARGIN`] (1.2x) of each other,
/// a tie, and does not hold otherwise.
pub const CONCURRENT_SHARING: Claim = Claim {
    id: "nvidia.concurrent_sharing",
    vendor: "NVIDIA",
    source: NV_DOS,
    claim: "Concurrent sharing mode costs nothing extra.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("raw.load.linear", "mem.concurrent.raw.load.linear"),
            ("raw.load.random", "mem.concurrent.raw.load.random"),
            ("raw.load4.linear", "mem.concurrent.raw.load4.linear"),
            ("raw.load4.random", "mem.concurrent.raw.load4.random"),
            (
                "structured.float4.linear",
                "mem.concurrent.structured.float4.linear",
            ),
            (
                "structured.float4.random",
                "mem.concurrent.structured.float4.random",
            ),
            (
                "cbuffer.float4.linear",
                "mem.concurrent.cbuffer.float4.linear",
            ),
            (
                "cbuffer.float4.random",
                "mem.concurrent.cbuffer.float4.random",
            ),
        ]),
        band: same(),
    }]),
};

/// The bandwidth, cache and transfer claims, in the research order.
pub const CLAIMS: [Claim; 11] = [
    FORMATS_32BIT,
    BLOCK_COMPRESSION,
    TEXTURE_COMPRESSION,
    COALESCING,
    BANK_CONFLICTS,
    SHARED_VEC4,
    SHARED_OCCUPANCY,
    L2_PARTITIONS,
    MAPPED_DEVICE_LOCAL,
    CLEAR_COMMAND,
    CONCURRENT_SHARING,
];
