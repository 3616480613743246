//! `texture_unnormalized`: the nine 32x32 textures with a nearest and a bilinear sampler of
//! unnormalized coordinates (CLAMP_TO_EDGE).

use perftest_cases::families::texture_unnormalized;

use super::sampled_textures;
use crate::context::Context;
use crate::error::Result;
use crate::plan::{FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_unnormalized",
    spirv: |_| include_bytes!("../../spirv/texture_unnormalized.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    sampled_textures::create(
        ctx,
        shared,
        &texture_unnormalized::samplers(),
        texture_unnormalized::sampler,
    )
}
