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
use crate::feature::Feature;
use crate::kernel_options::KernelOptions;
use crate::suite::Suite;
use crate::support::DeviceNeed;
use crate::twins::Twins;

/// The family: the cases it copies, how its twins are named, and what it changes.
pub static TWINS: Twins = Twins {
    label: "update_after_bind",
    title: "Descriptor-indexed loads, update-after-bind descriptors",
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
    flag_needs: after_bind_needs,
    options: KernelOptions {
        update_after_bind: true,
        ..KernelOptions::PLAIN
    },
    original_resources: true,
};

/// The update-after-bind feature each original family's descriptors need, by family label.
const AFTER_BIND_FEATURES: [(&str, Feature); 2] = [
    ("descriptor_index", Feature::StorageBufferUpdateAfterBind),
    ("bindless_texture", Feature::SampledImageUpdateAfterBind),
];

/// The update-after-bind feature the descriptors of `original` need.
fn after_bind_needs(original: &Case) -> Vec<DeviceNeed> {
    let label = original.family.label();
    let feature = AFTER_BIND_FEATURES
        .iter()
        .find(|(l, _)| *l == label)
        .map_or(Feature::StorageBufferUpdateAfterBind, |&(_, f)| f);
    vec![DeviceNeed::Feature(feature)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::bindless_texture::BindlessTexture;
    use crate::families::descriptor_index::DescriptorIndex;
    use crate::family::Family;
    use crate::kernel_params::KernelParams;
    use crate::readback::words_readback;

    #[test]
    fn six_twins_of_descriptor_indexed_loads() {
        let cases = crate::families::family_cases(&TWINS);
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
            assert!(TWINS.kernel_options(c).update_after_bind);
            let original = TWINS
                .original(c)
                .unwrap_or_else(|| unreachable!("{}", c.id));
            assert_eq!(TWINS.twin_id(&original.id), c.id);
            assert!(!original.family.kernel_options(&original).update_after_bind);
            assert_eq!(TWINS.resource_case_id(c), Some(original.id.clone()));
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
        let cases = crate::families::family_cases(&TWINS);
        for (i, c) in cases.iter().enumerate() {
            let original = TWINS
                .original(c)
                .unwrap_or_else(|| unreachable!("{}", c.id));
            // Made back from the twin with no look-up, it is the registry's case.
            assert_eq!(
                crate::families::case_for_id(&original.id).as_ref(),
                Some(&original)
            );
            let own = crate::Params {
                origin: None,
                ..c.params
            };
            assert_eq!((own, c.pattern), (original.params, original.pattern));
            assert_eq!(c.bytes_per_load(), original.bytes_per_load());
            assert_eq!(c.work(), original.work());
            assert_eq!(c.workgroup_size(), original.workgroup_size());
            assert_eq!(
                c.family.case_loop_trip(c),
                original.family.case_loop_trip(&original)
            );
            assert_eq!(TWINS.constants(c), original.family.constants(&original));
            assert_eq!(KernelParams::for_case(c), KernelParams::for_case(&original));
            // What the original's kernel writes passes as the twin, and only as the twin.
            let mut readback = words_readback(|g, l| original_model(&original, g, l));
            assert!(TWINS.verify(c, &readback).passed(), "{}", c.id);
            let other = &cases[i ^ 1];
            assert!(!TWINS.verify(other, &readback).passed(), "{}", other.id);
            readback.sums[300][1] = f32::from_bits(readback.sums[300][1].to_bits() ^ 1);
            assert_eq!(TWINS.verify(c, &readback).mismatches, 1, "{}", c.id);
        }
    }
}
