//! Shared memory (memory suite): load bandwidth of workgroup-shared memory by load width, and
//! bank conflicts by stride (`shaders/shared_memory.comp`, one SPIR-V per load width).
//!
//! Every workgroup first fills 16 KB of shared memory with the modern data
//! ([`crate::modern_word`]: lowbias32-hashed words, never zero): each of its 256 threads copies
//! four 16-byte elements from a storage buffer holding that data (word `w` of shared memory is
//! modern word `w`), then a barrier. Then each thread makes 256 loads from shared memory
//! through a view of one width — `uint s[4096]`, `uvec2 s[2048]` or `uvec4 s[1024]` — at
//! element `((local * LANE_STRIDE + i * LOAD_STEP) | elementsMask) & (elements - 1)`, with
//! `local` the thread's index in the workgroup, `i` the load and `elementsMask` a runtime zero:
//! - width (`mem.shared.width.32|64|128`, `groupshared uint|uint2|uint4.Load`): lane stride 1,
//!   load step 256: the 32 lanes of a wave read 32 consecutive elements (128, 256 or 512
//!   consecutive bytes), conflict-free, and each load of a workgroup covers a different
//!   256-element block;
//! - stride (`mem.shared.stride.1..32`, `groupshared uint.Load stride S`): 32-bit loads with
//!   lane stride `S` words and load step 1. With 32 banks of 4 bytes (NVIDIA, AMD), the lanes
//!   of a 32-wide wave hit `32 / S` distinct banks, `S` words per bank: an `S`-way bank
//!   conflict that divides the bandwidth by `S`. Stride 1 is conflict-free.
//!
//! The loads are summed with wrapping adds, in as many lanes as a load has words (the sum
//! widened to four lanes as the original widens loads: `xxxx`, `xyxy`, `xyzw`) and checked
//! word for word against [`thread_sum`]. The kernel declares 20 KB of shared memory (the
//! 16 KB array and the 4 KB through which every kernel's result passes): a device whose
//! `maxComputeSharedMemorySize` is smaller (Vulkan guarantees 16 KB) skips these cases.
//!
//! Reading the results: bytes per clock per SM = loads/s x bytes per load / (SM clock x SM
//! count), the clock being the one the SM ran at (sampled while measuring, not the boost
//! maximum). With 32 banks of 4 bytes an SM delivers at most 128 bytes per clock. Conflict-free
//! loads of every width should come close to it, and stride `S` should give about `128 / S`.
//! The fill (four 16-byte loads and stores per thread and a barrier) is part of the time, as
//! is the one store of the result; both are small beside 256 loads.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::data::modern_word;
use crate::family::{Family, FamilyRef};
use crate::reference::LOADS_PER_THREAD;
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// Bytes of the shared array.
pub const SHARED_BYTES: u64 = 16 * 1024;

/// Bytes of shared memory every kernel declares besides the family's array: the 256 `vec4`
/// through which `finish()` passes each thread's result.
pub const RESULT_SHARED_BYTES: u64 = 256 * 16;

/// The bank-conflict strides, in 32-bit words.
pub const STRIDES: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// The shared-memory family.
pub struct SharedMemory;

/// Words (32-bit) one load of `case` reads: 1, 2 or 4.
pub fn words(case: &Case) -> u32 {
    case.params.width
}

/// The lane stride and load step of `case`, in elements of its view (the `FAMILY_A` and
/// `FAMILY_B` specialization constants).
pub fn steps(case: &Case) -> (u32, u32) {
    if case.params.count == 0 {
        (1, 256)
    } else {
        (case.params.count, 1)
    }
}

/// The CPU model: the wrapping sums of the 256 loads of the thread at `local`, widened to four
/// lanes.
pub fn thread_sum(case: &Case, elements_mask: u32, local: u32) -> [u32; 4] {
    let w = words(case);
    let elements = (SHARED_BYTES / 4) as u32 / w;
    let (lane_stride, load_step) = steps(case);
    let mut sum = [0u32; 4];
    for i in 0..LOADS_PER_THREAD {
        let e = (local
            .wrapping_mul(lane_stride)
            .wrapping_add(i.wrapping_mul(load_step))
            | elements_mask)
            & (elements - 1);
        for (k, s) in sum.iter_mut().enumerate().take(w as usize) {
            *s = s.wrapping_add(modern_word(e * w + k as u32));
        }
    }
    match w {
        1 => [sum[0]; 4],
        2 => [sum[0], sum[1], sum[0], sum[1]],
        _ => sum,
    }
}

