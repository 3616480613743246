//! Load latency (memory suite): a pointer chase over working sets doubling from 4 KB to
//! 512 MB (`shaders/pointer_chase.comp`).
//!
//! The working set is a device-local buffer of `bytes`, cut into 128-byte nodes (one per cache
//! line on every GPU we know; the caches hold whole lines, so the set occupies `bytes` of
//! cache). The first 8 bytes of node `n` hold the device address of node `next[n]`, where
//! `next` is a random cyclic permutation of all nodes ([`crate::chase::chain`]: Sattolo's algorithm over a
//! lowbias32-driven generator, so one cycle visits every node before it repeats). Following
//! it, every load depends on the one before and goes to an unpredictable line of the whole
//! set, so neither prefetching nor memory-level parallelism can hide the latency.
//!
//! A dispatch runs one workgroup, in which one thread follows the chain (the classic latency
//! measurement: nothing else competes for the load path). The measured count is a number of blocks of 256 steps ([`crate::Unit::DependentLoad`]), so the
//! time per step is the latency of one load at that working set: L1 hits while the set fits
//! the SM's L1, L2 hits while it fits the L2, memory (with whatever TLB misses the walk takes)
//! beyond.
//! The walk goes on from dispatch to dispatch (the kernel keeps its position in node 0), so
//! the timed steps walk the whole set rather than repeating its first nodes; and a chain is
//! measured alone, after about one untimed lap ([`crate::Family::chain_length`]), so that no
//! other case evicts what it has cached. Because the walk repeats one cycle, a cache that
//! holds less than the whole set keeps little of it (an LRU-like cache keeps none): the latency
//! steps up within one or two doublings past each cache's size. Reports count steps as loads:
//! `1 / (loads per second)` is the latency. `perftest`'s text report turns the results into a
//! latency curve and the cache sizes it implies.
//!
//! Verification runs one block (256 steps) from node 0 in each of the 1024 verification
//! threads (and leaves the timed walk's position alone): each must end on node `next^256(0)`
//! with the wrapping sum of the node indices it visited ([`crate::chase::walk`]), so a chain the GPU read
//! wrongly cannot pass. Needs: buffer device addresses
//! and 64-bit integers (the chain holds real pointers, so a step is one load with no address
//! arithmetic), a device-local heap of four times the set.

use crate::case::{Case, Params, Pattern};
use crate::chase::{
    self, chain, nodes, size_of_word, size_words, sweep_sizes, walk, SIZE_GRANULE, STEPS,
    STEP_BYTES,
};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::family::{Curve, CurvePoint, Family, FamilyRef, Work};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The pointer-chase family.
pub struct PointerChase;

/// The id prefix of the latency sweep's cases.
pub const LATENCY_ID_PREFIX: &str = "mem.sweep.latency.";

/// The latency case of a working set of `bytes` (a multiple of [`SIZE_GRANULE`]): the sweep's
/// own sizes, and those a refined sweep adds between them.
pub fn latency_case(bytes: u64) -> Case {
    let (id, name) = size_words(bytes);
    Case {
        id: format!("{LATENCY_ID_PREFIX}{id}"),
        name: format!("Latency {name} (pointer chase)"),
        suite: Suite::Memory,
        family: FamilyRef(&PointerChase),
        params: Params {
            origin: None,
            format: None,
            width: 2,
            variant: 0,
            working_set: bytes,
            count: 0,
        },
        pattern: Pattern::Random,
    }
}

/// The latency case an id names (`mem.sweep.latency.48mb`, `...20992kb`), for any size of
/// whole kilobytes from 4 KB up: reports of refined sweeps hold sizes the suite does not list.
pub fn latency_case_for_id(id: &str) -> Option<Case> {
    let bytes = size_of_word(id.strip_prefix(LATENCY_ID_PREFIX)?)?;
    let case = latency_case(bytes);
    (bytes >= SIZE_GRANULE && bytes % SIZE_GRANULE == 0 && case.id == id).then_some(case)
}

