//! `uniform_buffer`: the 16 KB input data as a uniform buffer of `vec4[1024]`, in a buffer of
//! its own that holds it at several places (`placed_copies`).

use ash::vk;
use perftest_cases::{input_bytes, Case};

use crate::context::Context;
use crate::placed_copies::PlacedCopies;
use crate::plan::{Bind, FamilyResources, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "uniform_buffer",
    spirv: |_| include_bytes!("../../spirv/uniform_buffer.spv"),
    create: |ctx, _| {
        let usage = vk::BufferUsageFlags::UNIFORM_BUFFER;
        let copies = PlacedCopies::new(ctx, "uniform buffer places", input_bytes(), usage)?;
        Ok(Box::new(PlacedUniform(copies)))
    },
    push_bytes: 16,
    stages: Stages::Compute,
};

/// The input data's copies.
struct PlacedUniform(PlacedCopies);

impl FamilyResources for PlacedUniform {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        self.bindings_at(case, 0)
    }

    fn data_places(&self, _case: &Case) -> Vec<u64> {
        self.0.offsets()
    }

    fn bindings_at(&self, _case: &Case, place: usize) -> Option<Vec<Bind>> {
        let ty = vk::DescriptorType::UNIFORM_BUFFER;
        Some(vec![self.0.bind(0, ty, place)?])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        self.0.destroy(ctx);
    }
}
