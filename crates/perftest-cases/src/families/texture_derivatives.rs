//! Implicit derivatives (graphics suite): `texture()` in a fragment shader, whose level of
//! detail comes from the derivatives of its coordinates across each 2x2 quad of fragments,
//! beside the same samples with the level of detail given (`textureLod`) or the gradients
//! given (`textureGrad`), `shaders/texture_derivatives.frag`. What quads and implicit
//! derivatives cost.
//!
//! Textures and samplers are the mip family's (`texture_mips`): six-level chains of
//! the 32x32 textures, a trilinear sampler (LINEAR min, mag and mip filters, REPEAT) and an
//! anisotropic one (`maxAnisotropy` 16).
//!
//! Each fragment of a 16x16 tile runs a 16x16 loop, like a `Sample` case's thread: with
//! `p = mod(gl_FragCoord.xy, 16)` (its place in the tile plus 0.5, continuous across every
//! quad), sample `(x, y)` is taken at `uv = (p + (x, y)) * step / 32`:
//! - `implicit LOD k` (k = 0, 1, 2: minification 1x, 2x, 4x): `texture(uv)` with
//!   `step = 2^k`, so the coordinates move 2^k level-0 texels per pixel along both axes: the
//!   LOD is exactly k, and every sample lands on the centre of a level-k texel, which trilinear
//!   filtering at a whole LOD returns unblended;
//! - `textureLod k`: the same samples with the LOD given;
//! - `aniso16x implicit`: `texture(uv)` through the anisotropic sampler with `step = (16, 1)`:
//!   an affine "tilted plane" whose footprint is 16 texels by 1 per pixel, ratio 16: the
//!   specification's LOD is `log2(16 / 16)` = 0 (up to 0.5 under its allowed approximations);
//! - `aniso16x textureGrad`: the same with the gradients `(16, 0) / 32`, `(0, 1) / 32` given.
//!
//! Verification: the whole-LOD cases against the mip model ([`crate::sample_mip`]) at the
//! level-k texel centres, within the off-centre family's tolerance
//! ([`crate::sampling::tolerance`]); the anisotropic cases read the flat chain (one
//! value per level, levels 0 and 1 equal), so every weighted average of their probes is that
//! value, whatever the implementation's probes are — as in the mip family's `aniso16` cases.
//!
//! Params: `format`; `width` = the format's components; `variant` = the [`Mode`] index;
//! `count` = k.

use crate::case::{Case, Params, Pattern, SampleFilter};
use crate::check::{check_sums, Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::format::Format;
use crate::mip::{sample_mip, MipChain};
use crate::reference::{widen, KernelParams, ReferenceSum};
use crate::sampling::{sample_needs, tolerance};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The implicit-derivative family.
pub struct TextureDerivatives;

/// How a case's samples get their level of detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `texture()`: from the quad's derivatives.
    Implicit,
    /// `textureLod()`: given.
    Lod,
    /// `texture()` with a 16:1 footprint, anisotropic sampler.
    ImplicitAniso,
    /// `textureGrad()` with the same footprint given.
    GradAniso,
}

impl Mode {
    /// Every mode, in suite order (its index is the shaders' `MODE`).
    pub const ALL: [Mode; 4] = [
        Mode::Implicit,
        Mode::Lod,
        Mode::ImplicitAniso,
        Mode::GradAniso,
    ];

    /// Whether the samples go through the anisotropic sampler.
    pub fn anisotropic(self) -> bool {
        matches!(self, Mode::ImplicitAniso | Mode::GradAniso)
    }
}

/// The formats the family samples.
pub const FORMATS: [Format; 3] = [Format::Rgba8, Format::Rgba16f, Format::Rgba32f];

/// The mode of a case.
pub fn mode(case: &Case) -> Mode {
    Mode::ALL
        .get(case.params.variant as usize)
        .copied()
        .unwrap_or(Mode::Implicit)
}

/// The id of the mip family's case whose texture and sampler a case uses: its trilinear
/// (or, for the anisotropic cases, its 16x anisotropic) linear case of the same format.
fn mip_case_id(case: &Case) -> String {
    let mode = if mode(case).anisotropic() {
        "aniso16"
    } else {
        "trilinear"
    };
    let format = case.params.format.unwrap_or(Format::Rgba8);
    format!("tex.mip.{mode}.{}.linear", format.id_token())
}

