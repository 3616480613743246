//! Claims about textures: loads, samples, filters, formats, shapes and samplers.

use super::figures::{srgb_aniso_extra, texel_peak, SRGB_ANISO_CASES, SRGB_ANISO_PAIRS};
use super::rule::{faster, near, slower, Band, Claim, Figure, Rule, Test};
use super::sources::*;

/// `amd.wide_texel_rate`: point-sampled RGBA32F against R32F within 1.2x of full rate (the
/// `sample.nearest_wide` finding), and bilinear RGBA32F against R32F within 1.2x of quarter
/// rate (`sample.bilinear_wide`); the claim names both factors.
pub const WIDE_TEXEL_RATE: Claim = Claim {
    id: "amd.wide_texel_rate",
    vendor: "AMD",
    source: AMD_GCN,
    claim: "128-bit texels point-sample at full rate but filter at quarter rate: the filter \
            handles 32 bits per texel per clock.",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::Finding("sample.nearest_wide"),
            band: near(1.0),
        },
        Test {
            figure: Figure::Finding("sample.bilinear_wide"),
            band: near(0.25),
        },
    ]),
};

/// `arm.texel_rate`: the fastest sampling case's texels per clock and core as a share of the
/// rate the driver publishes (the `peak.texel` finding); holds within 1.2x of 1.
pub const TEXEL_RATE: Claim = Claim {
    id: "arm.texel_rate",
    vendor: "Arm",
    source: ARM_VALHALL,
    claim: "A Valhall core filters four bilinear texels per clock.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Custom(&[], texel_peak),
        band: near(1.0),
    }]),
};

/// `arm.trilinear_cost`: bilinear against trilinear sampling (R8, RGBA8, RGBA16F, linear,
/// geometric mean); the claim names 2x, so it holds within 1.2x of 2.
pub const TRILINEAR_COST: Claim = Claim {
    id: "arm.trilinear_cost",
    vendor: "Arm",
    source: ARM_VALHALL,
    claim: "Trilinear filtering costs twice bilinear (PowerVR: eight texel fetches against \
            four).",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "tex.sample.bilinear.r8.linear",
                "tex.mip.trilinear.r8.linear",
            ),
            (
                "tex.sample.bilinear.rgba8.linear",
                "tex.mip.trilinear.rgba8.linear",
            ),
            (
                "tex.sample.bilinear.rgba16f.linear",
                "tex.mip.trilinear.rgba16f.linear",
            ),
        ]),
        band: near(2.0),
    }]),
};

/// `arm.3d_cost`: sampling a 2D texture against a 3D one (nearest, R8 and RGBA8, linear);
/// holds within 1.2x of the 2x the claim names. No 3D bilinear case exists yet.
pub const VOLUME_COST: Claim = Claim {
    id: "arm.3d_cost",
    vendor: "Arm",
    source: ARM_VALHALL,
    claim: "Sampling a 3D texture costs twice a 2D one.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "tex.sample.nearest.r8.linear",
                "tex.shape.3d.sample.nearest.r8.linear",
            ),
            (
                "tex.sample.nearest.rgba8.linear",
                "tex.shape.3d.sample.nearest.rgba8.linear",
            ),
        ]),
        band: near(2.0),
    }]),
};

/// `arm.wide_texel_cost`: bilinear RGBA8 (32 bits) against RGBA16F and RG32F (64 bits),
/// sampled off texel centres so four texels blend, linear; holds within 1.2x of 2.
pub const WIDE_TEXEL_COST: Claim = Claim {
    id: "arm.wide_texel_cost",
    vendor: "Arm",
    source: ARM_VALHALL,
    claim: "Filtering texels wider than 32 bits costs twice.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "tex.offcentre.bilinear.rgba8.linear",
                "tex.offcentre.bilinear.rgba16f.linear",
            ),
            (
                "tex.offcentre.bilinear.rgba8.linear",
                "tex.offcentre.bilinear.rg32f.linear",
            ),
        ]),
        band: near(2.0),
    }]),
};

