//! `Texture2D<FMT>.Sample(trilinear)`, `.SampleGrad(trilinear)` and `.SampleGrad(aniso16x)`:
//! sampling a mip chain (`shaders/texture_mips.comp`) with linear filtering within and
//! between levels, at a level of detail of 0.5, so that every sample blends levels 0 and 1.
//!
//! What it measures, per format: the cost of a trilinear sample, three ways —
//! - `trilinear`: `textureLod(uv, 0.5)`, an explicit LOD;
//! - `grad`: `textureGrad` with isotropic gradients `dPdx = (g, 0)`, `dPdy = (0, g)`,
//!   `g = 0.044204965` (`sqrt(2) / 32` raised by 2^-12): sqrt(2) texels of level 0 per step,
//!   so the LOD `log2(sqrt(2))` is 0.5 again (0.50035 computed exactly) and the result is the
//!   `trilinear` one, now with the LOD computed from gradients;
//! - `aniso16`: `textureGrad` with `dPdx = (16g, 0)`, `dPdy = (0, g)` — a footprint of 22.6 by
//!   1.41 texels, ratio 16 — through a sampler with `anisotropyEnable` and `maxAnisotropy` 16:
//!   the specification's LOD is `log2(rho_max / 16)` = 0.5 once more, now with up to 16 probes
//!   along x. Needs `samplerAnisotropy` (enabled where offered).
//!
//! Compare with the LOD-0 bilinear rows of [`super::texture_address`] (`tex.addr.repeat.
//! bilinear.*`, same kernel shape, one level) and the nearest rows there.
//!
//! Textures: six-level chains of the 32x32 textures ([`crate::mip_level_bytes`]): the
//! `trilinear` and `grad` cases read [`MipChain::Varied`] (level 0 the original texture, each
//! smaller level its own pseudo-random data), the `aniso16` cases [`MipChain::Flat`] (one value
//! per level). Samplers: LINEAR min, mag and mipmap filters, REPEAT, LOD 0 to 5, no bias; the
//! anisotropic one adds `anisotropyEnable` and `maxAnisotropy = 16`.
//!
//! Addressing, as in the original `Sample` cases: 16x16 workgroups, 16x16 samples per thread;
//! the thread's start per axis is `0` (uniform), its local id (linear) or `hash(local) & 4`
//! with `hash(x) = x * 0x3504f333` (random, the original's hash); sample `(x, y)` is taken at
//! `uv = (e + 0.5) / 32`, the centre of level-0 texel `e = (start + (x, y)) | elementsMask`.
//! There level 0 returns the texel and level 1, at `(e + 0.5) / 2` of its texels, blends a 2x2
//! footprint with weights 0.75 and 0.25 per axis. The widened results (`xxxx`, `xyxy`, `xyzw`)
//! are summed in f32.
//!
//! Verification, per lane, against the CPU model ([`crate::sample_mip`]):
//! - `trilinear`: the model blends the two levels with weights 0.5 in f32; the tolerance is
//!   the off-centre family's ([`crate::sampling::tolerance`]: 1e-2 of the sum of
//!   |weight x texel| for UNORM8, 1e-3 for the float formats), for the filter's precision.
//! - `grad`: the same model at the LOD the results show, which must lie within
//!   [`LOD_ALLOWANCE`] (1/16) of 0.5. The gradients are constants, so one LOD serves every
//!   sample of the dispatch, and an LOD of `0.5 + d` moves a thread's sum by exactly
//!   `d x (S1 - S0)`, `S0` and `S1` the sums of its level-0 and level-1 samples. The check
//!   estimates `d` as the median of `(got - model) / (S1 - S0)` over the lanes where the
//!   filter's rounding moves that estimate by at most 2^-8, then holds every lane to the
//!   model at that LOD within the `trilinear` tolerance plus 2^-8 x |S1 - S0|. The UNORM8
//!   formats have no such lane (their positive texels make the two levels' sums nearly agree
//!   and their tolerance is wide): there every lane gets the `trilinear` tolerance plus
//!   1/16 x |S1 - S0|. Why 1/16: the specification quantizes the LOD fraction to
//!   `mipmapPrecisionBits`, at least 4. The gradient's 2^-12 margin lands an LOD rounded or
//!   truncated to up to 11 fraction bits exactly on 0.5; lavapipe's float results show
//!   0.500244 (0.5 + 2^-12), an exact LOD would be 0.50035. The specification also lets an
//!   implementation approximate a gradient's length by up to `sqrt(2) (|du| + |dv|)`; the
//!   model assumes what the usual approximations (the length, the larger component) give
//!   for these axis-aligned gradients: the length itself.
//! - `aniso16`: anisotropic filtering is implementation-defined (how many probes, where,
//!   weighted how), so no model of it can be exact on random data. The flat chain makes the
//!   answer independent of those choices: levels 0 and 1 hold one value per channel, so every
//!   weighted average of their texels is that value, and the sum is 256 x the value within the
//!   `trilinear` tolerance. The specification's LOD for these axis-aligned gradients lies in
//!   [0.5, 1] under every allowed approximation of the scale factors (each between
//!   `max(|du|, |dv|)` and `sqrt(2) (|du| + |dv|)`), so a conforming implementation reads no
//!   coarser level. Levels 2 to 5 hold half the value: an implementation that ignored the
//!   anisotropy (LOD `log2(16 sqrt(2))` = 4.5) fails. What these cases do not check is the
//!   addressing, which the `grad` cases check with the same kernel. The flat chain's texels
//!   are all alike: a GPU that compressed texture data could move it more cheaply, but every
//!   chain here (at most 22 KB) stays in the L1 cache anyway.
//!
//! Seen on lavapipe (Mesa 22.3, which offers `samplerAnisotropy`: no case skips): largest
//! error 3.8e-3 of the magnitude for UNORM8 (`trilinear` and `grad` alike), 1e-7 for the
//! float formats in `trilinear`; the `grad` float results fit an LOD of 0.500244; `aniso16`
//! returns the flat value (error 0 for UNORM8, 8e-8 for floats).
//!
//! Skips: a format without `SAMPLED_IMAGE_FILTER_LINEAR` (optimal tiling) skips all its
//! cases; a device without `samplerAnisotropy` skips the `aniso16` cases.
//!
//! Bytes per load: one texel of the format (the data one sample returns), as in the other
//! sampling families.
//!
//! Params: `format`; `width` = the format's components; `variant` = the [`MipMode`] index.

