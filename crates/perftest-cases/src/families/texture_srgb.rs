//! `Texture2D<RGBA8_SRGB>.Sample(bilinear)`, `.Sample(trilinear)` and `.SampleGrad(aniso16x)`:
//! the RGBA8 sampling kernels with the texture viewed as `R8G8B8A8_SRGB`, so that the sampler
//! decodes every texel's RGB from sRGB to linear before it filters.
//!
//! What it measures: whether sRGB decoding costs more with anisotropic filtering than with
//! the other filters. Each case is the twin of an RGBA8 UNORM case — same kernel, same bytes,
//! same sampler; only the view's format differs:
//! - `bilinear`: the original `Sample` kernel (`texture_sample.spv`) on a 32x32 single-level
//!   texture with the original's bilinear REPEAT sampler; twin `tex.sample.bilinear.rgba8.*`;
//! - `trilinear`: `textureLod` at LOD 0.5 (`texture_mips_lod.spv`) on the six-level varied
//!   chain of RGBA8 ([`MipChain::Varied`]) with the trilinear sampler; twin
//!   `tex.mip.trilinear.rgba8.*`;
//! - `aniso16`: `textureGrad` with a 16:1 footprint (`texture_mips_aniso.spv`) on the flat
//!   chain ([`MipChain::Flat`]) with the 16x anisotropic sampler; twin
//!   `tex.mip.aniso16.rgba8.*`. Needs `samplerAnisotropy`.
//!
//! Addressing, LOD and footprints are the twins' ([`super::texture_sample`],
//! [`super::texture_mips`]): 16x16 workgroups, 16x16 samples per thread at level-0 texel
//! centres `uv = (e + 0.5) / 32`, `e = (start + (x, y)) | elementsMask`, start per axis 0,
//! the local id or `hash(local) & 4` with `hash(x) = x * 0x3504f333`.
//!
//! Verification: the twins' filtering model ([`crate::sample_mip_mapped`], in f32) of the
//! texels decoded by the specification's sRGB EOTF ([`crate::srgb_to_linear`]; alpha linear),
//! at LOD 0 (`bilinear`, level 0 is the single-level texture's data) or 0.5. A lane passes
//! within 1e-2 of the blended terms' magnitude (the UNORM8 filter tolerance of
//! [`crate::sampling::tolerance`]) plus the blended decode slack: half an sRGB code step per
//! texel ([`crate::srgb_slack`]), as the extra-format family allows. The flat chain's codes
//! (96, 128, 160; alpha 192) decode to one linear value per channel, which every weighting of
//! levels 0 and 1 returns, as for the UNORM twin. A UNORM decode (no sRGB conversion) fails.
//!
//! Seen on lavapipe (Mesa 22.3, which offers the format's filtering and `samplerAnisotropy`:
//! no case skips): largest error 1.1e-3 of the magnitude for `bilinear` and `trilinear`,
//! 7.0e-3 for `aniso16` (its decode of the flat codes, within the slack).
//!
//! Skips: `R8G8B8A8_SRGB` without `SAMPLED_IMAGE` or `SAMPLED_IMAGE_FILTER_LINEAR` (optimal
//! tiling) skips every case; a device without `samplerAnisotropy` skips `aniso16`.
//!
//! Params: `width` 4; `variant` = the [`SrgbMode`] index. Bytes per load: 4 (one texel).

use std::cell::Cell;

use crate::case::{Case, Params};
use crate::check::{Readback, VerifyOutcome};
use crate::extra_format::{srgb_slack, srgb_to_linear, ExtraFormat};
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::format::Format;
use crate::mip::{sample_mip_mapped, MipChain, TexelMap};
use crate::reference::{texture_loop, KernelParams, ReferenceSum};
use crate::sampling::tolerance;
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The sRGB sampling family.
pub struct TextureSrgb;

/// How a case filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SrgbMode {
    /// The original `Sample` kernel, bilinear, one level.
    Bilinear,
    /// `textureLod` at LOD 0.5 on the varied chain.
    Trilinear,
    /// `textureGrad` with a 16:1 footprint on the flat chain, 16x anisotropic.
    Aniso16,
}

impl SrgbMode {
    /// Every mode, in suite order.
    pub const ALL: [SrgbMode; 3] = [SrgbMode::Bilinear, SrgbMode::Trilinear, SrgbMode::Aniso16];

