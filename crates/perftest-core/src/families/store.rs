//! `store`: one target buffer per working-set size (created when the first case of that size
//! is prepared, contents undefined until a verification clears it), bound as a storage buffer
//! at binding 0 or reached through its device address (family words 0 and 1).

use ash::vk;
use perftest_cases::families::store::{element_bytes, path, Path};
use perftest_cases::{Case, Feature};

use crate::building_blocks::modern_buffer;
use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "store",
    spirv,
    create: |_, _| Ok(Box::new(Targets::default())),
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match (path(case), element_bytes(case)) {
        (Path::Structured, 4) => include_bytes!("../../spirv/store_structured_uint.spv"),
        (Path::Structured, 8) => include_bytes!("../../spirv/store_structured_uint2.spv"),
        (Path::Structured, _) => include_bytes!("../../spirv/store_structured_uint4.spv"),
        (Path::Raw, 4) => include_bytes!("../../spirv/store_raw_store.spv"),
        (Path::Raw, 8) => include_bytes!("../../spirv/store_raw_store2.spv"),
        (Path::Raw, _) => include_bytes!("../../spirv/store_raw_store4.spv"),
        (Path::Bda, 4) => include_bytes!("../../spirv/store_bda_uint.spv"),
        (Path::Bda, 8) => include_bytes!("../../spirv/store_bda_uint2.spv"),
        (Path::Bda, _) => include_bytes!("../../spirv/store_bda_uint4.spv"),
    }
}

/// One target buffer and its device address (0 without `bufferDeviceAddress`).
struct Target {
    bytes: u64,
    buffer: Buffer,
    address: u64,
}

/// The target buffers made so far, one per working-set size.
#[derive(Default)]
struct Targets {
    targets: Vec<Target>,
}

impl Targets {
    fn target(&self, case: &Case) -> Option<&Target> {
        let bytes = case.params.working_set;
        self.targets.iter().find(|t| t.bytes == bytes)
    }
}

impl FamilyResources for Targets {
    fn prepare(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        if self.target(case).is_some() {
            return Ok(());
        }
        let bytes = case.params.working_set;
        let buffer = modern_buffer(ctx, "store target", bytes, false)?;
        let address = if ctx.caps.has(Feature::BufferDeviceAddress) {
            ctx.buffer_address(&buffer)
        } else {
            0
        };
        self.targets.push(Target {
            bytes,
            buffer,
            address,
        });
        Ok(())
    }

    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let target = self.target(case)?;
        match path(case) {
            Path::Bda => Some(Vec::new()),
            Path::Structured | Path::Raw => Some(vec![Bind::buffer(
                0,
                vk::DescriptorType::STORAGE_BUFFER,
                target.buffer.buffer,
            )]),
        }
    }

    fn push(&self, case: &Case) -> [u32; 4] {
        let address = self.target(case).map_or(0, |t| t.address);
        [address as u32, (address >> 32) as u32, 0, 0]
    }

    fn written(&self, case: &Case) -> Option<(vk::Buffer, u64)> {
        self.target(case).map(|t| (t.buffer.buffer, t.bytes))
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for target in &mut self.targets {
            ctx.destroy_buffer(&mut target.buffer);
        }
        self.targets.clear();
    }
}
