//! `Texture2D<FMT>.Sample`: `textureLod` at texel centres, LOD 0, REPEAT addressing
//! (`shaders/texture_sample.comp`). Params: `format`; `width` = the format's components;
//! `variant` = the [`SampleFilter`] (see [`filter`]).

use crate::case::{Case, Params, SampleFilter};
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{texture_sum, KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The texture-sample family.
pub struct TextureSample;

/// `Params::variant` of the bilinear cases (0 is nearest).
const BILINEAR: u32 = 1;

/// The sampler filter of a case of this family.
pub fn filter(case: &Case) -> SampleFilter {
    if case.params.variant == BILINEAR {
        SampleFilter::Bilinear
    } else {
        SampleFilter::Nearest
    }
}

impl Family for TextureSample {
    fn label(&self) -> &'static str {
        "texture_sample"
    }

    fn title(&self) -> &'static str {
        "Texture samples"
    }

    fn cases(&self) -> Vec<Case> {
        [
            (SampleFilter::Nearest, "nearest", 0),
            (SampleFilter::Bilinear, "bilinear", BILINEAR),
        ]
        .into_iter()
        .flat_map(|(_, word, variant)| {
            Format::ALL.into_iter().flat_map(move |format| {
                Case::per_pattern(
                    FamilyRef(&TextureSample),
                    Suite::Original,
                    &format!("tex.sample.{word}.{}", format.id_token()),
                    &format!("Texture2D<{}>.Sample({word})", format.texture_name()),
                    Params {
                        format: Some(format),
                        width: format.components(),
                        variant,
                        ..Params::default()
                    },
                )
            })
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
        let Some(format) = case.params.format else {
            return Vec::new();
        };
        match filter(case) {
            SampleFilter::Nearest => vec![DeviceNeed::Format(format, FormatFeature::SampledImage)],
            SampleFilter::Bilinear => vec![
                DeviceNeed::Format(format, FormatFeature::SampledImage),
                DeviceNeed::Format(format, FormatFeature::SampledImageFilterLinear),
            ],
        }
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
