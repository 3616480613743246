//! `Texture2D<FMT>.Sample(FILTER, mediump)`: the original `Sample` kernel through a sampler
//! declared `mediump` (`shaders/texture_precision.comp`), so that every sample's result is
//! `RelaxedPrecision` in the SPIR-V: the driver may return it as a 16-bit float. The
//! coordinates and the sum stay at full precision.
//!
//! What it measures: whether samples of medium precision load the texture path less than
//! full-precision ones. Each case is the twin of the original suite's
//! `tex.sample.FILTER.FMT.PATTERN` ([`super::texture_sample`]): same texture, sampler (nearest
//! or bilinear, REPEAT), coordinates and loop; only the precision of the result differs.
//!
//! Formats: R8, RGBA8 (8-bit channels, which a 16-bit float holds to 2^-11), RGBA16F (exact
//! in 16 bits) and RGBA32F (rounded to 16 bits); both filters; the three patterns.
//!
//! Addressing, as in the original: 16x16 workgroups, 16x16 samples per thread; the thread's
//! start per axis is `0` (uniform), its local id (linear) or `hash(local) & 4` with
//! `hash(x) = x * 0x3504f333` (random, the original's hash); sample `(x, y)` reads texel
//! `(ex, ey) = (start + (x, y)) | elementsMask` of the 32x32 texture by `textureLod` at the
//! texel centre `uv = (e + 0.5) / 32`, LOD 0. The widened results are summed in f32.
//!
//! Verification: the twin's exact model ([`crate::sample`], REPEAT), within [`TOLERANCE`] of
//! the sum of |terms| per lane: a 16-bit float keeps 11 significant bits, so rounding each
//! sample moves it by at most 2^-11 of its value (2^-10 when truncated), and 256 such
//! roundings move the sum by at most 2^-10 of the sum of |terms|; the default 1e-4 for the
//! order of the f32 additions comes on top. Every texel value here is a normal 16-bit float
//! (the float data lies within 2^-7..2^9, see [`crate::input_bytes`]). One wrong sample
//! among 256 moves a sum by about 4e-3 of that scale on average, so addressing errors still
//! fail: one sample per thread read from the next texel fails three threads in four for R8
//! (one lane) and nearly every thread for the four-channel formats (unit-tested).
//!
//! Params: `format`; `width` = the format's components; `variant` = the filter (0 nearest,
//! 1 bilinear).

