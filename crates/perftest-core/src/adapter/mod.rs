//! One physical device, read once into plain data: properties and limits, queue families,
//! memory heaps, extensions, the optional features offered (by version and extension),
//! subgroup support, PCI address and UUID, shader-unit counts, format support. Everything
//! else (the compute targets listed, the capabilities cases are checked against, the features
//! enabled on a new device, the pipeline-cache identity) is a pure function of it, so the
//! device is asked each question once.

mod chain;
mod query;

use ash::vk;
use perftest_cases::{
    DeviceCaps, Feature, FeatureSet, FormatSupport, MemoryKind, MemoryTypeInfo, PortabilitySubset,
};

pub(crate) use chain::{FeatureChain, Levels};

/// How the device draws without render-pass objects, as offered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DynamicRendering {
    /// `dynamicRendering` of Vulkan 1.3 (instance and device 1.3 or later).
    pub core: bool,
    /// `VK_KHR_dynamic_rendering` and its feature, on a Vulkan 1.2 instance or device.
    pub khr: bool,
}

/// The shader units a vendor extension reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShaderUnits {
    /// Streaming multiprocessors (NVIDIA) or compute units (AMD).
    pub count: u32,
    /// Threads one unit keeps resident at full occupancy.
    pub threads_per_unit: u64,
}

/// One physical device as plain data, queried once ([`Adapter::query`]).
#[derive(Clone, Debug, Default)]
pub struct Adapter {
    /// The physical device handle.
    pub physical_device: vk::PhysicalDevice,
    /// The Vulkan version the instance was created with.
    pub instance_api: u32,
    /// `VkPhysicalDeviceProperties`: name, ids, versions, limits, pipeline-cache UUID.
    pub properties: vk::PhysicalDeviceProperties,
    /// The queue families, by index.
    pub queue_families: Vec<vk::QueueFamilyProperties>,
    /// The memory heaps.
    pub memory_heaps: Vec<vk::MemoryHeap>,
    /// The memory types, by index.
    pub memory_types: Vec<vk::MemoryType>,
    /// The device extensions offered, by name.
    pub extensions: Vec<String>,
    /// Driver name (`VkPhysicalDeviceDriverProperties`), empty before Vulkan 1.2.
    pub driver_name: String,
    /// Driver information string, empty before Vulkan 1.2.
    pub driver_info: String,
    /// Default subgroup size (0 before Vulkan 1.1).
    pub subgroup_size: u32,
    /// Subgroup ballot works in compute shaders (Vulkan 1.1).
    pub subgroup_ballot: bool,
    /// PCI address as `nvidia-smi` prints it, from `VK_EXT_pci_bus_info`.
    pub pci_bus: Option<String>,
    /// `deviceUUID` as 8-4-4-4-12 hex digits (Vulkan 1.2 here).
    pub device_uuid: Option<String>,
    /// Shader units, where `VK_NV_shader_sm_builtins` (SMs), `VK_AMD_shader_core_properties`
    /// (CUs; the active ones with `VK_AMD_shader_core_properties2`) or
    /// `VK_ARM_shader_core_builtins` (cores) tells them.
    pub units: Option<ShaderUnits>,
    /// What one shader core does per clock at most, where `VK_ARM_shader_core_properties`
    /// tells it (Arm publishes these rates; no other vendor's driver does).
    pub peak_per_unit: Option<perftest_report::PeakRates>,
    /// The optional features offered.
    pub features: FeatureSet,
    /// Dynamic rendering, as offered.
    pub dynamic_rendering: DynamicRendering,
    /// `VK_KHR_portability_subset`'s features and limits, where the device has it.
    pub portability: Option<PortabilitySubset>,
    /// `VK_KHR_pipeline_executable_properties` with its `pipelineExecutableInfo` feature.
    pub pipeline_executable_info: bool,
    /// Support of the nine formats, in `Format::ALL` order.
    pub formats: [FormatSupport; 9],
    /// Support of the texture suite's extra formats, in `ExtraFormat::ALL` order.
    pub extra_formats: [FormatSupport; 13],
}

impl Adapter {
    /// The device's Vulkan version.
    pub fn api_version(&self) -> u32 {
        self.properties.api_version
    }

    /// Whether both the instance and the device are at least Vulkan `version`.
    pub fn at_least(&self, version: u32) -> bool {
        self.instance_api >= version && self.properties.api_version >= version
    }

    /// Which feature structures can be queried and enabled on this device.
    pub(crate) fn levels(&self) -> Levels {
        let vulkan12 = self.at_least(vk::API_VERSION_1_2);
        Levels {
            vulkan12,
            shader_clock: vulkan12 && self.has_extension(ash::khr::shader_clock::NAME),
            pipeline_robustness: vulkan12
                && self.has_extension(ash::ext::pipeline_robustness::NAME),
        }
    }

    /// Whether the device offers the extension `name`.
    pub fn has_extension(&self, name: &std::ffi::CStr) -> bool {
        let name = name.to_string_lossy();
        self.extensions.iter().any(|e| *e == name)
    }

