//! `shared_memory`: a 16 KB device-local storage buffer of modern data at binding 0, from
//! which every workgroup fills its shared memory.

use perftest_cases::families::shared_memory::{words, SHARED_BYTES};
use perftest_cases::Case;

use crate::building_blocks::ModernStorageBuffer;
use crate::context::Context;
use crate::error::Result;
use crate::plan::{FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "shared_memory",
    spirv,
    create,
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match words(case) {
        1 => include_bytes!("../../spirv/shared_memory_32.spv"),
        2 => include_bytes!("../../spirv/shared_memory_64.spv"),
        _ => include_bytes!("../../spirv/shared_memory_128.spv"),
    }
}

fn create(ctx: &mut Context, _: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    ModernStorageBuffer::create(ctx, "shared-memory source", SHARED_BYTES)
}
