//! `constant_paths`: a 16 KB device-local buffer of modern data usable as a uniform and a
//! storage buffer (the uniform-block and broadcast paths bind it at binding 0), the shared
//! 16 KB input buffer as a uniform buffer for the `no mask` cases, and four modern words in
//! the push constants for the push path (which binds nothing).

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::families::constant_paths::{path, push_words, Path, ELEMENTS};
use perftest_cases::{modern_bytes, Case};

use crate::building_blocks::create_family;
use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "constant_paths",
    spirv,
    create,
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match path(case) {
        Path::Push => include_bytes!("../../spirv/constant_paths_push.spv"),
        Path::Ubo => include_bytes!("../../spirv/constant_paths_ubo.spv"),
        Path::Broadcast => include_bytes!("../../spirv/constant_paths_broadcast.spv"),
        Path::NoMask => include_bytes!("../../spirv/constant_paths_nomask.spv"),
    }
}

/// The family's modern-data buffer and the shared input buffer (not owned).
struct Constants {
    modern: Option<Buffer>,
    input: vk::Buffer,
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = Constants {
        modern: None,
        input: shared.input,
    };
    create_family(ctx, empty, |r, ctx| {
        let bytes = u64::from(ELEMENTS) * 16;
        let buffer = r.modern.insert(ctx.create_buffer(
            "constant-path data",
            bytes,
            vk::BufferUsageFlags::UNIFORM_BUFFER
                | vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuOnly,
        )?);
        ctx.upload_buffer(buffer, &modern_bytes(bytes))
    })
}

impl FamilyResources for Constants {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let modern = self.modern.as_ref()?.buffer;
        Some(match path(case) {
            Path::Push => Vec::new(),
            Path::Ubo => vec![Bind::buffer(0, vk::DescriptorType::UNIFORM_BUFFER, modern)],
            Path::Broadcast => vec![Bind::buffer(0, vk::DescriptorType::STORAGE_BUFFER, modern)],
            Path::NoMask => vec![Bind::buffer(
                0,
                vk::DescriptorType::UNIFORM_BUFFER,
                self.input,
            )],
        })
    }

    fn push(&self, case: &Case) -> [u32; 4] {
        match path(case) {
            Path::Push => push_words(),
            _ => [0; 4],
        }
    }

    fn destroy(&mut self, ctx: &mut Context) {
        if let Some(mut buffer) = self.modern.take() {
            ctx.destroy_buffer(&mut buffer);
        }
    }
}
