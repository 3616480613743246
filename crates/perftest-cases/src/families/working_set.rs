//! Working sets (modern suite): 16-byte (`uint4`) loads over working sets of 16 KB, 256 KB,
//! 4 MB, 64 MB and 256 MB, through four access paths (`shaders/working_set.comp`, one SPIR-V
//! per path).
//!
//! The buffer of a size holds the modern data ([`crate::modern_word`]: hashed, never zero);
//! element `e` is words `4e..4e+3`. A thread makes 256 loads over 16 KB..4 MB and 32 over
//! 64 MB and 256 MB, and sums the four words of every load with wrapping adds; the sum is the
//! thread's result, checked word for word against [`crate::working_sets::thread_sum`].
//!
//! Paths (one buffer per size, shared by the four):
//! - `structured`: `StructuredBuffer<uint4>.Load`, a `uvec4[]` storage buffer read as
//!   `elements[e]`;
//! - `raw`: `ByteAddressBuffer.Load4`, a `uint[]` storage buffer read as four 32-bit loads at
//!   byte address `a = e * 16`, words `a / 4 .. a / 4 + 3`; the address is OR-ed with a runtime
//!   zero, so the compiler cannot prove it 16-byte aligned;
//! - `aligned`: `ByteAddressBuffer.Load4 (uvec4[] view)`, the same binding and the same byte
//!   address read through a `uvec4[]` view (`words4[a / 16]`): the aligned 16-byte load of the
//!   same bytes, to measure beside `raw`;
//! - `bda`: `BDA<uint4, align16>.Load`, a buffer reference declared with 16-byte alignment at
//!   the buffer's device address plus `e * 16` (no descriptor).
//!
//! Addressing, with `g` the thread's index over the dispatch, `i` the load (0..LOADS),
//! `N = bytes / 16` elements (a power of two) and the hash lowbias32 ([`crate::mix32`]):
//! - `linear`: `e = (group * 256 * LOADS + i * 256 + local) mod N`: each workgroup streams a
//!   contiguous block, neighbouring lanes read neighbouring elements;
//! - `random`: `e = lowbias32(g * LOADS + i) mod N`: every load of every thread goes to a hashed
//!   element of the whole working set;
//! - `wave-uniform`: `e = lowbias32((g / 32) * LOADS + i) mod N`: the 32 lanes of a wave read
//!   one hashed element;
//! - `wave-coherent`: the 32 lanes of a wave read a contiguous, 32-element-aligned block at a
//!   hashed place, `e = (lowbias32((g / 32) * LOADS + i) mod N) & !31 | g mod 32`.
//!
//! `linear` and `random` run through the four paths, `wave-uniform` and `wave-coherent`
//! through `structured` and `raw`: 12 cases per size. A descriptor path over a working set
//! larger than `maxStorageBufferRange` is skipped (the device-address path still runs); every
//! size needs a device-local heap of four times its bytes.

use crate::case::{Case, Params};
use crate::check::{Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef, Work};
use crate::suite::Suite;
use crate::support::DeviceNeed;
use crate::working_sets::{self, loads_per_thread, Path, ELEMENT_BYTES};

/// The working-set family.
pub struct WorkingSet;

/// The working-set sizes in bytes, with their id and name words, in suite order.
pub const SIZES: [(u64, &str, &str); 5] = [
    (16 << 10, "16kb", "16KB"),
    (256 << 10, "256kb", "256KB"),
    (4 << 20, "4mb", "4MB"),
    (64 << 20, "64mb", "64MB"),
    (256 << 20, "256mb", "256MB"),
];

