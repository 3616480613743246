//! Whether a device can run a case: a pure decision over plain data about the device.

use crate::extra_format::ExtraFormat;
use crate::feature::{Feature, FeatureSet};
use crate::format::Format;
use crate::memory_kind::{MemoryKind, MemoryTypeInfo};
use crate::portability::{PortabilityFeature, PortabilitySubset};

/// What a device supports for one format (read from `vkGetPhysicalDeviceFormatProperties`:
/// buffer features, optimal-tiling features and the linear-tiling ones the tiling cases need).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatSupport {
    /// `UNIFORM_TEXEL_BUFFER` in the buffer features (needed by `Buffer<FMT>.Load`).
    pub uniform_texel_buffer: bool,
    /// `SAMPLED_IMAGE` in the optimal-tiling features (needed by every texture case).
    pub sampled_image: bool,
    /// `SAMPLED_IMAGE_FILTER_LINEAR` in the optimal-tiling features (needed by bilinear).
    pub linear_filter: bool,
    /// `STORAGE_IMAGE` in the optimal-tiling features (needed by storage-image loads).
    pub storage_image: bool,
    /// `SAMPLED_IMAGE` and `TRANSFER_DST` (its upload) in the linear-tiling features (needed by
    /// the linearly tiled textures of the tiling cases).
    pub linear_sampled_image: bool,
    /// `SAMPLED_IMAGE_FILTER_LINEAR` in the linear-tiling features (bilinear from a linearly
    /// tiled texture).
    pub linear_tiling_filter: bool,
}

/// The decision for one case on one device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Support {
    /// The case can run.
    Supported,
    /// The case cannot run; the reason names the missing feature, limit or format.
    Skipped(String),
}

/// A format feature a case needs from the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormatFeature {
    /// `UNIFORM_TEXEL_BUFFER` in the buffer features.
    UniformTexelBuffer,
    /// `SAMPLED_IMAGE` in the optimal-tiling features.
    SampledImage,
    /// `SAMPLED_IMAGE_FILTER_LINEAR` in the optimal-tiling features.
    SampledImageFilterLinear,
    /// `STORAGE_IMAGE` in the optimal-tiling features.
    StorageImage,
    /// `SAMPLED_IMAGE` and `TRANSFER_DST` in the linear-tiling features.
    LinearSampledImage,
    /// `SAMPLED_IMAGE_FILTER_LINEAR` in the linear-tiling features.
    LinearSampledImageFilterLinear,
}

impl FormatFeature {
    /// Whether `support` has this feature.
    pub fn in_support(self, support: FormatSupport) -> bool {
        match self {
            FormatFeature::UniformTexelBuffer => support.uniform_texel_buffer,
            FormatFeature::SampledImage => support.sampled_image,
            FormatFeature::SampledImageFilterLinear => support.linear_filter,
            FormatFeature::StorageImage => support.storage_image,
            FormatFeature::LinearSampledImage => support.linear_sampled_image,
            FormatFeature::LinearSampledImageFilterLinear => support.linear_tiling_filter,
        }
    }

    /// The Vulkan flag's name (for messages).
    pub fn vk_name(self) -> &'static str {
        match self {
            FormatFeature::UniformTexelBuffer => "UNIFORM_TEXEL_BUFFER",
            FormatFeature::SampledImage => "SAMPLED_IMAGE (optimal tiling)",
            FormatFeature::SampledImageFilterLinear => {
                "SAMPLED_IMAGE_FILTER_LINEAR (optimal tiling)"
            }
            FormatFeature::StorageImage => "STORAGE_IMAGE (optimal tiling)",
            FormatFeature::LinearSampledImage => "SAMPLED_IMAGE and TRANSFER_DST (linear tiling)",
            FormatFeature::LinearSampledImageFilterLinear => {
                "SAMPLED_IMAGE_FILTER_LINEAR (linear tiling)"
            }
        }
    }
}

