//! `structured_buffer`: the 16 KB input buffer as a storage buffer of `float`, `vec2` or
//! `vec4` (one SPIR-V module per element type).

use ash::vk;
use perftest_cases::Case;

use crate::building_blocks::single_buffer;
use crate::plan::{Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "structured_buffer",
    spirv,
    create: |_, shared| single_buffer(shared, vk::DescriptorType::STORAGE_BUFFER),
    push_bytes: 16,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match case.params.width {
        1 => include_bytes!("../../spirv/structured_float.spv"),
        2 => include_bytes!("../../spirv/structured_float2.spv"),
        _ => include_bytes!("../../spirv/structured_float4.spv"),
    }
}
