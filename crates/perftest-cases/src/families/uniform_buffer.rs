//! `cbuffer{float4} load`: a 16 KB uniform buffer of `vec4[1024]`
//! (`shaders/uniform_buffer.comp`). Params: `width` = 4.

use crate::case::{Case, Params};
use crate::data::input_bytes;
use crate::family::{Family, FamilyRef};
use crate::reference::{buffer_sum, floats_at, KernelParams, ReferenceSum};
use crate::suite::Suite;

/// The uniform-buffer (cbuffer) family.
pub struct UniformBuffer;

impl Family for UniformBuffer {
    fn label(&self) -> &'static str {
        "uniform_buffer"
    }

    fn title(&self) -> &'static str {
        "Uniform buffers"
    }

    fn cases(&self) -> Vec<Case> {
        Case::per_pattern(
            FamilyRef(&UniformBuffer),
            Suite::Original,
            "cbuffer.float4",
            "cbuffer{float4} load",
            Params {
                format: None,
                width: 4,
                variant: 0,
                ..Params::default()
            },
        )
        .to_vec()
    }

    fn bytes_per_load(&self, _case: &Case) -> u32 {
        16
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let bytes = input_bytes();
        buffer_sum(case, params, local, |elem, _, _| {
            floats_at(bytes, (elem * 16) as usize, 4)
        })
    }
}