/// `arm.fp32_filter_cost`: bilinear R16F against R32F, off texel centres, linear; holds
/// within 1.2x of 2.
pub const FP32_FILTER_COST: Claim = Claim {
    id: "arm.fp32_filter_cost",
    vendor: "Arm",
    source: ARM_VALHALL,
    claim: "Filtering 32-bit float channels costs twice filtering 16-bit ones.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[(
            "tex.offcentre.bilinear.r16f.linear",
            "tex.offcentre.bilinear.r32f.linear",
        )]),
        band: near(2.0),
    }]),
};

/// `arm.aniso_cost`: trilinear against 16x anisotropic sampling (R8 and RGBA8, linear);
/// holds when anisotropic costs more (at least 1.2x) and at most 16x (within 1.2x).
pub const ANISO_COST: Claim = Claim {
    id: "arm.aniso_cost",
    vendor: "Arm",
    source: ARM_VALHALL,
    claim: "N-times anisotropic filtering costs up to N times trilinear.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("tex.mip.trilinear.r8.linear", "tex.mip.aniso16.r8.linear"),
            (
                "tex.mip.trilinear.rgba8.linear",
                "tex.mip.aniso16.rgba8.linear",
            ),
        ]),
        band: Band {
            low: 1.2,
            high: 16.0 * 1.2,
        },
    }]),
};

/// `intel.grad_quarter_rate`: trilinear sampling at an explicit LOD against explicit
/// gradients (R8 and RGBA8, linear); holds within 1.2x of the 4x the claim names.
pub const GRAD_QUARTER_RATE: Claim = Claim {
    id: "intel.grad_quarter_rate",
    vendor: "Intel",
    source: INTEL_SAMPLING,
    claim: "Sampling with explicit gradients runs at a quarter of the rate of sampling at an \
            explicit LOD.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("tex.mip.trilinear.r8.linear", "tex.mip.grad.r8.linear"),
            (
                "tex.mip.trilinear.rgba8.linear",
                "tex.mip.grad.rgba8.linear",
            ),
        ]),
        band: near(4.0),
    }]),
};

/// `intel.array_layer_uniform`: 2D texture loads against 2D-array loads whose layer varies
/// per lane (R8, RGBA8, RGBA32F, linear); holds when the 2D loads are at least 1.2x faster.
/// No uniform-layer array case exists yet: the 2D texture stands in for it.
pub const ARRAY_LAYER_UNIFORM: Claim = Claim {
    id: "intel.array_layer_uniform",
    vendor: "Intel",
    source: INTEL_SAMPLING,
    claim: "When reading a texture array, keep the layer index the same across the lanes of a \
            wave.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("tex.load.r8.linear", "tex.shape.array.load.r8.linear"),
            ("tex.load.rgba8.linear", "tex.shape.array.load.rgba8.linear"),
            (
                "tex.load.rgba32f.linear",
                "tex.shape.array.load.rgba32f.linear",
            ),
        ]),
        band: faster(1.2),
    }]),
};

/// `intel.texture_shape`: 2D-array against 3D texture loads (R8, RGBA8, RGBA32F, linear);
/// holds when the array is at least 1.2x faster.
pub const TEXTURE_SHAPE: Claim = Claim {
    id: "intel.texture_shape",
    vendor: "Intel",
    source: INTEL_SAMPLING,
    claim: "Use the texture type that fits the data: a 3D texture used as a stack of 2D \
            slices is slower than a 2D array.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "tex.shape.array.load.r8.linear",
                "tex.shape.3d.load.r8.linear",
            ),
            (
                "tex.shape.array.load.rgba8.linear",
                "tex.shape.3d.load.rgba8.linear",
            ),
            (
                "tex.shape.array.load.rgba32f.linear",
                "tex.shape.3d.load.rgba32f.linear",
            ),
        ]),
        band: faster(1.2),
    }]),
};

/// `intel.srgb_aniso`: two tests, both of which must hold. (1) 16x anisotropic sampling of
/// RGBA8 UNORM against the same data viewed as sRGB (`tex.mip.aniso16.rgba8.*` against
/// `tex.srgb.aniso16.*`, linear and random, geometric mean): the UNORM texture at least 1.2x
/// faster, i.e. sRGB anisotropic sampling slow. (2) That cost over what sRGB costs trilinear
/// sampling (the same ratio of `tex.mip.trilinear.rgba8.*` against `tex.srgb.trilinear.*`,
/// [`srgb_aniso_extra`]): at least 1.2, i.e. the combination is slow, not sRGB alone. A
/// device without `samplerAnisotropy` skips the anisotropic cases: not measured, with that
/// reason.
pub const SRGB_ANISO: Claim = Claim {
    id: "intel.srgb_aniso",
    vendor: "Intel",
    source: INTEL_SAMPLING,
    claim: "Anisotropic filtering of sRGB textures is slow; avoid the combination.",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::Ratio(&SRGB_ANISO_PAIRS),
            band: faster(1.2),
        },
        Test {
            figure: Figure::Custom(&SRGB_ANISO_CASES, srgb_aniso_extra),
            band: faster(1.2),
        },
    ]),
};

