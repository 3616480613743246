//! `StructuredBuffer<Light|Material>[8]`: two 32-byte struct views declared on one binding
//! (`shaders/typed_alias.comp`), the way bindless engines alias one descriptor array as
//! several typed buffers. Params: `width` 8 (words per struct), `variant`
//! [`NON_UNIFORM`] for the non-uniform index.
//!
//! Binding 0 is the slot array of `descriptor_index`: eight storage-buffer
//! descriptors over 16 KB ranges of one 128 KB buffer of modern-suite words. The kernel
//! declares it twice, as `Lights { Light l[]; } lights[8]` with
//! `Light { uvec4 position; uvec4 color; }` and as `Materials { Material m[]; } materials[8]`
//! with `Material { uvec2 albedo; uint roughness; uint metalness; uvec4 emissive; }` (both 32
//! bytes in std430, 512 per slot). Each thread performs 256 struct reads: even `i` reads a
//! `Light`, odd `i` a `Material`, element `e` of the slot; the struct's eight words (words
//! `e * 8 .. e * 8 + 8` of the slot) are added into a `uvec4` as first half plus second half,
//! wrapping. Both views of an element therefore add the same words; a wrong slot or element
//! changes the sum.
//!
//! - **Uniform index** (`modern.alias.uniform.<pattern>`): slot 3 from the push constants;
//!   `e = ((start + i) | elementsMask) & 511` with the original start (0, the local index,
//!   or `(local * 0x3504f333) & 15`).
//! - **Non-uniform index** (`modern.alias.nonuniform.random`): thread `g` uses slot `g & 7`
//!   through `nonuniformEXT`; `e = (lowbias32(g * 256 + i) | elementsMask) & 511`.
//!
//! Needs: storage-buffer dynamic indexing, and non-uniform indexing for the non-uniform case.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::data::mix32;
use crate::descriptor_slots::{
    add_words, buffer_start, global_index, slot_array_needs, slot_array_params, slot_word,
    NON_UNIFORM, SLOTS, SLOT_LOADS,
};
use crate::family::{Family, FamilyRef};
use crate::reference::KernelParams;
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// Bytes of one struct of either view.
pub const STRUCT_BYTES: u32 = 32;

/// Structs in one 16 KB slot.
pub const STRUCTS_PER_SLOT: u32 = 512;

/// The typed-alias family.
pub struct TypedAlias;

impl TypedAlias {
    /// The CPU model: the `uvec4` sum of the thread at `local` of verification group `group`.
    pub fn model(case: &Case, params: KernelParams, group: u32, local: u32) -> [u32; 4] {
        let g = global_index(group, local);
        let (slot, start) = if case.params.variant == NON_UNIFORM {
            (g & (SLOTS - 1), 0)
        } else {
            (params.index, buffer_start(case.pattern, local))
        };
        let mut acc = [0u32; 4];
        for i in 0..SLOT_LOADS {
            let e = if case.params.variant == NON_UNIFORM {
                mix32(g.wrapping_mul(SLOT_LOADS).wrapping_add(i))
            } else {
                start.wrapping_add(i)
            };
            let e = (e | params.elements_mask) & (STRUCTS_PER_SLOT - 1);
            for half in 0..2 {
                add_words(
                    &mut acc,
                    [0, 1, 2, 3].map(|k| slot_word(slot, e * 8 + half * 4 + k)),
                );
            }
        }
        acc
    }
}

impl Family for TypedAlias {
    fn label(&self) -> &'static str {
        "typed_alias"
    }

    fn title(&self) -> &'static str {
        "Typed struct views of one binding"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases: Vec<Case> = Case::per_pattern(
            FamilyRef(&TypedAlias),
            Suite::Modern,
            "modern.alias.uniform",
            "StructuredBuffer<Light|Material>[8] uniform index",
            Params {
                width: 8,
                ..Params::default()
            },
        )
        .into();
        cases.push(Case {
            id: "modern.alias.nonuniform.random".into(),
            name: "StructuredBuffer<Light|Material>[8] NonUniformResourceIndex random".into(),
            suite: Suite::Modern,
            family: FamilyRef(&TypedAlias),
            params: Params {
                width: 8,
                variant: NON_UNIFORM,
                ..Params::default()
            },
            pattern: Pattern::Random,
        });
        cases
    }

    fn bytes_per_load(&self, _case: &Case) -> u32 {
        STRUCT_BYTES
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
            TypedAlias::model(case, params, group, local)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::modern_word;
    use crate::feature::Feature;

    fn case(id: &str) -> Case {
        TypedAlias
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("no case {id}"))
    }

    #[test]
    fn four_cases_with_stable_ids() {
        let cases = TypedAlias.cases();
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "modern.alias.uniform.uniform",
                "modern.alias.uniform.linear",
                "modern.alias.uniform.random",
                "modern.alias.nonuniform.random",
            ]
        );
        assert_eq!(
            cases[1].name,
            "StructuredBuffer<Light|Material>[8] uniform index linear"
        );
        assert!(cases.iter().all(|c| c.bytes_per_load() == 32));
        assert_eq!(KernelParams::for_case(&cases[0]).index, 3);
        assert!(cases[3]
            .needs()
            .contains(&DeviceNeed::Feature(Feature::StorageBufferNonUniform)));
    }

    #[test]
    fn struct_reads_add_both_halves() {
        let c = case("modern.alias.uniform.uniform");
        let params = KernelParams::for_case(&c);
        let mut want = [0u32; 4];
        for e in 0..256 {
            for k in 0..8 {
                want[k as usize % 4] =
                    want[k as usize % 4].wrapping_add(modern_word(3 * 4096 + e * 8 + k));
            }
        }
        assert_eq!(TypedAlias::model(&c, params, 3, 200), want);
    }

    #[test]
    fn linear_wraps_inside_the_slot_and_non_uniform_changes_slot_per_lane() {
        let c = case("modern.alias.uniform.linear");
        let params = KernelParams::for_case(&c);
        // Thread 255 reads elements 255..511: the last one is 510, still inside the slot.
        let mut want = [0u32; 4];
        for e in 255..511 {
            for k in 0..8 {
                want[k % 4] = want[k % 4].wrapping_add(slot_word(3, e * 8 + k as u32));
            }
        }
        assert_eq!(TypedAlias::model(&c, params, 0, 255), want);
        let n = case("modern.alias.nonuniform.random");
        let np = KernelParams::for_case(&n);
        let g = 3 * 256 + 6;
        let mut want = [0u32; 4];
        for i in 0..256 {
            let e = mix32(g * 256 + i) & 511;
            for k in 0..8 {
                want[k % 4] = want[k % 4].wrapping_add(slot_word(6, e * 8 + k as u32));
            }
        }
        assert_eq!(TypedAlias::model(&n, np, 3, 6), want);
    }
}
