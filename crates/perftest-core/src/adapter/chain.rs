//! Where each [`Feature`] lives in Vulkan's feature structures: the one mapping used both to
//! read what a device offers and to enable features on a new device.

use ash::vk;
use perftest_cases::{Feature, FeatureSet};

/// The feature structures perftest reads and enables: core, Vulkan 1.1 and Vulkan 1.2.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FeatureChain {
    /// `VkPhysicalDeviceFeatures`.
    pub(crate) core: vk::PhysicalDeviceFeatures,
    /// `VkPhysicalDeviceVulkan11Features` (chained only with the 1.2 struct).
    pub(crate) v11: vk::PhysicalDeviceVulkan11Features<'static>,
    /// `VkPhysicalDeviceVulkan12Features`.
    pub(crate) v12: vk::PhysicalDeviceVulkan12Features<'static>,
}

/// Which structure holds a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// `VkPhysicalDeviceFeatures`: every device.
    Core,
    /// The Vulkan 1.1 and 1.2 structures: queried and enabled where the instance and device
    /// are Vulkan 1.2 or later.
    Vulkan12,
}

impl FeatureChain {
    /// The member of the structures that holds `feature`, and which structure it is in.
    pub(crate) fn flag(&mut self, feature: Feature) -> (Level, &mut vk::Bool32) {
        let (core, v11, v12) = (&mut self.core, &mut self.v11, &mut self.v12);
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
        }
    }

    /// The features set in these structures; those of the Vulkan 1.1 and 1.2 structures only
    /// when `vulkan12` (they were not queried otherwise).
    pub(crate) fn features(mut self, vulkan12: bool) -> FeatureSet {
        Feature::ALL
            .into_iter()
            .filter(|&f| {
                let (level, flag) = self.flag(f);
                (level == Level::Core || vulkan12) && *flag == vk::TRUE
            })
            .collect()
    }

    /// The structures with exactly `features` set; those of Vulkan 1.1 and 1.2 only when
    /// `vulkan12` (chain them only then).
    pub(crate) fn enabling(features: FeatureSet, vulkan12: bool) -> FeatureChain {
        let mut chain = FeatureChain::default();
        for feature in features.iter() {
            let (level, flag) = chain.flag(feature);
            if level == Level::Core || vulkan12 {
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
        for feature in Feature::ALL {
            let one = FeatureSet::NONE.with(feature, true);
            assert_eq!(FeatureChain::enabling(one, true).features(true), one);
        }
        let all = FeatureSet::all();
        assert_eq!(FeatureChain::enabling(all, true).features(true), all);
        let core_only = FeatureChain::enabling(all, false).features(true);
        assert!(core_only.has(Feature::ShaderInt64) && core_only.has(Feature::SamplerAnisotropy));
        assert!(!core_only.has(Feature::BufferDeviceAddress));
        assert!(!core_only.has(Feature::StorageBuffer16Bit));
        assert_eq!(core_only.iter().count(), 8);
    }
}
