//! What shared memory costs the L1 (memory suite): the pointer chase of
//! [`super::pointer_chase`] over the L1's working sets, in a kernel that declares
//! [`SHARED_SIZES`] of shared memory it barely uses (`shaders/pointer_chase.comp`, variant
//! `pointer_chase_carveout`).
//!
//! On GPUs whose L1 and shared memory share one array (NVIDIA since Volta, where Vulkan cannot
//! ask for a split), the driver picks the split per pipeline from the shared memory the kernel
//! declares: every byte a pipeline declares can leave the L1 smaller for that pipeline. Each
//! declaration gets its own latency curve, from 16 KB to 512 KB doubling; the self-refining
//! sweep brackets its L1-to-L2 step to 1/16 octave like the latency sweep's, and the reports
//! give the L1 capacity each declaration leaves. The latency sweep itself (no shared memory)
//! is the 0 KB row.
//!
//! The declarations: 16, 32, 48, 64 and 128 KB. 32 KB and 48 KB are the maxima Vulkan drivers
//! commonly report (`maxComputeSharedMemorySize`: NVIDIA's is 48 KB, many mobile GPUs' 32 KB;
//! AMD's and Intel's 64 KB), so a device's maximum is among them on most devices; a declaration
//! above the device's maximum is skipped.
//!
//! Verification walks one block from node 0 in every thread like the latency sweep's, and each
//! thread also passes its sum through its own word of the declared array (at an index the
//! compiler cannot know), so the array is really used: word 3 must read the sum back.

use crate::case::{Case, Params, Pattern};
use crate::chase::{self, chain, nodes, size_of_word, size_words, walk, SIZE_GRANULE, STEPS};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::family::{Curve, CurvePoint, Family, FamilyRef, Work};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The carve-out family.
pub struct CacheCarveout;

/// The shared memory the family's kernels declare, in bytes (0 is the latency sweep).
pub const SHARED_SIZES: [u64; 5] = [16 << 10, 32 << 10, 48 << 10, 64 << 10, 128 << 10];

/// The id prefix of the family's cases (`mem.carveout.shared16kb.192kb`).
pub const ID_PREFIX: &str = "mem.carveout.shared";

/// The working sets of each declaration's curve before refinement: 16 KB to 512 KB, doubling
/// (the L1 of every GPU we know ends inside it, and its last octave is L2).
pub fn curve_sizes() -> Vec<u64> {
    (14..=19).map(|shift| 1u64 << shift).collect()
}

/// The case with `shared` bytes of shared memory declared, chasing over `bytes` (a multiple of
/// [`SIZE_GRANULE`]): a curve's own sizes, and those a refined curve adds between them.
pub fn carveout_case(shared: u64, bytes: u64) -> Case {
    let (shared_id, shared_name) = size_words(shared);
    let (id, name) = size_words(bytes);
    Case {
        id: format!("{ID_PREFIX}{shared_id}.{id}"),
        name: format!("Latency {name} beside {shared_name} shared (pointer chase)"),
        suite: Suite::Memory,
        family: FamilyRef(&CacheCarveout),
        params: Params {
            origin: None,
            format: None,
            width: 2,
            variant: 0,
            working_set: bytes,
            count: u32::try_from(shared).unwrap_or(u32::MAX),
        },
        pattern: Pattern::Random,
    }
}

/// The case an id names (`mem.carveout.shared48kb.20992kb`), for any declaration of
/// [`SHARED_SIZES`] and any working set of whole kilobytes from 4 KB up.
pub fn carveout_case_for_id(id: &str) -> Option<Case> {
    let rest = id.strip_prefix(ID_PREFIX)?;
    let (shared_word, size_word) = rest.split_once('.')?;
    let shared = SHARED_SIZES
        .into_iter()
        .find(|&s| size_words(s).0 == shared_word)?;
    let bytes = size_of_word(size_word)?;
    let case = carveout_case(shared, bytes);
    (bytes >= SIZE_GRANULE && bytes % SIZE_GRANULE == 0 && case.id == id).then_some(case)
}

/// The shared memory `case` declares, in bytes.
pub fn shared_bytes(case: &Case) -> u64 {
    u64::from(case.params.count)
}

