//! Buffer paths (modern suite): the original 16 KB float data read through byte-address
//! buffers with typed views and through buffer device addresses (`shaders/buffer_path.comp`,
//! one SPIR-V per path).
//!
//! Every case makes 256 loads per thread with the original addressing: the thread starts at
//! element `start` (uniform: 0; linear: its local index; random: a multiplicative hash of its
//! local index, `(local * 0x3504f333) mod 16`, as the original) and load `i` reads element
//! `(start + i) | elementsMask` (a runtime zero). Loads are widened to four lanes as in the
//! original (`xxxx`, `xyxy`, `xyzw`) and summed as floats; the sums are checked against the
//! CPU model within the suite's float tolerance.
//!
//! Paths:
//! - `ByteAddressBuffer.Load<float2>` / `Load<float4>`: a byte-addressed storage buffer read
//!   through a `vec2[]` / `vec4[]` view at byte address `elem * 8` / `elem * 16` (index
//!   `address >> 3` / `>> 4`);
//! - `BDA<float, align4>`: a `float` at device address `base + elem * 4`, declared with
//!   `buffer_reference_align = 4`;
//! - `BDA<float4, align4>` and `BDA<float4, align16>`: a `vec4` at `base + elem * 16`, declared
//!   with `buffer_reference_align = 4` and 16.
//!
//! The declared alignment is what the compiler may assume about an address; the actual
//! addresses are 16-byte aligned in every case (the buffer's base is, and elements are 16
//! bytes apart), so `align4` against `align16` measures code generation alone.

use crate::case::{Case, Params};
use crate::data::input_bytes;
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::reference::{buffer_sum, floats_at, widen, KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The buffer-path family.
pub struct BufferPath;

/// How a case reads the buffer (`Params::variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// `ByteAddressBuffer.Load<float2>`: a `vec2[]` view of a byte-address buffer.
    RawFloat2,
    /// `ByteAddressBuffer.Load<float4>`: a `vec4[]` view of a byte-address buffer.
    RawFloat4,
    /// `BDA<float, align4>`: a `float` through a 4-byte-aligned buffer reference.
    BdaFloatAlign4,
    /// `BDA<float4, align4>`: a `vec4` through a buffer reference declared 4-byte aligned.
    BdaFloat4Align4,
    /// `BDA<float4, align16>`: a `vec4` through a buffer reference declared 16-byte aligned.
    BdaFloat4Align16,
}

impl Access {
    /// Every access path, in suite order.
    pub const ALL: [Access; 5] = [
        Access::RawFloat2,
        Access::RawFloat4,
        Access::BdaFloatAlign4,
        Access::BdaFloat4Align4,
        Access::BdaFloat4Align16,
    ];

    /// The id stem (`modern.path.raw.float2`).
    pub fn id(self) -> &'static str {
        match self {
            Access::RawFloat2 => "modern.path.raw.float2",
            Access::RawFloat4 => "modern.path.raw.float4",
            Access::BdaFloatAlign4 => "modern.path.bda.float.align4",
            Access::BdaFloat4Align4 => "modern.path.bda.float4.align4",
            Access::BdaFloat4Align16 => "modern.path.bda.float4.align16",
        }
    }

    /// The display name before the pattern (`ByteAddressBuffer.Load<float2>`).
    pub fn display(self) -> &'static str {
        match self {
            Access::RawFloat2 => "ByteAddressBuffer.Load<float2>",
            Access::RawFloat4 => "ByteAddressBuffer.Load<float4>",
            Access::BdaFloatAlign4 => "BDA<float, align4>.Load",
            Access::BdaFloat4Align4 => "BDA<float4, align4>.Load",
            Access::BdaFloat4Align16 => "BDA<float4, align16>.Load",
        }
    }

    /// Floats one load returns (before widening to four lanes).
    pub fn components(self) -> u32 {
        match self {
            Access::RawFloat2 => 2,
            Access::BdaFloatAlign4 => 1,
            _ => 4,
        }
    }

    /// Whether the path reads through a buffer device address (else a descriptor).
    pub fn uses_address(self) -> bool {
        !matches!(self, Access::RawFloat2 | Access::RawFloat4)
    }

    fn variant(self) -> u32 {
        match self {
            Access::RawFloat2 => 0,
            Access::RawFloat4 => 1,
            Access::BdaFloatAlign4 => 2,
            Access::BdaFloat4Align4 => 3,
            Access::BdaFloat4Align16 => 4,
        }
    }
}

/// The access path of a case of this family.
pub fn access(case: &Case) -> Access {
    Access::ALL
        .into_iter()
        .find(|a| a.variant() == case.params.variant)
        .unwrap_or(Access::RawFloat2)
}