/// What a device offers that some cases need: plain data, read once from the device (or
/// written by hand in tests), so that every skip decision is a pure function of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceCaps {
    /// Support of the nine formats, in [`Format::ALL`] order.
    pub formats: [FormatSupport; 9],
    /// The optional features enabled on the device (on a borrowed device, none: perftest
    /// cannot know what the engine enabled).
    pub features: FeatureSet,
    /// Subgroup ballot operations work in compute shaders (`VK_SUBGROUP_FEATURE_BALLOT_BIT`
    /// with the compute stage).
    pub subgroup_ballot: bool,
    /// `maxStorageBufferRange`, in bytes.
    pub max_storage_buffer_range: u64,
    /// Size of the largest device-local memory heap, in bytes.
    pub device_local_bytes: u64,
    /// `maxComputeSharedMemorySize`, in bytes.
    pub max_compute_shared_memory: u64,
    /// `maxComputeWorkGroupInvocations`: the most threads one workgroup may run.
    pub max_workgroup_invocations: u32,
    /// `maxComputeWorkGroupSize`: the most threads along each axis of a workgroup.
    pub max_workgroup_size: [u32; 3],
    /// Support of the texture suite's extra formats, in [`ExtraFormat::ALL`] order.
    pub extra_formats: [FormatSupport; 13],
    /// The queue perftest submits to also runs graphics work (`VK_QUEUE_GRAPHICS_BIT`).
    pub graphics_queue: bool,
    /// What a device with `VK_KHR_portability_subset` (MoltenVK) offers of the features that
    /// subset makes optional; `None` on a device with all of Vulkan.
    pub portability: Option<PortabilitySubset>,
    /// The memory type each [`MemoryKind`] resolved to (in [`MemoryKind::ALL`] order), `None`
    /// where the device has none of that kind.
    pub memory_kinds: [Option<MemoryTypeInfo>; 4],
    /// A queue of a transfer-only family (no graphics, no compute) with timestamps is open
    /// beside the compute queue.
    pub transfer_queue: bool,
    /// One thread may signal a timeline semaphore on the host while another waits for it there:
    /// false only under a validation layer that deadlocks on it (before 1.3.296).
    pub host_timeline_threads: bool,
    /// A queue family of the device other than the one perftest submits to (its transfer-only
    /// family where it has one), which a buffer shared concurrently
    /// (`VK_SHARING_MODE_CONCURRENT`) names beside the compute family; `None` on a device of one
    /// queue family.
    pub concurrent_family: Option<u32>,
}

impl DeviceCaps {
    /// Whether `feature` is enabled on the device.
    pub fn has(&self, feature: Feature) -> bool {
        self.features.has(feature)
    }

    /// Whether `format` has `feature` on this device.
    pub fn format_has(&self, format: Format, feature: FormatFeature) -> bool {
        let i = Format::ALL.iter().position(|&f| f == format).unwrap_or(0);
        feature.in_support(self.formats[i])
    }

    /// Whether the extra format `format` has `feature` on this device.
    pub fn extra_format_has(&self, format: ExtraFormat, feature: FormatFeature) -> bool {
        feature.in_support(self.extra_formats[format.index()])
    }
}

/// Something a case needs from the device beyond what every case needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceNeed {
    /// A format feature for a format.
    Format(Format, FormatFeature),
    /// An optional device feature (and the ones it needs as well, [`Feature::also_needs`]).
    Feature(Feature),
    /// Subgroup ballot operations in compute shaders.
    SubgroupBallot,
    /// One storage-buffer binding of this many bytes.
    StorageBufferRange(u64),
    /// A working set of this many bytes in device-local memory.
    DeviceMemory(u64),
    /// This many bytes of shared (workgroup) memory in one compute kernel.
    SharedMemory(u64),
    /// A compute workgroup of this shape (`[x, y]` threads): within both
    /// `maxComputeWorkGroupInvocations` and `maxComputeWorkGroupSize`.
    Workgroup([u32; 2]),
    /// A format feature for one of the texture suite's extra formats.
    ExtraFormat(ExtraFormat, FormatFeature),
    /// A queue that runs graphics work (draws) as well as compute: the graphics suite.
    GraphicsQueue,
    /// A feature that `VK_KHR_portability_subset` makes optional (always there on a device
    /// without that extension).
    Portability(PortabilityFeature),
    /// A memory type of this kind whose heap holds twice this many bytes (a buffer of them,
    /// with room for others).
    Memory(MemoryKind, u64),
    /// A transfer-only queue with timestamps beside the compute queue.
    TransferQueue,
    /// Host memory the device can copy from and into: a host-visible type, cached or not.
    HostMemory,
    /// A timeline semaphore signalled on the host in one thread while another waits for it
    /// there ([`DeviceCaps::host_timeline_threads`]).
    HostTimelineThreads,
    /// A second queue family, so that a buffer can be shared concurrently between two
    /// ([`DeviceCaps::concurrent_family`]).
    ConcurrentSharing,
}

/// The largest share of the largest device-local heap one working set may take: a quarter, so
/// that the modern suite's largest set (256 MB) runs on a device with 1 GB.
pub const WORKING_SET_SHARE: u64 = 4;