/// `intel.dependent_reads`: one step of a texture chain (each read's coordinates from the
/// texel the read before returned: `texelFetch` of `R32_UINT` indices and nearest samples of
/// `RG32F` coordinates, `mem.texchain.*`) against one step of the buffer pointer chase at the
/// same working set (`mem.sweep.latency.*`), 16 KB (first-level cache) and 4 MB (second level);
/// the figure is the buffer chain's steps per second over the texture chain's (the texture
/// step's latency over the buffer step's, geometric mean of the four pairs); holds when a
/// texture step costs at least 1.2x a buffer step. The chains measure what a dependent read
/// costs against a dependent load, not a dependent texture read against an independent one.
pub const DEPENDENT_READS: Claim = Claim {
    id: "intel.dependent_reads",
    vendor: "Intel",
    source: INTEL_SAMPLING,
    claim: "Texture reads whose coordinates come from an earlier texture read serialize the \
            sampler; avoid them.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("mem.sweep.latency.16kb", "mem.texchain.fetch.16kb"),
            ("mem.sweep.latency.4mb", "mem.texchain.fetch.4mb"),
            ("mem.sweep.latency.16kb", "mem.texchain.sample.16kb"),
            ("mem.sweep.latency.4mb", "mem.texchain.sample.4mb"),
        ]),
        band: faster(1.2),
    }]),
};

/// `qualcomm.image_vs_buffer`: texture loads against structured-buffer loads of the same
/// data (R32F against `float`, RGBA32F against `float4`, linear); holds when the texture is
/// at least 1.2x faster.
pub const IMAGE_VS_BUFFER: Claim = Claim {
    id: "qualcomm.image_vs_buffer",
    vendor: "Qualcomm",
    source: QCOM_OPENCL,
    claim: "Reading data through an image is usually faster than through a buffer (Arm: when \
            load/store-bound, use a texture instead of a buffer).",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("tex.load.r32f.linear", "structured.float.linear"),
            ("tex.load.rgba32f.linear", "structured.float4.linear"),
        ]),
        band: faster(1.2),
    }]),
};

/// `arm.packed_rgba8_buffer`: bytes per second of 16-byte buffer loads (raw `Load4` and a
/// `uvec4` structured load, four RGBA8 pixels each) against RGBA8 texture loads, linear
/// (geometric mean); holds when the buffer moves at least 1.2x the pixels.
pub const PACKED_RGBA8_BUFFER: Claim = Claim {
    id: "arm.packed_rgba8_buffer",
    vendor: "Arm",
    source: ARM_OPENCL,
    claim: "An image read returns one pixel, a 128-bit buffer load four RGBA8 pixels: packed \
            8-bit data reads faster from a buffer.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Bytes(&[
            ("raw.load4.linear", "tex.load.rgba8.linear"),
            ("structured.float4.linear", "tex.load.rgba8.linear"),
        ]),
        band: faster(1.2),
    }]),
};

/// `apple.point_sample_over_fetch`: nearest sampling with clamp-to-edge against texel
/// fetches (R8, RGBA8, RGBA32F, linear, geometric mean; where the report lacks them, the
/// `sample.vs_load` finding, which samples with repeat); holds when sampling is at least 1.2x
/// faster. Clamp-to-edge because repeat addressing has a cost of its own on some GPUs
/// (`sample.address_mode`), which is not the claim's.
pub const POINT_SAMPLE_OVER_FETCH: Claim = Claim {
    id: "apple.point_sample_over_fetch",
    vendor: "Apple",
    source: APPLE_BLENDER,
    claim: "A point (nearest) sample uses the texture cache better than a texel fetch.",
    rule: Rule::Tests(&[Test {
        figure: Figure::RatioElse(
            &[
                ("tex.addr.clamp.nearest.r8.linear", "tex.load.r8.linear"),
                (
                    "tex.addr.clamp.nearest.rgba8.linear",
                    "tex.load.rgba8.linear",
                ),
                (
                    "tex.addr.clamp.nearest.rgba32f.linear",
                    "tex.load.rgba32f.linear",
                ),
            ],
            "sample.vs_load",
        ),
        band: faster(1.2),
    }]),
};

