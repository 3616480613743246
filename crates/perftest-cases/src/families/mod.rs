//! The resource families, one module each, and the registry that lists them.
//!
//! Adding a family: a module here implementing [`Family`], one line in [`FAMILIES`], its
//! `shaders/<family>.comp`, and its binding plan in `perftest-core` (one line in that crate's
//! registry). Suites and the run order follow the registry order.

use crate::case::Case;
use crate::family::{CurvePoint, Family, FamilyRef};
use crate::suite::Suite;

pub mod atomic;
pub mod bindless_texture;
pub mod buffer_layout;
pub mod buffer_path;
pub mod buffer_robustness;
pub mod buffer_sharing;
pub mod cache_carveout;
pub mod cache_sweep;
pub mod constant_paths;
pub mod copies;
pub mod descriptor_index;
pub mod eight_regions;
pub mod fragment_loads;
pub mod launches;
pub mod memory_loads;
pub mod narrow_loads;
pub mod pointer_chase;
pub mod raw_buffer;
pub mod shader_clock;
pub mod shared_memory;
pub mod store;
pub mod structured_buffer;
pub mod texel_buffer_formats;
pub mod texture_address;
pub mod texture_bandwidth;
pub mod texture_chain;
pub mod texture_derivatives;
pub mod texture_formats;
pub mod texture_gather;
pub mod texture_load;
pub mod texture_mips;
pub mod texture_offcentre;
pub mod texture_precision;
pub mod texture_sample;
pub mod texture_separate;
pub mod texture_shape;
pub mod texture_srgb;
pub mod texture_storage;
pub mod texture_tiling;
pub mod texture_unnormalized;
pub mod typed_alias;
pub mod typed_buffer;
pub mod uniform_buffer;
pub mod update_after_bind;
pub mod vertex_fetch;
pub mod workgroup_shape;
pub mod working_set;

/// Every family, in run order: the original suite's families first, in the original's order.
pub static FAMILIES: &[&dyn Family] = &[
    &typed_buffer::TypedBuffer,
    &raw_buffer::RawBuffer,
    &structured_buffer::StructuredBuffer,
    &uniform_buffer::UniformBuffer,
    &texture_load::TextureLoad,
    &texture_sample::TextureSample,
    &bindless_texture::BindlessTexture,
    &working_set::WorkingSet,
    &buffer_path::BufferPath,
    &descriptor_index::DescriptorIndex,
    &update_after_bind::TWINS,
    &typed_alias::TypedAlias,
    &eight_regions::EightRegions,
    &store::Store,
    &atomic::Atomic,
    &texture_address::TextureAddress,
    &texture_unnormalized::TextureUnnormalized,
    &texture_offcentre::TextureOffcentre,
    &texture_gather::TextureGather,
    &narrow_loads::NarrowLoads,
    &buffer_layout::BufferLayout,
    &buffer_robustness::TWINS,
    &buffer_sharing::TWINS,
    &constant_paths::ConstantPaths,
    &shared_memory::SharedMemory,
    &workgroup_shape::WorkgroupShape,
    &pointer_chase::PointerChase,
    &texture_chain::TextureChain,
    &cache_sweep::CacheSweep,
    &cache_carveout::CacheCarveout,
    &shader_clock::ShaderClock,
    &texture_bandwidth::TextureBandwidth,
    &texture_shape::TextureShape,
    &texture_storage::TextureStorage,
    &texture_tiling::TextureTiling,
    &texel_buffer_formats::TexelBufferFormats,
    &texture_formats::TextureFormats,
    &texture_mips::TextureMips,
    &texture_separate::TextureSeparate,
    &texture_precision::TexturePrecision,
    &texture_srgb::TextureSrgb,
    &fragment_loads::FragmentLoads,
    &texture_derivatives::TextureDerivatives,
    &vertex_fetch::VertexFetch,
    &memory_loads::MemoryLoads,
    &copies::Copies,
    &launches::Launches,
];

/// The family registered under `label`.
pub fn family(label: &str) -> Option<&'static dyn Family> {
    FAMILIES.iter().copied().find(|f| f.label() == label)
}

/// The case `id` names: a listed case of any suite, or one a family makes from its id (the
/// sizes a refined curve adds, [`Family::case_for_id`]).
pub fn case_for_id(id: &str) -> Option<Case> {
    case_index().get(id)
}

