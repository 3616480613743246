//! The Vulkan calls that fill an [`Adapter`]: every query perftest makes of a physical device.

use ash::vk;
use perftest_cases::{Feature, PortabilitySubset};

use super::{Adapter, DynamicRendering, FeatureChain, ShaderUnits};
use crate::formats::{query_extra_support, query_support};
use crate::targets::{pci_address, uuid_text};

impl Adapter {
    /// Reads everything perftest uses of `physical_device`, a device of `instance`, which was
    /// created with Vulkan `instance_api`.
    pub fn query(
        instance: &ash::Instance,
        instance_api: u32,
        physical_device: vk::PhysicalDevice,
    ) -> Adapter {
        // SAFETY: `physical_device` was enumerated from `instance`, which is alive; these are
        // plain queries.
        let (properties, queue_families, memory, extensions) = unsafe {
            (
                instance.get_physical_device_properties(physical_device),
                instance.get_physical_device_queue_family_properties(physical_device),
                instance.get_physical_device_memory_properties(physical_device),
                instance
                    .enumerate_device_extension_properties(physical_device)
                    .unwrap_or_default(),
            )
        };
        let heap_count = memory.memory_heap_count.min(vk::MAX_MEMORY_HEAPS as u32) as usize;
        let type_count = memory.memory_type_count.min(vk::MAX_MEMORY_TYPES as u32) as usize;
        let mut adapter = Adapter {
            physical_device,
            instance_api,
            properties,
            queue_families,
            memory_heaps: memory.memory_heaps[..heap_count].to_vec(),
            memory_types: memory.memory_types[..type_count].to_vec(),
            extensions: extensions
                .iter()
                .filter_map(|e| e.extension_name_as_c_str().ok())
                .map(|n| n.to_string_lossy().into_owned())
                .collect(),
            formats: query_support(instance, physical_device),
            extra_formats: query_extra_support(instance, physical_device),
            ..Adapter::default()
        };
        if adapter.at_least(vk::API_VERSION_1_1) {
            adapter.read_properties2(instance);
            adapter.read_extension_features(instance);
        } else if adapter.has_extension(ash::khr::portability_subset::NAME) {
            // Its features and limits cannot be queried before Vulkan 1.1: all withheld.
            adapter.portability = Some(PortabilitySubset::default());
        }
        adapter.read_features(instance);
        adapter
    }

