//! `pointer_chase`: one device-local buffer per working-set size holding the chain of node
//! addresses, built on the CPU once the buffer's device address is known and uploaded when the
//! first case of that size is prepared; the kernel gets node 0's address in family words 0-1.

use super::chains::Chains;
use crate::plan::{Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "pointer_chase",
    spirv: |_| include_bytes!("../../spirv/pointer_chase.spv"),
    create: |_, _| Ok(Box::new(Chains::default())),
    push_bytes: 32,
    stages: Stages::Compute,
};
