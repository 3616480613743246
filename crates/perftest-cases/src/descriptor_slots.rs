//! The eight-slot storage-buffer array that the descriptor-indexing families share
//! (`descriptor_index`, `typed_alias`, `eight_regions`): its layout (eight 16 KB slots of one
//! 128 KB buffer), the uniform slot and the non-uniform variant, how a thread finds its words,
//! and what a case indexing it needs and passes.

use crate::case::{Case, Pattern};
use crate::data::modern_word;
use crate::feature::Feature;
use crate::reference::{KernelParams, THREADS_PER_GROUP};
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

/// What a case indexing the 8-slot array needs: dynamic indexing, and non-uniform indexing for
/// the [`NON_UNIFORM`] variant (shared by the families that bind the slot array).
pub fn slot_array_needs(case: &Case) -> Vec<DeviceNeed> {
    let mut needs = vec![DeviceNeed::Feature(Feature::StorageBufferDynamic)];
    if case.params.variant == NON_UNIFORM {
        needs.push(DeviceNeed::Feature(Feature::StorageBufferNonUniform));
    }
    needs
}

/// The push constants of a case indexing the 8-slot array: [`UNIFORM_SLOT`] as the runtime
/// index, unused (0) by the [`NON_UNIFORM`] variant, whose slot comes from the lane.
pub fn slot_array_params(case: &Case) -> KernelParams {
    KernelParams {
        index: if case.params.variant == NON_UNIFORM {
            0
        } else {
            UNIFORM_SLOT
        },
        ..KernelParams::default()
    }
}
