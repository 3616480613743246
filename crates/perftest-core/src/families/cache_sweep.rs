//! `cache_sweep`: the working sets' buffers (one per size, filled with the modern data)
//! read through its structured path.

use super::working_sets;
use crate::plan::{Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "cache_sweep",
    spirv: working_sets::structured_spirv,
    create: |ctx, _| Ok(working_sets::sets(ctx)),
    push_bytes: 32,
    stages: Stages::Compute,
};