/// `imagination.filter_cost_order`: bilinear at least 1.2x slower than nearest, both with
/// clamp-to-edge (R8 and RGBA8, linear, geometric mean; where the report lacks them, the
/// `sample.bilinear` finding, RGBA8 with repeat), trilinear at least 1.2x slower than
/// bilinear, and 16x anisotropic at least 1.2x slower than trilinear (RGBA8, linear). No
/// cubic case exists.
pub const FILTER_COST_ORDER: Claim = Claim {
    id: "imagination.filter_cost_order",
    vendor: "Imagination",
    source: IMG_SAMPLING,
    claim: "Filters cost more in this order: nearest, bilinear, (cubic), trilinear, \
            anisotropic.",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::RatioElse(
                &[
                    (
                        "tex.addr.clamp.bilinear.r8.linear",
                        "tex.addr.clamp.nearest.r8.linear",
                    ),
                    (
                        "tex.addr.clamp.bilinear.rgba8.linear",
                        "tex.addr.clamp.nearest.rgba8.linear",
                    ),
                ],
                "sample.bilinear",
            ),
            band: slower(1.2),
        },
        Test {
            figure: Figure::Ratio(&[(
                "tex.mip.trilinear.rgba8.linear",
                "tex.sample.bilinear.rgba8.linear",
            )]),
            band: slower(1.2),
        },
        Test {
            figure: Figure::Ratio(&[(
                "tex.mip.aniso16.rgba8.linear",
                "tex.mip.trilinear.rgba8.linear",
            )]),
            band: slower(1.2),
        },
    ]),
};

/// `arm.sample_precision`: samples through a sampler declared `mediump` (RelaxedPrecision
/// results) against their full-precision twins of the original suite (`tex.mediump.*`
/// against `tex.sample.*`: nearest and bilinear, RGBA8 and RGBA16F, whose four channels fill
/// the return path most, linear and random; loads per second, geometric mean); holds when
/// the medium-precision samples are at least 1.2x faster. The claim is about the load on the
/// texture path and names no factor: the rate shows it only where the return of results
/// bounds the rate, and a gain below 1.2x counts as a tie.
pub const SAMPLE_PRECISION: Claim = Claim {
    id: "arm.sample_precision",
    vendor: "Arm",
    source: ARM_HIGH_TEXTURE,
    claim: "Samplers returning medium (16-bit) precision load the texture path less than \
            full-precision ones.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "tex.mediump.nearest.rgba8.linear",
                "tex.sample.nearest.rgba8.linear",
            ),
            (
                "tex.mediump.nearest.rgba8.random",
                "tex.sample.nearest.rgba8.random",
            ),
            (
                "tex.mediump.nearest.rgba16f.linear",
                "tex.sample.nearest.rgba16f.linear",
            ),
            (
                "tex.mediump.nearest.rgba16f.random",
                "tex.sample.nearest.rgba16f.random",
            ),
            (
                "tex.mediump.bilinear.rgba8.linear",
                "tex.sample.bilinear.rgba8.linear",
            ),
            (
                "tex.mediump.bilinear.rgba8.random",
                "tex.sample.bilinear.rgba8.random",
            ),
            (
                "tex.mediump.bilinear.rgba16f.linear",
                "tex.sample.bilinear.rgba16f.linear",
            ),
            (
                "tex.mediump.bilinear.rgba16f.random",
                "tex.sample.bilinear.rgba16f.random",
            ),
        ]),
        band: faster(1.2),
    }]),
};

