//! Each family's binding plan: which SPIR-V its kernels run, what binding 0 is, and the
//! resources it reads — created when the family's first case is prepared. The pipeline build,
//! dispatch and verification code reads these plans and names no family.
//!
//! Adding a family: a module here with a [`Plan`], and one line in [`PLANS`] (the family
//! itself is defined in `perftest_cases::families`).

use ash::vk;
use perftest_cases::Case;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::resources::Shared;

mod raw_buffer;
mod structured_buffer;
mod texture_load;
mod texture_sample;
mod typed_buffer;
mod uniform_buffer;

/// What binding 0 of a kernel reads, in the form its descriptor write needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// A texel buffer view (`UNIFORM_TEXEL_BUFFER`).
    TexelBuffer(vk::BufferView),
    /// A whole buffer (`STORAGE_BUFFER`, `UNIFORM_BUFFER`).
    Buffer(vk::Buffer),
    /// A sampled image with its sampler (`COMBINED_IMAGE_SAMPLER`).
    Image {
        /// The image view, in `SHADER_READ_ONLY_OPTIMAL`.
        view: vk::ImageView,
        /// The sampler.
        sampler: vk::Sampler,
    },
}

/// One family's resources on one device.
pub(crate) trait FamilyResources: Send + Sync {
    /// What binding 0 of `case`'s kernel reads; `None` when the device lacks it.
    fn input(&self, case: &Case) -> Option<Input>;

    /// Destroys every object (only after `ctx.settle()` returned true; idempotent).
    fn destroy(&mut self, ctx: &mut Context);
}

/// Creates and fills a family's resources, given what all families share (format support, the
/// input buffer).
pub(crate) type CreateResources = fn(&mut Context, &Shared<'_>) -> Result<Box<dyn FamilyResources>>;

/// How a family's kernels are built and bound.
pub(crate) struct Plan {
    /// The family's label (`perftest_cases::Family::label`).
    pub(crate) label: &'static str,
    /// Descriptor type of binding 0 (binding 1 is always the verification output).
    pub(crate) descriptor_type: vk::DescriptorType,
    /// The SPIR-V module a case runs.
    pub(crate) spirv: fn(&Case) -> &'static [u8],
    /// Creates and fills the family's resources.
    pub(crate) create: CreateResources,
}

/// Every family's plan.
pub(crate) static PLANS: &[Plan] = &[
    typed_buffer::PLAN,
    raw_buffer::PLAN,
    structured_buffer::PLAN,
    uniform_buffer::PLAN,
    texture_load::PLAN,
    texture_sample::PLAN,
];

/// The plan of `case`'s family.
pub(crate) fn plan_for(case: &Case) -> Result<&'static Plan> {
    let label = case.family.label();
    PLANS
        .iter()
        .find(|p| p.label == label)
        .ok_or_else(|| Error::Unsupported {
            id: case.id.clone(),
            reason: format!("this perftest has no binding plan for the {label} family"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_family_has_exactly_one_plan() {
        let plans: Vec<&str> = PLANS.iter().map(|p| p.label).collect();
        let unique: HashSet<&str> = plans.iter().copied().collect();
        assert_eq!(unique.len(), plans.len(), "{plans:?}");
        let families: HashSet<&str> = perftest_cases::FAMILIES.iter().map(|f| f.label()).collect();
        assert_eq!(unique, families);
    }

    #[test]
    fn every_case_has_valid_spirv() {
        for case in perftest_cases::all_cases() {
            let plan = plan_for(&case).unwrap_or_else(|e| unreachable!("{e}"));
            let code = (plan.spirv)(&case);
            assert!(code.len() > 20 && code.len() % 4 == 0, "{}", case.id);
            assert_eq!(&code[..4], &0x0723_0203u32.to_le_bytes(), "{}", case.id);
        }
    }
}
