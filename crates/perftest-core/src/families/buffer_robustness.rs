//! `buffer_robustness`: each twin runs its original's SPIR-V on its original's resources (see
//! `Resources`, which looks the original's family up); its pipeline asks for robust buffer
//! access (`perftest_cases::KernelOptions`).

use perftest_cases::families::buffer_robustness::TWINS;
use perftest_cases::Case;

use crate::kernels::spirv_for;
use crate::plan::{borrowed, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "buffer_robustness",
    spirv,
    create: borrowed,
    push_bytes: 16,
    stages: Stages::Compute,
};

/// The original's SPIR-V.
fn spirv(case: &Case) -> &'static [u8] {
    TWINS.original(case).map_or(&[], |o| spirv_for(&o))
}
