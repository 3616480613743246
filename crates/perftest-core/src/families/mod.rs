//! Each family's binding plan: which SPIR-V its kernels run, what they bind, and the resources
//! they use — created when the family's first case is prepared. The pipeline build,
//! dispatch and verification code reads these plans and names no family.
//!
//! Adding a family: a module here with a [`Plan`], and one line in [`PLANS`] (the family
//! itself is defined in `perftest_cases::families`).

use perftest_cases::Case;

use crate::error::{Error, Result};
use crate::plan::Plan;

mod address_kernel;
mod atomic;
mod bindless_texture;
mod buffer_layout;
mod buffer_path;
mod buffer_robustness;
mod buffer_sharing;
mod cache_carveout;
mod cache_sweep;
mod chains;
mod constant_paths;
mod copies;
mod descriptor_index;
mod eight_regions;
mod fragment_loads;
mod launches;
mod memory_loads;
mod narrow_loads;
mod pointer_chase;
mod raw_buffer;
mod sampled_textures;
mod shader_clock;
mod shared_memory;
mod slot_buffer;
mod store;
mod structured_buffer;
mod texel_buffer_formats;
mod texture_address;
mod texture_bandwidth;
mod texture_chain;
mod texture_derivatives;
mod texture_formats;
mod texture_gather;
mod texture_load;
mod texture_mips;
mod texture_offcentre;
mod texture_precision;
mod texture_sample;
mod texture_separate;
mod texture_shape;
mod texture_srgb;
mod texture_storage;
mod texture_tiling;
mod texture_unnormalized;
mod typed_alias;
mod typed_buffer;
mod uniform_buffer;
mod update_after_bind;
mod vertex_fetch;
mod workgroup_shape;
mod working_set;
mod working_sets;

/// Every family's plan.
pub(crate) static PLANS: &[Plan] = &[
    typed_buffer::PLAN,
    raw_buffer::PLAN,
    structured_buffer::PLAN,
    uniform_buffer::PLAN,
    texture_load::PLAN,
    texture_sample::PLAN,
    bindless_texture::PLAN,
    working_set::PLAN,
    buffer_path::PLAN,
    descriptor_index::PLAN,
    update_after_bind::PLAN,
    typed_alias::PLAN,
    eight_regions::PLAN,
    store::PLAN,
    atomic::PLAN,
    texture_address::PLAN,
    texture_unnormalized::PLAN,
    texture_offcentre::PLAN,
    texture_gather::PLAN,
    narrow_loads::PLAN,
    buffer_layout::PLAN,
    buffer_robustness::PLAN,
    buffer_sharing::PLAN,
    constant_paths::PLAN,
    shared_memory::PLAN,
    workgroup_shape::PLAN,
    pointer_chase::PLAN,
    texture_chain::PLAN,
    cache_sweep::PLAN,
    cache_carveout::PLAN,
    shader_clock::PLAN,
    texture_bandwidth::PLAN,
    texture_shape::PLAN,
    texture_storage::PLAN,
    texture_tiling::PLAN,
    texel_buffer_formats::PLAN,
    texture_formats::PLAN,
    texture_mips::PLAN,
    texture_separate::PLAN,
    texture_precision::PLAN,
    texture_srgb::PLAN,
    fragment_loads::PLAN,
    texture_derivatives::PLAN,
    vertex_fetch::PLAN,
    memory_loads::PLAN,
    copies::PLAN,
    launches::PLAN,
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
        // The code a kernel is built from, for every case: a twin's is its original's, which
        // the device-only twins (skipped on lavapipe) must get too.
        for case in perftest_cases::all_cases() {
            plan_for(&case).unwrap_or_else(|e| unreachable!("{e}"));
            let code = crate::kernels::module_code(&case)
                .unwrap_or_else(|e| unreachable!("{}: {e}", case.id));
            assert!(code.len() > 5, "{}", case.id);
            assert_eq!(code[0], 0x0723_0203, "{}", case.id);
        }
    }
}
