//! What the device offers that some cases need (descriptor indexing, device addresses, 64-bit
//! integers and atomics, 8- and 16-bit storage and arithmetic, subgroup ballot, BC texture
//! compression, anisotropic filtering, the extra formats' support, limits, memory), read once
//! into the plain [`DeviceCaps`] the skip decisions use, and the features perftest enables
//! when it creates the device.

use ash::vk;
use perftest_cases::{DeviceCaps, PortabilitySubset};

use crate::formats::{query_extra_support, query_support};

/// The optional features perftest enables on a device it creates (each only where offered).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Enables {
    /// `shaderInt64` (core feature).
    pub(crate) shader_int64: bool,
    /// `shaderSampledImageArrayDynamicIndexing` (core feature).
    pub(crate) sampled_image_dynamic: bool,
    /// `shaderStorageBufferArrayDynamicIndexing` (core feature).
    pub(crate) storage_buffer_dynamic: bool,
    /// Vulkan 1.2 features are queried and enabled through `VkPhysicalDeviceVulkan12Features`.
    pub(crate) vulkan12: bool,
    pub(crate) sampled_image_non_uniform: bool,
    pub(crate) storage_buffer_non_uniform: bool,
    pub(crate) buffer_device_address: bool,
    pub(crate) int64_atomics: bool,
    /// `shaderInt16` (core feature).
    pub(crate) shader_int16: bool,
    /// `storageBuffer16BitAccess`, queried and enabled through
    /// `VkPhysicalDeviceVulkan11Features`, which is chained only with the Vulkan 1.2 struct
    /// (when [`Enables::vulkan12`]).
    pub(crate) storage_buffer_16bit: bool,
    /// `storageBuffer8BitAccess` (Vulkan 1.2 feature).
    pub(crate) storage_buffer_8bit: bool,
    /// `shaderInt8` (Vulkan 1.2 feature).
    pub(crate) shader_int8: bool,
    /// `shaderFloat16` (Vulkan 1.2 feature).
    pub(crate) shader_float16: bool,
    /// `shaderStorageImageExtendedFormats` (core feature).
    pub(crate) storage_image_extended_formats: bool,
    /// `textureCompressionBC` (core feature).
    pub(crate) texture_compression_bc: bool,
    /// `samplerAnisotropy` (core feature).
    pub(crate) sampler_anisotropy: bool,
    /// `vertexPipelineStoresAndAtomics` (core feature): verifying vertex-fetch cases.
    pub(crate) vertex_pipeline_stores: bool,
    /// `dynamicRendering` (Vulkan 1.3 feature, queried and enabled through
    /// `VkPhysicalDeviceVulkan13Features` where the instance and device are 1.3): graphics
    /// cases draw without render-pass objects.
    pub(crate) dynamic_rendering: bool,
    /// `VK_KHR_dynamic_rendering` and its feature, on a Vulkan 1.2 instance or device that
    /// offers them (where Vulkan 1.3 is not there to give [`Enables::dynamic_rendering`]).
    pub(crate) dynamic_rendering_khr: bool,
    /// On a device with `VK_KHR_portability_subset`: the subset's features that are enabled
    /// (perftest enables every one offered; on a borrowed device none is assumed).
    pub(crate) portability: Option<PortabilitySubset>,
}

