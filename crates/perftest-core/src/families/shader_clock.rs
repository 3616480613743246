//! `shader_clock`: no resources; the kernel reads the subgroup clock and writes its counts to
//! the verification output.

use perftest_cases::Case;

use crate::context::Context;
use crate::plan::{Bind, FamilyResources, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "shader_clock",
    spirv: |_| include_bytes!("../../spirv/shader_clock.spv"),
    create: |_, _| Ok(Box::new(NoResources)),
    push_bytes: 32,
    stages: Stages::Compute,
};

/// The family holds nothing.
struct NoResources;

impl FamilyResources for NoResources {
    fn bindings(&self, _case: &Case) -> Option<Vec<Bind>> {
        Some(Vec::new())
    }

    fn destroy(&mut self, _ctx: &mut Context) {}
}
