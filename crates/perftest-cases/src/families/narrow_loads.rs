//! Narrow loads (memory suite): 8- and 16-bit storage-buffer loads beside the 32-bit load of
//! the same buffer (`shaders/narrow_loads.comp`, one SPIR-V per element type).
//!
//! Every case reads a 16 KB storage buffer through an element array of one type and makes
//! 256 loads per thread with the original addressing: the thread starts at element `start`
//! (uniform: 0; linear: its local index; random: `(local * 0x3504f333) mod 16`, the original's
//! multiplicative hash) and load `i` reads element `(start + i) | elementsMask` (a runtime
//! zero). Each load is widened to 32 bits and summed; the sum goes out in all four lanes
//! (`xxxx`, as the original widens one-component loads).
//!
//! Element types and their data:
//! - `uint8_t[]`, `uint16_t[]` and `uint[]` (the 32-bit reference) view one buffer holding the
//!   modern data ([`crate::modern_bytes`]: lowbias32-hashed words, never zero; element `e` of
//!   the 8- and 16-bit views is byte / little-endian half-word `e`); each value is widened to
//!   `uint` and summed with wrapping adds, checked word for word against [`thread_sum`];
//! - `float16_t[]` views a second 16 KB buffer holding the original input data
//!   ([`crate::input_bytes`]), whose every half-word is a normal, finite half float of
//!   magnitude in `[2^-7, 4)` (hashed modern words would hold infinities and NaNs as halves).
//!   Each half is converted to `float` and summed in f32, checked against the CPU model within
//!   the suite's float tolerance.
//!
//! The 8- and 16-bit kernels need Vulkan 1.2 features (compiled for SPIR-V 1.3 with the
//! storage and explicit-arithmetic-type extensions): `uint8_t` needs `storageBuffer8BitAccess`
//! and `shaderInt8`, `uint16_t` needs `storageBuffer16BitAccess` and `shaderInt16`,
//! `float16_t` needs `storageBuffer16BitAccess` and `shaderFloat16`; a device without them
//! skips the case and names the feature.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_sums, check_words, Readback, VerifyOutcome};
use crate::data::{input_bytes, modern_bytes};
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::format::half_to_f32;
use crate::reference::{buffer_sum, KernelParams, ReferenceSum, Tolerance, LOADS_PER_THREAD};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// Bytes of each buffer the family reads.
pub const BUFFER_BYTES: u64 = 16 * 1024;

/// The narrow-load family.
pub struct NarrowLoads;

/// The element type a case loads (`Params::variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    /// `uint8_t`: one byte of the modern data.
    U8,
    /// `uint16_t`: a little-endian half-word of the modern data.
    U16,
    /// `float16_t`: a half float of the original input data.
    F16,
    /// `uint`: a word of the modern data (the 32-bit reference).
    U32,
}

impl Element {
    /// Every element type, in suite order.
    pub const ALL: [Element; 4] = [Element::U8, Element::U16, Element::F16, Element::U32];

    /// The id word (`u8`).
    pub fn id(self) -> &'static str {
        match self {
            Element::U8 => "u8",
            Element::U16 => "u16",
            Element::F16 => "f16",
            Element::U32 => "u32",
        }
    }

    /// The display name before the pattern (`StructuredBuffer<uint8_t>.Load`).
    pub fn display(self) -> &'static str {
        match self {
            Element::U8 => "StructuredBuffer<uint8_t>.Load",
            Element::U16 => "StructuredBuffer<uint16_t>.Load",
            Element::F16 => "StructuredBuffer<float16_t>.Load",
            Element::U32 => "StructuredBuffer<uint>.Load",
        }
    }

    /// Bytes one load reads.
    pub fn bytes(self) -> u32 {
        match self {
            Element::U8 => 1,
            Element::U16 | Element::F16 => 2,
            Element::U32 => 4,
        }
    }

    /// What the element type needs from the device.
    pub fn needs(self) -> Vec<DeviceNeed> {
        match self {
            Element::U8 => vec![
                DeviceNeed::Feature(Feature::StorageBuffer8Bit),
                DeviceNeed::Feature(Feature::ShaderInt8),
            ],
            Element::U16 => vec![
                DeviceNeed::Feature(Feature::StorageBuffer16Bit),
                DeviceNeed::Feature(Feature::ShaderInt16),
            ],
            Element::F16 => vec![
                DeviceNeed::Feature(Feature::StorageBuffer16Bit),
                DeviceNeed::Feature(Feature::ShaderFloat16),
            ],
            Element::U32 => Vec::new(),
        }
    }

    /// Whether the kernel reads the original input data (else the modern data).
    pub fn reads_input_data(self) -> bool {
        self == Element::F16
    }

    fn variant(self) -> u32 {
        match self {
            Element::U8 => 0,
            Element::U16 => 1,
            Element::F16 => 2,
            Element::U32 => 3,
        }
    }
}

