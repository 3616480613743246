//! `ByteAddressBuffer[8].Load/Load4`: an array of eight storage-buffer descriptors indexed by
//! a runtime slot (`shaders/descriptor_index.comp`). The slot layout, which
//! `typed_alias` and `eight_regions` share, is [`crate::descriptor_slots`]. Params: `width` = words per
//! load (1 or 4), `variant` [`NON_UNIFORM`] for the non-uniform index.
//!
//! The working set is one 128 KB buffer of modern-suite words ([`crate::modern_word`] `0, 1, 2...`);
//! binding 0 holds eight descriptors, slot `s` covering bytes `s * 16 KB .. (s + 1) * 16 KB`,
//! so word `k` of slot `s` is `modern_word(s * 4096 + k)` and a wrong descriptor gives wrong
//! words. Every thread performs 256 loads and sums the loaded words into a `uvec4` with
//! wrapping adds (a one-word `Load` is widened to all four lanes, as the original widened
//! `Load`).
//!
//! - **Uniform index** (`modern.slot.uniform.<load|load4>.<pattern>`): the slot is
//!   [`UNIFORM_SLOT`](crate::descriptor_slots::UNIFORM_SLOT) (3), read from the push constants (`KernelParams::index`), so it is
//!   dynamically uniform but unknown to the compiler. Addressing is the original raw buffer's:
//!   the thread starts at `start` = 0 (uniform), its local index (linear) or
//!   `(local * 0x3504f333) & 15` (random), and load `i` reads element
//!   `e = ((start + i) | elementsMask) & (4096 / W - 1)` — `W` words (1 for `Load`, 4 for
//!   `Load4`) at word `e * W` of the slot. The mask keeps every load inside the 16 KB slot.
//! - **Non-uniform index** (`modern.slot.nonuniform.load4.random`): thread `g` (global index)
//!   uses slot `g & 7` through `nonuniformEXT` (`NonUniformResourceIndex`), so the eight lanes
//!   of every run of eight read eight different descriptors, and load `i` reads the four words
//!   at `e * 4` with `e = (lowbias32(g * 256 + i) | elementsMask) & 1023` — a hashed element
//!   of the slot's 1024 `uint4`s.
//!
//! Needs: storage-buffer dynamic indexing, and non-uniform indexing for the non-uniform case.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::data::mix32;
use crate::family::{Family, FamilyRef};
use crate::reference::KernelParams;
use crate::suite::Suite;
use crate::support::DeviceNeed;

use crate::descriptor_slots::{
    add_words, buffer_start, global_index, slot_array_needs, slot_array_params, slot_word,
    NON_UNIFORM, SLOTS, SLOT_LOADS, SLOT_WORDS,
};

/// The descriptor-index family.
pub struct DescriptorIndex;

impl DescriptorIndex {
    /// The CPU model: the `uvec4` sum of the thread at `local` of verification group `group`.
    pub fn model(case: &Case, params: KernelParams, group: u32, local: u32) -> [u32; 4] {
        let mut acc = [0u32; 4];
        if case.params.variant == NON_UNIFORM {
            let g = global_index(group, local);
            let slot = g & (SLOTS - 1);
            for i in 0..SLOT_LOADS {
                let e = (mix32(g.wrapping_mul(SLOT_LOADS).wrapping_add(i)) | params.elements_mask)
                    & 1023;
                add_words(&mut acc, [0, 1, 2, 3].map(|k| slot_word(slot, e * 4 + k)));
            }
            return acc;
        }
        let width = case.params.width.max(1);
        let elements = SLOT_WORDS / width;
        let start = buffer_start(case.pattern, local);
        for i in 0..SLOT_LOADS {
            let e = (start.wrapping_add(i) | params.elements_mask) & (elements - 1);
            let words = if width == 1 {
                [slot_word(params.index, e); 4]
            } else {
                [0, 1, 2, 3].map(|k| slot_word(params.index, e * 4 + k))
            };
            add_words(&mut acc, words);
        }
        acc
    }
}

