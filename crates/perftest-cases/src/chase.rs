//! The pointer chase the latency families share (`pointer_chase`, the sweep's, and
//! `cache_carveout`, beside declared shared memory): the chain of 128-byte nodes, its CPU
//! model, the working-set sizes and their words in ids and names, and what a chase costs and
//! needs.

use crate::case::Case;
use crate::data::mix32;
use crate::family::{Unit, Work};
use crate::feature::Feature;
use crate::support::DeviceNeed;

/// Bytes of one node (one cache line).
pub const NODE_BYTES: u64 = 128;

/// Steps of one block (the `LOADS` specialization constant; a multiple of 16, the steps the
/// kernel writes out per loop iteration).
pub const STEPS: u32 = 256;

/// The working-set sizes of the memory suite's sweeps, in bytes: 4 KB to 512 MB, doubling.
pub fn sweep_sizes() -> Vec<u64> {
    (12..=29).map(|shift| 1u64 << shift).collect()
}

/// A size as ids and names write it: `4kb` / `4KB`, `1mb` / `1MB`; whole megabytes in MB,
/// anything else in KB (`20992kb`), so that every size of a refined sweep has its own id.
pub fn size_words(bytes: u64) -> (String, String) {
    let (value, unit) = if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        (bytes >> 20, "MB")
    } else {
        (bytes >> 10, "KB")
    };
    (
        format!("{value}{}", unit.to_lowercase()),
        format!("{value}{unit}"),
    )
}

/// The smallest step between two working sets of a chase (a page: the sizes a refined sweep
/// measures between the doubling sweep's are multiples of it).
pub const SIZE_GRANULE: u64 = 4 << 10;

/// The bytes a size word of an id names (`48mb`, `20992kb`; see [`size_words`]), or `None`
/// for anything else (no leading zeros, no overflow).
pub fn size_of_word(word: &str) -> Option<u64> {
    let (digits, shift) = if let Some(d) = word.strip_suffix("mb") {
        (d, 20)
    } else {
        (word.strip_suffix("kb")?, 10)
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// The nodes of a working set of `bytes`.
pub fn nodes(bytes: u64) -> u32 {
    u32::try_from(bytes / NODE_BYTES).unwrap_or(u32::MAX)
}

/// The chain over `nodes` nodes: `next[n]` is the node after `n`. A single cycle through every
/// node (Sattolo's algorithm; the random choices come from lowbias32 of the step and the node
/// count, so the chain is the same on every run and every machine).
pub fn chain(nodes: u32) -> Vec<u32> {
    let mut next: Vec<u32> = (0..nodes).collect();
    for i in (1..nodes).rev() {
        // A choice in 0..i (multiply-shift range reduction of a hashed word).
        let r = mix32(i ^ mix32(nodes));
        let j = ((u64::from(r) * u64::from(i)) >> 32) as u32;
        next.swap(i as usize, j as usize);
    }
    next
}

/// The bytes of the working set of `bytes` at device address `base`: node `n` starts with the
/// little-endian 64-bit address of node `next[n]`; bytes 8..16 of node 0 hold where the timed
/// walk stands (initially node 0's address; the kernel moves it); every other byte is zero.
pub fn chain_bytes(bytes: u64, base: u64) -> Vec<u8> {
    let next = chain(nodes(bytes));
    let mut data = vec![0u8; bytes as usize];
    let next = &next;
    crate::parallel::fill_units(&mut data, NODE_BYTES as usize, |first, run| {
        for (node, bytes) in run.chunks_mut(NODE_BYTES as usize).enumerate() {
            let Some(&to) = next.get(first + node) else {
                break;
            };
            if bytes.len() >= 8 {
                let address = base + u64::from(to) * NODE_BYTES;
                bytes[..8].copy_from_slice(&address.to_le_bytes());
            }
        }
    });
    if data.len() >= 16 {
        data[8..16].copy_from_slice(&base.to_le_bytes());
    }
    data
}

/// The CPU model of `steps` steps from node 0 over `next`: the node reached and the wrapping
/// sum of the nodes visited (each step's destination).
pub fn walk(next: &[u32], steps: u32) -> (u32, u32) {
    let mut node = 0u32;
    let mut sum = 0u32;
    for _ in 0..steps {
        node = next.get(node as usize).copied().unwrap_or(0);
        sum = sum.wrapping_add(node);
    }
    (node, sum)
}

/// Bytes one step loads: the 8-byte address of the next node.
pub const STEP_BYTES: u32 = 8;

/// The work of one chase thread: [`STEPS`] dependent loads.
pub fn work() -> Work {
    Work {
        unit: Unit::DependentLoad,
        per_thread: STEPS,
    }
}

/// One lap of `case`'s chain: every node of its working set.
pub fn lap(case: &Case) -> u64 {
    u64::from(nodes(case.params.working_set))
}

/// What a chase over `case`'s working set needs: device addresses, 64-bit integers (the chain
/// holds real pointers) and the memory of the set.
pub fn needs(case: &Case) -> Vec<DeviceNeed> {
    vec![
        DeviceNeed::Feature(Feature::BufferDeviceAddress),
        DeviceNeed::Feature(Feature::ShaderInt64),
        DeviceNeed::DeviceMemory(case.params.working_set),
    ]
}
