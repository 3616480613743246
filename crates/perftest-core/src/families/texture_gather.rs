//! `texture_gather`: the nine 32x32 textures with the nearest REPEAT sampler, gathered.

use perftest_cases::families::texture_gather;

use super::sampled_textures;
use crate::context::Context;
use crate::error::Result;
use crate::plan::{FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_gather",
    spirv: |_| include_bytes!("../../spirv/texture_gather.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    sampled_textures::create(ctx, shared, &[texture_gather::SAMPLER], |_| {
        texture_gather::SAMPLER
    })
}
