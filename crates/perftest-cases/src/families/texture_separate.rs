//! `Texture2D<FMT>.Sample(FILTER, separate)`: the original `Sample` kernel with the texture
//! and the sampler bound apart — a `texture2D` at binding 0 and a `sampler` at binding 2,
//! joined at the sample by `sampler2D(tex, smp)` (`shaders/texture_separate.comp`) — instead
//! of one combined image sampler.
//!
//! What it measures: whether a separate image and sampler sample at another rate from a
//! combined image sampler. Each case is the twin of the original suite's
//! `tex.sample.FILTER.FMT.PATTERN` ([`super::texture_sample`]): same texture, same sampler
//! state (nearest or bilinear, REPEAT), same coordinates and loop; only the descriptors
//! differ.
//!
//! Formats: R8, RGBA8, RGBA16F and RGBA32F (one byte to sixteen per texel); both filters; the
//! three patterns.
//!
//! Addressing, as in the original: 16x16 workgroups, 16x16 samples per thread; the thread's
//! start per axis is `0` (uniform), its local id (linear) or `hash(local) & 4` with
//! `hash(x) = x * 0x3504f333` (random, the original's hash); sample `(x, y)` reads texel
//! `(ex, ey) = (start + (x, y)) | elementsMask` of the 32x32 texture by `textureLod` at the
//! texel centre `uv = (e + 0.5) / 32`, LOD 0. The widened results are summed in f32 and
//! compared with the CPU model ([`crate::sample`], REPEAT) within the default tolerance: the
//! model is the twin's.
//!
//! Params: `format`; `width` = the format's components; `variant` = the filter (0 nearest,
//! 1 bilinear).

use crate::case::Case;
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{KernelParams, ReferenceSum};
use crate::sampler::{AddressMode, SamplerState};
use crate::sampling::{filter_format_cases, filter_of, sample_needs, sample_sum, FILTERS};
use crate::support::DeviceNeed;

/// The separate-sampler family.
pub struct TextureSeparate;

/// The formats the family samples.
pub const FORMATS: [Format; 4] = [Format::R8, Format::Rgba8, Format::Rgba16f, Format::Rgba32f];

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

impl Family for TextureSeparate {
    fn label(&self) -> &'static str {
        "texture_separate"
    }

    fn title(&self) -> &'static str {
        "Texture samples, separate image and sampler"
    }

    fn cases(&self) -> Vec<Case> {
        filter_format_cases(
            FamilyRef(&TextureSeparate),
            "tex.separate",
            ", separate sampler",
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::SampleFilter;
    use crate::matrix::{find_case, original_cases};
    use crate::reference::reference_sum;
    use crate::suite::Suite;

    #[test]
    fn cases_ids_names_and_samplers() {
        let cases = TextureSeparate.cases();
        assert_eq!(cases.len(), 24);
        assert_eq!(cases[0].id, "tex.separate.nearest.r8.uniform");
        assert_eq!(
            cases[4].name,
            "Texture2D<RGBA8>.Sample(nearest, separate sampler) linear"
        );
        assert_eq!(cases[23].id, "tex.separate.bilinear.rgba32f.random");
        assert_eq!(
            sampler(&cases[23]),
            SamplerState::new(SampleFilter::Bilinear, AddressMode::Repeat)
        );
        assert_eq!(cases[23].bytes_per_load(), 16);
        assert_eq!(cases[23].needs().len(), 2);
        assert_eq!(samplers().len(), 2);
        assert!(cases.iter().all(|c| c.suite == Suite::Texture));
    }

    #[test]
    fn every_case_has_an_original_twin_with_the_same_model() {
        let originals = original_cases();
        for c in TextureSeparate.cases() {
            let suffix = c.id.trim_start_matches("tex.separate.");
            let twin = find_case(&originals, &format!("tex.sample.{suffix}"))
                .unwrap_or_else(|| unreachable!("{suffix}"));
            assert_eq!(twin.params.format, c.params.format);
            for local in [[0, 0], [15, 15], [3, 9]] {
                assert_eq!(
                    reference_sum(&c, KernelParams::for_case(&c), local),
                    reference_sum(twin, KernelParams::for_case(twin), local),
                    "{}",
                    c.id
                );
            }
        }
    }
}