impl Enables {
    /// The features `physical_device` offers (Vulkan 1.2 ones only where both the instance and
    /// the device are 1.2 or later).
    pub(crate) fn offered(
        instance: &ash::Instance,
        instance_api: u32,
        physical_device: vk::PhysicalDevice,
        device_api: u32,
    ) -> Enables {
        let vulkan12 = instance_api >= vk::API_VERSION_1_2 && device_api >= vk::API_VERSION_1_2;
        if !vulkan12 {
            // SAFETY: plain query on a live instance and one of its physical devices.
            let core = unsafe { instance.get_physical_device_features(physical_device) };
            return Enables {
                shader_int64: core.shader_int64 == vk::TRUE,
                sampled_image_dynamic: core.shader_sampled_image_array_dynamic_indexing == vk::TRUE,
                storage_buffer_dynamic: core.shader_storage_buffer_array_dynamic_indexing
                    == vk::TRUE,
                shader_int16: core.shader_int16 == vk::TRUE,
                storage_image_extended_formats: core.shader_storage_image_extended_formats
                    == vk::TRUE,
                texture_compression_bc: core.texture_compression_bc == vk::TRUE,
                sampler_anisotropy: core.sampler_anisotropy == vk::TRUE,
                vertex_pipeline_stores: core.vertex_pipeline_stores_and_atomics == vk::TRUE,
                ..Enables::default()
            };
        }
        let vulkan13 = instance_api >= vk::API_VERSION_1_3 && device_api >= vk::API_VERSION_1_3;
        // SAFETY: plain query on a physical device of this instance.
        let khr_rendering = !vulkan13
            && unsafe {
                has_extension(instance, physical_device, ash::khr::dynamic_rendering::NAME)
            };
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut rendering = vk::PhysicalDeviceDynamicRenderingFeaturesKHR::default();
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut v11)
            .push_next(&mut v12);
        if vulkan13 {
            features = features.push_next(&mut v13);
        } else if khr_rendering {
            features = features.push_next(&mut rendering);
        }
        // SAFETY: the instance and device are Vulkan 1.2 (1.3 where the 1.3 struct is
        // chained); the chain points at live locals.
        unsafe { instance.get_physical_device_features2(physical_device, &mut features) };
        let core = features.features;
        Enables {
            shader_int64: core.shader_int64 == vk::TRUE,
            sampled_image_dynamic: core.shader_sampled_image_array_dynamic_indexing == vk::TRUE,
            storage_buffer_dynamic: core.shader_storage_buffer_array_dynamic_indexing == vk::TRUE,
            vulkan12,
            sampled_image_non_uniform: v12.shader_sampled_image_array_non_uniform_indexing
                == vk::TRUE,
            storage_buffer_non_uniform: v12.shader_storage_buffer_array_non_uniform_indexing
                == vk::TRUE,
            buffer_device_address: v12.buffer_device_address == vk::TRUE,
            int64_atomics: v12.shader_buffer_int64_atomics == vk::TRUE,
            shader_int16: core.shader_int16 == vk::TRUE,
            storage_buffer_16bit: v11.storage_buffer16_bit_access == vk::TRUE,
            storage_buffer_8bit: v12.storage_buffer8_bit_access == vk::TRUE,
            shader_int8: v12.shader_int8 == vk::TRUE,
            shader_float16: v12.shader_float16 == vk::TRUE,
            storage_image_extended_formats: core.shader_storage_image_extended_formats == vk::TRUE,
            texture_compression_bc: core.texture_compression_bc == vk::TRUE,
            sampler_anisotropy: core.sampler_anisotropy == vk::TRUE,
            vertex_pipeline_stores: core.vertex_pipeline_stores_and_atomics == vk::TRUE,
            dynamic_rendering: vulkan13 && v13.dynamic_rendering == vk::TRUE,
            dynamic_rendering_khr: khr_rendering && rendering.dynamic_rendering == vk::TRUE,
            portability: None,
        }
    }

    /// The portability subset's features and properties `physical_device` offers, when it has
    /// `VK_KHR_portability_subset` (`has_extension`); all withheld when the instance or device
    /// is older than Vulkan 1.1 and they cannot be queried.
    pub(crate) fn portability_offered(
        instance: &ash::Instance,
        instance_api: u32,
        physical_device: vk::PhysicalDevice,
        device_api: u32,
        has_extension: bool,
    ) -> Option<PortabilitySubset> {
        if !has_extension {
            return None;
        }
        if instance_api < vk::API_VERSION_1_1 || device_api < vk::API_VERSION_1_1 {
            return Some(PortabilitySubset::default());
        }
        let mut subset = vk::PhysicalDevicePortabilitySubsetFeaturesKHR::default();
        let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut subset);
        // SAFETY: Vulkan 1.1 on both sides; the device has the extension whose struct is
        // chained; the chain points at live locals.
        unsafe { instance.get_physical_device_features2(physical_device, &mut features) };
        let mut limits = vk::PhysicalDevicePortabilitySubsetPropertiesKHR::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut limits);
        // SAFETY: as above.
        unsafe { instance.get_physical_device_properties2(physical_device, &mut props) };
        Some(PortabilitySubset {
            events: subset.events == vk::TRUE,
            image_view_format_reinterpretation: subset.image_view_format_reinterpretation
                == vk::TRUE,
            image_view_format_swizzle: subset.image_view_format_swizzle == vk::TRUE,
            image_view_2d_on_3d_image: subset.image_view2_d_on3_d_image == vk::TRUE,
            mutable_comparison_samplers: subset.mutable_comparison_samplers == vk::TRUE,
            sampler_mip_lod_bias: subset.sampler_mip_lod_bias == vk::TRUE,
            min_vertex_input_binding_stride_alignment: limits
                .min_vertex_input_binding_stride_alignment,
        })
    }

    /// The portability subset's features to enable: every one offered (chain it only when
    /// [`Enables::portability`] is set).
    pub(crate) fn portability_features(
        &self,
    ) -> vk::PhysicalDevicePortabilitySubsetFeaturesKHR<'static> {
        let offered = self.portability.unwrap_or_default();
        vk::PhysicalDevicePortabilitySubsetFeaturesKHR::default()
            .events(offered.events)
            .image_view_format_reinterpretation(offered.image_view_format_reinterpretation)
            .image_view_format_swizzle(offered.image_view_format_swizzle)
            .image_view2_d_on3_d_image(offered.image_view_2d_on_3d_image)
            .mutable_comparison_samplers(offered.mutable_comparison_samplers)
            .sampler_mip_lod_bias(offered.sampler_mip_lod_bias)
    }

    /// The core features to enable.
    pub(crate) fn core(&self) -> vk::PhysicalDeviceFeatures {
        vk::PhysicalDeviceFeatures::default()
            .shader_int64(self.shader_int64)
            .shader_sampled_image_array_dynamic_indexing(self.sampled_image_dynamic)
            .shader_storage_buffer_array_dynamic_indexing(self.storage_buffer_dynamic)
            .shader_int16(self.shader_int16)
            .shader_storage_image_extended_formats(self.storage_image_extended_formats)
            .texture_compression_bc(self.texture_compression_bc)
            .sampler_anisotropy(self.sampler_anisotropy)
            .vertex_pipeline_stores_and_atomics(self.vertex_pipeline_stores)
    }

    /// The `VK_KHR_dynamic_rendering` feature to enable (chain it, and enable the extension,
    /// only when [`Enables::dynamic_rendering_khr`]).
    pub(crate) fn dynamic_rendering_khr_feature(
        &self,
    ) -> vk::PhysicalDeviceDynamicRenderingFeaturesKHR<'static> {
        vk::PhysicalDeviceDynamicRenderingFeaturesKHR::default()
            .dynamic_rendering(self.dynamic_rendering_khr)
    }

    /// The Vulkan 1.3 features to enable (chain it only when [`Enables::dynamic_rendering`]).
    pub(crate) fn vulkan13_features(&self) -> vk::PhysicalDeviceVulkan13Features<'static> {
        vk::PhysicalDeviceVulkan13Features::default().dynamic_rendering(self.dynamic_rendering)
    }

    /// The Vulkan 1.1 features to enable (chain it only when [`Enables::vulkan12`], beside
    /// [`Enables::vulkan12_features`]).
    pub(crate) fn vulkan11_features(&self) -> vk::PhysicalDeviceVulkan11Features<'static> {
        vk::PhysicalDeviceVulkan11Features::default()
            .storage_buffer16_bit_access(self.storage_buffer_16bit)
    }

    /// The Vulkan 1.2 features to enable (chain it only when [`Enables::vulkan12`]).
    pub(crate) fn vulkan12_features(&self) -> vk::PhysicalDeviceVulkan12Features<'static> {
        vk::PhysicalDeviceVulkan12Features::default()
            .shader_sampled_image_array_non_uniform_indexing(self.sampled_image_non_uniform)
            .shader_storage_buffer_array_non_uniform_indexing(self.storage_buffer_non_uniform)
            .buffer_device_address(self.buffer_device_address)
            .shader_buffer_int64_atomics(self.int64_atomics)
            .storage_buffer8_bit_access(self.storage_buffer_8bit)
            .shader_int8(self.shader_int8)
            .shader_float16(self.shader_float16)
    }
}

