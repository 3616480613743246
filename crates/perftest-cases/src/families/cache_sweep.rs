//! Bandwidth over working sets (memory suite): the `working_set` family's structured linear
//! read (`StructuredBuffer<uint4>.Load`, `shaders/working_set.comp`, the same SPIR-V and the
//! same CPU model) over the sweep's working sets ([`crate::chase::sweep_sizes`]) from
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
use crate::chase::{size_words, sweep_sizes};
use crate::check::{Readback, VerifyOutcome};
use crate::family::{Curve, CurvePoint, Family, FamilyRef, Work};
use crate::suite::Suite;
use crate::support::DeviceNeed;
use crate::working_sets::{self, loads_per_thread, ELEMENT_BYTES};

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

    fn curve_point(&self, case: &Case) -> Option<CurvePoint> {
        Some(CurvePoint {
            curve: Curve::Bandwidth,
            working_set: case.params.working_set,
        })
    }

    fn reports_bandwidth(&self) -> bool {
        true
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
                        origin: None,
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

    // Everything else is the working-set model's, for its structured path (variant 0).
    fn case_loop_trip(&self, case: &Case) -> u32 {
        loads_per_thread(case.params.working_set)
    }

    fn bytes_per_load(&self, _case: &Case) -> u32 {
        ELEMENT_BYTES as u32
    }

    fn work(&self, case: &Case) -> Work {
        working_sets::work(case)
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        working_sets::needs(case)
    }

    /// `FAMILY_A`: the element mask (elements - 1).
    fn constants(&self, case: &Case) -> [u32; 3] {
        working_sets::constants(case)
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        working_sets::verify(case, self.kernel_params(case).elements_mask, readback)
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
            crate::working_sets::path(&cases[3]),
            crate::working_sets::Path::Structured
        );
        assert_eq!(cases[16].work().per_thread, 32);
        assert_eq!(cases[0].work().per_thread, 256);
        assert_eq!(
            cases[16].needs(),
            vec![
                DeviceNeed::StorageBufferRange(512 << 20),
                DeviceNeed::DeviceMemory(512 << 20)
            ]
        );
    }
}