/// The element type of a case of this family.
pub fn element(case: &Case) -> Element {
    Element::ALL
        .into_iter()
        .find(|e| e.variant() == case.params.variant)
        .unwrap_or(Element::U32)
}

/// The first element a thread at `local` reads (`bufferStart()` in `shaders/common.glsl`).
fn buffer_start(pattern: Pattern, local: u32) -> u32 {
    match pattern {
        Pattern::Linear => local,
        Pattern::Random => local.wrapping_mul(0x3504_f333) & 0xf,
        _ => 0,
    }
}

/// Element `e` of an integer view of `bytes`, `width` bytes little-endian, widened to 32 bits
/// (out of range: an impossible all-ones pattern the kernel cannot produce from one element).
fn integer_at(bytes: &[u8], e: u32, width: u32) -> u32 {
    let at = (e * width) as usize;
    match bytes.get(at..at + width as usize) {
        Some(b) => b
            .iter()
            .rev()
            .fold(0u32, |acc, &byte| (acc << 8) | u32::from(byte)),
        None => u32::MAX,
    }
}

/// The CPU model of an integer case: the wrapping sum of the thread's 256 widened loads,
/// in every lane.
pub fn thread_sum(case: &Case, elements_mask: u32, local: u32) -> [u32; 4] {
    let width = element(case).bytes();
    let bytes = modern_bytes(BUFFER_BYTES);
    let start = buffer_start(case.pattern, local);
    let sum = (0..LOADS_PER_THREAD).fold(0u32, |sum, i| {
        sum.wrapping_add(integer_at(&bytes, (start + i) | elements_mask, width))
    });
    [sum; 4]
}

