//! The working-set model the bandwidth families share (`working_set` in the modern suite,
//! `cache_sweep` in the memory suite's sweep): how a case reads its set (the paths), where each
//! thread's loads land and what it sums, and what a case costs and needs.

use crate::case::{Case, Pattern};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::data::{mix32, modern_word};
use crate::family::{Unit, Work};
use crate::feature::Feature;
use crate::reference::THREADS_PER_GROUP;
use crate::support::DeviceNeed;

/// How a case reads its working set (`Params::variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Path {
    /// `StructuredBuffer<uint4>.Load`: a `uvec4[]` storage buffer.
    Structured,
    /// `ByteAddressBuffer.Load4`: four 32-bit loads from a `uint[]` storage buffer.
    Raw,
    /// `ByteAddressBuffer.Load4 (uvec4[] view)`: one aligned 16-byte load of the same bytes.
    Aligned,
    /// `BDA<uint4, align16>.Load`: a 16-byte-aligned buffer reference at a device address.
    Bda,
}

impl Path {
    /// Every path, in suite order.
    pub const ALL: [Path; 4] = [Path::Structured, Path::Raw, Path::Aligned, Path::Bda];

    /// The id word (`structured`).
    pub fn word(self) -> &'static str {
        match self {
            Path::Structured => "structured",
            Path::Raw => "raw",
            Path::Aligned => "aligned",
            Path::Bda => "bda",
        }
    }

    /// The display name (`StructuredBuffer<uint4>.Load`).
    pub fn display(self) -> &'static str {
        match self {
            Path::Structured => "StructuredBuffer<uint4>.Load",
            Path::Raw => "ByteAddressBuffer.Load4",
            Path::Aligned => "ByteAddressBuffer.Load4 (uvec4[] view)",
            Path::Bda => "BDA<uint4, align16>.Load",
        }
    }

    /// The access patterns the path runs.
    pub fn patterns(self) -> &'static [Pattern] {
        match self {
            Path::Structured | Path::Raw => &[
                Pattern::Linear,
                Pattern::Random,
                Pattern::WaveUniform,
                Pattern::WaveCoherent,
            ],
            Path::Aligned | Path::Bda => &[Pattern::Linear, Pattern::Random],
        }
    }

    /// Whether the path reads through a storage-buffer descriptor (all but [`Path::Bda`]).
    pub fn uses_descriptor(self) -> bool {
        self != Path::Bda
    }

    pub(crate) fn variant(self) -> u32 {
        match self {
            Path::Structured => 0,
            Path::Raw => 1,
            Path::Aligned => 2,
            Path::Bda => 3,
        }
    }
}

/// The path of a case of this family.
pub fn path(case: &Case) -> Path {
    Path::ALL
        .into_iter()
        .find(|p| p.variant() == case.params.variant)
        .unwrap_or(Path::Structured)
}

/// Bytes one load reads.
pub const ELEMENT_BYTES: u64 = 16;

/// Lanes of the wave the wave patterns are built for.
pub const WAVE: u32 = 32;

/// Loads per thread over a working set of `bytes`: 256, or 32 from 64 MB on (so that a
/// dispatch of the original's size still covers a large part of the set in reasonable time).
pub fn loads_per_thread(bytes: u64) -> u32 {
    if bytes >= 64 << 20 {
        32
    } else {
        256
    }
}

/// The element mask of a working set of `bytes`: elements minus one.
pub fn element_mask(bytes: u64) -> u32 {
    u32::try_from(bytes / ELEMENT_BYTES)
        .unwrap_or(0)
        .wrapping_sub(1)
}

/// The element that load `i` of thread `local` of workgroup `group` reads (before the runtime
/// zero is OR-ed in), for a working set of `mask + 1` elements and `loads` loads per thread:
/// the addressing of `shaders/working_set.comp`.
pub fn element(pattern: Pattern, loads: u32, mask: u32, group: u32, local: u32, i: u32) -> u32 {
    let g = group.wrapping_mul(THREADS_PER_GROUP).wrapping_add(local);
    let wave_hash = || mix32((g / WAVE).wrapping_mul(loads).wrapping_add(i)) & mask;
    match pattern {
        Pattern::Random => mix32(g.wrapping_mul(loads).wrapping_add(i)) & mask,
        Pattern::WaveUniform => wave_hash(),
        Pattern::WaveCoherent => (wave_hash() & !(WAVE - 1)) | (g & (WAVE - 1)),
        // Linear (and anything else): the group's contiguous block.
        _ => {
            group
                .wrapping_mul(THREADS_PER_GROUP)
                .wrapping_mul(loads)
                .wrapping_add(i.wrapping_mul(THREADS_PER_GROUP))
                .wrapping_add(local)
                & mask
        }
    }
}

/// The index of the first 32-bit word a load of element `e` reads through `path`, with the
/// runtime zero `elements_mask` OR-ed in where the kernel ORs it (into the element index, or
/// into the byte address for the byte-address paths).
pub fn first_word(path: Path, e: u32, elements_mask: u32) -> u32 {
    match path {
        Path::Structured | Path::Bda => (e | elements_mask).wrapping_mul(4),
        Path::Raw => ((e.wrapping_mul(16)) | elements_mask) >> 2,
        Path::Aligned => (((e.wrapping_mul(16)) | elements_mask) >> 4).wrapping_mul(4),
    }
}

/// The CPU model: the four words thread `local` of verification workgroup `group` of `case`
/// writes (the wrapping sum of every element it loads).
pub fn thread_sum(case: &Case, elements_mask: u32, group: u32, local: u32) -> [u32; 4] {
    let bytes = case.params.working_set;
    let loads = loads_per_thread(bytes);
    let mask = element_mask(bytes);
    let path = path(case);
    let mut sum = [0u32; 4];
    for i in 0..loads {
        let e = element(case.pattern, loads, mask, group, local, i);
        let w = first_word(path, e, elements_mask);
        for (k, lane) in sum.iter_mut().enumerate() {
            *lane = lane.wrapping_add(modern_word(w.wrapping_add(k as u32)));
        }
    }
    sum
}

/// The work of a case: [`loads_per_thread`] 16-byte loads per thread.
pub fn work(case: &Case) -> Work {
    Work {
        unit: Unit::Load,
        per_thread: loads_per_thread(case.params.working_set),
    }
}

/// What a case needs: its buffer's range through a descriptor, or device addresses, and the
/// memory of the set.
pub fn needs(case: &Case) -> Vec<DeviceNeed> {
    let bytes = case.params.working_set;
    if path(case).uses_descriptor() {
        vec![
            DeviceNeed::StorageBufferRange(bytes),
            DeviceNeed::DeviceMemory(bytes),
        ]
    } else {
        vec![
            DeviceNeed::Feature(Feature::BufferDeviceAddress),
            DeviceNeed::DeviceMemory(bytes),
        ]
    }
}

/// `FAMILY_A`: the element mask (elements - 1).
pub fn constants(case: &Case) -> [u32; 3] {
    [element_mask(case.params.working_set), 0, 0]
}

/// Checks every thread's words against [`thread_sum`] with `elements_mask`.
pub fn verify(case: &Case, elements_mask: u32, readback: &Readback) -> VerifyOutcome {
    check_words(readback, case.threads(), |group, local| {
        thread_sum(case, elements_mask, group, local)
    })
}
