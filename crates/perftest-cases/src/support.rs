//! Whether a device can run a case: a pure decision over plain data about the device.

use crate::extra_format::ExtraFormat;
use crate::feature::{Feature, FeatureSet};
use crate::format::Format;
use crate::portability::{PortabilityFeature, PortabilitySubset};

/// What a device supports for one format (read from `vkGetPhysicalDeviceFormatProperties`:
/// buffer features and optimal-tiling features).
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
}

impl FormatFeature {
    /// Whether `support` has this feature.
    pub fn in_support(self, support: FormatSupport) -> bool {
        match self {
            FormatFeature::UniformTexelBuffer => support.uniform_texel_buffer,
            FormatFeature::SampledImage => support.sampled_image,
            FormatFeature::SampledImageFilterLinear => support.linear_filter,
            FormatFeature::StorageImage => support.storage_image,
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
    /// Support of the texture suite's extra formats, in [`ExtraFormat::ALL`] order.
    pub extra_formats: [FormatSupport; 13],
    /// The queue perftest submits to also runs graphics work (`VK_QUEUE_GRAPHICS_BIT`).
    pub graphics_queue: bool,
    /// What a device with `VK_KHR_portability_subset` (MoltenVK) offers of the features that
    /// subset makes optional; `None` on a device with all of Vulkan.
    pub portability: Option<PortabilitySubset>,
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
    /// A format feature for one of the texture suite's extra formats.
    ExtraFormat(ExtraFormat, FormatFeature),
    /// A queue that runs graphics work (draws) as well as compute: the graphics suite.
    GraphicsQueue,
    /// A feature that `VK_KHR_portability_subset` makes optional (always there on a device
    /// without that extension).
    Portability(PortabilityFeature),
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
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::support;
    use crate::matrix::original_cases;

    const ALL: FormatSupport = FormatSupport {
        uniform_texel_buffer: true,
        sampled_image: true,
        linear_filter: true,
        storage_image: true,
    };

    fn caps(table: impl Fn(Format) -> FormatSupport) -> DeviceCaps {
        DeviceCaps {
            formats: Format::ALL.map(table),
            ..DeviceCaps::default()
        }
    }

    #[test]
    fn everything_supported_runs_everything() {
        assert!(original_cases()
            .iter()
            .all(|c| support(c, &caps(|_| ALL)) == Support::Supported));
    }

    #[test]
    fn synthetic_table_skips_exactly_what_lacks_a_feature() {
        // A device where RGBA32F cannot be filtered and RG16F cannot be a texel buffer.
        let table = |f: Format| match f {
            Format::Rgba32f => FormatSupport {
                linear_filter: false,
                ..ALL
            },
            Format::Rg16f => FormatSupport {
                uniform_texel_buffer: false,
                ..ALL
            },
            _ => ALL,
        };
        let skipped: Vec<(String, String)> = original_cases()
            .iter()
            .filter_map(|c| match support(c, &caps(table)) {
                Support::Skipped(why) => Some((c.id.clone(), why)),
                Support::Supported => None,
            })
            .collect();
        let ids: Vec<&str> = skipped.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "typed.rg16f.uniform",
                "typed.rg16f.linear",
                "typed.rg16f.random",
                "tex.sample.bilinear.rgba32f.uniform",
                "tex.sample.bilinear.rgba32f.linear",
                "tex.sample.bilinear.rgba32f.random",
            ]
        );
        assert!(skipped[0].1.contains("VK_FORMAT_R16G16_SFLOAT"));
        assert!(skipped[0].1.contains("UNIFORM_TEXEL_BUFFER"));
        assert!(skipped[3].1.contains("FILTER_LINEAR"));
    }

    #[test]
    fn required_features_per_family() {
        let cases = original_cases();
        let get = |id: &str| {
            cases
                .iter()
                .find(|c| c.id == id)
                .map(|c| c.needs())
                .unwrap_or_default()
        };
        assert_eq!(get("raw.load4.linear"), vec![]);
        assert_eq!(
            get("typed.r8.uniform"),
            vec![DeviceNeed::Format(
                Format::R8,
                FormatFeature::UniformTexelBuffer
            )]
        );
        assert_eq!(
            get("tex.sample.bilinear.rg16f.random"),
            vec![
                DeviceNeed::Format(Format::Rg16f, FormatFeature::SampledImage),
                DeviceNeed::Format(Format::Rg16f, FormatFeature::SampledImageFilterLinear)
            ]
        );
    }