impl Family for WorkingSet {
    fn label(&self) -> &'static str {
        "working_set"
    }

    fn title(&self) -> &'static str {
        "Working sets"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for (bytes, size_id, size_name) in SIZES {
            for path in Path::ALL {
                for &pattern in path.patterns() {
                    cases.push(Case {
                        id: format!("modern.ws.{size_id}.{}.{}", path.word(), pattern.name()),
                        name: format!("{} {size_name} {}", path.display(), pattern.name()),
                        suite: Suite::Modern,
                        family: FamilyRef(&WorkingSet),
                        params: Params {
                            origin: None,
                            format: None,
                            width: 4,
                            variant: path.variant(),
                            working_set: bytes,
                            count: 0,
                        },
                        pattern,
                    });
                }
            }
        }
        cases
    }

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
    use crate::case::Pattern;
    use crate::feature::Feature;
    use crate::working_sets::*;
    use std::collections::HashSet;

    fn cases() -> Vec<Case> {
        WorkingSet.cases()
    }

    fn case(id: &str) -> Case {
        cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn sixty_cases_in_size_path_pattern_order() {
        let all = cases();
        assert_eq!(all.len(), 60);
        let ids: HashSet<&str> = all.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), 60);
        assert_eq!(all[0].id, "modern.ws.16kb.structured.linear");
        assert_eq!(all[0].name, "StructuredBuffer<uint4>.Load 16KB linear");
        assert_eq!(all[3].id, "modern.ws.16kb.structured.wave-coherent");
        assert_eq!(all[4].id, "modern.ws.16kb.raw.linear");
        assert_eq!(all[8].id, "modern.ws.16kb.aligned.linear");
        assert_eq!(
            all[9].name,
            "ByteAddressBuffer.Load4 (uvec4[] view) 16KB random"
        );
        assert_eq!(all[11].name, "BDA<uint4, align16>.Load 16KB random");
        assert_eq!(all[12].id, "modern.ws.256kb.structured.linear");
        assert_eq!(all[59].id, "modern.ws.256mb.bda.random");
        let c = case("modern.ws.4mb.raw.random");
        assert_eq!(c.name, "ByteAddressBuffer.Load4 4MB random");
        assert!(all.iter().all(|c| c.suite == Suite::Modern));
        for (bytes, _, _) in SIZES {
            assert_eq!(
                all.iter().filter(|c| c.params.working_set == bytes).count(),
                12
            );
        }
    }

    #[test]
    fn loads_and_needs_follow_the_size_and_path() {
        let small = case("modern.ws.4mb.structured.linear");
        let big = case("modern.ws.64mb.structured.linear");
        assert_eq!(small.work().per_thread, 256);
        assert_eq!(WorkingSet.case_loop_trip(&small), 256);
        assert_eq!(big.work().per_thread, 32);
        assert_eq!(WorkingSet.case_loop_trip(&big), 32);
        assert_eq!(big.bytes_per_load(), 16);
        assert_eq!(WorkingSet.constants(&big), [(4 << 20) - 1, 0, 0]);
        assert_eq!(
            case("modern.ws.256mb.raw.random").needs(),
            vec![
                DeviceNeed::StorageBufferRange(256 << 20),
                DeviceNeed::DeviceMemory(256 << 20)
            ]
        );
        assert_eq!(
            case("modern.ws.256mb.bda.random").needs(),
            vec![
                DeviceNeed::Feature(Feature::BufferDeviceAddress),
                DeviceNeed::DeviceMemory(256 << 20)
            ]
        );
    }

    #[test]
    fn wave_uniform_lanes_of_a_wave_agree() {
        let c = case("modern.ws.64mb.raw.wave-uniform");
        for wave in 0..8 {
            let first = thread_sum(&c, 0, wave / 8, (wave % 8) * 32);
            for lane in 1..32 {
                assert_eq!(thread_sum(&c, 0, wave / 8, (wave % 8) * 32 + lane), first);
            }
        }
        assert_ne!(thread_sum(&c, 0, 0, 0), thread_sum(&c, 0, 0, 32));
    }

    #[test]
    fn wave_coherent_reads_an_aligned_block_per_wave() {
        for bytes in [16 << 10, 64 << 20] {
            let mask = element_mask(bytes);
            for i in [0, 5, 31] {
                let block: Vec<u32> = (0..32)
                    .map(|l| element(Pattern::WaveCoherent, 32, mask, 1, 64 + l, i))
                    .collect();
                assert_eq!(block[0] % 32, 0);
                assert!(block
                    .iter()
                    .enumerate()
                    .all(|(l, &e)| e == block[0] + l as u32));
                assert!(block.iter().all(|&e| e <= mask));
            }
        }
    }

    #[test]
    fn linear_streams_a_contiguous_block_per_group() {
        let mask = element_mask(4 << 20);
        let hits: Vec<u32> = (0..256)
            .flat_map(|i| (0..256).map(move |l| element(Pattern::Linear, 256, mask, 2, l, i)))
            .collect();
        let start = 2 * 256 * 256;
        assert!(hits.iter().enumerate().all(|(k, &e)| e == start + k as u32));
    }

    #[test]
    fn random_spreads_over_the_whole_64mb_set() {
        let mask = element_mask(64 << 20);
        let hits: Vec<u32> = (0..4)
            .flat_map(|g| {
                (0..256).flat_map(move |l| {
                    (0..32).map(move |i| element(Pattern::Random, 32, mask, g, l, i))
                })
            })
            .collect();
        // 32768 loads over 4M elements: every one of 64 equal slices is hit, nearly all
        // elements are distinct.
        let slices: HashSet<u32> = hits.iter().map(|e| e / ((mask + 1) / 64)).collect();
        assert_eq!(slices.len(), 64);
        let distinct: HashSet<u32> = hits.iter().copied().collect();
        assert!(distinct.len() > 32_000, "{}", distinct.len());
        assert!(hits.iter().all(|&e| e <= mask));
    }

    #[test]
    fn paths_read_the_same_bytes() {
        let sums: Vec<[u32; 4]> = ["structured", "raw", "aligned", "bda"]
            .iter()
            .map(|p| thread_sum(&case(&format!("modern.ws.256kb.{p}.random")), 0, 3, 17))
            .collect();
        assert!(sums.iter().all(|s| *s == sums[0]));
        // A different thread reads different elements.
        let other = thread_sum(&case("modern.ws.256kb.raw.random"), 0, 3, 18);
        assert_ne!(other, sums[0]);
        // Element 5 starts at word 20 through both byte-address views.
        assert_eq!(first_word(Path::Raw, 5, 0), 20);
        assert_eq!(first_word(Path::Aligned, 5, 0), 20);
    }

    #[test]
    fn verification_accepts_the_model_and_rejects_a_flipped_bit() {
        let c = case("modern.ws.16kb.structured.wave-coherent");
        let mut readback = crate::readback::words_readback(|g, l| thread_sum(&c, 0, g, l));
        assert!(WorkingSet.verify(&c, &readback).passed());
        readback.sums[700][3] = f32::from_bits(readback.sums[700][3].to_bits() ^ 1);
        assert_eq!(WorkingSet.verify(&c, &readback).mismatches, 1);
    }
}
