//! `texture_precision`: the nine 32x32 textures (its cases sample R8, RGBA8, RGBA16F and
//! RGBA32F) with the original's nearest and bilinear REPEAT samplers, as combined image
//! samplers that the kernel declares `mediump`.

use perftest_cases::families::texture_precision;

use super::sampled_textures;
use crate::context::Context;
use crate::error::Result;
use crate::plan::{FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_precision",
    spirv: |_| include_bytes!("../../spirv/texture_precision.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    sampled_textures::create(
        ctx,
        shared,
        &texture_precision::samplers(),
        texture_precision::sampler,
    )
}