impl DeviceNeed {
    /// `None` when `caps` satisfies the need, else the reason the case is skipped.
    pub fn missing(self, caps: &DeviceCaps) -> Option<String> {
        match self {
            DeviceNeed::Format(format, feature) => (!caps.format_has(format, feature)).then(|| {
                format!(
                    "{} does not support {}",
                    vk_format_name(format),
                    feature.vk_name()
                )
            }),
            DeviceNeed::Feature(wanted) => std::iter::once(wanted)
                .chain(wanted.also_needs().iter().copied())
                .find(|f| !caps.has(*f))
                .map(|f| format!("the device lacks {}", f.vk_name())),
            DeviceNeed::SubgroupBallot => (!caps.subgroup_ballot)
                .then(|| "the device lacks subgroup ballot in compute shaders".to_string()),
            DeviceNeed::StorageBufferRange(bytes) => {
                (bytes > caps.max_storage_buffer_range).then(|| {
                    format!(
                        "maxStorageBufferRange is {} bytes; the case binds {bytes}",
                        caps.max_storage_buffer_range
                    )
                })
            }
            DeviceNeed::DeviceMemory(bytes) => {
                (bytes.saturating_mul(WORKING_SET_SHARE) > caps.device_local_bytes).then(|| {
                    format!(
                        "a {} MB working set needs a device-local heap of at least {} MB; \
                         the largest has {} MB",
                        bytes >> 20,
                        bytes.saturating_mul(WORKING_SET_SHARE) >> 20,
                        caps.device_local_bytes >> 20
                    )
                })
            }
            DeviceNeed::SharedMemory(bytes) => {
                (bytes > caps.max_compute_shared_memory).then(|| {
                    format!(
                        "maxComputeSharedMemorySize is {} bytes; the kernel declares {bytes}",
                        caps.max_compute_shared_memory
                    )
                })
            }
            DeviceNeed::Workgroup(shape) => workgroup_missing(shape, caps),
            DeviceNeed::ExtraFormat(format, feature) => (!caps.extra_format_has(format, feature))
                .then(|| {
                    format!(
                        "{} does not support {}",
                        format.vk_name(),
                        feature.vk_name()
                    )
                }),
            DeviceNeed::GraphicsQueue => (!caps.graphics_queue).then(|| {
                "the selected queue family runs no graphics work (VK_QUEUE_GRAPHICS_BIT); \
                 pick a queue of the device that does"
                    .to_string()
            }),
            DeviceNeed::Portability(wanted) => match &caps.portability {
                Some(subset) if !wanted.in_subset(subset) => Some(format!(
                    "the device implements VK_KHR_portability_subset without {}",
                    wanted.vk_name()
                )),
                _ => None,
            },
            DeviceNeed::Memory(kind, bytes) => memory_missing(kind, bytes, caps),
            DeviceNeed::HostMemory => {
                let host = [MemoryKind::HostUncached, MemoryKind::HostCached];
                host.iter()
                    .all(|k| caps.memory_kinds[k.index()].is_none())
                    .then(|| "the device has no host-visible memory type".to_string())
            }
            DeviceNeed::TransferQueue => (!caps.transfer_queue).then(|| {
                "the device has no transfer-only queue family with timestamps (or perftest \
                 runs on a borrowed device)"
                    .to_string()
            }),
            DeviceNeed::ConcurrentSharing => caps.concurrent_family.is_none().then(|| {
                "the device has one queue family: concurrent sharing needs two".to_string()
            }),
            DeviceNeed::HostTimelineThreads => (!caps.host_timeline_threads).then(|| {
                "the validation layer in use (before 1.3.296) deadlocks when one thread signals \
                 a timeline semaphore on the host while another waits for it; run without \
                 --validation or with a newer layer"
                    .to_string()
            }),
        }
    }
}

/// Why `caps` has no memory of `kind` for a `bytes` buffer (none of that type, or a heap under
/// twice the buffer), or `None` when it has.
fn memory_missing(kind: MemoryKind, bytes: u64, caps: &DeviceCaps) -> Option<String> {
    match caps.memory_kinds[kind.index()] {
        None => Some(format!(
            "the device has no {} memory type{}",
            kind.display(),
            match kind {
                MemoryKind::HostUncached => " (host-visible and coherent, not cached)",
                MemoryKind::DeviceLocalMapped => " (device-local, host-visible, coherent)",
                _ => "",
            }
        )),
        Some(t) if t.heap_bytes < bytes.saturating_mul(2) => Some(format!(
            "the {} memory heap has {} MB; a {} MB buffer needs twice that",
            kind.display(),
            t.heap_bytes >> 20,
            bytes >> 20
        )),
        Some(_) => None,
    }
}

/// Why `caps` cannot run a workgroup of `[x, y]` threads, or `None` when it can.
fn workgroup_missing([x, y]: [u32; 2], caps: &DeviceCaps) -> Option<String> {
    let threads = u64::from(x) * u64::from(y);
    let [mx, my, _] = caps.max_workgroup_size;
    if threads > u64::from(caps.max_workgroup_invocations) {
        Some(format!(
            "maxComputeWorkGroupInvocations is {}; the case runs {threads} threads per group",
            caps.max_workgroup_invocations
        ))
    } else if x > mx || y > my {
        Some(format!(
            "maxComputeWorkGroupSize is {mx}x{my}; the case runs {x}x{y} groups"
        ))
    } else {
        None
    }
}

/// The Vulkan name of the format used for `format` (for messages).
pub fn vk_format_name(format: Format) -> &'static str {
    match format {
        Format::R8 => "VK_FORMAT_R8_UNORM",
        Format::Rg8 => "VK_FORMAT_R8G8_UNORM",
        Format::Rgba8 => "VK_FORMAT_R8G8B8A8_UNORM",
        Format::R16f => "VK_FORMAT_R16_SFLOAT",
        Format::Rg16f => "VK_FORMAT_R16G16_SFLOAT",
        Format::Rgba16f => "VK_FORMAT_R16G16B16A16_SFLOAT",
        Format::R32f => "VK_FORMAT_R32_SFLOAT",
        Format::Rg32f => "VK_FORMAT_R32G32_SFLOAT",
        Format::Rgba32f => "VK_FORMAT_R32G32B32A32_SFLOAT",
    }
}