use crate::case::Case;
use crate::check::{check_sums, Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{KernelParams, ReferenceSum, Tolerance};
use crate::sampler::{AddressMode, SamplerState};
use crate::sampling::{filter_format_cases, filter_of, sample_needs, sample_sum, FILTERS};
use crate::support::DeviceNeed;

/// The medium-precision sampling family.
pub struct TexturePrecision;

/// The formats the family samples.
pub const FORMATS: [Format; 4] = [Format::R8, Format::Rgba8, Format::Rgba16f, Format::Rgba32f];

/// How close a sum of 16-bit samples must come to the exact model: 2^-10 plus the default
/// 1e-4 of the sum of |terms| (see the module docs).
pub const TOLERANCE: Tolerance = Tolerance {
    relative: 1.0 / 1024.0 + 1e-4,
};

/// The sampler of a case of this family: the original's (REPEAT) with the case's filter.
pub fn sampler(case: &Case) -> SamplerState {
    SamplerState::new(filter_of(case.params.variant), AddressMode::Repeat)
}

/// Every sampler the family's cases use.
pub fn samplers() -> Vec<SamplerState> {
    FILTERS
        .map(|(filter, _)| SamplerState::new(filter, AddressMode::Repeat))
        .to_vec()
}

impl Family for TexturePrecision {
    fn label(&self) -> &'static str {
        "texture_precision"
    }

    fn title(&self) -> &'static str {
        "Texture samples at medium precision"
    }

    fn cases(&self) -> Vec<Case> {
        filter_format_cases(
            FamilyRef(&TexturePrecision),
            "tex.mediump",
            ", mediump",
            &FORMATS,
            0,
        )
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
        sample_needs(case.params.format, sampler(case).filter)
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        sample_sum(case, params, local, sampler(case), 0.5)
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        check_sums(case, &readback.sums, TOLERANCE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{find_case, original_cases};
    use crate::reference::{reference_sum, texture_loop, widen};
    use crate::sampler::sample;

    /// `v` rounded to a 16-bit float's 11 significant bits (to nearest; normal values), or
    /// truncated to them.
    fn to_half(v: f32, truncate: bool) -> f32 {
        let bits = v.to_bits();
        let add = if truncate { 0 } else { 0x1000 };
        f32::from_bits(bits.wrapping_add(add) & !0x1fff)
    }

    /// What a kernel returning 16-bit samples writes: each sample rounded, summed in f32;
    /// with `shift`, the first sample of every thread read one texel to the right.
    fn half_readback(case: &Case, truncate: bool, shift: bool) -> Readback {
        let p = KernelParams::for_case(case);
        let format = case.params.format.unwrap_or(Format::R8);
        let one: Vec<[f32; 4]> = (0..256u32)
            .map(|l| {
                let first = std::cell::Cell::new(shift);
                texture_loop(case, p, [l % 16, l / 16], |ex, ey| {
                    let ex = if first.replace(false) { ex + 1 } else { ex };
                    let s = sample(format, sampler(case), ex as f32 + 0.5, ey as f32 + 0.5);
                    widen(s.map(|v| to_half(v, truncate)), format.components())
                })
                .sum
            })
            .collect();
        Readback {
            sums: one.iter().cycle().take(1024).copied().collect(),
            written: Vec::new(),
        }
    }

    #[test]
    fn cases_ids_names_and_twins() {
        let cases = TexturePrecision.cases();
        assert_eq!(cases.len(), 24);
        assert_eq!(cases[4].id, "tex.mediump.nearest.rgba8.linear");
        assert_eq!(
            cases[4].name,
            "Texture2D<RGBA8>.Sample(nearest, mediump) linear"
        );
        assert_eq!(cases[23].id, "tex.mediump.bilinear.rgba32f.random");
        assert_eq!(samplers().len(), 2);
        let originals = original_cases();
        for c in &cases {
            let suffix = c.id.trim_start_matches("tex.mediump.");
            let twin = find_case(&originals, &format!("tex.sample.{suffix}"))
                .unwrap_or_else(|| unreachable!("{suffix}"));
            assert_eq!(twin.params.format, c.params.format);
            let local = [7, 3];
            assert_eq!(
                reference_sum(c, KernelParams::for_case(c), local),
                reference_sum(twin, KernelParams::for_case(twin), local)
            );
        }
    }

    #[test]
    fn sixteen_bit_samples_pass_and_a_wrong_sample_or_pattern_fails() {
        let cases = TexturePrecision.cases();
        for c in cases.iter().filter(|c| c.pattern.name() != "uniform") {
            for truncate in [false, true] {
                let good = half_readback(c, truncate, false);
                let outcome = TexturePrecision.verify(c, &good);
                assert!(outcome.passed(), "{}: {:?}", c.id, outcome.first);
            }
            // One sample per thread from the next texel: most threads fail.
            let bad = TexturePrecision.verify(c, &half_readback(c, false, true));
            // (R8 760 of 1024 threads, its one lane; RGBA8 996, RGBA16F 1012, RGBA32F 964
            // linear, every thread random.)
            assert!(bad.mismatches >= 700, "{}: {}", c.id, bad.mismatches);
            // The other pattern's model fails.
            let other = cases
                .iter()
                .find(|o| o.params == c.params && o.pattern != c.pattern && o.id != c.id)
                .unwrap_or_else(|| unreachable!());
            assert!(!TexturePrecision
                .verify(other, &half_readback(c, false, false))
                .passed());
        }
    }
}