use std::cell::Cell;

use crate::case::{Case, Params, SampleFilter};
use crate::check::{Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::format::Format;
use crate::mip::{sample_mip, MipChain, MIP_LEVELS};
use crate::reference::{texture_loop, widen, KernelParams, ReferenceSum};
use crate::sampling::{sample_needs, tolerance};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The mip family.
pub struct TextureMips;

/// How a case picks its level of detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MipMode {
    /// `textureLod` at [`LOD`].
    Trilinear,
    /// `textureGrad` with isotropic gradients of [`GRADIENT`].
    Grad,
    /// `textureGrad` with a 16:1 footprint through the anisotropic sampler.
    Aniso16,
}

impl MipMode {
    /// Every mode, in suite order.
    pub const ALL: [MipMode; 3] = [MipMode::Trilinear, MipMode::Grad, MipMode::Aniso16];

    /// The word case ids use.
    pub fn word(self) -> &'static str {
        match self {
            MipMode::Trilinear => "trilinear",
            MipMode::Grad => "grad",
            MipMode::Aniso16 => "aniso16",
        }
    }

    /// The method and filter case names use.
    fn method(self) -> &'static str {
        match self {
            MipMode::Trilinear => "Sample(trilinear)",
            MipMode::Grad => "SampleGrad(trilinear)",
            MipMode::Aniso16 => "SampleGrad(aniso16x)",
        }
    }

    /// The chain the mode's cases sample.
    pub fn chain(self) -> MipChain {
        match self {
            MipMode::Aniso16 => MipChain::Flat,
            MipMode::Trilinear | MipMode::Grad => MipChain::Varied,
        }
    }
}