    #[test]
    fn extra_formats_and_bc_compression_name_what_is_missing() {
        let mut caps = DeviceCaps::default();
        let need =
            DeviceNeed::ExtraFormat(ExtraFormat::Rgba8Srgb, FormatFeature::UniformTexelBuffer);
        assert!(need.missing(&caps).is_some_and(
            |r| r.contains("VK_FORMAT_R8G8B8A8_SRGB") && r.contains("UNIFORM_TEXEL_BUFFER")
        ));
        caps.extra_formats[ExtraFormat::Rgba8Srgb.index()].uniform_texel_buffer = true;
        assert!(need.missing(&caps).is_none());
        // Another format's support does not count.
        assert!(
            DeviceNeed::ExtraFormat(ExtraFormat::Rgba16, FormatFeature::UniformTexelBuffer)
                .missing(&caps)
                .is_some()
        );
        assert!(DeviceNeed::Feature(Feature::TextureCompressionBc)
            .missing(&caps)
            .is_some_and(|r| r.contains("textureCompressionBC")));
        caps.features = caps.features.with(Feature::TextureCompressionBc, true);
        assert!(DeviceNeed::Feature(Feature::TextureCompressionBc)
            .missing(&caps)
            .is_none());
    }

    #[test]
    fn no_sampled_image_skips_every_texture_case_of_that_format() {
        let table = |f: Format| match f {
            Format::R8 => FormatSupport {
                sampled_image: false,
                ..ALL
            },
            _ => ALL,
        };
        let n = original_cases()
            .iter()
            .filter(|c| matches!(support(c, &caps(table)), Support::Skipped(_)))
            .count();
        assert_eq!(n, 9); // load, nearest, bilinear x 3 patterns
    }

    #[test]
    fn storage_images_need_the_format_feature_and_extended_formats_the_device_feature() {
        let need = DeviceNeed::Format(Format::Rg16f, FormatFeature::StorageImage);
        let no_storage = caps(|f| FormatSupport {
            storage_image: f != Format::Rg16f,
            ..ALL
        });
        assert!(need
            .missing(&no_storage)
            .is_some_and(|r| r.contains("VK_FORMAT_R16G16_SFLOAT")
                && r.contains("STORAGE_IMAGE (optimal tiling)")));
        assert!(need.missing(&caps(|_| ALL)).is_none());
        assert!(
            DeviceNeed::Format(Format::R16f, FormatFeature::StorageImage)
                .missing(&no_storage)
                .is_none()
        );
        let extended = DeviceNeed::Feature(Feature::StorageImageExtendedFormats);
        assert!(extended
            .missing(&caps(|_| ALL))
            .is_some_and(|r| r.contains("shaderStorageImageExtendedFormats")));
        let with = DeviceCaps {
            features: FeatureSet::NONE.with(Feature::StorageImageExtendedFormats, true),
            ..caps(|_| ALL)
        };
        assert!(extended.missing(&with).is_none());
    }

    #[test]
    fn device_needs_name_what_is_missing() {
        let full = DeviceCaps {
            features: FeatureSet::all(),
            subgroup_ballot: true,
            max_storage_buffer_range: u64::from(u32::MAX),
            device_local_bytes: 1 << 30,
            max_compute_shared_memory: 48 << 10,
            ..caps(|_| ALL)
        };
        let needs = [
            DeviceNeed::Feature(Feature::SampledImageDynamic),
            DeviceNeed::Feature(Feature::StorageBufferDynamic),
            DeviceNeed::Feature(Feature::SampledImageNonUniform),
            DeviceNeed::Feature(Feature::StorageBufferNonUniform),
            DeviceNeed::Feature(Feature::BufferDeviceAddress),
            DeviceNeed::Feature(Feature::ShaderInt64),
            DeviceNeed::Feature(Feature::Int64Atomics),
            DeviceNeed::SubgroupBallot,
            DeviceNeed::StorageBufferRange(256 << 20),
            DeviceNeed::DeviceMemory(256 << 20),
            DeviceNeed::Feature(Feature::StorageBuffer8Bit),
            DeviceNeed::Feature(Feature::ShaderInt8),
            DeviceNeed::Feature(Feature::StorageBuffer16Bit),
            DeviceNeed::Feature(Feature::ShaderInt16),
            DeviceNeed::Feature(Feature::ShaderFloat16),
            DeviceNeed::SharedMemory(20 << 10),
        ];
        assert!(needs.iter().all(|n| n.missing(&full).is_none()));
        let none = DeviceCaps::default();
        let reasons: Vec<String> = needs.iter().filter_map(|n| n.missing(&none)).collect();
        assert_eq!(reasons.len(), needs.len());
        assert!(reasons[1].contains("shaderStorageBufferArrayDynamicIndexing"));
        assert!(reasons[2].contains("shaderSampledImageArrayNonUniformIndexing"));
        assert!(reasons[4].contains("bufferDeviceAddress"));
        assert!(reasons[6].contains("shaderBufferInt64Atomics"));
        assert!(reasons[8].contains("maxStorageBufferRange"));
        assert!(reasons[10].contains("storageBuffer8BitAccess"));
        assert!(reasons[11].contains("shaderInt8"));
        assert!(reasons[12].contains("storageBuffer16BitAccess"));
        assert!(reasons[13].contains("shaderInt16"));
        assert!(reasons[14].contains("shaderFloat16"));
        assert!(reasons[15].contains("maxComputeSharedMemorySize"));
        // Each narrow-storage feature is named on its own when it alone is missing.
        for (need, name) in [
            (
                DeviceNeed::Feature(Feature::StorageBuffer8Bit),
                "storageBuffer8BitAccess",
            ),
            (DeviceNeed::Feature(Feature::ShaderInt8), "shaderInt8"),
            (
                DeviceNeed::Feature(Feature::StorageBuffer16Bit),
                "storageBuffer16BitAccess",
            ),
            (DeviceNeed::Feature(Feature::ShaderInt16), "shaderInt16"),
            (DeviceNeed::Feature(Feature::ShaderFloat16), "shaderFloat16"),
        ] {
            let without = DeviceCaps {
                features: full
                    .features
                    .with(
                        Feature::StorageBuffer8Bit,
                        name != "storageBuffer8BitAccess",
                    )
                    .with(Feature::ShaderInt8, name != "shaderInt8")
                    .with(
                        Feature::StorageBuffer16Bit,
                        name != "storageBuffer16BitAccess",
                    )
                    .with(Feature::ShaderInt16, name != "shaderInt16")
                    .with(Feature::ShaderFloat16, name != "shaderFloat16"),
                ..full
            };
            assert!(
                need.missing(&without).is_some_and(|r| r.contains(name)),
                "{name}"
            );
            let others_missing = needs[10..15]
                .iter()
                .filter(|n| n.missing(&without).is_some())
                .count();
            assert_eq!(others_missing, 1, "{name}");
        }
        // Shared memory: exactly the limit fits, one byte more does not.
        assert!(DeviceNeed::SharedMemory(48 << 10).missing(&full).is_none());
        assert!(DeviceNeed::SharedMemory((48 << 10) + 1)
            .missing(&full)
            .is_some_and(|r| r.contains("49153")));
        // Device addresses also need shaderInt64 (the kernels add 64-bit offsets).
        let no_int64 = DeviceCaps {
            features: full.features.with(Feature::ShaderInt64, false),
            ..full
        };
        assert!(DeviceNeed::Feature(Feature::BufferDeviceAddress)
            .missing(&no_int64)
            .is_some_and(|r| r.contains("shaderInt64")));
        // A working set may take a quarter of the largest device-local heap: 256 MB fits 1 GB,
        // 512 MB does not, and a 128 MB storage range limit refuses a 256 MB binding.
        assert!(DeviceNeed::DeviceMemory(512 << 20).missing(&full).is_some());
        let small_range = DeviceCaps {
            max_storage_buffer_range: 128 << 20,
            ..full
        };
        assert!(DeviceNeed::StorageBufferRange(256 << 20)
            .missing(&small_range)
            .is_some());
        assert!(DeviceNeed::StorageBufferRange(128 << 20)
            .missing(&small_range)
            .is_none());
    }