impl Family for PointerChase {
    fn label(&self) -> &'static str {
        "pointer_chase"
    }

    fn title(&self) -> &'static str {
        "Load latency (pointer chase)"
    }

    fn cases(&self) -> Vec<Case> {
        sweep_sizes().into_iter().map(latency_case).collect()
    }

    fn loop_trip(&self) -> u32 {
        STEPS
    }

    fn curve_point(&self, case: &Case) -> Option<CurvePoint> {
        Some(CurvePoint {
            curve: Curve::Latency { shared: 0 },
            working_set: case.params.working_set,
        })
    }

    fn on_curve_at(&self, _case: &Case, working_set: u64) -> Option<Case> {
        (working_set >= SIZE_GRANULE && working_set % SIZE_GRANULE == 0)
            .then(|| latency_case(working_set))
    }

    fn case_for_id(&self, id: &str) -> Option<Case> {
        latency_case_for_id(id)
    }

    /// Bytes one step loads: the 8-byte address of the next node.
    fn bytes_per_load(&self, _case: &Case) -> u32 {
        STEP_BYTES
    }

    fn work(&self, _case: &Case) -> Work {
        chase::work()
    }

    /// One lap: every node of the working set.
    fn chain_length(&self, case: &Case) -> u64 {
        chase::lap(case)
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        chase::needs(case)
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let next = chain(nodes(case.params.working_set));
        let (node, sum) = walk(&next, STEPS);
        check_words(readback, case.threads(), |_, _| [node, sum, 1, 0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chase::chain_bytes;

    #[test]
    fn refined_sizes_have_ids_that_read_back() {
        for bytes in [
            4 << 10,
            192 << 10,
            1 << 20,
            20992 << 10,
            48 << 20,
            512 << 20,
        ] {
            let case = latency_case(bytes);
            let back = latency_case_for_id(&case.id).unwrap();
            assert_eq!(back.params.working_set, bytes, "{}", case.id);
        }
        assert_eq!(latency_case(20992 << 10).id, "mem.sweep.latency.20992kb");
        assert_eq!(latency_case(48 << 20).id, "mem.sweep.latency.48mb");
        for bad in [
            "mem.sweep.latency.",
            "mem.sweep.latency.0kb",
            "mem.sweep.latency.1kb",
            "mem.sweep.latency.1024kb",
            "mem.sweep.latency.-4kb",
            "mem.sweep.latency.4gb",
            "mem.sweep.bandwidth.4kb",
            "mem.sweep.latency.99999999999999999999mb",
        ] {
            assert!(latency_case_for_id(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn eighteen_sizes_from_4kb_to_512mb() {
        let cases = PointerChase.cases();
        assert_eq!(cases.len(), 18);
        assert_eq!(cases[0].id, "mem.sweep.latency.4kb");
        assert_eq!(cases[0].name, "Latency 4KB (pointer chase)");
        assert_eq!(cases[8].id, "mem.sweep.latency.1mb");
        assert_eq!(cases[17].id, "mem.sweep.latency.512mb");
        assert_eq!(cases[17].params.working_set, 512 << 20);
        assert!(cases.iter().all(|c| c.work().is_chain()));
        assert_eq!(cases[0].ops_per_group(), u64::from(STEPS));
    }

    #[test]
    fn the_chain_is_one_cycle_through_every_node() {
        for n in [1u32, 2, 3, 32, 1000, 8192] {
            let next = chain(n);
            let mut seen = vec![false; n as usize];
            let mut node = 0u32;
            for _ in 0..n {
                assert!(!seen[node as usize], "node {node} visited twice (n = {n})");
                seen[node as usize] = true;
                node = next[node as usize];
            }
            assert_eq!(node, 0, "the cycle closes after n steps (n = {n})");
            assert!(seen.iter().all(|&s| s));
        }
        // Not the identity-like successor chain: neighbours rarely follow each other.
        let next = chain(8192);
        let adjacent = next
            .iter()
            .enumerate()
            .filter(|&(i, &j)| j as usize == i + 1);
        assert!(adjacent.count() < 8);
    }

    #[test]
    fn chain_bytes_hold_the_next_address() {
        let base = 0x1_0000_0000u64;
        let bytes = chain_bytes(4096, base);
        let next = chain(32);
        assert_eq!(bytes.len(), 4096);
        assert_eq!(bytes[8..16], base.to_le_bytes());
        for (n, &to) in next.iter().enumerate() {
            let at = n * 128;
            let mut word = [0u8; 8];
            word.copy_from_slice(&bytes[at..at + 8]);
            assert_eq!(u64::from_le_bytes(word), base + u64::from(to) * 128);
            let rest = if n == 0 { 16 } else { 8 };
            assert!(bytes[at + rest..at + 128].iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn walk_follows_the_chain() {
        let next = vec![2, 0, 3, 1];
        assert_eq!(walk(&next, 0), (0, 0));
        assert_eq!(walk(&next, 1), (2, 2));
        assert_eq!(walk(&next, 4), (0, 2 + 3 + 1));
        assert_eq!(walk(&next, 5), (2, 8));
    }
}
