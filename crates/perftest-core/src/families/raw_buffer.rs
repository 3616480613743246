//! `raw_buffer`: the 16 KB input buffer as a storage buffer of 32-bit words.

use ash::vk;

use crate::building_blocks::single_buffer;
use crate::plan::{Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "raw_buffer",
    spirv: |_| include_bytes!("../../spirv/raw_buffer.spv"),
    create: |_, shared| single_buffer(shared, vk::DescriptorType::STORAGE_BUFFER),
    push_bytes: 16,
    stages: Stages::Compute,
};