    /// Subgroup, driver, ID, PCI and shader-unit properties (Vulkan 1.1; driver ones 1.2).
    fn read_properties2(&mut self, instance: &ash::Instance) {
        let vulkan12 = self.at_least(vk::API_VERSION_1_2);
        let has_nv = self.has_extension(ash::nv::shader_sm_builtins::NAME);
        let has_amd = self.has_extension(ash::amd::shader_core_properties::NAME);
        let has_amd2 = self.has_extension(ash::amd::shader_core_properties2::NAME);
        let has_arm = self.has_extension(ash::arm::shader_core_builtins::NAME);
        let has_arm_rates = self.has_extension(ash::arm::shader_core_properties::NAME);
        let has_pci = self.has_extension(ash::ext::pci_bus_info::NAME);
        let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
        let mut id = vk::PhysicalDeviceIDProperties::default();
        let mut driver = vk::PhysicalDeviceDriverProperties::default();
        let mut nv = vk::PhysicalDeviceShaderSMBuiltinsPropertiesNV::default();
        let mut amd = vk::PhysicalDeviceShaderCorePropertiesAMD::default();
        let mut amd2 = vk::PhysicalDeviceShaderCoreProperties2AMD::default();
        let mut arm = vk::PhysicalDeviceShaderCoreBuiltinsPropertiesARM::default();
        let mut arm_rates = vk::PhysicalDeviceShaderCorePropertiesARM::default();
        let mut pci = vk::PhysicalDevicePCIBusInfoPropertiesEXT::default();
        let mut props2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut subgroup)
            .push_next(&mut id);
        if vulkan12 {
            props2 = props2.push_next(&mut driver);
        }
        if has_nv {
            props2 = props2.push_next(&mut nv);
        }
        if has_amd {
            props2 = props2.push_next(&mut amd);
        }
        if has_amd2 {
            props2 = props2.push_next(&mut amd2);
        }
        if has_arm {
            props2 = props2.push_next(&mut arm);
        }
        if has_arm_rates {
            props2 = props2.push_next(&mut arm_rates);
        }
        if has_pci {
            props2 = props2.push_next(&mut pci);
        }
        // SAFETY: the instance and device are Vulkan 1.1, where the subgroup and ID structs
        // are core; the driver struct is chained only at 1.2 and each extension struct only
        // where the device has the extension; the chain points at live locals.
        unsafe { instance.get_physical_device_properties2(self.physical_device, &mut props2) };
        self.subgroup_size = subgroup.subgroup_size;
        self.subgroup_ballot = subgroup
            .supported_operations
            .contains(vk::SubgroupFeatureFlags::BALLOT)
            && subgroup
                .supported_stages
                .contains(vk::ShaderStageFlags::COMPUTE);
        self.device_uuid = Some(uuid_text(&id.device_uuid));
        if vulkan12 {
            let text = |s: Result<&std::ffi::CStr, _>| {
                s.map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            };
            self.driver_name = text(driver.driver_name_as_c_str());
            self.driver_info = text(driver.driver_info_as_c_str());
        }
        self.peak_per_unit = has_arm_rates.then_some(perftest_report::PeakRates {
            texels_per_clock: arm_rates.texel_rate,
            fma_per_clock: arm_rates.fma_rate,
            pixels_per_clock: arm_rates.pixel_rate,
        });
        self.pci_bus = has_pci.then(|| {
            pci_address(
                pci.pci_domain,
                pci.pci_bus,
                pci.pci_device,
                pci.pci_function,
            )
        });
        self.units = shader_units(
            has_nv.then_some(&nv),
            has_amd.then_some((&amd, has_amd2.then_some(&amd2))),
            has_arm.then_some(&arm),
            subgroup.subgroup_size,
        );
    }

    /// The optional features offered, and dynamic rendering (core 1.3 or by extension).
    fn read_features(&mut self, instance: &ash::Instance) {
        let levels = self.levels();
        if !levels.vulkan12 {
            // SAFETY: plain query on a live instance and one of its physical devices.
            let core = unsafe { instance.get_physical_device_features(self.physical_device) };
            self.features = FeatureChain {
                core,
                ..FeatureChain::default()
            }
            .features(levels);
            return;
        }
        let vulkan13 = self.at_least(vk::API_VERSION_1_3);
        let khr = !vulkan13 && self.has_extension(ash::khr::dynamic_rendering::NAME);
        let mut chain = FeatureChain::default();
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut rendering = vk::PhysicalDeviceDynamicRenderingFeaturesKHR::default();
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut chain.v11)
            .push_next(&mut chain.v12);
        if levels.shader_clock {
            features = features.push_next(&mut chain.clock);
        }
        if levels.pipeline_robustness {
            features = features.push_next(&mut chain.robustness);
        }
        if vulkan13 {
            features = features.push_next(&mut v13);
        } else if khr {
            features = features.push_next(&mut rendering);
        }
        // SAFETY: the instance and device are Vulkan 1.2 (1.3 where the 1.3 struct is
        // chained, the extension offered where its struct is); the chain points at live locals.
        unsafe { instance.get_physical_device_features2(self.physical_device, &mut features) };
        chain.core = features.features;
        // The structs were chained through `features`; unlink them before they are copied.
        chain.v11.p_next = std::ptr::null_mut();
        chain.v12.p_next = std::ptr::null_mut();
        chain.clock.p_next = std::ptr::null_mut();
        chain.robustness.p_next = std::ptr::null_mut();
        // A pipeline asking for robust buffer access needs `robustBufferAccess` supported.
        let robust = chain.core.robust_buffer_access == vk::TRUE;
        let offered = chain.features(levels);
        let per_pipeline = robust && offered.has(Feature::PipelineRobustness);
        self.features = offered.with(Feature::PipelineRobustness, per_pipeline);
        self.dynamic_rendering = DynamicRendering {
            core: vulkan13 && v13.dynamic_rendering == vk::TRUE,
            khr: khr && rendering.dynamic_rendering == vk::TRUE,
        };
    }

    /// The portability subset (where the device has it) and pipeline-executable statistics
    /// (Vulkan 1.1).
    fn read_extension_features(&mut self, instance: &ash::Instance) {
        if self.has_extension(ash::khr::portability_subset::NAME) {
            let mut subset = vk::PhysicalDevicePortabilitySubsetFeaturesKHR::default();
            let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut subset);
            // SAFETY: Vulkan 1.1 on both sides; the device has the extension whose struct is
            // chained; the chain points at live locals.
            unsafe { instance.get_physical_device_features2(self.physical_device, &mut features) };
            let mut limits = vk::PhysicalDevicePortabilitySubsetPropertiesKHR::default();
            let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut limits);
            // SAFETY: as above.
            unsafe { instance.get_physical_device_properties2(self.physical_device, &mut props) };
            self.portability = Some(PortabilitySubset {
                events: subset.events == vk::TRUE,
                image_view_format_reinterpretation: subset.image_view_format_reinterpretation
                    == vk::TRUE,
                image_view_format_swizzle: subset.image_view_format_swizzle == vk::TRUE,
                image_view_2d_on_3d_image: subset.image_view2_d_on3_d_image == vk::TRUE,
                mutable_comparison_samplers: subset.mutable_comparison_samplers == vk::TRUE,
                sampler_mip_lod_bias: subset.sampler_mip_lod_bias == vk::TRUE,
                min_vertex_input_binding_stride_alignment: limits
                    .min_vertex_input_binding_stride_alignment,
            });
        }
        if self.has_extension(ash::khr::pipeline_executable_properties::NAME) {
            let mut feature = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
            let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut feature);
            // SAFETY: Vulkan 1.1; the chained struct belongs to an extension the device offers.
            unsafe { instance.get_physical_device_features2(self.physical_device, &mut features) };
            self.pipeline_executable_info = feature.pipeline_executable_info == vk::TRUE;
        }
    }
}

