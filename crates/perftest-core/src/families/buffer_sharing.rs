//! `buffer_sharing`: the 16 KB input data in a device-local buffer of the family's own, shared
//! concurrently by the compute queue's family and another one (`DeviceCaps::concurrent_family`),
//! bound whole at binding 0 as a storage buffer, or as a uniform buffer for the twins of
//! `cbuffer{float4}`; each twin runs its original's SPIR-V.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::families::buffer_sharing::reads_uniform;
use perftest_cases::{input_bytes, Case, INPUT_BYTES};

use crate::building_blocks::create_family;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::memory::Buffer;
use crate::plan::{original_spirv, Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "buffer_sharing",
    spirv: original_spirv,
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

/// The concurrently shared copy of the input data.
struct SharedInput(Option<Buffer>);

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let other = shared.caps.concurrent_family.ok_or_else(|| {
        Error::InvalidArgument("concurrent sharing needs a second queue family".into())
    })?;
    let families = [ctx.target.summary.queue_family, other];
    create_family(ctx, SharedInput(None), |r, ctx| {
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST;
        let buffer = ctx.create_shared_buffer(
            "concurrently shared input",
            INPUT_BYTES as u64,
            usage,
            MemoryLocation::GpuOnly,
            &families,
        )?;
        r.0 = Some(ctx.filled(buffer, input_bytes())?);
        Ok(())
    })
}

impl FamilyResources for SharedInput {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let ty = if reads_uniform(case) {
            vk::DescriptorType::UNIFORM_BUFFER
        } else {
            vk::DescriptorType::STORAGE_BUFFER
        };
        Some(vec![Bind::buffer(0, ty, self.0.as_ref()?.buffer)])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        if let Some(mut buffer) = self.0.take() {
            ctx.destroy_buffer(&mut buffer);
        }
    }
}
