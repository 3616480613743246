//! `update_after_bind`: each twin runs its original's SPIR-V on its original's resources (see
//! `Resources`, which looks the original's family up); its set layout and pool are created for
//! update-after-bind descriptors (`perftest_cases::KernelOptions`).

use crate::plan::{borrowed, original_spirv, Plan, Stages};

/// The family's plan: the originals' push constants are 32 bytes (the shared words and the
/// family's four).
pub(super) const PLAN: Plan = Plan {
    label: "update_after_bind",
    spirv: original_spirv,
    create: borrowed,
    push_bytes: 32,
    stages: Stages::Compute,
};
