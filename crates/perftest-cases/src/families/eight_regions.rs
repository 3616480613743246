//! Divergent access to eight 16 KB regions of one 128 KB buffer, three ways
//! (`shaders/eight_regions.comp`). Params: `width` 4, `variant` the [`Way`]; the pattern is
//! `uniform` for the control cases (named `control`), else `linear` or `random`.
//!
//! The buffer holds modern-suite words ([`crate::modern_word`] `0, 1, 2...`); element `e` of
//! region `r` is the `uint4` at byte `r * 16384 + e * 16`, i.e. words
//! `r * 4096 + e * 4 .. + 4`. Every thread performs 256 `uint4` loads and sums them into a
//! `uvec4` with wrapping adds.
//!
//! Region and element of load `i` of thread `g` (global index; `local` its index in the
//! workgroup):
//! - **control**: region 3 from the push constants (uniform, unknown to the compiler),
//!   `e = ((local + i) | elementsMask) & 1023`;
//! - **linear**: region `g & 7` (eight regions inside every run of eight lanes), `e` as for
//!   control;
//! - **random**: region `g & 7`, `e = (lowbias32(g * 256 + i) | elementsMask) & 1023`.
//!
//! The three ways to reach the region:
//! - **slots** (`modern.regions.slots.*`): binding 0 is an array of eight storage-buffer
//!   descriptors, one per region; control indexes it with the uniform index, linear and random
//!   with `nonuniformEXT` (`NonUniformResourceIndex`);
//! - **bda** (`modern.regions.bda.*`): one buffer device address in the push constants,
//!   `uint4` loads at `base + r * 16384 + e * 16` through a 16-byte-aligned buffer reference;
//! - **offset** (`modern.regions.offset.*`): one 128 KB binding of `uint4`, element
//!   `r * 1024 + e`.
//!
//! Needs: slots control, storage-buffer dynamic indexing; slots linear and random, also
//! storage-buffer non-uniform indexing; bda, buffer device addresses; offset, nothing.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::data::mix32;
use crate::descriptor_slots::{
    add_words, global_index, slot_word, SLOTS, SLOT_LOADS, UNIFORM_SLOT,
};
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::reference::KernelParams;
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// How a case reaches its region (`Params::variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// Eight descriptors, one per region.
    Slots,
    /// One buffer device address plus a byte offset.
    Bda,
    /// One 128 KB binding plus an element offset.
    Offset,
}

impl Way {
    /// Every way, in suite order.
    pub const ALL: [Way; 3] = [Way::Slots, Way::Bda, Way::Offset];

    /// The case's way.
    pub fn of(case: &Case) -> Way {
        match case.params.variant {
            1 => Way::Bda,
            2 => Way::Offset,
            _ => Way::Slots,
        }
    }

    /// The `Params::variant` value of this way.
    pub fn variant(self) -> u32 {
        match self {
            Way::Slots => 0,
            Way::Bda => 1,
            Way::Offset => 2,
        }
    }

    /// The word in case ids.
    pub fn id_word(self) -> &'static str {
        match self {
            Way::Slots => "slots",
            Way::Bda => "bda",
            Way::Offset => "offset",
        }
    }

    /// The case-name prefix.
    pub fn display(self) -> &'static str {
        match self {
            Way::Slots => "StructuredBuffer<uint4>[8] regions",
            Way::Bda => "BDA<uint4> regions",
            Way::Offset => "StructuredBuffer<uint4> 128KB regions",
        }
    }
}

/// `uint4` elements in one 16 KB region.
pub const REGION_ELEMENTS: u32 = 1024;

/// The pattern word of a case: `control` for the uniform-region cases.
fn pattern_word(pattern: Pattern) -> &'static str {
    match pattern {
        Pattern::Uniform => "control",
        other => other.name(),
    }
}

/// The eight-regions family.
pub struct EightRegions;

impl EightRegions {
    /// The CPU model: the `uvec4` sum of the thread at `local` of verification group `group`
    /// (the same for every way).
    pub fn model(case: &Case, params: KernelParams, group: u32, local: u32) -> [u32; 4] {
        let g = global_index(group, local);
        let region = match case.pattern {
            Pattern::Uniform => params.index,
            _ => g & (SLOTS - 1),
        };
        let mut acc = [0u32; 4];
        for i in 0..SLOT_LOADS {
            let e = match case.pattern {
                Pattern::Random => mix32(g.wrapping_mul(SLOT_LOADS).wrapping_add(i)),
                _ => local.wrapping_add(i),
            };
            let e = (e | params.elements_mask) & (REGION_ELEMENTS - 1);
            add_words(&mut acc, [0, 1, 2, 3].map(|k| slot_word(region, e * 4 + k)));
        }
        acc
    }
}