impl Family for CacheCarveout {
    fn label(&self) -> &'static str {
        "cache_carveout"
    }

    fn title(&self) -> &'static str {
        "L1 capacity beside shared memory (pointer chase)"
    }

    fn curve_point(&self, case: &Case) -> Option<CurvePoint> {
        Some(CurvePoint {
            curve: Curve::Latency {
                shared: shared_bytes(case),
            },
            working_set: case.params.working_set,
        })
    }

    fn on_curve_at(&self, case: &Case, working_set: u64) -> Option<Case> {
        (working_set >= SIZE_GRANULE && working_set % SIZE_GRANULE == 0)
            .then(|| carveout_case(shared_bytes(case), working_set))
    }

    fn case_for_id(&self, id: &str) -> Option<Case> {
        carveout_case_for_id(id)
    }

    fn cases(&self) -> Vec<Case> {
        SHARED_SIZES
            .into_iter()
            .flat_map(|shared| {
                curve_sizes()
                    .into_iter()
                    .map(move |bytes| carveout_case(shared, bytes))
            })
            .collect()
    }

    // The chase itself is the latency sweep's: the same steps, bytes and lap.
    fn loop_trip(&self) -> u32 {
        STEPS
    }

    fn bytes_per_load(&self, _case: &Case) -> u32 {
        chase::STEP_BYTES
    }

    fn work(&self, _case: &Case) -> Work {
        chase::work()
    }

    fn chain_length(&self, case: &Case) -> u64 {
        chase::lap(case)
    }

    /// `FAMILY_A`: the 32-bit words of shared memory the kernel declares.
    fn constants(&self, case: &Case) -> [u32; 3] {
        [
            u32::try_from(shared_bytes(case) / 4).unwrap_or(u32::MAX),
            0,
            0,
        ]
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = chase::needs(case);
        needs.push(DeviceNeed::SharedMemory(shared_bytes(case)));
        needs
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let next = chain(nodes(case.params.working_set));
        let (node, sum) = walk(&next, STEPS);
        check_words(readback, case.threads(), |_, _| [node, sum, 1, sum])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::{DeviceCaps, DeviceNeed};

    #[test]
    fn five_curves_of_six_sizes_with_ids_that_read_back() {
        let cases = CacheCarveout.cases();
        assert_eq!(cases.len(), SHARED_SIZES.len() * 6);
        assert_eq!(cases[0].id, "mem.carveout.shared16kb.16kb");
        assert_eq!(
            cases[0].name,
            "Latency 16KB beside 16KB shared (pointer chase)"
        );
        assert_eq!(cases[5].id, "mem.carveout.shared16kb.512kb");
        assert!(cases.iter().all(|c| c.work().is_chain()));
        for case in &cases {
            assert_eq!(carveout_case_for_id(&case.id).as_ref(), Some(case));
        }
        let refined = carveout_case(48 << 10, 200 << 10);
        assert_eq!(refined.id, "mem.carveout.shared48kb.200kb");
        assert_eq!(carveout_case_for_id(&refined.id), Some(refined.clone()));
        assert_eq!(CacheCarveout.constants(&refined), [12288, 0, 0]);
        for bad in [
            "mem.carveout.shared16kb.",
            "mem.carveout.shared16kb.1kb",
            "mem.carveout.shared20kb.64kb",
            "mem.carveout.shared0kb.64kb",
            "mem.carveout.shared16kb.064kb",
            "mem.carveout.shared16kb.1024kb",
            "mem.sweep.latency.64kb",
        ] {
            assert!(carveout_case_for_id(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn declarations_above_the_device_maximum_are_skipped() {
        let need = |shared: u64| {
            CacheCarveout
                .needs(&carveout_case(shared, 64 << 10))
                .into_iter()
                .find(|n| matches!(n, DeviceNeed::SharedMemory(_)))
                .unwrap()
        };
        let caps = DeviceCaps {
            max_compute_shared_memory: 48 << 10,
            ..DeviceCaps::default()
        };
        assert!(need(48 << 10).missing(&caps).is_none());
        let reason = need(64 << 10).missing(&caps).unwrap();
        assert!(reason.contains("maxComputeSharedMemorySize"), "{reason}");
    }
}
