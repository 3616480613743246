//! `Buffer<FMT>.Load`: a uniform texel buffer read with `texelFetch`
//! (`shaders/typed_buffer.comp`). Params: `format`; `width` = the format's components.

use crate::case::{Case, Params};
use crate::data::input_bytes;
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{buffer_sum, texel, widen, KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The typed-buffer family.
pub struct TypedBuffer;

impl Family for TypedBuffer {
    fn label(&self) -> &'static str {
        "typed_buffer"
    }

    fn title(&self) -> &'static str {
        "Typed buffers"
    }

    fn cases(&self) -> Vec<Case> {
        Format::ALL
            .into_iter()
            .flat_map(|format| {
                Case::per_pattern(
                    FamilyRef(&TypedBuffer),
                    Suite::Original,
                    &format!("typed.{}", format.id_token()),
                    &format!("Buffer<{}>.Load", format.buffer_name()),
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

    fn bytes_per_load(&self, case: &Case) -> u32 {
        case.params.format.map_or(0, Format::texel_bytes)
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        case.params
            .format
            .map(|f| DeviceNeed::Format(f, FormatFeature::UniformTexelBuffer))
            .into_iter()
            .collect()
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let format = case.params.format.unwrap_or(Format::R8);
        let bytes = input_bytes();
        buffer_sum(case, params, local, |elem, _, _| {
            widen(texel(format, bytes, elem as usize), format.components())
        })
    }
}
