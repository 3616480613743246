//! Constant paths (memory suite): the ways a kernel reads a value every thread needs
//! (`shaders/constant_paths.comp`, one SPIR-V per path).
//!
//! Every case makes 256 loads per thread. With `start` the original's starting element
//! (uniform: 0; linear: the thread's local index; random: `(local * 0x3504f333) mod 16`, the
//! original's multiplicative hash) and `elementsMask` a runtime zero:
//! - `push constant uint.Load` (`mem.const.push`, uniform): load `i` reads family word
//!   `((start + i) | elementsMask) & 3` of the push constants (bytes 16..32), which hold
//!   [`crate::modern_word`] `0..4`; the index is the same for every thread, and the OR keeps
//!   the compiler from resolving it per unrolled iteration;
//! - `cbuffer{uint4} load uniform` / `divergent` (`mem.const.ubo.uniform` / `.divergent`): a
//!   16 KB uniform block `uvec4 c[1024]` holding the modern data (element `e` is words
//!   `4e..4e+3`), load `i` reads `c[((start + i) | elementsMask) & 1023]` with `start` = 0
//!   (the same element for every thread) or the local index (neighbouring threads read
//!   neighbouring elements);
//! - `WaveReadLaneFirst(StructuredBuffer<uint4>.Load)` (`mem.const.broadcast`, uniform): the
//!   same 16 KB of modern data as a storage buffer `uvec4[]`, load `i` reads element
//!   `((start + i) | elementsMask) & 1023`, an index the same for the whole wave, through
//!   `subgroupBroadcastFirst`, so the value is provably wave-uniform and a compiler may load it
//!   once per wave. It needs subgroup ballot in compute shaders (the broadcast is a ballot
//!   operation; it is the only subgroup feature this family asks for) and a Vulkan 1.1 kernel
//!   (SPIR-V 1.3);
//! - `cbuffer{float4} load (no mask)` uniform / linear / random (`mem.const.nomask.*`): the
//!   original `cbuffer{float4} load` cases over the original 16 KB input data, with the index
//!   `(start + i) & 1023` and no runtime mask, so the compiler sees the whole address range
//!   (and, for uniform, every address): sebbbi/perftest issue #20 measured the uniform case
//!   27x faster on an RTX 4070 without the mask. Compare with the original suite's
//!   `cbuffer{float4} load` cases, which keep the mask.
//!
//! The integer paths sum the loaded words with wrapping adds (one-word loads widened to all
//! four lanes), checked word for word against [`thread_sum`]; the `no mask` cases sum floats,
//! checked against the original CPU model within the suite's float tolerance.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_sums, check_words, Readback, VerifyOutcome};
use crate::data::{input_bytes, modern_word};
use crate::family::{Family, FamilyRef};
use crate::reference::{
    buffer_sum, floats_at, KernelParams, ReferenceSum, Tolerance, LOADS_PER_THREAD,
};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// Elements (16 bytes each) of the uniform and storage buffers: 16 KB.
pub const ELEMENTS: u32 = 1024;

/// The constant-path family.
pub struct ConstantPaths;

/// How a case reads its constant (`Params::variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Path {
    /// Four words of the push constants, indexed at run time.
    Push,
    /// A `uvec4[1024]` uniform block of modern data.
    Ubo,
    /// A storage-buffer load with a wave-uniform index through `subgroupBroadcastFirst`.
    Broadcast,
    /// The original `vec4[1024]` uniform block, indexed without the runtime mask.
    NoMask,
}

impl Path {
    /// Every path, in suite order.
    pub const ALL: [Path; 4] = [Path::Push, Path::Ubo, Path::Broadcast, Path::NoMask];

    fn variant(self) -> u32 {
        match self {
            Path::Push => 0,
            Path::Ubo => 1,
            Path::Broadcast => 2,
            Path::NoMask => 3,
        }
    }
}

/// The path of a case of this family.
pub fn path(case: &Case) -> Path {
    Path::ALL
        .into_iter()
        .find(|p| p.variant() == case.params.variant)
        .unwrap_or(Path::Push)
}

/// The four family words of the push constants the push path reads: modern words `0..4`.
pub fn push_words() -> [u32; 4] {
    [0, 1, 2, 3].map(modern_word)
}

