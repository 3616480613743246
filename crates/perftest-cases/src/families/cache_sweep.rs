//! Bandwidth over working sets (memory suite): the `working_set` family's structured linear
//! read (`StructuredBuffer<uint4>.Load`, `shaders/working_set.comp`, the same SPIR-V and the
//! same CPU model) over the sweep's working sets ([`super::pointer_chase::sweep_sizes`]) from
//! 8 KB to 512 MB. Not 4 KB: a set of 256 elements is exactly one load of a workgroup, so
//! every load of a thread would read the same element and the compiler may load it once.
//!
//! Each workgroup streams a contiguous block of `256 x LOADS` 16-byte elements, wrapping
//! inside the working set (see [`super::working_set`]), and the dispatch spreads over every
//! SM: so the sustained read bandwidth steps down where the set leaves the L1 (each SM reads
//! the whole set), and again where it leaves the L2. With the latency cases of
//! [`super::pointer_chase`] this is the cache-size sweep: the text report finds the knees.
//! Needs: `maxStorageBufferRange` and a device-local heap of four times the set.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::families::pointer_chase::{size_words, sweep_sizes};
use crate::families::working_set::{element_mask, loads_per_thread, thread_sum, ELEMENT_BYTES};
use crate::family::{Family, FamilyRef, Unit, Work};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The bytes one load of a workgroup covers (256 threads x 16 bytes): the sweep's working sets
/// are larger.
pub const FIRST_LOAD_BYTES: u64 = 256 * ELEMENT_BYTES;

/// The bandwidth-sweep family.
pub struct CacheSweep;

impl Family for CacheSweep {
    fn label(&self) -> &'static str {
        "cache_sweep"
    }

    fn title(&self) -> &'static str {
        "Bandwidth over working sets"
    }

    fn cases(&self) -> Vec<Case> {
        sweep_sizes()
            .into_iter()
            .filter(|&bytes| bytes > FIRST_LOAD_BYTES)
            .map(|bytes| {
                let (id, name) = size_words(bytes);
                Case {
                    id: format!("mem.sweep.bandwidth.{id}"),
                    name: format!("Bandwidth {name} (StructuredBuffer<uint4>.Load linear)"),
                    suite: Suite::Memory,
                    family: FamilyRef(&CacheSweep),
                    // The working-set family's structured path (variant 0).
                    params: Params {
                        format: None,
                        width: 4,
                        variant: 0,
                        working_set: bytes,
                        count: 0,
                    },
                    pattern: Pattern::Linear,
                }
            })
            .collect()
    }

    fn case_loop_trip(&self, case: &Case) -> u32 {
        loads_per_thread(case.params.working_set)
    }

    fn bytes_per_load(&self, _case: &Case) -> u32 {
        ELEMENT_BYTES as u32
    }

    fn work(&self, case: &Case) -> Work {
        Work {
            unit: Unit::Load,
            per_thread: loads_per_thread(case.params.working_set),
        }
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let bytes = case.params.working_set;
        vec![
            DeviceNeed::StorageBufferRange(bytes),
            DeviceNeed::DeviceMemory(bytes),
        ]
    }

    /// `FAMILY_A`: the element mask (elements - 1).
    fn constants(&self, case: &Case) -> [u32; 3] {
        [element_mask(case.params.working_set), 0, 0]
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let elements_mask = self.kernel_params(case).elements_mask;
        check_words(readback, |group, local| {
            thread_sum(case, elements_mask, group, local)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seventeen_linear_sizes_on_the_structured_path() {
        let cases = CacheSweep.cases();
        assert_eq!(cases.len(), 17);
        assert_eq!(cases[0].id, "mem.sweep.bandwidth.8kb");
        assert_eq!(
            cases[0].name,
            "Bandwidth 8KB (StructuredBuffer<uint4>.Load linear)"
        );
        assert_eq!(cases[16].id, "mem.sweep.bandwidth.512mb");
        assert_eq!(
            crate::families::working_set::path(&cases[3]),
            crate::families::working_set::Path::Structured
        );
        assert_eq!(cases[16].work().per_thread, 32);
        assert_eq!(cases[0].work().per_thread, 256);
    }
}
