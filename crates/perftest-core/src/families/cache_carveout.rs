//! `cache_carveout`: the pointer chase's chains and binding (see [`super::pointer_chase`]), run
//! by the kernel variant that declares the case's shared memory (`FAMILY_A` words).

use super::chains::Chains;
use crate::plan::{Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "cache_carveout",
    spirv: |_| include_bytes!("../../spirv/pointer_chase_carveout.spv"),
    create: |_, _| Ok(Box::new(Chains::default())),
    push_bytes: 32,
    stages: Stages::Compute,
};