impl Family for EightRegions {
    fn label(&self) -> &'static str {
        "eight_regions"
    }

    fn title(&self) -> &'static str {
        "Divergent regions of one buffer"
    }

    fn cases(&self) -> Vec<Case> {
        Way::ALL
            .into_iter()
            .flat_map(|way| {
                Pattern::ALL.map(|pattern| Case {
                    id: format!("modern.regions.{}.{}", way.id_word(), pattern_word(pattern)),
                    name: format!("{} {}", way.display(), pattern_word(pattern)),
                    suite: Suite::Modern,
                    family: FamilyRef(&EightRegions),
                    params: Params {
                        width: 4,
                        variant: way.variant(),
                        ..Params::default()
                    },
                    pattern,
                })
            })
            .collect()
    }

    fn bytes_per_load(&self, _case: &Case) -> u32 {
        16
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        match (Way::of(case), case.pattern) {
            (Way::Slots, Pattern::Uniform) => {
                vec![DeviceNeed::Feature(Feature::StorageBufferDynamic)]
            }
            (Way::Slots, _) => vec![
                DeviceNeed::Feature(Feature::StorageBufferDynamic),
                DeviceNeed::Feature(Feature::StorageBufferNonUniform),
            ],
            (Way::Bda, _) => vec![DeviceNeed::Feature(Feature::BufferDeviceAddress)],
            (Way::Offset, _) => Vec::new(),
        }
    }

    fn kernel_params(&self, case: &Case) -> KernelParams {
        KernelParams {
            index: if case.pattern == Pattern::Uniform {
                UNIFORM_SLOT
            } else {
                0
            },
            ..KernelParams::default()
        }
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let params = KernelParams::for_case(case);
        check_words(readback, case.threads(), |group, local| {
            EightRegions::model(case, params, group, local)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::modern_word;

    fn case(id: &str) -> Case {
        EightRegions
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("no case {id}"))
    }

    #[test]
    fn nine_cases_with_stable_ids_and_needs() {
        let cases = EightRegions.cases();
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "modern.regions.slots.control",
                "modern.regions.slots.linear",
                "modern.regions.slots.random",
                "modern.regions.bda.control",
                "modern.regions.bda.linear",
                "modern.regions.bda.random",
                "modern.regions.offset.control",
                "modern.regions.offset.linear",
                "modern.regions.offset.random",
            ]
        );
        assert_eq!(cases[0].name, "StructuredBuffer<uint4>[8] regions control");
        assert_eq!(cases[4].name, "BDA<uint4> regions linear");
        assert_eq!(
            cases[8].name,
            "StructuredBuffer<uint4> 128KB regions random"
        );
        assert_eq!(cases[0].pattern, Pattern::Uniform);
        assert!(cases.iter().all(|c| c.bytes_per_load() == 16));
        assert_eq!(
            cases[0].needs(),
            vec![DeviceNeed::Feature(Feature::StorageBufferDynamic)]
        );
        assert!(cases[2]
            .needs()
            .contains(&DeviceNeed::Feature(Feature::StorageBufferNonUniform)));
        assert_eq!(
            cases[5].needs(),
            vec![DeviceNeed::Feature(Feature::BufferDeviceAddress)]
        );
        assert!(cases[7].needs().is_empty());
        assert_eq!(KernelParams::for_case(&cases[6]).index, 3);
        assert_eq!(KernelParams::for_case(&cases[7]).index, 0);
    }

    #[test]
    fn control_reads_region_3_and_divergent_cases_region_g_mod_8() {
        let c = case("modern.regions.offset.control");
        let params = KernelParams::for_case(&c);
        let mut want = [0u32; 4];
        for i in 0..256u32 {
            let e = (40 + i) & 1023;
            add_words(
                &mut want,
                [0, 1, 2, 3].map(|k| modern_word(3 * 4096 + e * 4 + k)),
            );
        }
        assert_eq!(EightRegions::model(&c, params, 1, 40), want);
        // Linear: same elements, region (256 + 40) & 7 = 0.
        let l = case("modern.regions.slots.linear");
        let mut want0 = [0u32; 4];
        for i in 0..256u32 {
            let e = (40 + i) & 1023;
            add_words(&mut want0, [0, 1, 2, 3].map(|k| modern_word(e * 4 + k)));
        }
        assert_eq!(
            EightRegions::model(&l, KernelParams::for_case(&l), 1, 40),
            want0
        );
        // Random: hashed elements of region g & 7.
        let r = case("modern.regions.bda.random");
        let g = 2 * 256 + 77;
        let mut wantr = [0u32; 4];
        for i in 0..256u32 {
            let e = mix32(g * 256 + i) & 1023;
            add_words(
                &mut wantr,
                [0, 1, 2, 3].map(|k| modern_word((g & 7) * 4096 + e * 4 + k)),
            );
        }
        assert_eq!(
            EightRegions::model(&r, KernelParams::for_case(&r), 2, 77),
            wantr
        );
    }
}
