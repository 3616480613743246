//! `narrow_loads`: two 16 KB device-local storage buffers, one holding the modern data (read
//! through the `uint8_t`, `uint16_t` and `uint` views) and one a copy of the original input
//! data (read through the `float16_t` view, whose every half is finite), bound at binding 0.

use ash::vk;
use perftest_cases::families::narrow_loads::{element, Element, BUFFER_BYTES};
use perftest_cases::{input_bytes, Case};

use crate::building_blocks::{create_family, modern_buffer};
use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "narrow_loads",
    spirv,
    create,
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match element(case) {
        Element::U8 => include_bytes!("../../spirv/narrow_loads_u8.spv"),
        Element::U16 => include_bytes!("../../spirv/narrow_loads_u16.spv"),
        Element::F16 => include_bytes!("../../spirv/narrow_loads_f16.spv"),
        Element::U32 => include_bytes!("../../spirv/narrow_loads_u32.spv"),
    }
}

/// The modern-data buffer and the half-float buffer.
struct NarrowBuffers {
    modern: Option<Buffer>,
    halves: Option<Buffer>,
}

fn create(ctx: &mut Context, _: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = NarrowBuffers {
        modern: None,
        halves: None,
    };
    create_family(ctx, empty, |r, ctx| {
        r.modern = Some(modern_buffer(ctx, "narrow-load data", BUFFER_BYTES, true)?);
        let halves = r.halves.insert(modern_buffer(
            ctx,
            "narrow-load halves",
            BUFFER_BYTES,
            false,
        )?);
        ctx.upload_buffer(halves, input_bytes())
    })
}

impl FamilyResources for NarrowBuffers {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let buffer = if element(case).reads_input_data() {
            self.halves.as_ref()?
        } else {
            self.modern.as_ref()?
        };
        Some(vec![Bind::buffer(
            0,
            vk::DescriptorType::STORAGE_BUFFER,
            buffer.buffer,
        )])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for buffer in [self.modern.take(), self.halves.take()]
            .iter_mut()
            .flatten()
        {
            ctx.destroy_buffer(buffer);
        }
    }
}
