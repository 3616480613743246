//! Claims about vertex and fragment work.

use super::rule::{faster, Claim, Figure, Rule, Test};
use super::sources::*;

/// `qualcomm.vertex_fetch`: fixed-function vertex input against pulling the same attributes
/// from a structured buffer (the `vertex.fetch_vs_pull` finding); holds when vertex input is
/// at least 1.2x faster.
pub const VERTEX_FETCH: Claim = Claim {
    id: "qualcomm.vertex_fetch",
    vendor: "Qualcomm",
    source: QCOM_FAQ,
    claim: "Feed attributes through the vertex input stream rather than fetching them in the \
            vertex shader: the fetch hardware does it faster.",
    rule: Rule::Tests(&[Test {
        figure: Figure::Finding("vertex.fetch_vs_pull"),
        band: faster(1.2),
    }]),
};

/// `intel.explicit_lod`: fragment-shader sampling at an explicit LOD against implicit
/// derivatives (LOD 0, 1 and 2 of RGBA8, RGBA16F, RGBA32F, geometric mean); holds when the
/// explicit LOD is at least 1.2x faster.
pub const EXPLICIT_LOD: Claim = Claim {
    id: "intel.explicit_lod",
    vendor: "Intel",
    source: INTEL_SAMPLING,
    claim: "Sampling at an explicit LOD is cheaper than with implicit derivatives or explicit \
            gradients (Arm: helper lanes in 2x2 quads).",
    rule: Rule::Tests(&[Test {
        figure: Figure::Ratio(&[
            (
                "frag.deriv.lod.lod0.rgba8",
                "frag.deriv.implicit.lod0.rgba8",
            ),
            (
                "frag.deriv.lod.lod1.rgba8",
                "frag.deriv.implicit.lod1.rgba8",
            ),
            (
                "frag.deriv.lod.lod2.rgba8",
                "frag.deriv.implicit.lod2.rgba8",
            ),
            (
                "frag.deriv.lod.lod0.rgba16f",
                "frag.deriv.implicit.lod0.rgba16f",
            ),
            (
                "frag.deriv.lod.lod0.rgba32f",
                "frag.deriv.implicit.lod0.rgba32f",
            ),
        ]),
        band: faster(1.2),
    }]),
};

/// `qualcomm.tex_alu_ratio`: no case yet.
pub const TEX_ALU_RATIO: Claim = Claim {
    id: "qualcomm.tex_alu_ratio",
    vendor: "Qualcomm",
    source: QCOM_FAQ,
    claim: "One texture fetch per fragment costs about as much as 16 full-precision ALU \
            operations.",
    rule: Rule::NoCase(
        "no case measures this yet: it needs a texture fetch beside N multiply-adds",
    ),
};

/// `arm.fp16_varyings`: no case yet.
pub const FP16_VARYINGS: Claim = Claim {
    id: "arm.fp16_varyings",
    vendor: "Arm",
    source: ARM_16BIT,
    claim: "16-bit vertex outputs save bandwidth on tile-based GPUs.",
    rule: Rule::NoCase(
        "no case measures this yet: it needs vertex-output width cases in the graphics suite",
    ),
};

/// `amd.pixel_export`: no case yet.
pub const PIXEL_EXPORT: Claim = Claim {
    id: "amd.pixel_export",
    vendor: "AMD",
    source: AMD_RDNA,
    claim: "Write as little data per pixel as possible: wide attachments cost export \
            bandwidth.",
    rule: Rule::NoCase(
        "no case measures this yet: the graphics suite writes one RGBA32F attachment; it needs \
         an attachment-format sweep",
    ),
};

/// The vertex and fragment claims, in the research order.
pub const CLAIMS: [Claim; 5] = [
    VERTEX_FETCH,
    EXPLICIT_LOD,
    TEX_ALU_RATIO,
    FP16_VARYINGS,
    PIXEL_EXPORT,
];
