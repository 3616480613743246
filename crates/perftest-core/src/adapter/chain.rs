//! Where each [`Feature`] lives in Vulkan's feature structures: the one mapping used both to
//! read what a device offers and to enable features on a new device.

use ash::vk;
use perftest_cases::{Feature, FeatureSet};

/// The feature structures perftest reads and enables: core, Vulkan 1.1 and 1.2,
/// `VK_KHR_shader_clock`'s and `VK_EXT_pipeline_robustness`'s.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FeatureChain {
    /// `VkPhysicalDeviceFeatures`.
    pub(crate) core: vk::PhysicalDeviceFeatures,
    /// `VkPhysicalDeviceVulkan11Features` (chained only with the 1.2 struct).
    pub(crate) v11: vk::PhysicalDeviceVulkan11Features<'static>,
    /// `VkPhysicalDeviceVulkan12Features`.
    pub(crate) v12: vk::PhysicalDeviceVulkan12Features<'static>,
    /// `VkPhysicalDeviceShaderClockFeaturesKHR` (chained where the device has the extension).
    pub(crate) clock: vk::PhysicalDeviceShaderClockFeaturesKHR<'static>,
    /// `VkPhysicalDevicePipelineRobustnessFeaturesEXT` (chained where the device has the
    /// extension).
    pub(crate) robustness: vk::PhysicalDevicePipelineRobustnessFeaturesEXT<'static>,
}

/// Which of the structures a device can have queried and enabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Levels {
    /// The Vulkan 1.1 and 1.2 structures (instance and device 1.2 or later).
    pub(crate) vulkan12: bool,
    /// `VK_KHR_shader_clock`'s (offered, on a Vulkan 1.2 instance and device).
    pub(crate) shader_clock: bool,
    /// `VK_EXT_pipeline_robustness`'s (offered, on a Vulkan 1.2 instance and device).
    pub(crate) pipeline_robustness: bool,
}

impl Levels {
    /// Whether a feature of `level` can be queried and enabled.
    fn allow(self, level: Level) -> bool {
        match level {
            Level::Core => true,
            Level::Vulkan12 => self.vulkan12,
            Level::ShaderClock => self.shader_clock,
            Level::PipelineRobustness => self.pipeline_robustness,
        }
    }
}

/// Which structure holds a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// `VkPhysicalDeviceFeatures`: every device.
    Core,
    /// The Vulkan 1.1 and 1.2 structures: queried and enabled where the instance and device
    /// are Vulkan 1.2 or later.
    Vulkan12,
    /// `VK_KHR_shader_clock`'s structure, where the device has the extension.
    ShaderClock,
    /// `VK_EXT_pipeline_robustness`'s structure, where the device has the extension.
    PipelineRobustness,
}