/// The first element a thread at `local` reads (`bufferStart()` in `shaders/common.glsl`).
fn buffer_start(pattern: Pattern, local: u32) -> u32 {
    match pattern {
        Pattern::Linear => local,
        Pattern::Random => local.wrapping_mul(0x3504_f333) & 0xf,
        _ => 0,
    }
}

/// Element `e` of the modern data as a `uvec4`.
fn modern_element(e: u32) -> [u32; 4] {
    [0, 1, 2, 3].map(|k| modern_word(4 * e + k))
}

/// The CPU model of an integer path (push, uniform block, broadcast): the wrapping sums of
/// the thread's 256 loads.
pub fn thread_sum(case: &Case, elements_mask: u32, local: u32) -> [u32; 4] {
    let start = buffer_start(case.pattern, local);
    let mut sum = [0u32; 4];
    for i in 0..LOADS_PER_THREAD {
        let index = (start + i) | elements_mask;
        let value = match path(case) {
            Path::Push => [push_words()[(index & 3) as usize]; 4],
            _ => modern_element(index & (ELEMENTS - 1)),
        };
        for (s, v) in sum.iter_mut().zip(value) {
            *s = s.wrapping_add(v);
        }
    }
    sum
}

impl Family for ConstantPaths {
    fn label(&self) -> &'static str {
        "constant_paths"
    }

    fn title(&self) -> &'static str {
        "Constant paths"
    }

    fn cases(&self) -> Vec<Case> {
        let family = FamilyRef(&ConstantPaths);
        let one = |id: &str, name: &str, p: Path, width: u32, pattern: Pattern| Case {
            id: id.to_string(),
            name: name.to_string(),
            suite: Suite::Memory,
            family,
            params: Params {
                width,
                variant: p.variant(),
                working_set: if p == Path::Push {
                    16
                } else {
                    u64::from(ELEMENTS) * 16
                },
                ..Params::default()
            },
            pattern,
        };
        let mut cases = vec![
            one(
                "mem.const.push",
                "push constant uint.Load",
                Path::Push,
                1,
                Pattern::Uniform,
            ),
            one(
                "mem.const.ubo.uniform",
                "cbuffer{uint4} load uniform",
                Path::Ubo,
                4,
                Pattern::Uniform,
            ),
            one(
                "mem.const.ubo.divergent",
                "cbuffer{uint4} load divergent",
                Path::Ubo,
                4,
                Pattern::Linear,
            ),
            one(
                "mem.const.broadcast",
                "WaveReadLaneFirst(StructuredBuffer<uint4>.Load)",
                Path::Broadcast,
                4,
                Pattern::Uniform,
            ),
        ];
        cases.extend(Case::per_pattern(
            family,
            Suite::Memory,
            "mem.const.nomask",
            "cbuffer{float4} load (no mask)",
            Params {
                width: 4,
                variant: Path::NoMask.variant(),
                working_set: u64::from(ELEMENTS) * 16,
                ..Params::default()
            },
        ));
        cases
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        match path(case) {
            Path::Push => 4,
            _ => 16,
        }
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        match path(case) {
            Path::Broadcast => vec![DeviceNeed::SubgroupBallot],
            _ => Vec::new(),
        }
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        // The `no mask` model: the original cbuffer model with the index `(start + i) & 1023`
        // (the integer paths are checked by `verify` with `thread_sum`).
        let bytes = input_bytes();
        buffer_sum(case, params, local, |_, i, start| {
            floats_at(bytes, (((start + i) & (ELEMENTS - 1)) * 16) as usize, 4)
        })
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        if path(case) == Path::NoMask {
            return check_sums(case, &readback.sums, Tolerance::DEFAULT);
        }
        let elements_mask = self.kernel_params(case).elements_mask;
        check_words(readback, case.threads(), |_, local| {
            thread_sum(case, elements_mask, local)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::reference_sum;

    fn case(id: &str) -> Case {
        ConstantPaths
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn seven_cases_with_ids_names_and_needs() {
        let all = ConstantPaths.cases();
        let ids: Vec<&str> = all.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "mem.const.push",
                "mem.const.ubo.uniform",
                "mem.const.ubo.divergent",
                "mem.const.broadcast",
                "mem.const.nomask.uniform",
                "mem.const.nomask.linear",
                "mem.const.nomask.random",
            ]
        );
        assert_eq!(all[0].name, "push constant uint.Load");
        assert_eq!(all[5].name, "cbuffer{float4} load (no mask) linear");
        assert!(all.iter().all(|c| c.suite == Suite::Memory));
        let bytes: Vec<u32> = all.iter().map(Case::bytes_per_load).collect();
        assert_eq!(bytes, [4, 16, 16, 16, 16, 16, 16]);
        assert_eq!(all[3].needs(), [DeviceNeed::SubgroupBallot]);
        assert!(all
            .iter()
            .filter(|c| c.id != "mem.const.broadcast")
            .all(|c| c.needs().is_empty()));
        let paths: Vec<Path> = all.iter().map(path).collect();
        assert_eq!(
            paths,
            [
                Path::Push,
                Path::Ubo,
                Path::Ubo,
                Path::Broadcast,
                Path::NoMask,
                Path::NoMask,
                Path::NoMask
            ]
        );
    }

    #[test]
    fn integer_models() {
        // Push: index i & 3 for every thread, so each word 64 times.
        let w = push_words();
        let want = w
            .iter()
            .fold(0u32, |s, &x| s.wrapping_add(x.wrapping_mul(64)));
        let push = case("mem.const.push");
        assert_eq!(thread_sum(&push, 0, 0), [want; 4]);
        assert_eq!(thread_sum(&push, 0, 200), [want; 4]);
        assert!(w.iter().all(|&x| x != 0));
        // Uniform block, uniform index: elements 0..256 for every thread; the broadcast path
        // reads the same.
        let ubo = case("mem.const.ubo.uniform");
        let mut direct = [0u32; 4];
        for e in 0..256 {
            for k in 0..4 {
                direct[k as usize] = direct[k as usize].wrapping_add(modern_word(4 * e + k));
            }
        }
        assert_eq!(thread_sum(&ubo, 0, 9), direct);
        assert_eq!(thread_sum(&case("mem.const.broadcast"), 0, 9), direct);
        // Divergent: thread 1 reads elements 1..257.
        let div = case("mem.const.ubo.divergent");
        let mut shifted = direct;
        for (k, s) in (0u32..).zip(shifted.iter_mut()) {
            *s = s
                .wrapping_sub(modern_word(k))
                .wrapping_add(modern_word(4 * 256 + k));
        }
        assert_eq!(thread_sum(&div, 0, 1), shifted);
        assert_ne!(thread_sum(&div, 0, 1), thread_sum(&div, 0, 2));
    }

    #[test]
    fn no_mask_models_equal_the_original_cbuffer_models() {
        let original = crate::matrix::original_cases();
        for pattern in ["uniform", "linear", "random"] {
            let ours = case(&format!("mem.const.nomask.{pattern}"));
            let theirs = crate::matrix::find_case(&original, &format!("cbuffer.float4.{pattern}"))
                .cloned()
                .unwrap_or_else(|| unreachable!("{pattern}"));
            for local in [0, 5, 255] {
                let p = KernelParams::for_case(&ours);
                assert_eq!(
                    reference_sum(&ours, p, [local, 0]),
                    reference_sum(&theirs, KernelParams::for_case(&theirs), [local, 0]),
                    "{pattern} {local}"
                );
            }
        }
    }

    #[test]
    fn checks_accept_the_models_only() {
        let c = case("mem.const.ubo.divergent");
        let mut readback = Readback {
            sums: (0..1024)
                .map(|t| thread_sum(&c, 0, t % 256).map(f32::from_bits))
                .collect(),
            written: Vec::new(),
        };
        assert!(ConstantPaths.verify(&c, &readback).passed());
        readback.sums[3][2] = f32::from_bits(readback.sums[3][2].to_bits() ^ 1);
        assert_eq!(ConstantPaths.verify(&c, &readback).mismatches, 1);
        let n = case("mem.const.nomask.random");
        let p = KernelParams::for_case(&n);
        let mut sums: Vec<[f32; 4]> = (0..1024)
            .map(|t| reference_sum(&n, p, [t % 256, 0]).sum)
            .collect();
        let good = Readback {
            sums: sums.clone(),
            written: Vec::new(),
        };
        assert!(ConstantPaths.verify(&n, &good).passed());
        sums[0][0] = f32::from_bits(sums[0][0].to_bits() ^ (1 << 22));
        let bad = Readback {
            sums,
            written: Vec::new(),
        };
        assert!(!ConstantPaths.verify(&n, &bad).passed());
    }
}
