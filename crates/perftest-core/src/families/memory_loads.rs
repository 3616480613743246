//! `memory_loads`: one buffer per (memory kind, working-set size), in memory of exactly the type
//! the kind resolved to on the device (`DeviceCaps::memory_kinds`), filled with the modern
//! data and read by the working sets' structured kernel, bound whole at binding 0. A buffer is
//! made when the first case that reads it is prepared: written through its mapping where the
//! type is host-visible and coherent, else uploaded through a staging copy.

use ash::vk;
use perftest_cases::families::memory_loads::kind;
use perftest_cases::memory_kind::{MemoryKind, HOST_COHERENT};
use perftest_cases::Case;

use super::working_sets::structured_spirv;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "memory_loads",
    spirv: structured_spirv,
    create: |_, _| Ok(Box::new(Sets::default())),
    push_bytes: 32,
    stages: Stages::Compute,
};

/// One buffer: its kind, its bytes, and the buffer.
struct Set {
    kind: MemoryKind,
    bytes: u64,
    buffer: Buffer,
}

/// The buffers prepared so far.
#[derive(Default)]
struct Sets {
    sets: Vec<Set>,
}

impl Sets {
    fn set(&self, case: &Case) -> Option<&Set> {
        self.sets
            .iter()
            .find(|s| s.kind == kind(case) && s.bytes == case.params.working_set)
    }
}

/// A storage buffer of `bytes` in memory of the type `kind` resolved to, filled with the modern
/// data. On failure nothing is left allocated.
fn filled_buffer(ctx: &mut Context, case: &Case, kind: MemoryKind, bytes: u64) -> Result<Buffer> {
    let memory = ctx.caps.memory_kinds[kind.index()].ok_or_else(|| Error::Unsupported {
        id: case.id.clone(),
        reason: format!("the device has no {} memory type", kind.display()),
    })?;
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST;
    let mut buffer = ctx.create_buffer_of_type(bytes, usage, memory)?;
    let data = perftest_cases::modern_bytes(bytes);
    // Mapped writes need no flush only in coherent memory; other types get a staging copy.
    let mapped = if memory.flags & HOST_COHERENT != 0 {
        buffer.mapped_mut()
    } else {
        None
    };
    match mapped {
        Some(view) if view.len() >= data.len() => {
            view[..data.len()].copy_from_slice(&data);
            Ok(buffer)
        }
        _ => ctx.filled(buffer, &data),
    }
}

impl FamilyResources for Sets {
    fn prepare(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        if self.set(case).is_some() {
            return Ok(());
        }
        let (kind, bytes) = (kind(case), case.params.working_set);
        let buffer = filled_buffer(ctx, case, kind, bytes)?;
        self.sets.push(Set {
            kind,
            bytes,
            buffer,
        });
        Ok(())
    }

    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let set = self.set(case)?;
        Some(vec![Bind::buffer(
            0,
            vk::DescriptorType::STORAGE_BUFFER,
            set.buffer.buffer,
        )])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for set in &mut self.sets {
            ctx.destroy_buffer(&mut set.buffer);
        }
        self.sets.clear();
    }
}
