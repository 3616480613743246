//! Mapping the suite's formats to Vulkan and reading what the device supports.

use ash::vk;
use perftest_cases::{Format, FormatSupport};

/// The Vulkan format used for `format`.
pub fn vk_format(format: Format) -> vk::Format {
    match format {
        Format::R8 => vk::Format::R8_UNORM,
        Format::Rg8 => vk::Format::R8G8_UNORM,
        Format::Rgba8 => vk::Format::R8G8B8A8_UNORM,
        Format::R16f => vk::Format::R16_SFLOAT,
        Format::Rg16f => vk::Format::R16G16_SFLOAT,
        Format::Rgba16f => vk::Format::R16G16B16A16_SFLOAT,
        Format::R32f => vk::Format::R32_SFLOAT,
        Format::Rg32f => vk::Format::R32G32_SFLOAT,
        Format::Rgba32f => vk::Format::R32G32B32A32_SFLOAT,
    }
}

/// Turns Vulkan format properties into the plain data the skip rule reads.
pub fn format_support(props: &vk::FormatProperties) -> FormatSupport {
    let optimal = props.optimal_tiling_features;
    FormatSupport {
        uniform_texel_buffer: props
            .buffer_features
            .contains(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER),
        sampled_image: optimal.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE),
        linear_filter: optimal.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR),
        storage_image: optimal.contains(vk::FormatFeatureFlags::STORAGE_IMAGE),
    }
}

/// Reads the support table of all nine formats, in [`Format::ALL`] order.
pub(crate) fn query_support(
    instance: &ash::Instance,
    physical_device: vk::PhysicalDevice,
) -> [FormatSupport; 9] {
    Format::ALL.map(|f| {
        // SAFETY: plain query on a live instance and one of its physical devices.
        let props = unsafe {
            instance.get_physical_device_format_properties(physical_device, vk_format(f))
        };
        format_support(&props)
    })
}
