//! `uniform_buffer`: the 16 KB input buffer as a uniform buffer of `vec4[1024]`.

use ash::vk;

use crate::building_blocks::single_buffer;
use crate::plan::{Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "uniform_buffer",
    spirv: |_| include_bytes!("../../spirv/uniform_buffer.spv"),
    create: |_, shared| single_buffer(shared, vk::DescriptorType::UNIFORM_BUFFER),
    push_bytes: 16,
    stages: Stages::Compute,
};