/// The shader units the vendor extensions tell, where one does: SMs (NVIDIA), the active CUs
/// or the chip's layout of them (AMD), cores (Arm).
fn shader_units(
    nv: Option<&vk::PhysicalDeviceShaderSMBuiltinsPropertiesNV<'_>>,
    amd: Option<(
        &vk::PhysicalDeviceShaderCorePropertiesAMD<'_>,
        Option<&vk::PhysicalDeviceShaderCoreProperties2AMD<'_>>,
    )>,
    arm: Option<&vk::PhysicalDeviceShaderCoreBuiltinsPropertiesARM<'_>>,
    subgroup_size: u32,
) -> Option<ShaderUnits> {
    if let Some(nv) = nv {
        Some(ShaderUnits {
            count: nv.shader_sm_count,
            threads_per_unit: u64::from(nv.shader_warps_per_sm) * 32,
        })
    } else if let Some((amd, amd2)) = amd {
        // The active compute units where the driver tells them (properties2), else every
        // unit the chip's layout has.
        let layout = amd.shader_engine_count
            * amd.shader_arrays_per_engine_count
            * amd.compute_units_per_shader_array;
        Some(ShaderUnits {
            count: amd2.map_or(layout, |amd2| amd2.active_compute_unit_count),
            threads_per_unit: u64::from(amd.simd_per_compute_unit)
                * u64::from(amd.wavefronts_per_simd)
                * u64::from(amd.wavefront_size),
        })
    } else {
        arm.map(|arm| ShaderUnits {
            count: arm.shader_core_count,
            threads_per_unit: u64::from(arm.shader_warps_per_core) * u64::from(subgroup_size),
        })
    }
}
