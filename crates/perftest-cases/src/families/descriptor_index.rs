//! `ByteAddressBuffer[8].Load/Load4`: an array of eight storage-buffer descriptors indexed by
//! a runtime slot (`shaders/descriptor_index.comp`). Also the slot layout that
//! [`super::typed_alias`] and [`super::eight_regions`] share. Params: `width` = words per
//! load (1 or 4), `variant` [`NON_UNIFORM`] for the non-uniform index.
//!
//! The working set is one 128 KB buffer of modern-suite words ([`modern_word`] `0, 1, 2...`);
//! binding 0 holds eight descriptors, slot `s` covering bytes `s * 16 KB .. (s + 1) * 16 KB`,
//! so word `k` of slot `s` is `modern_word(s * 4096 + k)` and a wrong descriptor gives wrong
//! words. Every thread performs 256 loads and sums the loaded words into a `uvec4` with
//! wrapping adds (a one-word `Load` is widened to all four lanes, as the original widened
//! `Load`).
//!
//! - **Uniform index** (`modern.slot.uniform.<load|load4>.<pattern>`): the slot is
//!   [`UNIFORM_SLOT`] (3), read from the push constants (`KernelParams::index`), so it is
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
use crate::data::{mix32, modern_word};
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::reference::{KernelParams, THREADS_PER_GROUP};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// Descriptors in the slot array of the slot families.
pub const SLOTS: u32 = 8;

/// Bytes of one slot (the original's 16 KB working set).
pub const SLOT_BYTES: u64 = 16 * 1024;

/// 32-bit words of one slot.
pub const SLOT_WORDS: u32 = (SLOT_BYTES / 4) as u32;

/// Bytes of the buffer the eight slots cover (128 KB).
pub const SLOT_BUFFER_BYTES: u64 = SLOT_BYTES * SLOTS as u64;

/// The slot the uniform-index cases read (`KernelParams::index`).
pub const UNIFORM_SLOT: u32 = 3;

/// Loads (or struct reads) per thread of the slot families.
pub const SLOT_LOADS: u32 = 256;

/// `Params::variant` of the cases that index the slot array non-uniformly.
pub const NON_UNIFORM: u32 = 1;

/// Word `k` of slot `slot` of the 128 KB slot buffer.
pub fn slot_word(slot: u32, k: u32) -> u32 {
    modern_word(slot.wrapping_mul(SLOT_WORDS).wrapping_add(k))
}

/// The original buffer kernels' starting element (`bufferStart()` in `shaders/common.glsl`):
/// 0 for uniform, the local index for linear, `(local * 0x3504f333) & 15` for random.
pub fn buffer_start(pattern: Pattern, local: u32) -> u32 {
    match pattern {
        Pattern::Linear => local,
        Pattern::Random => local.wrapping_mul(0x3504_f333) & 0xf,
        _ => 0,
    }
}

/// Global index of the thread at `local` in verification group `group`.
pub fn global_index(group: u32, local: u32) -> u32 {
    group * THREADS_PER_GROUP + local
}

/// Adds `v` into `acc` lane by lane, wrapping.
pub fn add_words(acc: &mut [u32; 4], v: [u32; 4]) {
    for (a, x) in acc.iter_mut().zip(v) {
        *a = a.wrapping_add(x);
    }
}

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
        check_words(readback, |group, local| {
            DescriptorIndex::model(case, params, group, local)
        })
    }
}

/// What a case indexing the 8-slot array needs: dynamic indexing, and non-uniform indexing for
/// the [`NON_UNIFORM`] variant (shared by the families that bind the slot array).
pub(crate) fn slot_array_needs(case: &Case) -> Vec<DeviceNeed> {
    let mut needs = vec![DeviceNeed::Feature(Feature::StorageBufferDynamic)];
    if case.params.variant == NON_UNIFORM {
        needs.push(DeviceNeed::Feature(Feature::StorageBufferNonUniform));
    }
    needs
}

/// The push constants of a case indexing the 8-slot array: [`UNIFORM_SLOT`] as the runtime
/// index, unused (0) by the [`NON_UNIFORM`] variant, whose slot comes from the lane.
pub(crate) fn slot_array_params(case: &Case) -> KernelParams {
    KernelParams {
        index: if case.params.variant == NON_UNIFORM {
            0
        } else {
            UNIFORM_SLOT
        },
        ..KernelParams::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut readback = Readback {
            sums: (0..1024u32)
                .map(|t| DescriptorIndex::model(&c, params, t / 256, t % 256).map(f32::from_bits))
                .collect(),
            written: Vec::new(),
        };
        assert!(DescriptorIndex.verify(&c, &readback).passed());
        readback.sums[700][3] = f32::from_bits(readback.sums[700][3].to_bits() ^ 1);
        assert_eq!(DescriptorIndex.verify(&c, &readback).mismatches, 1);
    }
}
