//! Mapping the suite's formats to Vulkan and reading what the device supports.

use ash::vk;
use perftest_cases::{ExtraFormat, Format, FormatSupport};

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

/// The Vulkan format used for an extra format of the texture suite.
pub fn vk_extra_format(format: ExtraFormat) -> vk::Format {
    match format {
        ExtraFormat::B10g11r11 => vk::Format::B10G11R11_UFLOAT_PACK32,
        ExtraFormat::A2b10g10r10 => vk::Format::A2B10G10R10_UNORM_PACK32,
        ExtraFormat::Rgba8Srgb => vk::Format::R8G8B8A8_SRGB,
        ExtraFormat::R16 => vk::Format::R16_UNORM,
        ExtraFormat::Rg16 => vk::Format::R16G16_UNORM,
        ExtraFormat::Rgba16 => vk::Format::R16G16B16A16_UNORM,
        ExtraFormat::R8ui => vk::Format::R8_UINT,
        ExtraFormat::R16ui => vk::Format::R16_UINT,
        ExtraFormat::R32ui => vk::Format::R32_UINT,
        ExtraFormat::Bc1 => vk::Format::BC1_RGBA_UNORM_BLOCK,
        ExtraFormat::Bc4 => vk::Format::BC4_UNORM_BLOCK,
        ExtraFormat::Bc5 => vk::Format::BC5_UNORM_BLOCK,
        ExtraFormat::Bc7 => vk::Format::BC7_UNORM_BLOCK,
    }
}

/// Turns Vulkan format properties into the plain data the skip rule reads.
pub fn format_support(props: &vk::FormatProperties) -> FormatSupport {
    let optimal = props.optimal_tiling_features;
    let linear = props.linear_tiling_features;
    FormatSupport {
        uniform_texel_buffer: props
            .buffer_features
            .contains(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER),
        sampled_image: optimal.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE),
        linear_filter: optimal.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR),
        storage_image: optimal.contains(vk::FormatFeatureFlags::STORAGE_IMAGE),
        linear_sampled_image: linear
            .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE | vk::FormatFeatureFlags::TRANSFER_DST),
        linear_tiling_filter: linear.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR),
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

/// Reads the support table of the texture suite's extra formats, in [`ExtraFormat::ALL`]
/// order.
pub(crate) fn query_extra_support(
    instance: &ash::Instance,
    physical_device: vk::PhysicalDevice,
) -> [FormatSupport; 13] {
    ExtraFormat::ALL.map(|f| {
        // SAFETY: plain query on a live instance and one of its physical devices.
        let props = unsafe {
            instance.get_physical_device_format_properties(physical_device, vk_extra_format(f))
        };
        format_support(&props)
    })
}
