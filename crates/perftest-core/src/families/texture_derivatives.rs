//! `texture_derivatives`: fragment shaders sampling the mip family's textures through its
//! samplers (see `Resources`, which looks the mip family up for such a case).

use super::{FamilyResources, Plan, Stages};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::resources::Shared;

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_derivatives",
    spirv: |_| include_bytes!("../../spirv/texture_derivatives.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Fragment,
};

/// Never called: a case of this family uses the mip family's resources.
fn create(_ctx: &mut Context, _shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    Err(Error::InvalidArgument(
        "implicit-derivative cases use the mip family's textures".into(),
    ))
}