impl Family for DescriptorIndex {
    fn label(&self) -> &'static str {
        "descriptor_index"
    }

    fn title(&self) -> &'static str {
        "Descriptor-indexed buffer slots"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases: Vec<Case> = [(1, "load", "Load"), (4, "load4", "Load4")]
            .into_iter()
            .flat_map(|(width, id, method)| {
                Case::per_pattern(
                    FamilyRef(&DescriptorIndex),
                    Suite::Modern,
                    &format!("modern.slot.uniform.{id}"),
                    &format!("ByteAddressBuffer[8].{method} uniform index"),
                    Params {
                        width,
                        ..Params::default()
                    },
                )
            })
            .collect();
        cases.push(Case {
            id: "modern.slot.nonuniform.load4.random".into(),
            name: "ByteAddressBuffer[8].Load4 NonUniformResourceIndex random".into(),
            suite: Suite::Modern,
            family: FamilyRef(&DescriptorIndex),
            params: Params {
                width: 4,
                variant: NON_UNIFORM,
                ..Params::default()
            },
            pattern: Pattern::Random,
        });
        cases
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        4 * case.params.width
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        slot_array_needs(case)
    }

    fn kernel_params(&self, case: &Case) -> KernelParams {
        slot_array_params(case)
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let params = KernelParams::for_case(case);
        check_words(readback, case.threads(), |group, local| {
            DescriptorIndex::model(case, params, group, local)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::modern_word;
    use crate::descriptor_slots::SLOT_BUFFER_BYTES;
    use crate::feature::Feature;

    fn case(id: &str) -> Case {
        DescriptorIndex
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("no case {id}"))
    }

    #[test]
    fn seven_cases_with_stable_ids() {
        let ids: Vec<String> = DescriptorIndex.cases().into_iter().map(|c| c.id).collect();
        assert_eq!(
            ids,
            [
                "modern.slot.uniform.load.uniform",
                "modern.slot.uniform.load.linear",
                "modern.slot.uniform.load.random",
                "modern.slot.uniform.load4.uniform",
                "modern.slot.uniform.load4.linear",
                "modern.slot.uniform.load4.random",
                "modern.slot.nonuniform.load4.random",
            ]
        );
        let c = case("modern.slot.uniform.load4.linear");
        assert_eq!(c.name, "ByteAddressBuffer[8].Load4 uniform index linear");
        assert_eq!(c.bytes_per_load(), 16);
        assert_eq!(case("modern.slot.uniform.load.random").bytes_per_load(), 4);
        assert_eq!(KernelParams::for_case(&c).index, 3);
        assert_eq!(
            c.needs(),
            vec![DeviceNeed::Feature(Feature::StorageBufferDynamic)]
        );
        assert!(case("modern.slot.nonuniform.load4.random")
            .needs()
            .contains(&DeviceNeed::Feature(Feature::StorageBufferNonUniform)));
    }

    #[test]
    fn slots_are_consecutive_16kb_ranges_of_one_buffer() {
        assert_eq!(SLOT_BUFFER_BYTES, 128 * 1024);
        assert_eq!(slot_word(3, 5), modern_word(3 * 4096 + 5));
        assert_eq!(slot_word(0, 4096), slot_word(1, 0));
    }

    #[test]
    fn uniform_index_models_read_slot_3() {
        let c = case("modern.slot.uniform.load.uniform");
        let params = KernelParams::for_case(&c);
        // Uniform pattern: elements 0..256 of slot 3, one word each, widened to four lanes.
        let want = (0..256).fold(0u32, |a, e| a.wrapping_add(slot_word(3, e)));
        assert_eq!(DescriptorIndex::model(&c, params, 2, 17), [want; 4]);
        // Load4 linear: thread 10 reads elements 10..266, four words each.
        let c = case("modern.slot.uniform.load4.linear");
        let mut want = [0u32; 4];
        for e in 10..266 {
            add_words(&mut want, [0, 1, 2, 3].map(|k| slot_word(3, e * 4 + k)));
        }
        assert_eq!(DescriptorIndex::model(&c, params, 0, 10), want);
        // Another slot gives another sum.
        let other = KernelParams { index: 2, ..params };
        assert_ne!(DescriptorIndex::model(&c, other, 0, 10), want);
    }

    #[test]
    fn non_uniform_model_uses_slot_g_mod_8_and_hashed_elements() {
        let c = case("modern.slot.nonuniform.load4.random");
        let params = KernelParams::for_case(&c);
        let g = 256 + 13;
        let mut want = [0u32; 4];
        for i in 0..256 {
            let e = mix32(g * 256 + i) & 1023;
            add_words(
                &mut want,
                [0, 1, 2, 3].map(|k| modern_word(5 * 4096 + e * 4 + k)),
            );
        }
        assert_eq!(DescriptorIndex::model(&c, params, 1, 13), want);
        assert_ne!(
            DescriptorIndex::model(&c, params, 1, 13),
            DescriptorIndex::model(&c, params, 1, 14)
        );
    }

    #[test]
    fn word_check_accepts_the_model_and_rejects_a_flipped_bit() {
        let c = case("modern.slot.uniform.load4.random");
        let params = KernelParams::for_case(&c);
        let mut readback =
            crate::readback::words_readback(|g, l| DescriptorIndex::model(&c, params, g, l));
        assert!(DescriptorIndex.verify(&c, &readback).passed());
        readback.sums[700][3] = f32::from_bits(readback.sums[700][3].to_bits() ^ 1);
        assert_eq!(DescriptorIndex.verify(&c, &readback).mismatches, 1);
    }
}