    #[test]
    fn anisotropy_needs_the_sampler_anisotropy_feature() {
        let with = DeviceCaps {
            features: FeatureSet::NONE.with(Feature::SamplerAnisotropy, true),
            ..caps(|_| ALL)
        };
        assert!(DeviceNeed::Feature(Feature::SamplerAnisotropy)
            .missing(&with)
            .is_none());
        let without = DeviceCaps {
            features: with.features.with(Feature::SamplerAnisotropy, false),
            ..with
        };
        assert_eq!(
            DeviceNeed::Feature(Feature::SamplerAnisotropy)
                .missing(&without)
                .as_deref(),
            Some("the device lacks samplerAnisotropy")
        );
    }

    #[test]
    fn graphics_cases_need_a_graphics_queue_and_vertex_stores() {
        let graphics = crate::families::cases_in(&[crate::suite::Suite::Graphics]);
        let full = DeviceCaps {
            features: FeatureSet::NONE
                .with(Feature::VertexPipelineStores, true)
                .with(Feature::SamplerAnisotropy, true)
                .with(Feature::BufferDeviceAddress, true)
                .with(Feature::ShaderInt64, true),
            graphics_queue: true,
            ..caps(|_| ALL)
        };
        assert!(graphics
            .iter()
            .all(|c| support(c, &full) == Support::Supported));
        // A compute-only queue: the whole suite is skipped, with the reason.
        let compute_only = DeviceCaps {
            graphics_queue: false,
            ..full
        };
        for case in &graphics {
            match support(case, &compute_only) {
                Support::Skipped(why) => assert!(why.contains("VK_QUEUE_GRAPHICS_BIT"), "{why}"),
                Support::Supported => panic!("{} runs without a graphics queue", case.id),
            }
        }
        // Without stores from the vertex stage only the vertex cases are skipped.
        let no_stores = DeviceCaps {
            features: full.features.with(Feature::VertexPipelineStores, false),
            ..full
        };
        for case in &graphics {
            let vertex = case.family.label() == "vertex_fetch";
            match support(case, &no_stores) {
                Support::Skipped(why) => {
                    assert!(vertex, "{} skipped: {why}", case.id);
                    assert!(why.contains("vertexPipelineStoresAndAtomics"), "{why}");
                }
                Support::Supported => assert!(!vertex, "{} runs without vertex stores", case.id),
            }
        }
        // The original suite needs neither.
        assert!(original_cases()
            .iter()
            .all(|c| support(c, &compute_only) == Support::Supported));
    }
}