impl Family for BufferPath {
    fn label(&self) -> &'static str {
        "buffer_path"
    }

    fn title(&self) -> &'static str {
        "Buffer paths"
    }

    fn cases(&self) -> Vec<Case> {
        Access::ALL
            .into_iter()
            .flat_map(|a| {
                Case::per_pattern(
                    FamilyRef(&BufferPath),
                    Suite::Modern,
                    a.id(),
                    a.display(),
                    Params {
                        format: None,
                        width: a.components(),
                        variant: a.variant(),
                        ..Params::default()
                    },
                )
            })
            .collect()
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        4 * access(case).components()
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        if access(case).uses_address() {
            vec![DeviceNeed::Feature(Feature::BufferDeviceAddress)]
        } else {
            Vec::new()
        }
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let components = access(case).components();
        // Every path reads element `elem` at byte `elem * 4 * components`.
        let stride = 4 * components;
        let bytes = input_bytes();
        buffer_sum(case, params, local, |elem, _, _| {
            widen(
                floats_at(bytes, (elem * stride) as usize, components),
                components,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Pattern;
    use crate::check::check_sums;
    use crate::reference::{reference_sum, Tolerance};

    fn case(id: &str) -> Case {
        BufferPath
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn fifteen_cases_with_their_names_and_needs() {
        let all = BufferPath.cases();
        assert_eq!(all.len(), 15);
        assert_eq!(all[0].id, "modern.path.raw.float2.uniform");
        assert_eq!(all[0].name, "ByteAddressBuffer.Load<float2> uniform");
        assert_eq!(all[5].name, "ByteAddressBuffer.Load<float4> random");
        assert_eq!(all[6].id, "modern.path.bda.float.align4.uniform");
        assert_eq!(all[6].name, "BDA<float, align4>.Load uniform");
        assert_eq!(all[14].id, "modern.path.bda.float4.align16.random");
        assert_eq!(all[14].pattern, Pattern::Random);
        assert!(all.iter().all(|c| c.suite == Suite::Modern));
        let bytes: Vec<u32> = all.iter().step_by(3).map(Case::bytes_per_load).collect();
        assert_eq!(bytes, [8, 16, 4, 16, 16]);
        assert!(all[0].needs().is_empty());
        assert_eq!(
            all[9].needs(),
            vec![DeviceNeed::Feature(Feature::BufferDeviceAddress)]
        );
        assert!(all.iter().all(|c| c.work().per_thread == 256));
    }

    #[test]
    fn models_read_the_original_data_with_the_original_addressing() {
        let bytes = input_bytes();
        // Uniform float4: every thread sums elements 0..256, i.e. the whole 16 KB.
        let c = case("modern.path.bda.float4.align16.uniform");
        let s = reference_sum(&c, KernelParams::for_case(&c), [9, 0]);
        let direct: f32 = (0..256).map(|e| floats_at(bytes, e * 16, 1)[0]).sum();
        assert!((s.sum[0] - direct).abs() <= 1e-4 * s.abs_sum[0]);
        // The two float4 alignments and the raw float4 view read the same data.
        for id in [
            "modern.path.raw.float4.random",
            "modern.path.bda.float4.align4.random",
        ] {
            let other = case(id);
            let p = KernelParams::for_case(&other);
            let r = case("modern.path.bda.float4.align16.random");
            assert_eq!(
                reference_sum(&other, p, [33, 0]),
                reference_sum(&r, p, [33, 0])
            );
        }
        // Narrow loads widen like the original.
        let f2 = case("modern.path.raw.float2.linear");
        let s2 = reference_sum(&f2, KernelParams::for_case(&f2), [4, 0]);
        assert_eq!((s2.sum[0], s2.sum[1]), (s2.sum[2], s2.sum[3]));
        let f1 = case("modern.path.bda.float.align4.linear");
        let s1 = reference_sum(&f1, KernelParams::for_case(&f1), [4, 0]);
        assert!(s1.sum.iter().all(|&v| v == s1.sum[0]));
        // Linear float: thread 4 reads words 4..260.
        let direct1: f32 = (4..260).map(|w| floats_at(bytes, w * 4, 1)[0]).sum();
        assert!((s1.sum[0] - direct1).abs() <= 1e-4 * s1.abs_sum[0]);
    }

    #[test]
    fn default_check_accepts_the_model_only() {
        let c = case("modern.path.raw.float2.random");
        let p = KernelParams::for_case(&c);
        let mut sums: Vec<[f32; 4]> = (0..1024)
            .map(|t| reference_sum(&c, p, [t % 256, 0]).sum)
            .collect();
        assert!(check_sums(&c, &sums, Tolerance::DEFAULT).passed());
        // A change of 1% of the lane's magnitude (a few wrong loads) fails.
        sums[5][1] += 0.01 * reference_sum(&c, p, [5, 0]).abs_sum[1];
        assert!(!check_sums(&c, &sums, Tolerance::DEFAULT).passed());
    }
}