    /// The device's name.
    pub fn name(&self) -> String {
        self.properties
            .device_name_as_c_str()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "unknown device".to_string())
    }

    /// The size of the largest device-local heap, in bytes.
    pub fn device_local_bytes(&self) -> u64 {
        self.memory_heaps
            .iter()
            .filter(|h| h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
            .map(|h| h.size)
            .max()
            .unwrap_or(0)
    }

    /// The memory type each [`MemoryKind`] resolves to, in [`MemoryKind::ALL`] order (any
    /// type a buffer may use; allocation checks the buffer's own `memoryTypeBits`).
    pub fn memory_kinds(&self) -> [Option<MemoryTypeInfo>; 4] {
        let types: Vec<(u32, u64)> = self
            .memory_types
            .iter()
            .map(|t| {
                let heap = self.memory_heaps.get(t.heap_index as usize);
                (t.property_flags.as_raw(), heap.map_or(0, |h| h.size))
            })
            .collect();
        MemoryKind::ALL.map(|kind| kind.resolve(&types, u32::MAX))
    }

    /// The first queue family that only transfers (neither graphics nor compute) and writes
    /// timestamps: where copies run beside the compute queue.
    pub fn transfer_family(&self) -> Option<u32> {
        let busy = vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE;
        self.queue_families
            .iter()
            .position(|f| {
                f.queue_flags.contains(vk::QueueFlags::TRANSFER)
                    && !f.queue_flags.intersects(busy)
                    && f.timestamp_valid_bits > 0
                    && f.queue_count > 0
            })
            .map(|i| i as u32)
    }

    /// Workgroups of 256 threads the device runs at once at full occupancy, where the units
    /// are known.
    pub fn resident_workgroups(&self) -> Option<u32> {
        self.units
            .and_then(|u| crate::targets::resident_groups(u64::from(u.count) * u.threads_per_unit))
    }

    /// What cases are checked against on this device, with `enabled` what is enabled on it
    /// and `queue_family` the family perftest submits to.
    pub(crate) fn caps(&self, queue_family: u32, enabled: &Enabled) -> DeviceCaps {
        let limits = &self.properties.limits;
        // The specification guarantees 16 where the feature is supported; check it anyway.
        let anisotropy = enabled.features.has(Feature::SamplerAnisotropy)
            && limits.max_sampler_anisotropy >= 16.0;
        DeviceCaps {
            formats: self.formats,
            features: enabled
                .features
                .with(Feature::SamplerAnisotropy, anisotropy),
            subgroup_ballot: self.subgroup_ballot,
            max_storage_buffer_range: u64::from(limits.max_storage_buffer_range),
            device_local_bytes: self.device_local_bytes(),
            max_compute_shared_memory: u64::from(limits.max_compute_shared_memory_size),
            max_workgroup_invocations: limits.max_compute_work_group_invocations,
            max_workgroup_size: limits.max_compute_work_group_size,
            extra_formats: self.extra_formats,
            graphics_queue: self
                .queue_families
                .get(queue_family as usize)
                .is_some_and(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS)),
            portability: enabled.portability,
            memory_kinds: self.memory_kinds(),
            transfer_queue: false,
            host_timeline_threads: true,
            concurrent_family: self.other_family(queue_family),
        }
    }

    /// A queue family other than `queue_family` for concurrent sharing: the transfer-only
    /// family where there is one, else the first other family.
    pub fn other_family(&self, queue_family: u32) -> Option<u32> {
        let families = 0..self.queue_families.len() as u32;
        self.transfer_family()
            .filter(|&f| f != queue_family)
            .or_else(|| families.into_iter().find(|&f| f != queue_family))
    }
}

/// What is enabled on a device perftest uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Enabled {
    /// The optional features.
    pub(crate) features: FeatureSet,
    /// Dynamic rendering, core or by extension.
    pub(crate) dynamic_rendering: DynamicRendering,
    /// On a device with `VK_KHR_portability_subset`: the subset's features enabled.
    pub(crate) portability: Option<PortabilitySubset>,
    /// `VK_KHR_pipeline_executable_properties` and its feature.
    pub(crate) pipeline_executable_info: bool,
}

impl Enabled {
    /// Everything `adapter` offers: what perftest enables on a device it creates.
    pub(crate) fn everything_offered(adapter: &Adapter) -> Enabled {
        Enabled {
            features: adapter.features,
            dynamic_rendering: adapter.dynamic_rendering,
            portability: adapter.portability,
            pipeline_executable_info: adapter.pipeline_executable_info,
        }
    }

    /// Nothing optional: an engine's device, whose enabled features perftest cannot know (a
    /// portability-subset device then has none of the subset's features).
    pub(crate) fn nothing(adapter: &Adapter) -> Enabled {
        Enabled {
            portability: adapter.portability.map(|_| PortabilitySubset::default()),
            ..Enabled::default()
        }
    }
}