/// The level of detail every case samples at (the `trilinear` kernel's explicit LOD).
pub const LOD: f32 = 0.5;

/// The `grad` kernel's gradient per axis in normalized coordinates (`aniso16` uses 16 times
/// it along x): `sqrt(2) / 32 * (1 + 2^-12)`, as in `shaders/texture_mips.comp`.
pub const GRADIENT: f32 = 0.044_204_965;

/// `maxAnisotropy` of the anisotropic sampler.
pub const MAX_ANISOTROPY: f32 = 16.0;

/// The samplers' `maxLod`: the last level.
pub const MAX_LOD: f32 = (MIP_LEVELS - 1) as f32;

/// How far from [`LOD`] the `grad` cases accept the LOD computed from the gradients: 1/16,
/// one step of the coarsest LOD fraction the specification allows (`mipmapPrecisionBits` 4).
pub const LOD_ALLOWANCE: f32 = 1.0 / 16.0;

/// The mode of a case.
pub fn mode(case: &Case) -> MipMode {
    MipMode::ALL
        .get(case.params.variant as usize)
        .copied()
        .unwrap_or(MipMode::Trilinear)
}

/// One thread's model at [`LOD`], per lane: the sum, the sum of |weight x texel| and the
/// sum's derivative with respect to the LOD fraction (level 1's samples minus level 0's).
struct Model {
    sum: [f32; 4],
    magnitude: [f32; 4],
    slope: [f32; 4],
}

/// The model of the thread at `local` (see the module docs).
fn model(case: &Case, params: KernelParams, local: [u32; 2]) -> Model {
    let format = case.params.format.unwrap_or(Format::R8);
    let chain = mode(case).chain();
    let n = format.components();
    let add = |acc: &Cell<[f32; 4]>, v: [f32; 4]| {
        let a = acc.get();
        acc.set([0, 1, 2, 3].map(|k| a[k] + v[k]));
    };
    let (magnitude, slope) = (Cell::new([0.0; 4]), Cell::new([0.0; 4]));
    let sum = texture_loop(case, params, local, |ex, ey| {
        let s = sample_mip(chain, format, ex as f32 + 0.5, ey as f32 + 0.5, LOD);
        add(&magnitude, widen(s.magnitude, n));
        add(&slope, widen(s.lod_slope, n));
        widen(s.value, n)
    })
    .sum;
    Model {
        sum,
        magnitude: magnitude.get(),
        slope: slope.get(),
    }
}

/// How precisely the `grad` check estimates the LOD (as a fraction: the slack it leaves per
/// lane is this times |summed slope|).
const FIT_SLACK: f32 = 1.0 / 256.0;

/// The LOD the `grad` results show: the median of `0.5 + (got - sum) / slope` over the lanes
/// where the filter's rounding (`relative` x magnitude) moves that estimate by at most
/// [`FIT_SLACK`]; `None` when no lane is that sensitive to the LOD (the UNORM8 formats,
/// whose positive texels make the two levels' sums nearly agree).
fn fitted_lod(sums: &[[f32; 4]], models: &[Model], relative: f32) -> Option<f32> {
    let mut estimates: Vec<f32> = Vec::new();
    for (t, got) in sums.iter().enumerate() {
        let m = &models[t % models.len()];
        for (k, &value) in got.iter().enumerate() {
            let sensitive = m.slope[k].abs() * FIT_SLACK >= relative * m.magnitude[k];
            if sensitive && m.slope[k] != 0.0 && value.is_finite() {
                estimates.push(LOD + (value - m.sum[k]) / m.slope[k]);
            }
        }
    }
    estimates.sort_by(f32::total_cmp);
    estimates.get(estimates.len() / 2).copied()
}

