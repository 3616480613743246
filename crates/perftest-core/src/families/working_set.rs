//! `working_set`: one device-local buffer per working-set size (16 KB to 256 MB) filled with the
//! modern data, created when the first case of that size is prepared and shared by the four
//! paths: bound whole at binding 0 for the descriptor paths, its device address pushed for the
//! device-address path.

use perftest_cases::working_sets::{path, Path};
use perftest_cases::Case;

use super::working_sets::{sets, structured_spirv};
use crate::plan::{Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "working_set",
    spirv,
    create: |ctx, _| Ok(sets(ctx)),
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match path(case) {
        Path::Structured => structured_spirv(case),
        Path::Raw => include_bytes!("../../spirv/working_set_raw.spv"),
        Path::Aligned => include_bytes!("../../spirv/working_set_aligned.spv"),
        Path::Bda => include_bytes!("../../spirv/working_set_bda.spv"),
    }
}
