//! `texture_offcentre`: the nine 32x32 textures with the bilinear REPEAT sampler, sampled a
//! quarter texel past the centres.

use perftest_cases::families::texture_offcentre;

use super::sampled_textures;
use crate::context::Context;
use crate::error::Result;
use crate::plan::{FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_offcentre",
    spirv: |_| include_bytes!("../../spirv/texture_offcentre.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    sampled_textures::create(ctx, shared, &[texture_offcentre::SAMPLER], |_| {
        texture_offcentre::SAMPLER
    })
}
