//! Devices that implement Vulkan on top of another API (MoltenVK over Metal) expose
//! `VK_KHR_portability_subset`: a handful of core Vulkan behaviours become optional features.
//! This module holds what such a device offers, as plain data, and the features a case may
//! need from it; [`crate::DeviceNeed::Portability`] turns a missing one into `skipped (reason)`.

/// The features of `VkPhysicalDevicePortabilitySubsetFeaturesKHR` that compute work can touch
/// (the rest concern rasterization and tessellation), and the one property vertex input needs.
/// A device without the extension has all of Vulkan, so [`crate::DeviceCaps::portability`] is
/// `None` there rather than a struct full of `true`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortabilitySubset {
    /// `events`: `vkCmdSetEvent`/`vkCmdWaitEvents`.
    pub events: bool,
    /// `imageViewFormatReinterpretation`: an image view of another format than its image's.
    pub image_view_format_reinterpretation: bool,
    /// `imageViewFormatSwizzle`: image views with a component mapping other than identity.
    pub image_view_format_swizzle: bool,
    /// `imageView2DOn3DImage`: 2D or 2D-array views of a 3D image.
    pub image_view_2d_on_3d_image: bool,
    /// `mutableComparisonSamplers`: comparison samplers in descriptors that may change.
    pub mutable_comparison_samplers: bool,
    /// `samplerMipLodBias`: samplers with a non-zero `mipLodBias`.
    pub sampler_mip_lod_bias: bool,
    /// `minVertexInputBindingStrideAlignment`: vertex buffer strides must be multiples of it.
    pub min_vertex_input_binding_stride_alignment: u32,
}

/// A portability-subset feature a case may need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PortabilityFeature {
    /// `events`.
    Events,
    /// `imageViewFormatReinterpretation`.
    ImageViewFormatReinterpretation,
    /// `imageViewFormatSwizzle`.
    ImageViewFormatSwizzle,
    /// `imageView2DOn3DImage`.
    ImageView2dOn3dImage,
    /// `mutableComparisonSamplers`.
    MutableComparisonSamplers,
    /// `samplerMipLodBias`.
    SamplerMipLodBias,
}

impl PortabilityFeature {
    /// Whether a device whose portability subset is `subset` offers the feature.
    pub fn in_subset(self, subset: &PortabilitySubset) -> bool {
        match self {
            PortabilityFeature::Events => subset.events,
            PortabilityFeature::ImageViewFormatReinterpretation => {
                subset.image_view_format_reinterpretation
            }
            PortabilityFeature::ImageViewFormatSwizzle => subset.image_view_format_swizzle,
            PortabilityFeature::ImageView2dOn3dImage => subset.image_view_2d_on_3d_image,
            PortabilityFeature::MutableComparisonSamplers => subset.mutable_comparison_samplers,
            PortabilityFeature::SamplerMipLodBias => subset.sampler_mip_lod_bias,
        }
    }

    /// The feature's name in `VkPhysicalDevicePortabilitySubsetFeaturesKHR` (for messages).
    pub fn vk_name(self) -> &'static str {
        match self {
            PortabilityFeature::Events => "events",
            PortabilityFeature::ImageViewFormatReinterpretation => {
                "imageViewFormatReinterpretation"
            }
            PortabilityFeature::ImageViewFormatSwizzle => "imageViewFormatSwizzle",
            PortabilityFeature::ImageView2dOn3dImage => "imageView2DOn3DImage",
            PortabilityFeature::MutableComparisonSamplers => "mutableComparisonSamplers",
            PortabilityFeature::SamplerMipLodBias => "samplerMipLodBias",
        }
    }
}