impl Family for SharedMemory {
    fn label(&self) -> &'static str {
        "shared_memory"
    }

    fn title(&self) -> &'static str {
        "Shared memory"
    }

    fn cases(&self) -> Vec<Case> {
        let family = FamilyRef(&SharedMemory);
        let one = |id: String, name: String, width: u32, stride: u32| Case {
            id,
            name,
            suite: Suite::Memory,
            family,
            params: Params {
                width,
                count: stride,
                working_set: SHARED_BYTES,
                ..Params::default()
            },
            pattern: Pattern::Linear,
        };
        let widths = [(1, "32", "uint"), (2, "64", "uint2"), (4, "128", "uint4")]
            .into_iter()
            .map(|(w, bits, ty)| {
                one(
                    format!("mem.shared.width.{bits}"),
                    format!("groupshared {ty}.Load"),
                    w,
                    0,
                )
            });
        let strides = STRIDES.into_iter().map(|s| {
            one(
                format!("mem.shared.stride.{s}"),
                format!("groupshared uint.Load stride {s}"),
                1,
                s,
            )
        });
        widths.chain(strides).collect()
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        4 * words(case)
    }

    fn needs(&self, _case: &Case) -> Vec<DeviceNeed> {
        vec![DeviceNeed::SharedMemory(SHARED_BYTES + RESULT_SHARED_BYTES)]
    }

    fn constants(&self, case: &Case) -> [u32; 3] {
        let (lane_stride, load_step) = steps(case);
        [lane_stride, load_step, 0]
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let elements_mask = self.kernel_params(case).elements_mask;
        check_words(readback, case.threads(), |_, local| {
            thread_sum(case, elements_mask, local)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str) -> Case {
        SharedMemory
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn nine_cases_with_ids_names_bytes_and_constants() {
        let all = SharedMemory.cases();
        let ids: Vec<&str> = all.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "mem.shared.width.32",
                "mem.shared.width.64",
                "mem.shared.width.128",
                "mem.shared.stride.1",
                "mem.shared.stride.2",
                "mem.shared.stride.4",
                "mem.shared.stride.8",
                "mem.shared.stride.16",
                "mem.shared.stride.32",
            ]
        );
        assert_eq!(all[1].name, "groupshared uint2.Load");
        assert_eq!(all[8].name, "groupshared uint.Load stride 32");
        let bytes: Vec<u32> = all.iter().map(Case::bytes_per_load).collect();
        assert_eq!(bytes, [4, 8, 16, 4, 4, 4, 4, 4, 4]);
        assert_eq!(SharedMemory.constants(&all[2]), [1, 256, 0]);
        assert_eq!(SharedMemory.constants(&all[5]), [4, 1, 0]);
        assert!(all
            .iter()
            .all(|c| c.needs() == [DeviceNeed::SharedMemory(20 * 1024)]));
        assert!(all.iter().all(|c| c.suite == Suite::Memory));
    }

    #[test]
    fn width_models_read_consecutive_elements() {
        // Thread 3, 32-bit: words 3, 259, 515, ... wrapping at 4096 words.
        let s = thread_sum(&case("mem.shared.width.32"), 0, 3);
        let direct = (0..256u32).fold(0u32, |acc, i| {
            acc.wrapping_add(modern_word((3 + 256 * i) % 4096))
        });
        assert_eq!(s, [direct; 4]);
        // 128-bit: element e is words 4e..4e+3; 1024 elements, so 4 passes over the array.
        let s4 = thread_sum(&case("mem.shared.width.128"), 0, 3);
        let mut direct4 = [0u32; 4];
        for i in 0..256u32 {
            let e = (3 + 256 * i) % 1024;
            for (k, d) in direct4.iter_mut().enumerate() {
                *d = d.wrapping_add(modern_word(4 * e + k as u32));
            }
        }
        assert_eq!(s4, direct4);
        let s2 = thread_sum(&case("mem.shared.width.64"), 0, 3);
        assert_eq!((s2[0], s2[1]), (s2[2], s2[3]));
        assert_ne!(s2[0], s2[1]);
    }

    #[test]
    fn stride_models_and_bank_conflicts() {
        // Stride 32: lanes 0..32 of a wave read words 32 * lane + i: all in bank i mod 32.
        let c = case("mem.shared.stride.32");
        let (lane_stride, step) = steps(&c);
        let banks: std::collections::HashSet<u32> = (0..32)
            .map(|lane: u32| (lane * lane_stride + 7 * step) % 32)
            .collect();
        assert_eq!(banks.len(), 1);
        let s1 = steps(&case("mem.shared.stride.1"));
        let banks1: std::collections::HashSet<u32> = (0..32)
            .map(|lane: u32| (lane * s1.0 + 7 * s1.1) % 32)
            .collect();
        assert_eq!(banks1.len(), 32);
        // Thread 200 at stride 32 reads words (6400 + i) mod 4096.
        let want = (0..256u32).fold(0u32, |acc, i| {
            acc.wrapping_add(modern_word((200 * 32 + i) % 4096))
        });
        assert_eq!(thread_sum(&c, 0, 200), [want; 4]);
        // Different strides read different words.
        assert_ne!(
            thread_sum(&case("mem.shared.stride.2"), 0, 5),
            thread_sum(&case("mem.shared.stride.4"), 0, 5)
        );
    }

    #[test]
    fn word_check_is_exact() {
        let c = case("mem.shared.stride.8");
        let mut readback = Readback {
            sums: (0..1024)
                .map(|t| thread_sum(&c, 0, t % 256).map(f32::from_bits))
                .collect(),
            written: Vec::new(),
        };
        assert!(SharedMemory.verify(&c, &readback).passed());
        readback.sums[1023][3] = f32::from_bits(readback.sums[1023][3].to_bits() ^ 1 << 31);
        assert_eq!(SharedMemory.verify(&c, &readback).mismatches, 1);
    }
}
