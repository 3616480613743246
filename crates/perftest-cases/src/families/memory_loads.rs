//! Loads by memory type (transfer suite): the working sets' structured loads
//! (`StructuredBuffer<uint4>.Load`, `shaders/working_set.comp`) from a buffer in each kind of
//! memory a renderer picks between ([`MemoryKind`]: device-local; device-local and
//! host-visible; host-visible uncached; host-visible cached), at 16 KB (it fits the L1) and at
//! 256 MB (past every L2), so that the second measures the path to the memory itself.
//!
//! The buffer of a (kind, size) holds the modern data, as a working set of that size does, and
//! a case reads it as the working-set family's structured path reads its set: the same loads
//! per thread ([`crate::working_sets::loads_per_thread`]), the same addressing and the same
//! sums, checked word for word against [`crate::working_sets::thread_sum`]. Patterns:
//! `wave-uniform` (the 32 lanes of a wave read one hashed element), `linear` and `random`.
//!
//! `Params::count` is the kind's index in [`MemoryKind::ALL`]; `Params::variant` is the
//! structured path's, so the shared working-set model reads the case as a structured one.
//! A case needs a memory type of its kind (`DeviceNeed::Memory`) besides what a working set of
//! its size needs; reports list what each kind resolved to (type index, flags, heap size).

use crate::case::{Case, Params, Pattern};
use crate::check::{Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef, Work};
use crate::memory_kind::MemoryKind;
use crate::suite::Suite;
use crate::support::DeviceNeed;
use crate::working_sets::{self, loads_per_thread, Path, ELEMENT_BYTES};

/// The memory-loads family.
pub struct MemoryLoads;

/// The working-set sizes in bytes, with their id and name words: one the L1 holds, one past
/// the L2.
pub const SIZES: [(u64, &str, &str); 2] =
    [(16 << 10, "16kb", "16KB"), (256 << 20, "256mb", "256MB")];

/// The access patterns, in suite order.
pub const PATTERNS: [Pattern; 3] = [Pattern::WaveUniform, Pattern::Linear, Pattern::Random];

/// The memory kind `case` reads from.
pub fn kind(case: &Case) -> MemoryKind {
    MemoryKind::ALL
        .get(case.params.count as usize)
        .copied()
        .unwrap_or(MemoryKind::DeviceLocal)
}

impl Family for MemoryLoads {
    fn label(&self) -> &'static str {
        "memory_loads"
    }

    fn title(&self) -> &'static str {
        "Loads by memory type"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for kind in MemoryKind::ALL {
            for (bytes, size_id, size_name) in SIZES {
                for pattern in PATTERNS {
                    let path = Path::Structured;
                    cases.push(Case {
                        id: format!("xfer.memload.{}.{size_id}.{}", kind.word(), pattern.name()),
                        name: format!(
                            "{} {} {size_name} {}",
                            path.display(),
                            kind.display(),
                            pattern.name()
                        ),
                        suite: Suite::Transfer,
                        family: FamilyRef(&MemoryLoads),
                        params: Params {
                            origin: None,
                            format: None,
                            width: 4,
                            variant: path.variant(),
                            working_set: bytes,
                            count: kind.index() as u32,
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

    fn reports_bandwidth(&self) -> bool {
        true
    }

    /// A memory type of the case's kind, and what a working set of its size needs.
    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = vec![DeviceNeed::Memory(kind(case), case.params.working_set)];
        needs.extend(working_sets::needs(case));
        needs
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
    use crate::working_sets::thread_sum;
    use std::collections::HashSet;

    fn cases() -> Vec<Case> {
        MemoryLoads.cases()
    }

    fn case(id: &str) -> Case {
        cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn twenty_four_cases_in_kind_size_pattern_order() {
        let all = cases();
        assert_eq!(all.len(), 24);
        let ids: HashSet<&str> = all.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), 24);
        let names: HashSet<&str> = all.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names.len(), 24);
        assert_eq!(all[0].id, "xfer.memload.device.16kb.wave-uniform");
        assert_eq!(
            all[0].name,
            "StructuredBuffer<uint4>.Load device-local 16KB wave-uniform"
        );
        assert_eq!(all[4].id, "xfer.memload.device.256mb.linear");
        assert_eq!(all[6].id, "xfer.memload.bar.16kb.wave-uniform");
        assert_eq!(
            all[23].name,
            "StructuredBuffer<uint4>.Load host cached 256MB random"
        );
        assert!(all.iter().all(|c| c.suite == Suite::Transfer));
        assert!(all
            .iter()
            .all(|c| c.id.starts_with("xfer.memload.") && c.family.label() == "memory_loads"));
        for k in MemoryKind::ALL {
            assert_eq!(all.iter().filter(|c| kind(c) == k).count(), 6);
        }
    }

    #[test]
    fn needs_and_footprint_follow_the_kind_and_size() {
        let c = case("xfer.memload.host.256mb.random");
        assert_eq!(
            c.needs(),
            vec![
                DeviceNeed::Memory(MemoryKind::HostUncached, 256 << 20),
                DeviceNeed::StorageBufferRange(256 << 20),
                DeviceNeed::DeviceMemory(256 << 20)
            ]
        );
        assert_eq!(c.footprint(), 256 << 20);
        assert_eq!(case("xfer.memload.bar.16kb.linear").footprint(), 16 << 10);
        assert_eq!(c.work().per_thread, 32);
        assert_eq!(MemoryLoads.case_loop_trip(&c), 32);
        assert_eq!(MemoryLoads.constants(&c), [(16 << 20) - 1, 0, 0]);
        let small = case("xfer.memload.cached.16kb.wave-uniform");
        assert_eq!(small.work().per_thread, 256);
        assert_eq!(small.bytes_per_load(), 16);
        assert!(MemoryLoads.reports_bandwidth());
    }

    #[test]
    fn every_kind_reads_what_the_working_sets_model() {
        let sums: Vec<[u32; 4]> = MemoryKind::ALL
            .iter()
            .map(|k| {
                thread_sum(
                    &case(&format!("xfer.memload.{}.16kb.random", k.word())),
                    0,
                    2,
                    9,
                )
            })
            .collect();
        assert!(sums.iter().all(|s| *s == sums[0]));
        let c = case("xfer.memload.device.256mb.wave-uniform");
        assert_eq!(thread_sum(&c, 0, 1, 32), thread_sum(&c, 0, 1, 63));
        assert_ne!(thread_sum(&c, 0, 1, 32), thread_sum(&c, 0, 1, 64));
    }

    #[test]
    fn verification_checks_every_thread() {
        let c = case("xfer.memload.bar.16kb.linear");
        let mut readback = crate::readback::words_readback(|g, l| thread_sum(&c, 0, g, l));
        assert!(MemoryLoads.verify(&c, &readback).passed());
        readback.sums[1000][1] = f32::from_bits(readback.sums[1000][1].to_bits() ^ 1);
        assert_eq!(MemoryLoads.verify(&c, &readback).mismatches, 1);
    }
}
