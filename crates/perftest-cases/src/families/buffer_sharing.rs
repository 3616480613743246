//! Concurrent sharing (memory suite): twins of original buffer-load cases that read the
//! original's 16 KB input data from a buffer of their own created with
//! `VK_SHARING_MODE_CONCURRENT` over two queue families (the compute family and another),
//! where every other buffer a kernel reads is created `VK_SHARING_MODE_EXCLUSIVE` (the
//! transfer suite's buffers are the only concurrent ones, beside a transfer queue).
//!
//! Each twin ([`crate::twins`]) runs its original's SPIR-V (`mem.concurrent.raw.load4.linear`,
//! `ByteAddressBuffer.Load4 linear (concurrent)`) over the same bytes, bound the same way
//! (storage buffer, or uniform buffer for `cbuffer{float4}`), and is checked against its
//! original's CPU model. The originals: `ByteAddressBuffer.Load` and `Load4`,
//! `StructuredBuffer<float4>.Load`, `cbuffer{float4} load`, linear and random. A device of one
//! queue family (lavapipe) cannot share a buffer concurrently and skips them, saying so.

use crate::case::Case;
use crate::kernel_options::KernelOptions;
use crate::suite::Suite;
use crate::support::DeviceNeed;
use crate::twins::Twins;

/// What concurrent sharing needs: a second queue family.
fn sharing_needs(_original: &Case) -> Vec<DeviceNeed> {
    vec![DeviceNeed::ConcurrentSharing]
}

/// The family: the cases it copies, how its twins are named, and what it changes.
pub static TWINS: Twins = Twins {
    label: "buffer_sharing",
    title: "Buffer loads, concurrent sharing",
    prefix: "mem.concurrent",
    replaces: "",
    word: "concurrent",
    suite: Suite::Memory,
    originals: &[
        ("raw_buffer", "raw.load.linear"),
        ("raw_buffer", "raw.load.random"),
        ("raw_buffer", "raw.load4.linear"),
        ("raw_buffer", "raw.load4.random"),
        ("structured_buffer", "structured.float4.linear"),
        ("structured_buffer", "structured.float4.random"),
        ("uniform_buffer", "cbuffer.float4.linear"),
        ("uniform_buffer", "cbuffer.float4.random"),
    ],
    flag_needs: sharing_needs,
    options: KernelOptions::PLAIN,
    original_resources: false,
};

/// The original families that bind the data as a uniform buffer (the others: as a storage
/// buffer).
const UNIFORM_FAMILIES: [&str; 1] = ["uniform_buffer"];

/// Whether `case`'s kernel reads its data as a uniform buffer (else as a storage buffer).
pub fn reads_uniform(case: &Case) -> bool {
    case.params
        .origin
        .is_some_and(|o| UNIFORM_FAMILIES.contains(&o.family.label()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Family;
    use crate::kernel_params::KernelParams;
    use crate::reference::reference_sum;

    #[test]
    fn eight_twins_of_the_original_buffer_loads() {
        let cases = crate::families::family_cases(&TWINS);
        assert_eq!(cases.len(), 8);
        assert_eq!(cases[2].id, "mem.concurrent.raw.load4.linear");
        assert_eq!(cases[2].name, "ByteAddressBuffer.Load4 linear (concurrent)");
        assert_eq!(cases[7].id, "mem.concurrent.cbuffer.float4.random");
        for (i, c) in cases.iter().enumerate() {
            assert_eq!(c.suite, Suite::Memory);
            assert!(c.needs().contains(&DeviceNeed::ConcurrentSharing));
            assert_eq!(reads_uniform(c), i >= 6, "{}", c.id);
            // Its own buffer: not the original's resources.
            assert_eq!(TWINS.resource_case_id(c), None);
        }
        let one_family = crate::DeviceCaps::default();
        let skipped = crate::support(&cases[0], &one_family);
        assert!(matches!(skipped, crate::Support::Skipped(r) if r.contains("one queue family")));
    }

    #[test]
    fn model_matches_the_original_cases() {
        for c in crate::families::family_cases(&TWINS) {
            let original = TWINS
                .original(&c)
                .unwrap_or_else(|| unreachable!("{}", c.id));
            // Made back from the twin with no look-up, it is the registry's case.
            assert_eq!(
                crate::families::case_for_id(&original.id).as_ref(),
                Some(&original)
            );
            let own = crate::Params {
                origin: None,
                ..c.params
            };
            assert_eq!((own, c.pattern), (original.params, original.pattern));
            assert_eq!(c.bytes_per_load(), original.bytes_per_load());
            assert_eq!(c.work(), original.work());
            assert_eq!(c.workgroup_size(), original.workgroup_size());
            let params = KernelParams::for_case(&c);
            assert_eq!(params, KernelParams::for_case(&original));
            for local in [[0, 0], [255, 0], [77, 0]] {
                assert_eq!(
                    reference_sum(&c, params, local),
                    reference_sum(&original, params, local)
                );
            }
        }
    }
}
