//! `Texture2D<FMT>.Load` and `.Sample` from linearly tiled textures
//! (`VK_IMAGE_TILING_LINEAR`): twins of the original suite's texture cases whose only change is
//! the image's tiling (texture suite).
//!
//! What it measures: what a texture laid out row by row costs against the driver's own
//! (optimal) layout, which keeps 2D neighbourhoods together in memory. Each case runs the
//! original's kernel (`shaders/texture_load.comp` or `shaders/texture_sample.comp`, the same
//! SPIR-V), sampler (nearest or bilinear, REPEAT, LOD 0), 32x32 texture data and CPU model
//! (the texture model of `reference.rs`); its twin is the original case of the same id after `tex.`
//! (`tex.tiling.linear.load.rgba8.random` against `tex.load.rgba8.random`,
//! `tex.tiling.linear.nearest.r8.linear` against `tex.sample.nearest.r8.linear`).
//!
//! Formats R8, RGBA8 and RGBA32F (1, 4 and 16 bytes a texel); patterns linear and random (a
//! uniform read of one texel has no layout to differ in). Vulkan lets a linearly tiled image
//! be 2D, one level and one layer, as these are; the format must offer `SAMPLED_IMAGE` and
//! `TRANSFER_DST` (the upload) in its linear-tiling features, and bilinear
//! `SAMPLED_IMAGE_FILTER_LINEAR` there too: a case is skipped, with the feature named, where the
//! device lacks them.
//!
//! Params: `format`; `width` = the format's components; `variant` = the read ([`LOAD`],
//! [`NEAREST`], [`BILINEAR`]).

use crate::case::{Case, Params, Pattern};
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{texture_sum, KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The linear-tiling family.
pub struct TextureTiling;

/// `variant` of the `texelFetch` cases.
pub const LOAD: u32 = 0;

/// `variant` of the nearest samples.
pub const NEAREST: u32 = 1;

/// `variant` of the bilinear samples.
pub const BILINEAR: u32 = 2;

/// The reads, in case order: `variant`, the id word, the name's method and the twin's id
/// prefix.
const READS: [(u32, &str, &str, &str); 3] = [
    (LOAD, "load", "Load", "tex.load"),
    (NEAREST, "nearest", "Sample(nearest)", "tex.sample.nearest"),
    (
        BILINEAR,
        "bilinear",
        "Sample(bilinear)",
        "tex.sample.bilinear",
    ),
];

/// The formats of the family's cases.
pub const FORMATS: [Format; 3] = [Format::R8, Format::Rgba8, Format::Rgba32f];

/// The id prefix of the family's cases.
pub const ID_PREFIX: &str = "tex.tiling.linear.";

/// The id of the optimally tiled original case `case` is the twin of.
pub fn optimal_twin_id(case: &Case) -> String {
    let (_, word, _, twin) = READS[case.params.variant as usize % READS.len()];
    let rest = case
        .id
        .strip_prefix(ID_PREFIX)
        .and_then(|r| r.strip_prefix(word))
        .unwrap_or_default();
    format!("{twin}{rest}")
}

impl Family for TextureTiling {
    fn label(&self) -> &'static str {
        "texture_tiling"
    }

    fn title(&self) -> &'static str {
        "Texture reads, linear tiling"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for (variant, word, method, _) in READS {
            for format in FORMATS {
                let per_pattern = Case::per_pattern(
                    FamilyRef(&TextureTiling),
                    Suite::Texture,
                    &format!("{ID_PREFIX}{word}.{}", format.id_token()),
                    &format!(
                        "Texture2D<{}>.{method} (linear tiling)",
                        format.texture_name()
                    ),
                    Params {
                        format: Some(format),
                        width: format.components(),
                        variant,
                        ..Params::default()
                    },
                );
                cases.extend(
                    per_pattern
                        .into_iter()
                        .filter(|c| c.pattern != Pattern::Uniform),
                );
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
        let Some(format) = case.params.format else {
            return Vec::new();
        };
        let mut needs = vec![DeviceNeed::Format(
            format,
            FormatFeature::LinearSampledImage,
        )];
        if case.params.variant == BILINEAR {
            needs.push(DeviceNeed::Format(
                format,
                FormatFeature::LinearSampledImageFilterLinear,
            ));
        }
        needs
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        texture_sum(
            case,
            params,
            local,
            case.params.format.unwrap_or(Format::R8),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::texture_load::TextureLoad;
    use crate::families::texture_sample::TextureSample;
    use crate::reference::reference_sum;

    #[test]
    fn eighteen_cases_each_with_an_original_twin_of_the_same_model() {
        let cases = TextureTiling.cases();
        assert_eq!(cases.len(), 18);
        assert_eq!(cases[0].id, "tex.tiling.linear.load.r8.linear");
        assert_eq!(cases[0].name, "Texture2D<R8>.Load (linear tiling) linear");
        assert_eq!(cases[17].id, "tex.tiling.linear.bilinear.rgba32f.random");
        assert_eq!(
            optimal_twin_id(&cases[17]),
            "tex.sample.bilinear.rgba32f.random"
        );
        let originals: Vec<Case> = TextureLoad
            .cases()
            .into_iter()
            .chain(TextureSample.cases())
            .collect();
        for c in &cases {
            assert_eq!(c.suite, Suite::Texture);
            let id = optimal_twin_id(c);
            let twin = originals
                .iter()
                .find(|o| o.id == id)
                .unwrap_or_else(|| unreachable!("{id}"));
            assert_eq!(twin.pattern, c.pattern);
            assert_eq!(twin.params.format, c.params.format);
            assert_eq!(twin.params.width, c.params.width);
            for local in [[0, 0], [15, 15], [3, 9]] {
                assert_eq!(
                    reference_sum(c, KernelParams::for_case(c), local),
                    reference_sum(twin, KernelParams::for_case(twin), local)
                );
            }
        }
    }

    #[test]
    fn bilinear_needs_linear_filtering_in_linear_tiling() {
        let cases = TextureTiling.cases();
        let bilinear = cases.iter().find(|c| c.params.variant == BILINEAR);
        let needs = bilinear.map(|c| TextureTiling.needs(c)).unwrap_or_default();
        assert_eq!(needs.len(), 2);
        assert!(TextureTiling.needs(&cases[0]).len() == 1);
    }
}
