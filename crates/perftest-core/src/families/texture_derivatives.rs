//! `texture_derivatives`: fragment shaders sampling the mip family's textures through its
//! samplers (see `Resources`, which looks the mip family up for such a case).

use crate::plan::{borrowed, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_derivatives",
    spirv: |_| include_bytes!("../../spirv/texture_derivatives.spv"),
    create: borrowed,
    push_bytes: 16,
    stages: Stages::Fragment,
};