/// `nvidia.optimal_tiling`: the original suite's `Texture2D` loads and nearest and bilinear
/// samples (R8, RGBA8, RGBA32F; linear and random) against their twins reading a linearly
/// tiled copy of the same texture (`tex.tiling.linear.*`: same kernel, sampler and data, only
/// `VK_IMAGE_TILING_LINEAR`); the figure is the optimal case's loads per second over its
/// twin's, geometric mean of the 18 pairs; holds when the optimally tiled textures are at
/// least 1.2x faster. The textures are the original's 32x32 (at most 16 KB), so the texels stay
/// in the first-level cache: what tiling saves in memory traffic beyond it is not measured.
pub const OPTIMAL_TILING: Claim = Claim {
    id: "nvidia.optimal_tiling",
    vendor: "NVIDIA",
    source: NV_LAYERS,
    claim: "Use optimally tiled images, not linearly tiled ones.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            ("tex.load.r8.linear", "tex.tiling.linear.load.r8.linear"),
            ("tex.load.r8.random", "tex.tiling.linear.load.r8.random"),
            (
                "tex.load.rgba8.linear",
                "tex.tiling.linear.load.rgba8.linear",
            ),
            (
                "tex.load.rgba8.random",
                "tex.tiling.linear.load.rgba8.random",
            ),
            (
                "tex.load.rgba32f.linear",
                "tex.tiling.linear.load.rgba32f.linear",
            ),
            (
                "tex.load.rgba32f.random",
                "tex.tiling.linear.load.rgba32f.random",
            ),
            (
                "tex.sample.nearest.r8.linear",
                "tex.tiling.linear.nearest.r8.linear",
            ),
            (
                "tex.sample.nearest.r8.random",
                "tex.tiling.linear.nearest.r8.random",
            ),
            (
                "tex.sample.nearest.rgba8.linear",
                "tex.tiling.linear.nearest.rgba8.linear",
            ),
            (
                "tex.sample.nearest.rgba8.random",
                "tex.tiling.linear.nearest.rgba8.random",
            ),
            (
                "tex.sample.nearest.rgba32f.linear",
                "tex.tiling.linear.nearest.rgba32f.linear",
            ),
            (
                "tex.sample.nearest.rgba32f.random",
                "tex.tiling.linear.nearest.rgba32f.random",
            ),
            (
                "tex.sample.bilinear.r8.linear",
                "tex.tiling.linear.bilinear.r8.linear",
            ),
            (
                "tex.sample.bilinear.r8.random",
                "tex.tiling.linear.bilinear.r8.random",
            ),
            (
                "tex.sample.bilinear.rgba8.linear",
                "tex.tiling.linear.bilinear.rgba8.linear",
            ),
            (
                "tex.sample.bilinear.rgba8.random",
                "tex.tiling.linear.bilinear.rgba8.random",
            ),
            (
                "tex.sample.bilinear.rgba32f.linear",
                "tex.tiling.linear.bilinear.rgba32f.linear",
            ),
            (
                "tex.sample.bilinear.rgba32f.random",
                "tex.tiling.linear.bilinear.rgba32f.random",
            ),
        ]),
        band: faster(1.2),
    }]),
};

/// `nvidia.combined_samplers`: the original suite's samples through a combined image sampler
/// against their twins through a separate image and sampler (`tex.sample.*` against
/// `tex.separate.*`: nearest and bilinear, RGBA8 and RGBA32F, linear and random; loads per
/// second, geometric mean); holds when the combined form is at least [`SLIGHTLY`] (3%)
/// faster. "Slightly" names no factor, so the rule's tie is 3% rather than [`MARGIN`]'s 20%,
/// which would call every slight gain a tie; pairs within each other's noise count as equal,
/// so noise cannot pass for a gain. A gain beyond 1.2x still holds (the claim's direction),
/// its figure saying how far "slightly" is from the measure.
///
/// [`MARGIN`]: super::rule::MARGIN
pub const COMBINED_SAMPLERS: Claim = Claim {
    id: "nvidia.combined_samplers",
    vendor: "NVIDIA",
    source: NV_LAYERS,
    claim: "Combined image samplers are slightly faster than separate images and samplers.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "tex.sample.nearest.rgba8.linear",
                "tex.separate.nearest.rgba8.linear",
            ),
            (
                "tex.sample.nearest.rgba8.random",
                "tex.separate.nearest.rgba8.random",
            ),
            (
                "tex.sample.nearest.rgba32f.linear",
                "tex.separate.nearest.rgba32f.linear",
            ),
            (
                "tex.sample.nearest.rgba32f.random",
                "tex.separate.nearest.rgba32f.random",
            ),
            (
                "tex.sample.bilinear.rgba8.linear",
                "tex.separate.bilinear.rgba8.linear",
            ),
            (
                "tex.sample.bilinear.rgba8.random",
                "tex.separate.bilinear.rgba8.random",
            ),
            (
                "tex.sample.bilinear.rgba32f.linear",
                "tex.separate.bilinear.rgba32f.linear",
            ),
            (
                "tex.sample.bilinear.rgba32f.random",
                "tex.separate.bilinear.rgba32f.random",
            ),
        ]),
        band: faster(SLIGHTLY),
    }]),
};

