//! `Texture2D<FMT>.Sample(FILTER, clamp, unnormalized)`: samples with a sampler of
//! `unnormalizedCoordinates = true` (`shaders/texture_unnormalized.comp`), nearest and
//! bilinear.
//!
//! What it measures: whether coordinates given in texels (no scaling by the texture size)
//! sample at a different rate from normalized ones; compare with the `clamp` rows of
//! [`super::texture_address`] (same texels, same filter, same address mode).
//!
//! Vulkan allows such a sampler only with CLAMP_TO_EDGE or CLAMP_TO_BORDER addressing,
//! mipmap mode NEAREST, `minLod = maxLod = 0`, and an explicit LOD: the samplers use
//! CLAMP_TO_EDGE and the kernel `textureLod(source, e + 0.5, 0.0)`.
//!
//! Addressing as in the original `Sample` cases (16x16 workgroups, 16x16 samples per thread,
//! start per axis 0 / local id / `(local * 0x3504f333) & 4`, texel
//! `(ex, ey) = (start + (x, y)) | elementsMask`), at the texel centre `(ex + 0.5, ey + 0.5)` in
//! texels. The widened results are summed in f32 and compared with the CPU model
//! ([`crate::sample`], CLAMP_TO_EDGE) within the default tolerance.
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

/// The unnormalized-coordinates family.
pub struct TextureUnnormalized;

/// The sampler of a case of this family.
pub fn sampler(case: &Case) -> SamplerState {
    SamplerState {
        filter: filter_of(case.params.variant),
        address: AddressMode::ClampToEdge,
        unnormalized: true,
    }
}

/// Every sampler the family's cases use.
pub fn samplers() -> Vec<SamplerState> {
    FILTERS
        .map(|(filter, _)| SamplerState {
            filter,
            address: AddressMode::ClampToEdge,
            unnormalized: true,
        })
        .to_vec()
}

impl Family for TextureUnnormalized {
    fn label(&self) -> &'static str {
        "texture_unnormalized"
    }

    fn title(&self) -> &'static str {
        "Texture samples, unnormalized coordinates"
    }

    fn cases(&self) -> Vec<Case> {
        filter_format_cases(
            FamilyRef(&TextureUnnormalized),
            "tex.unnorm",
            ", clamp, unnormalized",
            &Format::ALL,
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
    use crate::families::texture_address::TextureAddress;
    use crate::reference::reference_sum;
    use crate::suite::Suite;

    #[test]
    fn cases_ids_names_and_samplers() {
        let cases = TextureUnnormalized.cases();
        assert_eq!(cases.len(), 54);
        assert_eq!(cases[1].id, "tex.unnorm.nearest.r8.linear");
        assert_eq!(
            cases[1].name,
            "Texture2D<R8>.Sample(nearest, clamp, unnormalized) linear"
        );
        assert_eq!(cases[53].id, "tex.unnorm.bilinear.rgba32f.random");
        let s = sampler(&cases[53]);
        assert!(s.unnormalized && s.filter == SampleFilter::Bilinear);
        assert_eq!(s.address, AddressMode::ClampToEdge);
        assert_eq!(samplers().len(), 2);
        assert!(cases.iter().all(|c| c.suite == Suite::Texture));
    }

    #[test]
    fn model_matches_the_normalized_clamp_cases() {
        let normalized = TextureAddress.cases();
        for c in TextureUnnormalized.cases().iter().step_by(7) {
            let suffix = c.id.trim_start_matches("tex.unnorm.");
            let twin = normalized
                .iter()
                .find(|n| n.id == format!("tex.addr.clamp.{suffix}"))
                .unwrap_or_else(|| unreachable!("{suffix}"));
            for local in [[0, 0], [15, 15], [3, 9]] {
                assert_eq!(
                    reference_sum(c, KernelParams::for_case(c), local),
                    reference_sum(twin, KernelParams::for_case(twin), local)
                );
            }
        }
    }
}
