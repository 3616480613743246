//! `buffer_layout`: one 4 MB device-local storage buffer of the modern data, bound whole at
//! binding 0 for every layout (each kernel views it through its own structure, or as a
//! `uint[]`).

use perftest_cases::families::buffer_layout::{kernel, Layout, BUFFER_BYTES};
use perftest_cases::Case;

use crate::building_blocks::ModernStorageBuffer;
use crate::context::Context;
use crate::error::Result;
use crate::plan::{FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "buffer_layout",
    spirv,
    create,
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    let k = kernel(case);
    match (k.layout, k.read_write) {
        (Layout::Member(16), true) => include_bytes!("../../spirv/buffer_layout_stride16_rw.spv"),
        (Layout::Raw, true) => include_bytes!("../../spirv/buffer_layout_raw_rw.spv"),
        (Layout::Member(20), _) => include_bytes!("../../spirv/buffer_layout_stride20.spv"),
        (Layout::Member(32), _) => include_bytes!("../../spirv/buffer_layout_stride32.spv"),
        (Layout::Member(64), _) => include_bytes!("../../spirv/buffer_layout_stride64.spv"),
        (Layout::Member(_), _) => include_bytes!("../../spirv/buffer_layout_stride16.spv"),
        (Layout::Field(16), _) => include_bytes!("../../spirv/buffer_layout_aos16.spv"),
        (Layout::Field(32), _) => include_bytes!("../../spirv/buffer_layout_aos32.spv"),
        (Layout::Field(_), _) => include_bytes!("../../spirv/buffer_layout_aos64.spv"),
        (Layout::FieldArray, _) => include_bytes!("../../spirv/buffer_layout_soa.spv"),
        (Layout::Raw, _) => include_bytes!("../../spirv/buffer_layout_raw.spv"),
    }
}

fn create(ctx: &mut Context, _: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    ModernStorageBuffer::create(ctx, "buffer-layout data", BUFFER_BYTES)
}
