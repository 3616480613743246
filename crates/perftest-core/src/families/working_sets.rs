//! The working sets of the bandwidth families (`working_set`, and `cache_sweep`, which reads
//! the same sets through the structured path): one device-local buffer per size filled with
//! the modern data, bound whole for the descriptor paths, its device address pushed for the
//! device-address path.

use ash::vk;
use perftest_cases::working_sets::{path, Path};
use perftest_cases::{Case, Feature};

use crate::building_blocks::modern_buffer;
use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources};

/// The structured path's kernel (`StructuredBuffer<uint4>.Load`), which every family that
/// reads a working set through a `uvec4[]` storage buffer runs.
pub(super) fn structured_spirv(_: &Case) -> &'static [u8] {
    include_bytes!("../../spirv/working_set_structured.spv")
}

/// No working sets yet: each is made when the first case of its size (`Params::working_set`)
/// is prepared; `Params::variant` picks the path as in the working-set family (also used by
/// the memory suite's bandwidth sweep).
pub(super) fn sets(ctx: &Context) -> Box<dyn FamilyResources> {
    Box::new(WorkingSets {
        sets: Vec::new(),
        max_range: ctx.caps.max_storage_buffer_range,
    })
}

/// One working set: its buffer and, where the device has buffer device addresses, its
/// address.
struct Set {
    bytes: u64,
    buffer: Buffer,
    address: Option<u64>,
}

/// The working sets prepared so far.
struct WorkingSets {
    sets: Vec<Set>,
    /// `maxStorageBufferRange`: a larger set is never bound as a descriptor.
    max_range: u64,
}

impl WorkingSets {
    fn set(&self, case: &Case) -> Option<&Set> {
        self.sets
            .iter()
            .find(|s| s.bytes == case.params.working_set)
    }
}

impl FamilyResources for WorkingSets {
    fn prepare(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        let bytes = case.params.working_set;
        if self.set(case).is_some() {
            return Ok(());
        }
        let buffer = modern_buffer(ctx, "working set", bytes, true)?;
        let address = ctx
            .caps
            .has(Feature::BufferDeviceAddress)
            .then(|| ctx.buffer_address(&buffer));
        self.sets.push(Set {
            bytes,
            buffer,
            address,
        });
        Ok(())
    }

    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let set = self.set(case)?;
        if !path(case).uses_descriptor() {
            return set.address.map(|_| Vec::new());
        }
        (set.bytes <= self.max_range).then(|| {
            vec![Bind::buffer(
                0,
                vk::DescriptorType::STORAGE_BUFFER,
                set.buffer.buffer,
            )]
        })
    }

    fn push(&self, case: &Case) -> [u32; 4] {
        match self.set(case).and_then(|s| s.address) {
            Some(a) if path(case) == Path::Bda => [a as u32, (a >> 32) as u32, 0, 0],
            _ => [0; 4],
        }
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for set in &mut self.sets {
            ctx.destroy_buffer(&mut set.buffer);
        }
        self.sets.clear();
    }
}
