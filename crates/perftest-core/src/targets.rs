//! Enumerating compute targets: every (physical device, queue family) pair whose family can
//! run compute work and write timestamps.

use std::sync::Arc;

use ash::vk;

use perftest_report::{DeviceInfo, MemoryTypeEntry};

use crate::adapter::Adapter;
use crate::error::{Result, VkResultExt};
use crate::selection::{DeviceType, TargetSummary};

/// One (physical device, compute queue family) pair, with what perftest reports about it.
#[derive(Clone, Debug)]
pub struct ComputeTarget {
    /// The physical device handle.
    pub physical_device: vk::PhysicalDevice,
    /// Name, queue family and type (what device selection looks at).
    pub summary: TargetSummary,
    /// PCI vendor id.
    pub vendor_id: u32,
    /// Vendor-specific device id.
    pub device_id: u32,
    /// Driver name (`VkPhysicalDeviceDriverProperties`), empty before Vulkan 1.2.
    pub driver_name: String,
    /// Driver information string, empty before Vulkan 1.2.
    pub driver_info: String,
    /// Vendor-encoded driver version.
    pub driver_version: u32,
    /// Vulkan API version the device supports (`vk::make_api_version` encoding).
    pub api_version: u32,
    /// Default subgroup size (0 when unknown).
    pub subgroup_size: u32,
    /// Nanoseconds per timestamp tick.
    pub timestamp_period: f32,
    /// Valid bits of timestamps on this queue family.
    pub timestamp_valid_bits: u32,
    /// `maxComputeWorkGroupCount`.
    pub max_compute_work_group_count: [u32; 3],
    /// Queues in the family.
    pub queue_count: u32,
    /// Workgroups of 256 threads the device runs at once at full occupancy, when the driver
    /// tells (`VK_NV_shader_sm_builtins`: SMs x warps per SM x 32; `VK_AMD_shader_core_properties`:
    /// CUs x SIMDs x waves per SIMD x wave size); `None` elsewhere.
    pub resident_workgroups: Option<u32>,
    /// PCI address `DOMAIN:BUS:DEVICE.FUNCTION` in the form `nvidia-smi` prints
    /// (`00000000:18:00.0`), from `VK_EXT_pci_bus_info`; `None` without the extension.
    pub pci_bus: Option<String>,
    /// `VkPhysicalDeviceIDProperties::deviceUUID` as 8-4-4-4-12 hex digits; `None` before
    /// Vulkan 1.1.
    pub device_uuid: Option<String>,
    /// Everything perftest read of the physical device, once.
    pub adapter: Arc<Adapter>,
}

impl ComputeTarget {
    /// The report's description of this target.
    pub fn device_info(&self) -> DeviceInfo {
        DeviceInfo {
            name: self.summary.name.clone(),
            device_type: self.summary.device_type.to_string(),
            vendor_id: self.vendor_id,
            device_id: self.device_id,
            driver_name: self.driver_name.clone(),
            driver_info: self.driver_info.clone(),
            driver_version: self.driver_version,
            api_version: self.api_version_string(),
            queue_family: self.summary.queue_family,
            timestamp_period_ns: self.timestamp_period,
            timestamp_valid_bits: self.timestamp_valid_bits,
            subgroup_size: self.subgroup_size,
            resident_workgroups: self.resident_workgroups,
            shader_units: self.adapter.units.map(|u| u.count),
            peak_per_unit: self.adapter.peak_per_unit,
            pci_bus: self.pci_bus.clone(),
            device_uuid: self.device_uuid.clone(),
            memory_types: MemoryTypeEntry::all(&self.adapter.memory_kinds()),
        }
    }

    /// `major.minor.patch` of [`ComputeTarget::api_version`].
    pub fn api_version_string(&self) -> String {
        format!(
            "{}.{}.{}",
            vk::api_version_major(self.api_version),
            vk::api_version_minor(self.api_version),
            vk::api_version_patch(self.api_version)
        )
    }
}

