//! `Texture2D<FMT>.Load`: `texelFetch` on a 32x32 sampled image
//! (`shaders/texture_load.comp`). Params: `format`; `width` = the format's components.

use crate::case::{Case, Params};
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{texture_sum, KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The texture-load family.
pub struct TextureLoad;

impl Family for TextureLoad {
    fn label(&self) -> &'static str {
        "texture_load"
    }

    fn title(&self) -> &'static str {
        "Texture loads"
    }

    fn cases(&self) -> Vec<Case> {
        Format::ALL
            .into_iter()
            .flat_map(|format| {
                Case::per_pattern(
                    FamilyRef(&TextureLoad),
                    Suite::Original,
                    &format!("tex.load.{}", format.id_token()),
                    &format!("Texture2D<{}>.Load", format.texture_name()),
                    Params {
                        format: Some(format),
                        width: format.components(),
                        variant: 0,
                        ..Params::default()
                    },
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
        case.params
            .format
            .map(|f| DeviceNeed::Format(f, FormatFeature::SampledImage))
            .into_iter()
            .collect()
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