/// The smallest gain a claim of a "slight" difference counts: 3%, well beyond the run-to-run
/// spread of a case's median on a settled GPU (under 0.3% on the H200 and H100).
pub const SLIGHTLY: f64 = 1.03;

/// `arm.full_sampler_descriptors`: clamp-to-edge nearest sampling against the same with
/// unnormalized coordinates (which make a "full" descriptor; R8, RGBA8, RGBA32F, linear);
/// holds when the plain sampler is at least 1.2x faster. One sampler only, so the descriptor
/// cache the claim is about is never full.
pub const FULL_SAMPLER_DESCRIPTORS: Claim = Claim {
    id: "arm.full_sampler_descriptors",
    vendor: "Arm",
    source: ARM_DESCRIPTORS,
    claim: "Sampler states such as unnormalized coordinates, LOD bias or clamps, a non-black \
            border or anisotropy make larger descriptors, which cost more.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "tex.addr.clamp.nearest.r8.linear",
                "tex.unnorm.nearest.r8.linear",
            ),
            (
                "tex.addr.clamp.nearest.rgba8.linear",
                "tex.unnorm.nearest.rgba8.linear",
            ),
            (
                "tex.addr.clamp.nearest.rgba32f.linear",
                "tex.unnorm.nearest.rgba32f.linear",
            ),
        ]),
        band: faster(1.2),
    }]),
};

/// `imagination.pvrtc_outdated`: no case yet.
pub const PVRTC_OUTDATED: Claim = Claim {
    id: "imagination.pvrtc_outdated",
    vendor: "Imagination",
    source: IMG_LAYERS,
    claim: "PVRTC textures are slower than the newer compressed formats (ETC, BC, ASTC).",
    rule: Rule::NoCase(
        "no case measures this yet: it needs ETC2, ASTC and PVRTC sampling cases where the \
         device supports them",
    ),
};

/// `amd.scalarize_nonuniform`: 32 different descriptors per wave at least 1.2x slower than
/// one (the `descriptor.nonuniform` finding), and a scalarized loop at least 1.2x faster than
/// the non-uniform index (`descriptor.scalarized`).
pub const SCALARIZE_NONUNIFORM: Claim = Claim {
    id: "amd.scalarize_nonuniform",
    vendor: "AMD",
    source: AMD_SCALARIZATION,
    claim: "A descriptor index that differs across a wave costs a loop per distinct \
            descriptor; scalarizing the loop by hand recovers speed.",
    rule: Rule::Tests(&[
        Test {
            figure: Figure::Finding("descriptor.nonuniform"),
            band: slower(1.2),
        },
        Test {
            figure: Figure::Finding("descriptor.scalarized"),
            band: faster(1.2),
        },
    ]),
};

/// The texture claims, in the research order.
pub const CLAIMS: [Claim; 22] = [
    WIDE_TEXEL_RATE,
    TEXEL_RATE,
    TRILINEAR_COST,
    VOLUME_COST,
    WIDE_TEXEL_COST,
    FP32_FILTER_COST,
    ANISO_COST,
    GRAD_QUARTER_RATE,
    ARRAY_LAYER_UNIFORM,
    TEXTURE_SHAPE,
    SRGB_ANISO,
    DEPENDENT_READS,
    IMAGE_VS_BUFFER,
    PACKED_RGBA8_BUFFER,
    POINT_SAMPLE_OVER_FETCH,
    FILTER_COST_ORDER,
    SAMPLE_PRECISION,
    OPTIMAL_TILING,
    COMBINED_SAMPLERS,
    FULL_SAMPLER_DESCRIPTORS,
    PVRTC_OUTDATED,
    SCALARIZE_NONUNIFORM,
];
