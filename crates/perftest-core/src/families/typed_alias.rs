//! `typed_alias`: the 128 KB slot buffer as eight storage-buffer descriptors, declared twice
//! by the kernel (`Light` and `Material` views; uniform or non-uniform index: one SPIR-V each).

use perftest_cases::descriptor_slots::NON_UNIFORM;
use perftest_cases::Case;

use super::slot_buffer::{self, View};
use crate::plan::{Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "typed_alias",
    spirv,
    create: |ctx, _| slot_buffer::create(ctx, |_| View::Slots),
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    if case.params.variant == NON_UNIFORM {
        include_bytes!("../../spirv/typed_alias_nonuniform.spv")
    } else {
        include_bytes!("../../spirv/typed_alias_uniform.spv")
    }
}
