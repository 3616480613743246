//! Update-after-bind descriptors (modern suite): twins of descriptor-indexed cases whose
//! descriptor set layout is created with `UPDATE_AFTER_BIND_POOL`, its family bindings with
//! `UPDATE_AFTER_BIND` (`VkDescriptorSetLayoutBindingFlagsCreateInfo`), and its pool with
//! `UPDATE_AFTER_BIND`: what a bindless engine does so that it can write descriptors of a set
//! the GPU is using.
//!
//! Each twin ([`crate::twins`]) runs its original's SPIR-V on its original's resources
//! (`modern.uab.slot.uniform.load4.linear`, `ByteAddressBuffer[8].Load4 uniform index linear
//! (update-after-bind)`) and is checked against its original's CPU model; the descriptors are
//! written once, before the first dispatch, as for every case, so only the creation flags
//! differ. The originals: the eight storage-buffer slots read with a uniform index (`Load`
//! linear, `Load4` linear and random) and a non-uniform one (`Load4` random), and the array of
//! 32 textures sampled with a uniform index and with four different textures per wave. Each
//! needs what its original needs and the update-after-bind feature of its descriptors
//! (`descriptorBindingStorageBufferUpdateAfterBind`, or
//! `descriptorBindingSampledImageUpdateAfterBind` for the combined image samplers); skipped,
//! naming it, without.

