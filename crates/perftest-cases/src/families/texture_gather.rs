//! `Texture2D<FMT>.Gather(c)`: `textureGather(source, uv, c)` (`shaders/texture_gather.comp`)
//! with the nearest REPEAT sampler, one case per component the format has (R: r; RG: r, g;
//! RGBA: r, g, b, a).
//!
//! What it measures: four texels' component per instruction, to compare with four nearest
//! samples ([`super::texture_address`]'s `repeat` rows).
//!
//! Addressing as in the original `Sample` cases (16x16 workgroups, 16x16 gathers per thread,
//! start per axis 0 / local id / `(local * 0x3504f333) & 4`, texel
//! `(ex, ey) = (start + (x, y)) | elementsMask`), gathered at `uv = (e + 1) / 32`, the corner
//! between texels `ex` and `ex + 1` (and `ey`, `ey + 1`): the 2x2 footprint is exactly
//! `{ex, ex + 1} x {ey, ey + 1}` (the `+1` texel wraps under REPEAT), returned in the
//! specification's order `x = (ex, ey + 1)`, `y = (ex + 1, ey + 1)`, `z = (ex + 1, ey)`,
//! `w = (ex, ey)`. The four lanes are summed in f32 as they are (no widening) and compared
//! with the CPU model ([`crate::gather`]) within the default tolerance.
//!
//! Bytes per load: 4 texels x the bytes of one component (4 for the 8-bit formats, 8 for
//! 16-bit floats, 16 for 32-bit floats), the data the result holds.
//!
//! Params: `format`; `width` 4 (four texels per gather); `variant` = the component
//! (0 r, 1 g, 2 b, 3 a), the kernel's `COMPONENT` constant.

use crate::case::{Case, Params};
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{texture_loop, KernelParams, ReferenceSum};
use crate::sampler::{gather, AddressMode, SamplerState};
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The gather family.
pub struct TextureGather;

/// The family's only sampler: nearest, REPEAT, normalized coordinates (gather ignores the
/// filter).
pub const SAMPLER: SamplerState =
    SamplerState::new(crate::case::SampleFilter::Nearest, AddressMode::Repeat);

/// The words of the components, in order.
const COMPONENTS: [&str; 4] = ["r", "g", "b", "a"];

/// The component a case gathers (0 r, 1 g, 2 b, 3 a).
pub fn component(case: &Case) -> u32 {
    case.params.variant.min(3)
}

impl Family for TextureGather {
    fn label(&self) -> &'static str {
        "texture_gather"
    }

    fn title(&self) -> &'static str {
        "Texture gathers"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for format in Format::ALL {
            for (c, word) in (0u32..).zip(COMPONENTS).take(format.components() as usize) {
                cases.extend(Case::per_pattern(
                    FamilyRef(&TextureGather),
                    Suite::Texture,
                    &format!("tex.gather.{word}.{}", format.id_token()),
                    &format!("Texture2D<{}>.Gather({word})", format.texture_name()),
                    Params {
                        format: Some(format),
                        width: 4,
                        variant: c,
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
        case.params.format.map_or(0, |f| 4 * f.channel_bytes())
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        case.params.format.map_or_else(Vec::new, |f| {
            vec![DeviceNeed::Format(f, FormatFeature::SampledImage)]
        })
    }

    fn constants(&self, case: &Case) -> [u32; 3] {
        [component(case), 0, 0]
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let format = case.params.format.unwrap_or(Format::R8);
        let c = component(case);
        texture_loop(case, params, local, |ex, ey| {
            gather(format, SAMPLER.address, ex as f32 + 1.0, ey as f32 + 1.0, c)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::reference_sum;
    use crate::sampler::texel_at;

    #[test]
    fn one_case_per_component_the_format_has() {
        let cases = TextureGather.cases();
        assert_eq!(cases.len(), 63);
        assert_eq!(cases[0].id, "tex.gather.r.r8.uniform");
        assert_eq!(cases[3].id, "tex.gather.r.rg8.uniform");
        assert_eq!(cases[6].id, "tex.gather.g.rg8.uniform");
        let g = cases
            .iter()
            .find(|c| c.id == "tex.gather.g.rgba8.linear")
            .unwrap_or_else(|| unreachable!());
        assert_eq!(g.name, "Texture2D<RGBA8>.Gather(g) linear");
        assert_eq!(g.family.constants(g), [1, 0, 0]);
        assert_eq!(g.bytes_per_load(), 4);
        assert_eq!(cases[62].id, "tex.gather.a.rgba32f.random");
        assert_eq!(cases[62].bytes_per_load(), 16);
        assert_eq!(component(&cases[62]), 3);
        let half = cases
            .iter()
            .find(|c| c.id == "tex.gather.b.rgba16f.uniform")
            .unwrap_or_else(|| unreachable!());
        assert_eq!(half.bytes_per_load(), 8);
        assert!(cases.iter().all(|c| c.suite == Suite::Texture));
    }

    #[test]
    fn uniform_model_sums_the_footprints_in_order() {
        let cases = TextureGather.cases();
        let c = cases
            .iter()
            .find(|c| c.id == "tex.gather.b.rgba16f.uniform")
            .unwrap_or_else(|| unreachable!());
        let got = reference_sum(c, KernelParams::for_case(c), [4, 4]);
        let mut want = [0.0f32; 4];
        for y in 0..16 {
            for x in 0..16 {
                let t = |i: i64, j: i64| texel_at(Format::Rgba16f, AddressMode::Repeat, i, j)[2];
                let v = [t(x, y + 1), t(x + 1, y + 1), t(x + 1, y), t(x, y)];
                for (w, v) in want.iter_mut().zip(v) {
                    *w += v;
                }
            }
        }
        assert_eq!(got.sum, want);
    }
}
