//! `eight_regions`: the 128 KB slot buffer reached three ways — eight descriptors (uniform or
//! non-uniform index), a device address, or one whole binding.

use perftest_cases::families::eight_regions::Way;
use perftest_cases::{Case, Pattern};

use super::slot_buffer::{self, View};
use crate::plan::{Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "eight_regions",
    spirv,
    create: |ctx, _| slot_buffer::create(ctx, view),
    push_bytes: 32,
    stages: Stages::Compute,
};

fn view(case: &Case) -> View {
    match Way::of(case) {
        Way::Slots => View::Slots,
        Way::Bda => View::Address,
        Way::Offset => View::Whole,
    }
}

fn spirv(case: &Case) -> &'static [u8] {
    match (Way::of(case), case.pattern) {
        (Way::Slots, Pattern::Uniform) => include_bytes!("../../spirv/eight_regions_slots.spv"),
        (Way::Slots, _) => include_bytes!("../../spirv/eight_regions_slots_nonuniform.spv"),
        (Way::Bda, _) => include_bytes!("../../spirv/eight_regions_bda.spv"),
        (Way::Offset, _) => include_bytes!("../../spirv/eight_regions_offset.spv"),
    }
}
