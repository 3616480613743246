//! `buffer_robustness`: each twin runs its original's SPIR-V on its original's resources (see
//! `Resources`, which looks the original's family up); its pipeline asks for robust buffer
//! access (`perftest_cases::KernelOptions`).

use crate::plan::{borrowed, original_spirv, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "buffer_robustness",
    spirv: original_spirv,
    create: borrowed,
    push_bytes: 16,
    stages: Stages::Compute,
};
