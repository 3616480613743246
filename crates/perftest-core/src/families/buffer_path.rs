//! `buffer_path`: a 16 KB device-local copy of the original input data, with device-address
//! usage where the device has it: bound whole at binding 0 for the byte-address views, its
//! device address pushed for the device-address paths.

use ash::vk;
use perftest_cases::families::buffer_path::{access, Access};
use perftest_cases::{input_bytes, Case, Feature, INPUT_BYTES};

use crate::building_blocks::{create_family, modern_buffer};
use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "buffer_path",
    spirv,
    create,
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match access(case) {
        Access::RawFloat2 => include_bytes!("../../spirv/buffer_path_raw_float2.spv"),
        Access::RawFloat4 => include_bytes!("../../spirv/buffer_path_raw_float4.spv"),
        Access::BdaFloatAlign4 => include_bytes!("../../spirv/buffer_path_bda_float_align4.spv"),
        Access::BdaFloat4Align4 => {
            include_bytes!("../../spirv/buffer_path_bda_float4_align4.spv")
        }
        Access::BdaFloat4Align16 => {
            include_bytes!("../../spirv/buffer_path_bda_float4_align16.spv")
        }
    }
}

/// The family's buffer and, where the device has buffer device addresses, its address.
struct PathBuffer {
    buffer: Option<Buffer>,
    address: Option<u64>,
}

fn create(ctx: &mut Context, _: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = PathBuffer {
        buffer: None,
        address: None,
    };
    create_family(ctx, empty, |r, ctx| {
        let buffer = r.buffer.insert(modern_buffer(
            ctx,
            "buffer-path input",
            INPUT_BYTES as u64,
            false,
        )?);
        ctx.upload_buffer(buffer, input_bytes())?;
        r.address = ctx
            .caps
            .has(Feature::BufferDeviceAddress)
            .then(|| ctx.buffer_address(buffer));
        Ok(())
    })
}

impl FamilyResources for PathBuffer {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let buffer = self.buffer.as_ref()?;
        if access(case).uses_address() {
            return self.address.map(|_| Vec::new());
        }
        Some(vec![Bind::buffer(
            0,
            vk::DescriptorType::STORAGE_BUFFER,
            buffer.buffer,
        )])
    }

    fn push(&self, case: &Case) -> [u32; 4] {
        match self.address {
            Some(a) if access(case).uses_address() => [a as u32, (a >> 32) as u32, 0, 0],
            _ => [0; 4],
        }
    }

    fn destroy(&mut self, ctx: &mut Context) {
        if let Some(mut buffer) = self.buffer.take() {
            ctx.destroy_buffer(&mut buffer);
        }
        self.address = None;
    }
}