impl Family for TextureMips {
    fn label(&self) -> &'static str {
        "texture_mips"
    }

    fn title(&self) -> &'static str {
        "Texture samples across mip levels"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for (m, mode) in (0u32..).zip(MipMode::ALL) {
            for format in Format::ALL {
                cases.extend(Case::per_pattern(
                    FamilyRef(&TextureMips),
                    Suite::Texture,
                    &format!("tex.mip.{}.{}", mode.word(), format.id_token()),
                    &format!("Texture2D<{}>.{}", format.texture_name(), mode.method()),
                    Params {
                        format: Some(format),
                        width: format.components(),
                        variant: m,
                        ..Params::default()
                    },
                ));
            }
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
        let mut needs = sample_needs(case.params.format, SampleFilter::Bilinear);
        if mode(case) == MipMode::Aniso16 {
            needs.push(DeviceNeed::Feature(Feature::SamplerAnisotropy));
        }
        needs
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let m = model(case, params, local);
        ReferenceSum {
            sum: m.sum,
            abs_sum: m.magnitude,
        }
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let params = KernelParams::for_case(case);
        let relative = tolerance(case.params.format.unwrap_or(Format::R8)).relative;
        // Every workgroup computes the same sums: one model per local index.
        let threads = case.threads();
        let [wx, _] = case.workgroup_size();
        let models: Vec<Model> = (0..threads)
            .map(|l| model(case, params, [l % wx, l / wx]))
            .collect();
        // The grad results' LOD, estimated to within FIT_SLACK; where it cannot be, any LOD
        // within LOD_ALLOWANCE of 0.5.
        let (lod, slack) = match mode(case) {
            MipMode::Grad => match fitted_lod(&readback.sums, &models, relative) {
                Some(lod) => (lod, FIT_SLACK),
                None => (LOD, LOD_ALLOWANCE),
            },
            MipMode::Trilinear | MipMode::Aniso16 => (LOD, 0.0),
        };
        if (lod - LOD).abs() > LOD_ALLOWANCE || !lod.is_finite() {
            return VerifyOutcome::unusable(format!(
                "the results show an LOD of {lod}, more than {LOD_ALLOWANCE} from {LOD}"
            ));
        }
        let mut outcome = VerifyOutcome::new();
        for (t, got) in readback.sums.iter().enumerate() {
            let local = t % threads as usize;
            let m = &models[local];
            let want = [0, 1, 2, 3].map(|k| m.sum[k] + (lod - LOD) * m.slope[k]);
            let allowed =
                [0, 1, 2, 3].map(|k| relative * m.magnitude[k] + slack * m.slope[k].abs());
            let bad =
                (0..4).find(|&k| !(got[k].is_finite() && (got[k] - want[k]).abs() <= allowed[k]));
            outcome.record(bad.is_none(), || {
                let k = bad.unwrap_or(0);
                format!(
                    "group {} thread {local} lane {k}: expected {} (within {}, LOD {lod}), got {}",
                    t / threads as usize,
                    want[k],
                    allowed[k],
                    got[k]
                )
            });
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Pattern;
    use crate::matrix::find_case;
    use crate::mip::{flat_numerator, mip_texel};
    use crate::support::{DeviceCaps, FormatFeature, FormatSupport};

    fn readback(case: &Case) -> Readback {
        let p = KernelParams::for_case(case);
        let one: Vec<[f32; 4]> = (0..256)
            .map(|l| model(case, p, [l % 16, l / 16]).sum)
            .collect();
        // Four workgroups, as a verification dispatch writes.
        Readback {
            sums: one.iter().cycle().take(1024).copied().collect(),
            written: Vec::new(),
        }
    }

    #[test]
    fn cases_ids_names_and_needs() {
        let cases = TextureMips.cases();
        assert_eq!(cases.len(), 81);
        assert_eq!(cases[0].id, "tex.mip.trilinear.r8.uniform");
        assert_eq!(cases[0].name, "Texture2D<R8>.Sample(trilinear) uniform");
        assert_eq!(cases[27 + 7].id, "tex.mip.grad.rgba8.linear");
        assert_eq!(
            cases[27 + 7].name,
            "Texture2D<RGBA8>.SampleGrad(trilinear) linear"
        );
        let last = &cases[80];
        assert_eq!(last.id, "tex.mip.aniso16.rgba32f.random");
        assert_eq!(last.name, "Texture2D<RGBA32F>.SampleGrad(aniso16x) random");
        assert_eq!(mode(last), MipMode::Aniso16);
        assert!(cases.iter().all(|c| c.suite == Suite::Texture));
        assert_eq!(last.bytes_per_load(), 16);
        assert_eq!(
            last.needs(),
            vec![
                DeviceNeed::Format(Format::Rgba32f, FormatFeature::SampledImage),
                DeviceNeed::Format(Format::Rgba32f, FormatFeature::SampledImageFilterLinear),
                DeviceNeed::Feature(Feature::SamplerAnisotropy),
            ]
        );
        assert_eq!(cases[0].needs().len(), 2);
        // Without the feature only the anisotropic cases skip, with its name.
        let all = FormatSupport {
            uniform_texel_buffer: true,
            sampled_image: true,
            linear_filter: true,
            storage_image: true,
            linear_sampled_image: true,
            linear_tiling_filter: true,
        };
        let caps = DeviceCaps {
            formats: [all; 9],
            ..DeviceCaps::default()
        };
        let skipped: Vec<&Case> = cases
            .iter()
            .filter(|c| crate::case::support(c, &caps) != crate::support::Support::Supported)
            .collect();
        assert_eq!(skipped.len(), 27);
        assert!(skipped.iter().all(|c| mode(c) == MipMode::Aniso16));
    }

    #[test]
    fn the_gradient_gives_lod_half_and_the_footprint_ratio_sixteen() {
        let rho = GRADIENT * 32.0;
        let lod = f64::from(rho).log2();
        assert!(lod > 0.5 && lod < 0.5 + 4e-4, "{lod}");
        // Anisotropic: rho_max / 16 is rho again.
        let aniso = f64::from(16.0 * GRADIENT * 32.0 / MAX_ANISOTROPY).log2();
        assert_eq!(aniso, lod);
    }

    #[test]
    fn the_model_passes_itself_and_wrong_kernels_fail() {
        // One format of each channel kind (the model is the same code for all nine).
        let cases: Vec<Case> = TextureMips
            .cases()
            .into_iter()
            .filter(|c| {
                matches!(
                    c.params.format,
                    Some(Format::Rg8 | Format::R16f | Format::Rgba32f)
                )
            })
            .collect();
        for case in &cases {
            let good = readback(case);
            assert!(TextureMips.verify(case, &good).passed(), "{}", case.id);
        }
        // A kernel that sampled level 0 only (LOD 0) fails every trilinear and grad case of
        // the float formats and every linear one.
        for case in cases.iter().filter(|c| mode(c) != MipMode::Aniso16) {
            let format = case.params.format.unwrap_or(Format::R8);
            let lod0 = sums_at(case, 0.0);
            let float = format.channel_kind() != crate::format::ChannelKind::Unorm8;
            if float || case.pattern == Pattern::Linear {
                assert!(!TextureMips.verify(case, &lod0).passed(), "{}", case.id);
            }
        }
    }

    #[test]
    fn anisotropic_sums_are_the_flat_value_and_a_coarse_level_fails() {
        let case = find_case(&TextureMips.cases(), "tex.mip.aniso16.rg16f.linear")
            .cloned()
            .unwrap_or_else(|| unreachable!());
        let m = model(&case, KernelParams::for_case(&case), [3, 9]);
        let v = [0, 1].map(|c| flat_numerator(0, c) as f32 / 256.0);
        assert_eq!(
            m.sum,
            [256.0 * v[0], 256.0 * v[1], 256.0 * v[0], 256.0 * v[1]]
        );
        assert_eq!(m.magnitude, m.sum);
        assert_eq!(m.slope, [0.0; 4]);
        // Blending in 10% of level 2 moves the sum beyond the tolerance.
        let coarse = mip_texel(MipChain::Flat, Format::Rg16f, 2, 0, 0)[0];
        let moved = 256.0 * (0.9 * v[0] + 0.1 * coarse);
        let tol = tolerance(Format::Rg16f);
        assert!(!tol.accepts(moved, m.sum[0], m.magnitude[0]));
        assert!(tol.accepts(m.sum[0], m.sum[0], m.magnitude[0]));
        let mut coarse_readback = readback(&case);
        for lanes in &mut coarse_readback.sums {
            lanes[0] = 0.9 * lanes[0] + 0.1 * 256.0 * coarse;
        }
        assert!(!TextureMips.verify(&case, &coarse_readback).passed());
    }

    /// The sums of every thread of `case` sampled at `lod` (one workgroup).
    fn sums_at(case: &Case, lod: f32) -> Readback {
        let format = case.params.format.unwrap_or(Format::R8);
        let p = KernelParams::for_case(case);
        let sums = (0..256u32)
            .map(|l| {
                texture_loop(case, p, [l % 16, l / 16], |ex, ey| {
                    let (s, t) = (ex as f32 + 0.5, ey as f32 + 0.5);
                    let v = sample_mip(MipChain::Varied, format, s, t, lod).value;
                    widen(v, format.components())
                })
                .sum
            })
            .collect();
        Readback {
            sums,
            written: Vec::new(),
        }
    }

    #[test]
    fn grad_accepts_one_near_lod_and_trilinear_does_not() {
        let cases = TextureMips.cases();
        let get = |id: &str| {
            find_case(&cases, id)
                .cloned()
                .unwrap_or_else(|| unreachable!("{id}"))
        };
        for format in ["r32f", "rgba16f"] {
            let lod = get(&format!("tex.mip.trilinear.{format}.linear"));
            let grad = get(&format!("tex.mip.grad.{format}.linear"));
            let p = KernelParams::for_case(&lod);
            assert_eq!(model(&lod, p, [4, 4]).sum, model(&grad, p, [4, 4]).sum);
            // An exact LOD (0.50035) and LODs 0.05 off pass the grad case; 0.05 off fails the
            // trilinear one, and 0.1 off fails both.
            let verify = |case: &Case, lod: f32| TextureMips.verify(case, &sums_at(case, lod));
            assert!(verify(&grad, 0.500_35).passed());
            assert!(verify(&grad, 0.55).passed());
            assert!(verify(&grad, 0.45).passed());
            assert!(!verify(&lod, 0.55).passed());
            assert!(!verify(&lod, 0.45).passed());
            assert!(!verify(&grad, 0.6).passed());
            assert!(!verify(&grad, 0.4).passed());
            // One LOD for the whole dispatch: threads that disagree fail.
            let mut mixed = sums_at(&grad, 0.5);
            let other = sums_at(&grad, 0.55);
            mixed.sums[..128].copy_from_slice(&other.sums[..128]);
            assert!(!TextureMips.verify(&grad, &mixed).passed());
            let models: Vec<Model> = (0..256u32)
                .map(|l| model(&grad, p, [l % 16, l / 16]))
                .collect();
            let fitted = fitted_lod(
                &sums_at(&grad, 0.55).sums,
                &models,
                tolerance(Format::R32f).relative,
            );
            assert!(
                fitted.is_some_and(|f| (f - 0.55).abs() < 1e-4),
                "{fitted:?}"
            );
            // So does one lane moved by 1% of its magnitude, even at a fitted LOD.
            let mut one = sums_at(&grad, 0.55);
            one.sums[0][0] += 0.01 * model(&grad, p, [0, 0]).magnitude[0];
            assert!(!TextureMips.verify(&grad, &one).passed());
        }
        // UNORM8: no lane pins the LOD down, so any LOD within 1/16 passes.
        let grad = get("tex.mip.grad.rg8.linear");
        let p = KernelParams::for_case(&grad);
        let models: Vec<Model> = (0..256u32)
            .map(|l| model(&grad, p, [l % 16, l / 16]))
            .collect();
        let sums = sums_at(&grad, 0.45);
        assert_eq!(fitted_lod(&sums.sums, &models, 1e-2), None);
        assert!(TextureMips.verify(&grad, &sums).passed());
    }
}
