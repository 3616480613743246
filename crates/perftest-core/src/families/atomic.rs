//! `atomic`: one result buffer per case (created when the case is prepared and cleared to zero
//! once; timing dispatches keep operating on it), bound as a storage buffer at binding 0.

use ash::vk;
use perftest_cases::families::atomic::{kind, Kind};
use perftest_cases::Case;

use crate::building_blocks::modern_buffer;
use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "atomic",
    spirv,
    create: |_, _| Ok(Box::new(Results::default())),
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match kind(case) {
        Kind::AppendLane => include_bytes!("../../spirv/atomic_append_lane.spv"),
        Kind::AppendWave => include_bytes!("../../spirv/atomic_append_wave.spv"),
        Kind::HistogramGlobal => include_bytes!("../../spirv/atomic_histogram_global.spv"),
        Kind::HistogramShared => include_bytes!("../../spirv/atomic_histogram_shared.spv"),
        Kind::CounterAdd => include_bytes!("../../spirv/atomic_counter_add.spv"),
        Kind::CounterAddResult => include_bytes!("../../spirv/atomic_counter_add_result.spv"),
        Kind::CounterOr => include_bytes!("../../spirv/atomic_counter_or.spv"),
        Kind::MaxU32 => include_bytes!("../../spirv/atomic_max_u32.spv"),
        Kind::MaxU64 => include_bytes!("../../spirv/atomic_max_u64.spv"),
    }
}

/// The result buffers made so far, by case id.
#[derive(Default)]
struct Results {
    buffers: Vec<(String, Buffer)>,
}

impl Results {
    fn buffer(&self, case: &Case) -> Option<&Buffer> {
        self.buffers
            .iter()
            .find(|(id, _)| *id == case.id)
            .map(|(_, b)| b)
    }
}

impl FamilyResources for Results {
    fn prepare(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        if self.buffer(case).is_some() {
            return Ok(());
        }
        let bytes = case.params.working_set;
        let buffer = modern_buffer(ctx, "atomic results", bytes, false)?;
        let buffer = ctx.filled(buffer, &vec![0; bytes as usize])?;
        self.buffers.push((case.id.clone(), buffer));
        Ok(())
    }

    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let buffer = self.buffer(case)?;
        Some(vec![Bind::buffer(
            0,
            vk::DescriptorType::STORAGE_BUFFER,
            buffer.buffer,
        )])
    }

    fn written(&self, case: &Case) -> Option<(vk::Buffer, u64)> {
        self.buffer(case)
            .map(|b| (b.buffer, case.params.working_set))
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for (_, buffer) in &mut self.buffers {
            ctx.destroy_buffer(buffer);
        }
        self.buffers.clear();
    }
}
