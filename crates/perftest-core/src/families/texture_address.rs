//! `texture_address`: the original `Sample` kernel (`texture_sample.spv`) over the nine 32x32
//! textures, with a sampler per address mode and filter.

use perftest_cases::families::texture_address;

use super::sampled_textures;
use crate::context::Context;
use crate::error::Result;
use crate::plan::{FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_address",
    spirv: |_| include_bytes!("../../spirv/texture_sample.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    sampled_textures::create(
        ctx,
        shared,
        &texture_address::samplers(),
        texture_address::sampler,
    )
}