impl Family for NarrowLoads {
    fn label(&self) -> &'static str {
        "narrow_loads"
    }

    fn title(&self) -> &'static str {
        "Narrow loads"
    }

    fn cases(&self) -> Vec<Case> {
        Element::ALL
            .into_iter()
            .flat_map(|e| {
                Case::per_pattern(
                    FamilyRef(&NarrowLoads),
                    Suite::Memory,
                    &format!("mem.narrow.{}", e.id()),
                    e.display(),
                    Params {
                        width: 1,
                        variant: e.variant(),
                        working_set: BUFFER_BYTES,
                        ..Params::default()
                    },
                )
            })
            .collect()
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        element(case).bytes()
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        element(case).needs()
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        // The float16 model (the integer cases are checked by `verify` with `thread_sum`).
        let bytes = input_bytes();
        buffer_sum(case, params, local, |elem, _, _| {
            let at = (elem * 2) as usize;
            let half = match bytes.get(at..at + 2) {
                Some(h) => half_to_f32(u16::from_le_bytes([h[0], h[1]])),
                None => f32::NAN,
            };
            [half; 4]
        })
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        if element(case) == Element::F16 {
            return check_sums(case, &readback.sums, Tolerance::DEFAULT);
        }
        let elements_mask = self.kernel_params(case).elements_mask;
        // Every workgroup computes the same sums: the model once per local index.
        let model: Vec<[u32; 4]> = (0..256)
            .map(|l| thread_sum(case, elements_mask, l))
            .collect();
        check_words(readback, case.threads(), |_, local| model[local as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::modern_word;
    use crate::reference::reference_sum;

    fn case(id: &str) -> Case {
        NarrowLoads
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn twelve_cases_with_ids_names_bytes_and_needs() {
        let all = NarrowLoads.cases();
        assert_eq!(all.len(), 12);
        let ids: Vec<&str> = all.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "mem.narrow.u8.uniform",
                "mem.narrow.u8.linear",
                "mem.narrow.u8.random",
                "mem.narrow.u16.uniform",
                "mem.narrow.u16.linear",
                "mem.narrow.u16.random",
                "mem.narrow.f16.uniform",
                "mem.narrow.f16.linear",
                "mem.narrow.f16.random",
                "mem.narrow.u32.uniform",
                "mem.narrow.u32.linear",
                "mem.narrow.u32.random",
            ]
        );
        assert_eq!(all[1].name, "StructuredBuffer<uint8_t>.Load linear");
        assert_eq!(all[8].name, "StructuredBuffer<float16_t>.Load random");
        assert_eq!(all[9].name, "StructuredBuffer<uint>.Load uniform");
        assert!(all.iter().all(|c| c.suite == Suite::Memory));
        let bytes: Vec<u32> = all.iter().step_by(3).map(Case::bytes_per_load).collect();
        assert_eq!(bytes, [1, 2, 2, 4]);
        assert_eq!(
            all[0].needs(),
            [
                DeviceNeed::Feature(Feature::StorageBuffer8Bit),
                DeviceNeed::Feature(Feature::ShaderInt8)
            ]
        );
        assert_eq!(
            all[3].needs(),
            [
                DeviceNeed::Feature(Feature::StorageBuffer16Bit),
                DeviceNeed::Feature(Feature::ShaderInt16)
            ]
        );
        assert_eq!(
            all[6].needs(),
            [
                DeviceNeed::Feature(Feature::StorageBuffer16Bit),
                DeviceNeed::Feature(Feature::ShaderFloat16)
            ]
        );
        assert!(all[9].needs().is_empty());
        assert!(all.iter().all(|c| c.work().per_thread == 256));
    }

    #[test]
    fn integer_models_widen_bytes_half_words_and_words() {
        let word = |w: u32| modern_word(w);
        // Uniform u32: every thread sums words 0..256.
        let s32 = thread_sum(&case("mem.narrow.u32.uniform"), 0, 77);
        let direct = (0..256).fold(0u32, |s, w| s.wrapping_add(word(w)));
        assert_eq!(s32, [direct; 4]);
        // Linear u8 at thread 3: bytes 3..259, each widened (no sign extension).
        let s8 = thread_sum(&case("mem.narrow.u8.linear"), 0, 3);
        let direct8: u32 = (3..259u32)
            .map(|b| (word(b / 4) >> (8 * (b % 4))) & 0xff)
            .sum();
        assert_eq!(s8, [direct8; 4]);
        assert!(direct8 > 255 * 64, "bytes are spread: {direct8}");
        // Random u16: half-words start + 0..256 with the original 16-element start hash.
        let c16 = case("mem.narrow.u16.random");
        let start = 5u32.wrapping_mul(0x3504_f333) & 0xf;
        let direct16: u32 = (start..start + 256)
            .map(|h| (word(h / 2) >> (16 * (h % 2))) & 0xffff)
            .sum();
        assert_eq!(thread_sum(&c16, 0, 5), [direct16; 4]);
        // The runtime mask moves the addresses (the model follows the kernel's OR).
        assert_ne!(thread_sum(&c16, 1, 5), thread_sum(&c16, 0, 5));
    }

    #[test]
    fn half_model_is_finite_and_checked_with_a_tolerance() {
        let c = case("mem.narrow.f16.linear");
        let p = KernelParams::for_case(&c);
        let s = reference_sum(&c, p, [10, 0]);
        assert!(s.sum.iter().all(|&v| v.is_finite() && v == s.sum[0]));
        let bytes = input_bytes();
        let direct: f32 = (10..266)
            .map(|h| half_to_f32(u16::from_le_bytes([bytes[2 * h], bytes[2 * h + 1]])))
            .sum();
        assert!((s.sum[0] - direct).abs() <= 1e-4 * s.abs_sum[0]);
        // Every half of the float16 buffer is finite, so every pattern's model is.
        for id in [
            "mem.narrow.f16.uniform",
            "mem.narrow.f16.linear",
            "mem.narrow.f16.random",
        ] {
            let c = case(id);
            let p = KernelParams::for_case(&c);
            assert!((0..256).all(|l| reference_sum(&c, p, [l, 0]).sum[0].is_finite()));
        }
        // The float check accepts the model and rejects one wrong load's worth.
        let mut sums: Vec<[f32; 4]> = (0..1024)
            .map(|t| reference_sum(&c, p, [t % 256, 0]).sum)
            .collect();
        let readback = Readback {
            sums: sums.clone(),
            written: Vec::new(),
        };
        assert!(NarrowLoads.verify(&c, &readback).passed());
        sums[700][3] += 0.01 * s.abs_sum[3];
        let bad = Readback {
            sums,
            written: Vec::new(),
        };
        assert!(!NarrowLoads.verify(&c, &bad).passed());
    }

    #[test]
    fn integer_check_is_exact() {
        let c = case("mem.narrow.u8.random");
        let sums: Vec<[f32; 4]> = (0..1024)
            .map(|t| thread_sum(&c, 0, t % 256).map(f32::from_bits))
            .collect();
        let mut readback = Readback {
            sums,
            written: Vec::new(),
        };
        assert!(NarrowLoads.verify(&c, &readback).passed());
        readback.sums[513][1] = f32::from_bits(readback.sums[513][1].to_bits() + 1);
        let outcome = NarrowLoads.verify(&c, &readback);
        assert_eq!(outcome.mismatches, 1);
    }
}