    /// The word case ids use.
    pub fn word(self) -> &'static str {
        match self {
            SrgbMode::Bilinear => "bilinear",
            SrgbMode::Trilinear => "trilinear",
            SrgbMode::Aniso16 => "aniso16",
        }
    }

    /// The method and filter case names use.
    fn method(self) -> &'static str {
        match self {
            SrgbMode::Bilinear => "Sample(bilinear)",
            SrgbMode::Trilinear => "Sample(trilinear)",
            SrgbMode::Aniso16 => "SampleGrad(aniso16x)",
        }
    }

    /// The chain the mode's texture holds (the bilinear texture is level 0 of the varied
    /// chain).
    pub fn chain(self) -> MipChain {
        match self {
            SrgbMode::Aniso16 => MipChain::Flat,
            SrgbMode::Bilinear | SrgbMode::Trilinear => MipChain::Varied,
        }
    }

    /// The level of detail the mode's kernel samples at.
    fn lod(self) -> f32 {
        match self {
            SrgbMode::Bilinear => 0.0,
            SrgbMode::Trilinear | SrgbMode::Aniso16 => 0.5,
        }
    }
}

/// The mode of a case.
pub fn mode(case: &Case) -> SrgbMode {
    SrgbMode::ALL
        .get(case.params.variant as usize)
        .copied()
        .unwrap_or(SrgbMode::Bilinear)
}

/// The 8-bit code of a decoded UNORM8 channel.
fn code(v: f32) -> u8 {
    (v * 255.0).round().clamp(0.0, 255.0) as u8
}

/// An RGBA8 texel seen through the sRGB view: RGB decoded to linear, alpha as it is.
fn decode(v: [f32; 4]) -> [f32; 4] {
    [
        srgb_to_linear(code(v[0])),
        srgb_to_linear(code(v[1])),
        srgb_to_linear(code(v[2])),
        v[3],
    ]
}

/// How far each channel of [`decode`] may be off: half an sRGB code step, alpha exact.
fn slack(v: [f32; 4]) -> [f32; 4] {
    [
        srgb_slack(code(v[0])),
        srgb_slack(code(v[1])),
        srgb_slack(code(v[2])),
        0.0,
    ]
}

/// One thread's model per lane: the sum, the sum of |weight x texel| and the blended slack.
struct Model {
    sum: [f32; 4],
    magnitude: [f32; 4],
    slack: [f32; 4],
}

/// The thread at `local`'s sum of the texels mapped by `map`, and its magnitude.
fn mapped_sum(case: &Case, params: KernelParams, local: [u32; 2], map: TexelMap) -> Model {
    let m = mode(case);
    let magnitude = Cell::new([0.0f32; 4]);
    let sum = texture_loop(case, params, local, |ex, ey| {
        let at = [ex as f32 + 0.5, ey as f32 + 0.5];
        let s = sample_mip_mapped(m.chain(), Format::Rgba8, map, at, m.lod());
        let a = magnitude.get();
        magnitude.set([0, 1, 2, 3].map(|k| a[k] + s.magnitude[k]));
        s.value
    })
    .sum;
    Model {
        sum,
        magnitude: magnitude.get(),
        slack: [0.0; 4],
    }
}

/// The model of the thread at `local` (see the module docs).
fn model(case: &Case, params: KernelParams, local: [u32; 2]) -> Model {
    let value = mapped_sum(case, params, local, decode);
    Model {
        slack: mapped_sum(case, params, local, slack).sum,
        ..value
    }
}

