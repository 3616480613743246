//! Robust buffer access (memory suite): twins of original buffer-load cases whose pipeline
//! asks for robust buffer access to its storage and uniform buffers
//! (`VkPipelineRobustnessCreateInfo` with `ROBUST_BUFFER_ACCESS`, from
//! `VK_EXT_pipeline_robustness`, core in Vulkan 1.4), while the device keeps its own
//! robustness features off, as for every other case.
//!
//! Each twin ([`crate::twins`]) runs its original's SPIR-V on its original's resources
//! (`mem.robust.raw.load4.linear`, `ByteAddressBuffer.Load4 linear (robust)`, reads the
//! 16 KB input buffer as `raw.load4.linear` does) and is checked against its original's CPU
//! model: in bounds, robust access loads the same values, so only the time may differ. The
//! originals: `ByteAddressBuffer.Load` and `Load4`, `StructuredBuffer<float4>.Load`,
//! `cbuffer{float4} load`, linear and random. A device without `pipelineRobustness` (or
//! without `robustBufferAccess`) skips them, naming it.

use crate::case::Case;
use crate::feature::Feature;
use crate::kernel_options::KernelOptions;
use crate::suite::Suite;
use crate::support::DeviceNeed;
use crate::twins::Twins;

/// What robust buffer access needs: `pipelineRobustness`.
fn robust_needs(_original: &Case) -> Vec<DeviceNeed> {
    vec![DeviceNeed::Feature(Feature::PipelineRobustness)]
}

/// The family: the cases it copies, how its twins are named, and what it changes.
pub static TWINS: Twins = Twins {
    label: "buffer_robustness",
    title: "Buffer loads, robust buffer access",
    prefix: "mem.robust",
    replaces: "",
    word: "robust",
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
    flag_needs: robust_needs,
    options: KernelOptions {
        robust_buffer_access: true,
        ..KernelOptions::PLAIN
    },
    original_resources: true,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::case_for_id;
    use crate::family::Family;
    use crate::kernel_params::KernelParams;
    use crate::reference::reference_sum;

    #[test]
    fn eight_twins_of_the_original_buffer_loads() {
        let cases = crate::families::family_cases(&TWINS);
        assert_eq!(cases.len(), 8);
        assert_eq!(cases[2].id, "mem.robust.raw.load4.linear");
        assert_eq!(cases[2].name, "ByteAddressBuffer.Load4 linear (robust)");
        assert_eq!(cases[7].id, "mem.robust.cbuffer.float4.random");
        assert_eq!(cases[7].name, "cbuffer{float4} load random (robust)");
        let robust = DeviceNeed::Feature(Feature::PipelineRobustness);
        for c in &cases {
            assert_eq!(c.suite, Suite::Memory);
            assert!(c.needs().contains(&robust), "{}", c.id);
            assert!(TWINS.kernel_options(c).robust_buffer_access);
            let original = TWINS
                .original(c)
                .unwrap_or_else(|| unreachable!("{}", c.id));
            assert_eq!(original.suite, Suite::Original);
            assert!(
                !original
                    .family
                    .kernel_options(&original)
                    .robust_buffer_access
            );
            assert_eq!(TWINS.resource_case_id(c), Some(original.id));
        }
    }

    #[test]
    fn model_matches_the_original_cases() {
        for c in crate::families::family_cases(&TWINS) {
            let id = c.id.trim_start_matches("mem.robust.");
            let original = case_for_id(id).unwrap_or_else(|| unreachable!("{id}"));
            assert_eq!(
                crate::Params {
                    origin: None,
                    ..c.params
                },
                original.params
            );
            // The twin is made back into its original with no look-up.
            assert_eq!(Family::original(&TWINS, &c).as_ref(), Some(&original));
            assert_eq!(c.pattern, original.pattern);
            assert_eq!(c.bytes_per_load(), original.bytes_per_load());
            assert_eq!(c.work(), original.work());
            assert_eq!(c.workgroup_size(), original.workgroup_size());
            assert_eq!(
                KernelParams::for_case(&c),
                KernelParams::for_case(&original)
            );
            for local in [[0, 0], [255, 0], [77, 0]] {
                let params = KernelParams::for_case(&c);
                assert_eq!(
                    reference_sum(&c, params, local),
                    reference_sum(&original, params, local)
                );
            }
        }
    }
}