fn device_type(t: vk::PhysicalDeviceType) -> DeviceType {
    match t {
        vk::PhysicalDeviceType::DISCRETE_GPU => DeviceType::Discrete,
        vk::PhysicalDeviceType::INTEGRATED_GPU => DeviceType::Integrated,
        vk::PhysicalDeviceType::VIRTUAL_GPU => DeviceType::Virtual,
        vk::PhysicalDeviceType::CPU => DeviceType::Cpu,
        _ => DeviceType::Other,
    }
}

/// Keeps the families that can run compute and write timestamps (pure rule).
pub fn timestamp_compute_families(families: &[vk::QueueFamilyProperties]) -> Vec<u32> {
    families
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.queue_flags.contains(vk::QueueFlags::COMPUTE)
                && f.timestamp_valid_bits > 0
                && f.queue_count > 0
        })
        .filter_map(|(i, _)| u32::try_from(i).ok())
        .collect()
}

/// Describes one (physical device, queue family) pair of a queried device.
pub fn describe_target(adapter: &Arc<Adapter>, queue_family: u32) -> ComputeTarget {
    let props = &adapter.properties;
    let family = adapter
        .queue_families
        .get(queue_family as usize)
        .copied()
        .unwrap_or_default();
    ComputeTarget {
        physical_device: adapter.physical_device,
        summary: TargetSummary {
            name: adapter.name(),
            queue_family,
            device_type: device_type(props.device_type),
            location: location(adapter.pci_bus.as_deref(), adapter.device_uuid.as_deref()),
            portability_subset: adapter.portability.is_some(),
        },
        vendor_id: props.vendor_id,
        device_id: props.device_id,
        driver_name: adapter.driver_name.clone(),
        driver_info: adapter.driver_info.clone(),
        driver_version: props.driver_version,
        api_version: props.api_version,
        subgroup_size: adapter.subgroup_size,
        timestamp_period: props.limits.timestamp_period,
        timestamp_valid_bits: family.timestamp_valid_bits,
        max_compute_work_group_count: props.limits.max_compute_work_group_count,
        queue_count: family.queue_count,
        resident_workgroups: adapter.resident_workgroups(),
        pci_bus: adapter.pci_bus.clone(),
        device_uuid: adapter.device_uuid.clone(),
        adapter: Arc::clone(adapter),
    }
}

/// A PCI address as `nvidia-smi` prints it: `00000000:18:00.0`.
pub fn pci_address(domain: u32, bus: u32, device: u32, function: u32) -> String {
    format!("{domain:08x}:{bus:02x}:{device:02x}.{function:x}")
}