/// Whether `physical_device` offers the device extension `name`.
///
/// # Safety
/// `physical_device` must belong to `instance`, which must be alive.
pub(crate) unsafe fn has_extension(
    instance: &ash::Instance,
    physical_device: vk::PhysicalDevice,
    name: &std::ffi::CStr,
) -> bool {
    // SAFETY: guaranteed by the caller.
    unsafe { instance.enumerate_device_extension_properties(physical_device) }
        .unwrap_or_default()
        .iter()
        .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
}

/// Reads the device's capabilities, given the optional features that are enabled on it
/// (a borrowed device: none, since perftest cannot know what the engine enabled).
pub(crate) fn query_caps(
    instance: &ash::Instance,
    instance_api: u32,
    physical_device: vk::PhysicalDevice,
    device_api: u32,
    queue_family: u32,
    enabled: &Enables,
) -> DeviceCaps {
    // SAFETY: plain queries on a live instance and one of its physical devices.
    let (props, memory) = unsafe {
        (
            instance.get_physical_device_properties(physical_device),
            instance.get_physical_device_memory_properties(physical_device),
        )
    };
    let subgroup_ballot =
        instance_api >= vk::API_VERSION_1_1 && device_api >= vk::API_VERSION_1_1 && {
            let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
            let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut subgroup);
            // SAFETY: the instance and device are Vulkan 1.1; the chain points at live locals.
            unsafe { instance.get_physical_device_properties2(physical_device, &mut props2) };
            subgroup
                .supported_operations
                .contains(vk::SubgroupFeatureFlags::BALLOT)
                && subgroup
                    .supported_stages
                    .contains(vk::ShaderStageFlags::COMPUTE)
        };
    // SAFETY: as above.
    let families = unsafe { instance.get_physical_device_queue_family_properties(physical_device) };
    let graphics_queue = families
        .get(queue_family as usize)
        .is_some_and(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS));
    let heaps =
        &memory.memory_heaps[..memory.memory_heap_count.min(vk::MAX_MEMORY_HEAPS as u32) as usize];
    let device_local_bytes = heaps
        .iter()
        .filter(|h| h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
        .map(|h| h.size)
        .max()
        .unwrap_or(0);
    DeviceCaps {
        formats: query_support(instance, physical_device),
        sampled_image_dynamic: enabled.sampled_image_dynamic,
        storage_buffer_dynamic: enabled.storage_buffer_dynamic,
        sampled_image_non_uniform: enabled.sampled_image_non_uniform,
        storage_buffer_non_uniform: enabled.storage_buffer_non_uniform,
        buffer_device_address: enabled.buffer_device_address,
        shader_int64: enabled.shader_int64,
        int64_atomics: enabled.int64_atomics,
        subgroup_ballot,
        max_storage_buffer_range: u64::from(props.limits.max_storage_buffer_range),
        device_local_bytes,
        storage_buffer_8bit: enabled.storage_buffer_8bit,
        shader_int8: enabled.shader_int8,
        storage_buffer_16bit: enabled.storage_buffer_16bit,
        shader_int16: enabled.shader_int16,
        shader_float16: enabled.shader_float16,
        max_compute_shared_memory: u64::from(props.limits.max_compute_shared_memory_size),
        storage_image_extended_formats: enabled.storage_image_extended_formats,
        extra_formats: query_extra_support(instance, physical_device),
        texture_compression_bc: enabled.texture_compression_bc,
        // The specification guarantees 16 where the feature is supported; check it anyway.
        sampler_anisotropy: enabled.sampler_anisotropy
            && props.limits.max_sampler_anisotropy >= 16.0,
        graphics_queue,
        vertex_pipeline_stores: enabled.vertex_pipeline_stores,
        portability: enabled.portability,
    }
}
