//! `shared_memory`: a 16 KB device-local storage buffer of modern data at binding 0, from
//! which every workgroup fills its shared memory.

use ash::vk;
use perftest_cases::families::shared_memory::{words, SHARED_BYTES};
use perftest_cases::Case;

use crate::building_blocks::{create_family, modern_buffer};
use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "shared_memory",
    spirv,
    create,
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match words(case) {
        1 => include_bytes!("../../spirv/shared_memory_32.spv"),
        2 => include_bytes!("../../spirv/shared_memory_64.spv"),
        _ => include_bytes!("../../spirv/shared_memory_128.spv"),
    }
}

/// The buffer the shared memory is filled from.
struct Source(Option<Buffer>);

fn create(ctx: &mut Context, _: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    create_family(ctx, Source(None), |r, ctx| {
        r.0 = Some(modern_buffer(
            ctx,
            "shared-memory source",
            SHARED_BYTES,
            true,
        )?);
        Ok(())
    })
}

impl FamilyResources for Source {
    fn bindings(&self, _case: &Case) -> Option<Vec<Bind>> {
        let buffer = self.0.as_ref()?;
        Some(vec![Bind::buffer(
            0,
            vk::DescriptorType::STORAGE_BUFFER,
            buffer.buffer,
        )])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        if let Some(mut buffer) = self.0.take() {
            ctx.destroy_buffer(&mut buffer);
        }
    }
}
