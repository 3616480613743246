//! `Texture2D<FMT>.Sample(FILTER, MODE)`: the original `Sample` kernel (the same SPIR-V as
//! [`super::texture_sample`], `shaders/texture_sample.comp`) with a sampler of each address
//! mode — REPEAT (the original's), MIRRORED_REPEAT, CLAMP_TO_EDGE and CLAMP_TO_BORDER
//! (border colour transparent black) — and each filter, nearest and bilinear.
//!
//! What it measures: the cost of the sampler's address mode; the `repeat` rows repeat the
//! original suite's `Sample` rows (same kernel, same sampler). The rate is in samples per
//! second; the texture suite's chapter shows what the modes cost on measured GPUs.
//!
//! Addressing, as in the original: 16x16 workgroups, 16x16 samples per thread; the thread's
//! start per axis is `0` (uniform), its local id (linear) or `hash(local) & 4` with
//! `hash(x) = x * 0x3504f333` (random, the original's hash); sample `(x, y)` reads texel
//! `(ex, ey) = (start + (x, y)) | elementsMask` of the 32x32 texture of the case's format by
//! `textureLod` at the texel centre `uv = (e + 0.5) / 32`, LOD 0. The widened results
//! (`xxxx`, `xyxy`, `xyzw`) are summed in f32 and compared with the CPU model
//! ([`crate::sample`], each mode modelled exactly) within the default tolerance.
//!
//! Every coordinate these cases reach lies inside the texture (0..=30: start 15 + step 15 for
//! the linear pattern), so every mode reads the same texels and bilinear filtering at texel
//! centres returns the texel itself: the cases differ only in sampler state, which is what
//! they measure. The model still applies each mode, so it stays right if the addressing
//! changes.
//!
//! Params: `format`; `width` = the format's components; `variant` = mode index * 2 + filter
//! (0 nearest, 1 bilinear); see [`sampler`].

use crate::case::Case;
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{KernelParams, ReferenceSum};
use crate::sampler::{AddressMode, SamplerState};
use crate::sampling::{filter_format_cases, filter_of, sample_needs, sample_sum, FILTERS};
use crate::support::DeviceNeed;

/// The address-mode family.
pub struct TextureAddress;

/// The sampler of a case of this family.
pub fn sampler(case: &Case) -> SamplerState {
    let mode = AddressMode::ALL
        .get((case.params.variant / 2) as usize)
        .copied()
        .unwrap_or(AddressMode::Repeat);
    SamplerState::new(filter_of(case.params.variant), mode)
}

/// Every sampler the family's cases use.
pub fn samplers() -> Vec<SamplerState> {
    AddressMode::ALL
        .into_iter()
        .flat_map(|mode| FILTERS.map(|(filter, _)| SamplerState::new(filter, mode)))
        .collect()
}

impl Family for TextureAddress {
    fn label(&self) -> &'static str {
        "texture_address"
    }

    fn title(&self) -> &'static str {
        "Texture address modes"
    }

    fn cases(&self) -> Vec<Case> {
        (0u32..)
            .zip(AddressMode::ALL)
            .flat_map(|(m, mode)| {
                filter_format_cases(
                    FamilyRef(&TextureAddress),
                    &format!("tex.addr.{}", mode.word()),
                    &format!(", {}", mode.word()),
                    &Format::ALL,
                    m * 2,
                )
            })
            .collect()
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
    fn cases_ids_names_and_order() {
        let cases = TextureAddress.cases();
        assert_eq!(cases.len(), 216);
        assert_eq!(cases[0].id, "tex.addr.repeat.nearest.r8.uniform");
        assert_eq!(
            cases[0].name,
            "Texture2D<R8>.Sample(nearest, repeat) uniform"
        );
        assert_eq!(cases[28].id, "tex.addr.repeat.bilinear.r8.linear");
        let clamp = &cases[2 * 54 + 2 * 3 + 1];
        assert_eq!(clamp.id, "tex.addr.clamp.nearest.rgba8.linear");
        assert_eq!(clamp.name, "Texture2D<RGBA8>.Sample(nearest, clamp) linear");
        assert_eq!(
            sampler(clamp),
            SamplerState::new(SampleFilter::Nearest, AddressMode::ClampToEdge)
        );
        let last = &cases[215];
        assert_eq!(last.id, "tex.addr.border.bilinear.rgba32f.random");
        assert_eq!(
            sampler(last),
            SamplerState::new(SampleFilter::Bilinear, AddressMode::ClampToBorder)
        );
        assert!(cases.iter().all(|c| c.suite == Suite::Texture));
        assert_eq!(samplers().len(), 8);
        assert_eq!(last.bytes_per_load(), 16);
        assert_eq!(last.needs().len(), 2);
        assert_eq!(cases[0].needs().len(), 1);
    }

    #[test]
    fn repeat_rows_match_the_original_samples_and_modes_agree_inside_the_texture() {
        let originals = original_cases();
        for id in ["nearest.rgba16f.linear", "bilinear.rg8.random"] {
            let original = find_case(&originals, &format!("tex.sample.{id}"))
                .cloned()
                .unwrap_or_else(|| unreachable!("{id}"));
            let ours: Vec<Case> = TextureAddress
                .cases()
                .into_iter()
                .filter(|c| c.id.ends_with(id))
                .collect();
            assert_eq!(ours.len(), 4);
            for local in [[0, 0], [15, 15], [7, 3]] {
                let want = reference_sum(&original, KernelParams::for_case(&original), local);
                for c in &ours {
                    assert_eq!(
                        reference_sum(c, KernelParams::for_case(c), local),
                        want,
                        "{}",
                        c.id
                    );
                }
            }
        }
    }

    #[test]
    fn modes_differ_once_coordinates_leave_the_texture() {
        let cases = TextureAddress.cases();
        // A mask of 32 moves every coordinate to 32..=62, outside the texture.
        let p = KernelParams {
            elements_mask: 32,
            ..KernelParams::default()
        };
        let sums: Vec<_> = ["repeat", "mirror", "clamp", "border"]
            .iter()
            .map(|m| {
                let c = cases
                    .iter()
                    .find(|c| c.id == format!("tex.addr.{m}.nearest.r32f.linear"))
                    .unwrap_or_else(|| unreachable!("{m}"));
                reference_sum(c, p, [15, 15]).sum[0]
            })
            .collect();
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(sums[i], sums[j], "{i} {j}");
            }
        }
    }
}