impl Family for TextureSrgb {
    fn label(&self) -> &'static str {
        "texture_srgb"
    }

    fn title(&self) -> &'static str {
        "Texture samples of sRGB data"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for (m, mode) in (0u32..).zip(SrgbMode::ALL) {
            cases.extend(Case::per_pattern(
                FamilyRef(&TextureSrgb),
                Suite::Texture,
                &format!("tex.srgb.{}", mode.word()),
                &format!(
                    "Texture2D<{}>.{}",
                    ExtraFormat::Rgba8Srgb.name(),
                    mode.method()
                ),
                Params {
                    format: None,
                    width: 4,
                    variant: m,
                    ..Params::default()
                },
            ));
        }
        cases
    }

    fn workgroup_size(&self) -> [u32; 2] {
        [16, 16]
    }

    fn loop_trip(&self) -> u32 {
        16
    }

    fn bytes_per_load(&self, _case: &Case) -> u32 {
        4
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let srgb = ExtraFormat::Rgba8Srgb;
        let mut needs = vec![
            DeviceNeed::ExtraFormat(srgb, FormatFeature::SampledImage),
            DeviceNeed::ExtraFormat(srgb, FormatFeature::SampledImageFilterLinear),
        ];
        if mode(case) == SrgbMode::Aniso16 {
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
        let relative = tolerance(Format::Rgba8).relative;
        let threads = case.threads();
        let [wx, _] = case.workgroup_size();
        let models: Vec<Model> = (0..threads)
            .map(|l| model(case, params, [l % wx, l / wx]))
            .collect();
        let mut outcome = VerifyOutcome::new();
        for (t, got) in readback.sums.iter().enumerate() {
            let local = t % threads as usize;
            let m = &models[local];
            let allowed = [0, 1, 2, 3].map(|k| relative * m.magnitude[k] + m.slack[k]);
            let bad =
                (0..4).find(|&k| !(got[k].is_finite() && (got[k] - m.sum[k]).abs() <= allowed[k]));
            outcome.record(bad.is_none(), || {
                let k = bad.unwrap_or(0);
                format!(
                    "group {} thread {local} lane {k}: expected {} (within {}), got {}",
                    t / threads as usize,
                    m.sum[k],
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
    use crate::support::{DeviceCaps, Support};

    /// What a kernel matching the model writes, in four workgroups.
    fn readback(case: &Case, map: TexelMap) -> Readback {
        let p = KernelParams::for_case(case);
        let one: Vec<[f32; 4]> = (0..256)
            .map(|l| mapped_sum(case, p, [l % 16, l / 16], map).sum)
            .collect();
        Readback {
            sums: one.iter().cycle().take(1024).copied().collect(),
            written: Vec::new(),
        }
    }

    #[test]
    fn cases_ids_names_and_needs() {
        let cases = TextureSrgb.cases();
        assert_eq!(cases.len(), 9);
        assert_eq!(cases[1].id, "tex.srgb.bilinear.linear");
        assert_eq!(
            cases[1].name,
            "Texture2D<RGBA8_SRGB>.Sample(bilinear) linear"
        );
        assert_eq!(cases[8].id, "tex.srgb.aniso16.random");
        assert_eq!(
            cases[8].name,
            "Texture2D<RGBA8_SRGB>.SampleGrad(aniso16x) random"
        );
        assert_eq!(mode(&cases[4]), SrgbMode::Trilinear);
        assert_eq!(cases[8].bytes_per_load(), 4);
        assert_eq!(cases[8].needs().len(), 3);
        assert_eq!(cases[0].needs().len(), 2);
        assert!(cases.iter().all(|c| c.suite == Suite::Texture));
        // A device without the sRGB format skips every case, one without anisotropy the
        // anisotropic ones.
        let caps = DeviceCaps::default();
        assert!(cases
            .iter()
            .all(|c| crate::case::support(c, &caps) != Support::Supported));
    }

    #[test]
    fn the_srgb_model_passes_and_a_unorm_decode_or_another_pattern_fails() {
        let cases = TextureSrgb.cases();
        for case in &cases {
            let good = readback(case, decode);
            let outcome = TextureSrgb.verify(case, &good);
            assert!(outcome.passed(), "{}: {:?}", case.id, outcome.first);
            // The same bytes read as UNORM (no decode) fail every thread.
            let unorm = TextureSrgb.verify(case, &readback(case, |v| v));
            assert_eq!(unorm.mismatches, 1024, "{}", case.id);
            // Another pattern's results fail where the data varies.
            if mode(case) != SrgbMode::Aniso16 && case.pattern == Pattern::Linear {
                let random = cases
                    .iter()
                    .find(|c| c.params == case.params && c.pattern == Pattern::Random)
                    .unwrap_or_else(|| unreachable!());
                assert!(!TextureSrgb.verify(random, &good).passed(), "{}", case.id);
            }
        }
    }

    #[test]
    fn the_flat_chain_decodes_to_one_value_per_channel() {
        let case = &TextureSrgb.cases()[7];
        let m = model(case, KernelParams::for_case(case), [3, 5]);
        for (k, n) in [96u8, 128, 160].into_iter().enumerate() {
            let want = 256.0 * srgb_to_linear(n);
            assert!((m.sum[k] - want).abs() < 1e-3 * want, "{k}");
        }
        assert!((m.sum[3] - 256.0 * 192.0 / 255.0).abs() < 1e-3);
        assert!(m.slack[0] > 0.0 && m.slack[3] == 0.0);
    }
}
