//! `fragment_loads`: the original cases' loops in fragment shaders (the `_fragment` variants
//! of the original families' shaders), with their compute twins' resources and bindings
//! (see `Resources`, which looks a twin's family up for such a case).

use perftest_cases::Case;

use crate::plan::{borrowed, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "fragment_loads",
    spirv,
    create: borrowed,
    push_bytes: 16,
    stages: Stages::Fragment,
};

/// The fragment variant of the twin's shader.
fn spirv(case: &Case) -> &'static [u8] {
    let Some(twin) = case.family.twin(case) else {
        return &[];
    };
    match (twin.family.label(), twin.components()) {
        ("typed_buffer", _) => include_bytes!("../../spirv/typed_buffer_fragment.spv"),
        ("raw_buffer", _) => include_bytes!("../../spirv/raw_buffer_fragment.spv"),
        ("structured_buffer", 1) => include_bytes!("../../spirv/structured_float_fragment.spv"),
        ("structured_buffer", 2) => include_bytes!("../../spirv/structured_float2_fragment.spv"),
        ("structured_buffer", _) => include_bytes!("../../spirv/structured_float4_fragment.spv"),
        ("uniform_buffer", _) => include_bytes!("../../spirv/uniform_buffer_fragment.spv"),
        ("texture_load", _) => include_bytes!("../../spirv/texture_load_fragment.spv"),
        ("texture_sample", _) => include_bytes!("../../spirv/texture_sample_fragment.spv"),
        _ => &[],
    }
}
