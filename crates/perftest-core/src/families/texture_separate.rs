//! `texture_separate`: the nine 32x32 textures (its cases sample R8, RGBA8, RGBA16F and
//! RGBA32F) as sampled images at binding 0, and the original's nearest and bilinear REPEAT
//! samplers on their own at binding 2.

use perftest_cases::families::texture_separate;

use super::sampled_textures::{self, SamplerBinding};
use crate::context::Context;
use crate::error::Result;
use crate::plan::{FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_separate",
    spirv: |_| include_bytes!("../../spirv/texture_separate.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    sampled_textures::create_bound(
        ctx,
        shared,
        &texture_separate::samplers(),
        texture_separate::sampler,
        SamplerBinding::Separate,
    )
}