/// The index of every case, built once per process.
pub fn case_index() -> &'static CaseIndex {
    static INDEX: std::sync::OnceLock<CaseIndex> = std::sync::OnceLock::new();
    INDEX.get_or_init(CaseIndex::new)
}

/// Every case of every suite by id, for many lookups ([`case_for_id`] keeps one for the
/// process).
pub struct CaseIndex {
    by_id: std::collections::HashMap<String, Case>,
}

impl CaseIndex {
    /// The index of every listed case.
    pub fn new() -> CaseIndex {
        CaseIndex {
            by_id: all_cases().into_iter().map(|c| (c.id.clone(), c)).collect(),
        }
    }

    /// The case `id` names: listed, or made by its family from the id.
    pub fn get(&self, id: &str) -> Option<Case> {
        self.by_id
            .get(id)
            .cloned()
            .or_else(|| FAMILIES.iter().find_map(|f| f.case_for_id(id)))
    }

    /// The curve point of the case `id` names, where its family draws one.
    pub fn curve_point(&self, id: &str) -> Option<(Case, CurvePoint)> {
        let case = self.get(id)?;
        let point = case.family.curve_point(&case)?;
        Some((case, point))
    }

    /// The largest working set of any listed case on a curve (the sweeps' top).
    pub fn curve_top(&self) -> Option<u64> {
        self.by_id
            .values()
            .filter_map(|c| c.family.curve_point(c))
            .map(|p| p.working_set)
            .max()
    }
}

impl Default for CaseIndex {
    fn default() -> Self {
        CaseIndex::new()
    }
}

/// Every case of `family`: its own ([`Family::cases`]), or those it copies from other families
/// ([`Family::copied_cases`]).
pub fn family_cases(family: &'static dyn Family) -> Vec<Case> {
    let cases_of = |label: &str| self::family(label).map_or_else(Vec::new, family_cases);
    family
        .copied_cases(FamilyRef(family), &cases_of)
        .unwrap_or_else(|| family.cases())
}

/// Every case of every family, in run order (suites in [`Suite::ALL`] order, then registry
/// order inside a suite).
pub fn all_cases() -> Vec<Case> {
    cases_in(&Suite::ALL)
}

/// The cases of `suites`, in run order: suites in [`Suite::ALL`] order (whatever the order of
/// `suites`), families in registry order, each family's cases in its own order.
pub fn cases_in(suites: &[Suite]) -> Vec<Case> {
    let every: Vec<Case> = FAMILIES.iter().flat_map(|f| family_cases(*f)).collect();
    Suite::ALL
        .into_iter()
        .filter(|s| suites.contains(s))
        .flat_map(|s| every.iter().filter(move |c| c.suite == s).cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_family_is_registered_once() {
        let labels: Vec<&str> = FAMILIES.iter().map(|f| f.label()).collect();
        let unique: HashSet<&str> = labels.iter().copied().collect();
        assert_eq!(unique.len(), labels.len(), "{labels:?}");
        for label in &labels {
            assert_eq!(family(label).map(|f| f.label()), Some(*label));
        }
        assert!(family("no_such_family").is_none());
    }

    #[test]
    fn every_case_belongs_to_the_family_that_lists_it() {
        for f in FAMILIES {
            let cases = family_cases(*f);
            assert!(!cases.is_empty(), "{}", f.label());
            assert!(cases.iter().all(|c| c.family.label() == f.label()));
        }
    }

    #[test]
    fn ids_are_unique_across_suites() {
        let cases = all_cases();
        let ids: HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), cases.len());
        assert!(cases
            .iter()
            .all(|c| c.id == c.id.to_lowercase() && !c.id.contains(' ')));
        let names: HashSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names.len(), cases.len());
    }

    #[test]
    fn suites_partition_the_cases() {
        let total: usize = Suite::ALL.iter().map(|&s| cases_in(&[s]).len()).sum();
        assert_eq!(total, all_cases().len());
        assert_eq!(cases_in(&[Suite::Original]).len(), 138);
        assert!(cases_in(&[Suite::Original])
            .iter()
            .all(|c| c.suite == Suite::Original));
        // Order follows Suite::ALL, not the order asked for.
        assert_eq!(
            cases_in(&[Suite::Memory, Suite::Original]),
            cases_in(&[Suite::Original, Suite::Memory])
        );
        assert!(cases_in(&[]).is_empty());
    }
}