impl Family for TextureDerivatives {
    fn label(&self) -> &'static str {
        "texture_derivatives"
    }

    fn title(&self) -> &'static str {
        "Implicit derivatives in fragment shaders"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for format in FORMATS {
            let name = format.texture_name();
            let token = format.id_token();
            let mut add = |m: Mode, k: u32, id: String, display: String| {
                cases.push(Case {
                    id,
                    name: display,
                    suite: Suite::Graphics,
                    family: FamilyRef(&TextureDerivatives),
                    params: Params {
                        format: Some(format),
                        width: format.components(),
                        variant: Mode::ALL.iter().position(|&x| x == m).unwrap_or(0) as u32,
                        count: k,
                        ..Params::default()
                    },
                    pattern: Pattern::Linear,
                });
            };
            for k in 0..3 {
                add(
                    Mode::Implicit,
                    k,
                    format!("frag.deriv.implicit.lod{k}.{token}"),
                    format!("Texture2D<{name}>.Sample(trilinear) implicit LOD {k} (fragment)"),
                );
                add(
                    Mode::Lod,
                    k,
                    format!("frag.deriv.lod.lod{k}.{token}"),
                    format!("Texture2D<{name}>.SampleLevel(trilinear, {k}) (fragment)"),
                );
            }
            add(
                Mode::ImplicitAniso,
                0,
                format!("frag.deriv.implicit.aniso16.{token}"),
                format!("Texture2D<{name}>.Sample(aniso16x) implicit, tilted (fragment)"),
            );
            add(
                Mode::GradAniso,
                0,
                format!("frag.deriv.grad.aniso16.{token}"),
                format!("Texture2D<{name}>.SampleGrad(aniso16x) tilted (fragment)"),
            );
        }
        cases
    }

    fn workgroup_size(&self) -> [u32; 2] {
        [16, 16]
    }

    fn loop_trip(&self) -> u32 {
        16
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        case.params.format.map_or(0, Format::texel_bytes)
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = vec![DeviceNeed::GraphicsQueue];
        needs.extend(sample_needs(case.params.format, SampleFilter::Bilinear));
        if mode(case).anisotropic() {
            needs.push(DeviceNeed::Feature(Feature::SamplerAnisotropy));
        }
        needs
    }

    fn constants(&self, case: &Case) -> [u32; 3] {
        [case.params.variant, case.params.count, 0]
    }

    fn resource_case_id(&self, case: &Case) -> Option<String> {
        Some(mip_case_id(case))
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let format = case.params.format.unwrap_or(Format::Rgba8);
        let n = format.components();
        let m = mode(case);
        let (chain, step, lod) = if m.anisotropic() {
            (MipChain::Flat, [16.0, 1.0], 0.0)
        } else {
            let k = case.params.count.min(2);
            let scale = (1u32 << k) as f32;
            (MipChain::Varied, [scale, scale], k as f32)
        };
        let mut r = ReferenceSum {
            sum: [0.0; 4],
            abs_sum: [0.0; 4],
        };
        let mask = params.elements_mask;
        for y in 0..16u32 {
            for x in 0..16u32 {
                let (ex, ey) = ((x | mask) + local[0], (y | mask) + local[1]);
                let s = (ex as f32 + 0.5) * step[0];
                let t = (ey as f32 + 0.5) * step[1];
                let sample = sample_mip(chain, format, s, t, lod);
                let (v, a) = (widen(sample.value, n), widen(sample.magnitude, n));
                for c in 0..4 {
                    r.sum[c] += v[c];
                    r.abs_sum[c] += a[c];
                }
            }
        }
        r
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        check_sums(
            case,
            &readback.sums,
            tolerance(case.params.format.unwrap_or(Format::Rgba8)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::case_for_id;
    use crate::families::texture_mips::{self, MipMode};

    /// The mip family's case whose texture and sampler a case uses.
    fn mip_case(case: &Case) -> Option<Case> {
        case_for_id(&mip_case_id(case))
    }

    #[test]
    fn cases_use_the_mip_family_textures() {
        let cases = TextureDerivatives.cases();
        assert_eq!(cases.len(), FORMATS.len() * 8);
        for case in &cases {
            let mip = mip_case(case).expect("a mip case");
            assert_eq!(mip.params.format, case.params.format);
            let wanted = if mode(case).anisotropic() {
                MipMode::Aniso16
            } else {
                MipMode::Trilinear
            };
            assert_eq!(texture_mips::mode(&mip), wanted);
            assert_eq!(mip.family.label(), "texture_mips");
            assert!(case.needs().contains(&DeviceNeed::GraphicsQueue));
        }
    }

    #[test]
    fn the_level_decides_the_model() {
        let cases = TextureDerivatives.cases();
        let find = |id: &str| cases.iter().find(|c| c.id == id).expect("case exists");
        let p = KernelParams::default();
        let lod0 =
            TextureDerivatives.reference(find("frag.deriv.implicit.lod0.rgba32f"), p, [3, 5]);
        let lod1 =
            TextureDerivatives.reference(find("frag.deriv.implicit.lod1.rgba32f"), p, [3, 5]);
        let lod1_given =
            TextureDerivatives.reference(find("frag.deriv.lod.lod1.rgba32f"), p, [3, 5]);
        assert_ne!(lod0.sum, lod1.sum);
        assert_eq!(lod1.sum, lod1_given.sum);
        // A flat level: every sample of the anisotropic cases is the same value.
        let aniso =
            TextureDerivatives.reference(find("frag.deriv.grad.aniso16.rgba32f"), p, [3, 5]);
        let one = sample_mip(MipChain::Flat, Format::Rgba32f, 0.5, 0.5, 0.0).value;
        for ((sum, abs), value) in aniso.sum.iter().zip(aniso.abs_sum).zip(one) {
            assert!((sum - 256.0 * value).abs() <= 1e-3 * abs);
        }
    }
}