/// A 16-byte UUID as 8-4-4-4-12 lowercase hex digits.
pub fn uuid_text(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// What the device list shows to tell identical devices apart: the PCI address when known,
/// else the UUID.
pub fn location(pci_bus: Option<&str>, device_uuid: Option<&str>) -> Option<String> {
    pci_bus
        .map(|p| format!("PCI {p}"))
        .or_else(|| device_uuid.map(|u| format!("UUID {u}")))
}

/// Workgroups of 256 threads that fit in `threads` resident threads (`None` for none).
pub fn resident_groups(threads: u64) -> Option<u32> {
    u32::try_from(threads / 256).ok().filter(|&g| g > 0)
}

/// Indices into `targets` (as [`compute_targets`] lists them) of the first target of each
/// physical device: one queue family per device, for running on every device of a machine.
pub fn first_family_per_device(targets: &[ComputeTarget]) -> Vec<usize> {
    let mut seen = Vec::new();
    let mut picked = Vec::new();
    for (i, t) in targets.iter().enumerate() {
        if !seen.contains(&t.physical_device) {
            seen.push(t.physical_device);
            picked.push(i);
        }
    }
    picked
}

/// Lists every compute target of `instance`, in physical-device then queue-family order.
pub fn compute_targets(
    instance: &ash::Instance,
    instance_api_version: u32,
) -> Result<Vec<ComputeTarget>> {
    // SAFETY: plain query on a live instance.
    let devices =
        unsafe { instance.enumerate_physical_devices() }.call("vkEnumeratePhysicalDevices")?;
    let mut targets = Vec::new();
    for device in devices {
        let adapter = Arc::new(Adapter::query(instance, instance_api_version, device));
        for family in timestamp_compute_families(&adapter.queue_families) {
            targets.push(describe_target(&adapter, family));
        }
    }
    Ok(targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family(flags: vk::QueueFlags, bits: u32, count: u32) -> vk::QueueFamilyProperties {
        vk::QueueFamilyProperties {
            queue_flags: flags,
            timestamp_valid_bits: bits,
            queue_count: count,
            ..Default::default()
        }
    }

    #[test]
    fn resident_groups_of_256_threads() {
        // H200: 132 SMs x 64 warps x 32 threads = 8 groups per SM.
        assert_eq!(resident_groups(132 * 64 * 32), Some(1056));
        assert_eq!(resident_groups(0), None);
        assert_eq!(resident_groups(255), None);
    }

    #[test]
    fn only_compute_families_with_timestamps_count() {
        let families = [
            family(vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE, 64, 16),
            family(vk::QueueFlags::TRANSFER, 64, 2),
            family(vk::QueueFlags::COMPUTE, 64, 8),
            family(vk::QueueFlags::COMPUTE, 0, 4), // no timestamps
        ];
        assert_eq!(timestamp_compute_families(&families), vec![0, 2]);
        // A device without any timestamp-capable compute queue yields no target.
        assert!(timestamp_compute_families(&families[1..2]).is_empty());
        assert!(timestamp_compute_families(&families[3..]).is_empty());
    }

    #[test]
    fn identities_in_the_forms_other_tools_print() {
        assert_eq!(pci_address(0, 0x18, 0, 0), "00000000:18:00.0");
        assert_eq!(pci_address(1, 0xab, 0x1f, 7), "00000001:ab:1f.7");
        let mut bytes = [0u8; 16];
        bytes
            .iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = i as u8 * 17);
        assert_eq!(uuid_text(&bytes), "00112233-4455-6677-8899-aabbccddeeff");
        assert_eq!(
            location(Some("00000000:18:00.0"), Some("u")).as_deref(),
            Some("PCI 00000000:18:00.0")
        );
        assert_eq!(location(None, Some("u")).as_deref(), Some("UUID u"));
        assert_eq!(location(None, None), None);
    }

    /// One target per physical device: the first timestamp-capable compute family of each.
    #[test]
    fn one_target_per_physical_device() {
        use ash::vk::Handle;
        let target = |device: u64, family: u32| ComputeTarget {
            physical_device: vk::PhysicalDevice::from_raw(device),
            summary: TargetSummary {
                name: "GPU".into(),
                queue_family: family,
                device_type: crate::selection::DeviceType::Discrete,
                location: None,
                portability_subset: false,
            },
            vendor_id: 0,
            device_id: 0,
            driver_name: String::new(),
            driver_info: String::new(),
            driver_version: 0,
            api_version: 0,
            subgroup_size: 0,
            timestamp_period: 1.0,
            timestamp_valid_bits: 64,
            max_compute_work_group_count: [1; 3],
            queue_count: 1,
            resident_workgroups: None,
            pci_bus: None,
            device_uuid: None,
            adapter: Arc::default(),
        };
        let targets = [
            target(1, 0),
            target(1, 2),
            target(2, 0),
            target(2, 2),
            target(3, 1),
        ];
        assert_eq!(first_family_per_device(&targets), vec![0, 2, 4]);
        assert!(first_family_per_device(&[]).is_empty());
    }
}