use crate::case::Case;
use crate::check::{Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef, Work};
use crate::feature::Feature;
use crate::kernel_options::KernelOptions;
use crate::kernel_params::{KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::DeviceNeed;
use crate::twins::Twins;

/// The update-after-bind family.
pub struct UpdateAfterBind;

/// The cases the family copies, and how its twins are named.
pub const TWINS: Twins = Twins {
    prefix: "modern.uab",
    replaces: "modern",
    word: "update-after-bind",
    suite: Suite::Modern,
    originals: &[
        ("descriptor_index", "modern.slot.uniform.load4.linear"),
        ("descriptor_index", "modern.slot.uniform.load4.random"),
        ("descriptor_index", "modern.slot.uniform.load.linear"),
        ("descriptor_index", "modern.slot.nonuniform.load4.random"),
        ("bindless_texture", "modern.tex.uniform"),
        ("bindless_texture", "modern.tex.nonuniform.n4"),
    ],
};

/// The update-after-bind feature each original family's descriptors need, by family label.
const AFTER_BIND_FEATURES: [(&str, Feature); 2] = [
    ("descriptor_index", Feature::StorageBufferUpdateAfterBind),
    ("bindless_texture", Feature::SampledImageUpdateAfterBind),
];

/// The update-after-bind feature the descriptors of `case`'s original need.
fn after_bind_feature(case: &Case) -> Feature {
    let label = TWINS.original(case).map(|o| o.family.label());
    AFTER_BIND_FEATURES
        .iter()
        .find(|(l, _)| Some(*l) == label)
        .map_or(Feature::StorageBufferUpdateAfterBind, |&(_, f)| f)
}

impl Family for UpdateAfterBind {
    fn label(&self) -> &'static str {
        "update_after_bind"
    }

    fn title(&self) -> &'static str {
        "Descriptor-indexed loads, update-after-bind descriptors"
    }

    fn cases(&self) -> Vec<Case> {
        TWINS.cases(FamilyRef(&UpdateAfterBind))
    }

    fn case_workgroup_size(&self, case: &Case) -> [u32; 2] {
        TWINS.workgroup_size(case)
    }

    fn case_loop_trip(&self, case: &Case) -> u32 {
        TWINS.loop_trip(case)
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        TWINS.bytes_per_load(case)
    }

    fn work(&self, case: &Case) -> Work {
        TWINS.work(case)
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        TWINS.needs(case, &[DeviceNeed::Feature(after_bind_feature(case))])
    }

    fn constants(&self, case: &Case) -> [u32; 3] {
        TWINS.constants(case)
    }

    fn kernel_options(&self, _case: &Case) -> KernelOptions {
        KernelOptions {
            update_after_bind: true,
            ..KernelOptions::PLAIN
        }
    }

    fn kernel_params(&self, case: &Case) -> KernelParams {
        TWINS.kernel_params(case)
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        TWINS.reference(case, params, local)
    }

    fn resource_case_id(&self, case: &Case) -> Option<String> {
        TWINS.original(case).map(|original| original.id)
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        TWINS.verify(case, readback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::bindless_texture::BindlessTexture;
    use crate::families::descriptor_index::DescriptorIndex;
    use crate::readback::words_readback;

    #[test]
    fn six_twins_of_descriptor_indexed_loads() {
        let cases = UpdateAfterBind.cases();
        assert_eq!(cases.len(), 6);
        assert_eq!(cases[0].id, "modern.uab.slot.uniform.load4.linear");
        assert_eq!(
            cases[0].name,
            "ByteAddressBuffer[8].Load4 uniform index linear (update-after-bind)"
        );
        assert_eq!(cases[5].id, "modern.uab.tex.nonuniform.n4");
        let storage = DeviceNeed::Feature(Feature::StorageBufferUpdateAfterBind);
        let sampled = DeviceNeed::Feature(Feature::SampledImageUpdateAfterBind);
        for (i, c) in cases.iter().enumerate() {
            assert_eq!(c.suite, Suite::Modern);
            assert!(UpdateAfterBind.kernel_options(c).update_after_bind);
            let original = TWINS
                .original(c)
                .unwrap_or_else(|| unreachable!("{}", c.id));
            assert_eq!(TWINS.twin_id(&original.id), c.id);
            assert!(!original.family.kernel_options(&original).update_after_bind);
            assert_eq!(
                UpdateAfterBind.resource_case_id(c),
                Some(original.id.clone())
            );
            let wanted = if i < 4 { &storage } else { &sampled };
            assert!(c.needs().contains(wanted), "{}", c.id);
            assert!(original.needs().iter().all(|n| c.needs().contains(n)));
        }
    }

    /// The original's model, as the original family computes it.
    fn original_model(original: &Case, group: u32, local: u32) -> [u32; 4] {
        let params = KernelParams::for_case(original);
        if original.family.label() == "bindless_texture" {
            BindlessTexture::model(original, params, group, local)
        } else {
            DescriptorIndex::model(original, params, group, local)
        }
    }

    #[test]
    fn model_matches_the_original_cases() {
        let cases = UpdateAfterBind.cases();
        for (i, c) in cases.iter().enumerate() {
            let original = TWINS
                .original(c)
                .unwrap_or_else(|| unreachable!("{}", c.id));
            assert_eq!((c.params, c.pattern), (original.params, original.pattern));
            assert_eq!(c.bytes_per_load(), original.bytes_per_load());
            assert_eq!(c.work(), original.work());
            assert_eq!(c.workgroup_size(), original.workgroup_size());
            assert_eq!(
                c.family.case_loop_trip(c),
                original.family.case_loop_trip(&original)
            );
            assert_eq!(
                UpdateAfterBind.constants(c),
                original.family.constants(&original)
            );
            assert_eq!(KernelParams::for_case(c), KernelParams::for_case(&original));
            // What the original's kernel writes passes as the twin, and only as the twin.
            let mut readback = words_readback(|g, l| original_model(&original, g, l));
            assert!(UpdateAfterBind.verify(c, &readback).passed(), "{}", c.id);
            let other = &cases[i ^ 1];
            assert!(
                !UpdateAfterBind.verify(other, &readback).passed(),
                "{}",
                other.id
            );
            readback.sums[300][1] = f32::from_bits(readback.sums[300][1].to_bits() ^ 1);
            assert_eq!(
                UpdateAfterBind.verify(c, &readback).mismatches,
                1,
                "{}",
                c.id
            );
        }
    }
}
