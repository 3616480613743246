//! `StructuredBuffer<float|float2|float4>.Load`: a storage buffer of `float`/`vec2`/`vec4`
//! (`shaders/structured_buffer.comp`, one SPIR-V per element type). Params: `width` = floats
//! per element (1, 2 or 4).

use crate::case::{Case, Params};
use crate::data::input_bytes;
use crate::family::{Family, FamilyRef};
use crate::reference::{buffer_sum, floats_at, widen, KernelParams, ReferenceSum};
use crate::suite::Suite;

/// The structured-buffer family.
pub struct StructuredBuffer;

impl Family for StructuredBuffer {
    fn label(&self) -> &'static str {
        "structured_buffer"
    }

    fn title(&self) -> &'static str {
        "Structured buffers"
    }

    fn cases(&self) -> Vec<Case> {
        [(1, "float"), (2, "float2"), (4, "float4")]
            .into_iter()
            .flat_map(|(components, ty)| {
                Case::per_pattern(
                    FamilyRef(&StructuredBuffer),
                    Suite::Original,
                    &format!("structured.{ty}"),
                    &format!("StructuredBuffer<{ty}>.Load"),
                    Params {
                        format: None,
                        width: components,
                        variant: 0,
                        ..Params::default()
                    },
                )
            })
            .collect()
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        4 * case.params.width
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let components = case.params.width;
        let bytes = input_bytes();
        buffer_sum(case, params, local, |elem, _, _| {
            widen(
                floats_at(bytes, (elem * 4 * components) as usize, components),
                components,
            )
        })
    }
}