impl FeatureChain {
    /// The member of the structures that holds `feature`, and which structure it is in.
    pub(crate) fn flag(&mut self, feature: Feature) -> (Level, &mut vk::Bool32) {
        let (core, v11, v12) = (&mut self.core, &mut self.v11, &mut self.v12);
        let (clock, robustness) = (&mut self.clock, &mut self.robustness);
        match feature {
            Feature::ShaderInt64 => (Level::Core, &mut core.shader_int64),
            Feature::ShaderInt16 => (Level::Core, &mut core.shader_int16),
            Feature::SampledImageDynamic => (
                Level::Core,
                &mut core.shader_sampled_image_array_dynamic_indexing,
            ),
            Feature::StorageBufferDynamic => (
                Level::Core,
                &mut core.shader_storage_buffer_array_dynamic_indexing,
            ),
            Feature::StorageImageExtendedFormats => {
                (Level::Core, &mut core.shader_storage_image_extended_formats)
            }
            Feature::TextureCompressionBc => (Level::Core, &mut core.texture_compression_bc),
            Feature::TextureCompressionAstcLdr => {
                (Level::Core, &mut core.texture_compression_astc_ldr)
            }
            Feature::SamplerAnisotropy => (Level::Core, &mut core.sampler_anisotropy),
            Feature::VertexPipelineStores => {
                (Level::Core, &mut core.vertex_pipeline_stores_and_atomics)
            }
            Feature::StorageBuffer16Bit => (Level::Vulkan12, &mut v11.storage_buffer16_bit_access),
            Feature::SampledImageNonUniform => (
                Level::Vulkan12,
                &mut v12.shader_sampled_image_array_non_uniform_indexing,
            ),
            Feature::StorageBufferNonUniform => (
                Level::Vulkan12,
                &mut v12.shader_storage_buffer_array_non_uniform_indexing,
            ),
            Feature::BufferDeviceAddress => (Level::Vulkan12, &mut v12.buffer_device_address),
            Feature::Int64Atomics => (Level::Vulkan12, &mut v12.shader_buffer_int64_atomics),
            Feature::StorageBuffer8Bit => (Level::Vulkan12, &mut v12.storage_buffer8_bit_access),
            Feature::ShaderInt8 => (Level::Vulkan12, &mut v12.shader_int8),
            Feature::ShaderFloat16 => (Level::Vulkan12, &mut v12.shader_float16),
            Feature::TimelineSemaphore => (Level::Vulkan12, &mut v12.timeline_semaphore),
            Feature::ScalarBlockLayout => (Level::Vulkan12, &mut v12.scalar_block_layout),
            Feature::ShaderSubgroupClock => (Level::ShaderClock, &mut clock.shader_subgroup_clock),
            Feature::PipelineRobustness => (
                Level::PipelineRobustness,
                &mut robustness.pipeline_robustness,
            ),
            Feature::StorageBufferUpdateAfterBind => (
                Level::Vulkan12,
                &mut v12.descriptor_binding_storage_buffer_update_after_bind,
            ),
            Feature::SampledImageUpdateAfterBind => (
                Level::Vulkan12,
                &mut v12.descriptor_binding_sampled_image_update_after_bind,
            ),
        }
    }

    /// The features set in the structures of `levels` (the others were not queried).
    pub(crate) fn features(mut self, levels: Levels) -> FeatureSet {
        Feature::ALL
            .into_iter()
            .filter(|&f| {
                let (level, flag) = self.flag(f);
                levels.allow(level) && *flag == vk::TRUE
            })
            .collect()
    }

    /// The structures with exactly `features` set, in the structures of `levels` only (chain
    /// those only).
    pub(crate) fn enabling(features: FeatureSet, levels: Levels) -> FeatureChain {
        let mut chain = FeatureChain::default();
        for feature in features.iter() {
            let (level, flag) = chain.flag(feature);
            if levels.allow(level) {
                *flag = vk::TRUE;
            }
        }
        chain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every feature has a member of its own, and what is enabled reads back the same.
    #[test]
    fn every_feature_round_trips_through_its_own_member() {
        let every = Levels {
            vulkan12: true,
            shader_clock: true,
            pipeline_robustness: true,
        };
        for feature in Feature::ALL {
            let one = FeatureSet::NONE.with(feature, true);
            assert_eq!(FeatureChain::enabling(one, every).features(every), one);
        }
        let all = FeatureSet::all();
        assert_eq!(FeatureChain::enabling(all, every).features(every), all);
        let core = Levels {
            vulkan12: false,
            shader_clock: false,
            pipeline_robustness: false,
        };
        let core_only = FeatureChain::enabling(all, core).features(every);
        assert!(core_only.has(Feature::ShaderInt64) && core_only.has(Feature::SamplerAnisotropy));
        assert!(!core_only.has(Feature::BufferDeviceAddress));
        assert!(!core_only.has(Feature::StorageBuffer16Bit));
        assert!(!core_only.has(Feature::ShaderSubgroupClock));
        assert_eq!(core_only.iter().count(), 9);
    }
}
