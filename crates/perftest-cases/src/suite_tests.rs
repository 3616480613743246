//! Tests of the support rules and the CPU models over whole suites: they read the case
//! registry, which the modules they test must not import (not even in their own tests), so
//! they live here, where nothing imports them.

mod support {
    use crate::case::support;
    use crate::extra_format::ExtraFormat;
    use crate::feature::{Feature, FeatureSet};
    use crate::format::Format;
    use crate::matrix::original_cases;
    use crate::support::*;

    const ALL: FormatSupport = FormatSupport {
        uniform_texel_buffer: true,
        sampled_image: true,
        linear_filter: true,
        storage_image: true,
        linear_sampled_image: true,
        linear_tiling_filter: true,
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

    /// A device with every feature, 1 GB of device-local memory and 48 KB of shared memory.
    fn full_caps() -> DeviceCaps {
        DeviceCaps {
            features: FeatureSet::all(),
            subgroup_ballot: true,
            max_storage_buffer_range: u64::from(u32::MAX),
            device_local_bytes: 1 << 30,
            max_compute_shared_memory: 48 << 10,
            ..caps(|_| ALL)
        }
    }

    #[test]
    fn device_needs_name_what_is_missing() {
        let full = full_caps();
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

    /// Each narrow-storage feature is named on its own when it alone is missing.
    #[test]
    fn each_narrow_storage_feature_is_named_alone() {
        let full = full_caps();
        let narrow = [
            DeviceNeed::Feature(Feature::StorageBuffer8Bit),
            DeviceNeed::Feature(Feature::ShaderInt8),
            DeviceNeed::Feature(Feature::StorageBuffer16Bit),
            DeviceNeed::Feature(Feature::ShaderInt16),
            DeviceNeed::Feature(Feature::ShaderFloat16),
        ];
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
            let others_missing = narrow
                .iter()
                .filter(|n| n.missing(&without).is_some())
                .count();
            assert_eq!(others_missing, 1, "{name}");
        }
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

mod reference {
    use crate::case::Case;
    use crate::data::input_bytes;
    use crate::matrix::{find_case, original_cases};
    use crate::reference::*;

    fn case(id: &str) -> Case {
        find_case(&original_cases(), id)
            .cloned()
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn uniform_pattern_is_the_same_for_every_thread() {
        let c = case("raw.load2.uniform");
        let p = KernelParams::for_case(&c);
        assert_eq!(reference_sum(&c, p, [0, 0]), reference_sum(&c, p, [200, 0]));
    }

    #[test]
    fn linear_threads_differ_and_shift_by_one_element() {
        let c = case("structured.float.linear");
        let p = KernelParams::for_case(&c);
        let a = reference_sum(&c, p, [0, 0]);
        let b = reference_sum(&c, p, [1, 0]);
        assert_ne!(a.sum, b.sum);
        let bytes = input_bytes();
        // Thread 1 reads elements 1..=256, thread 0 reads 0..=255.
        let diff = word_at(bytes, 256 * 4) - word_at(bytes, 0);
        assert!(((b.sum[0] - a.sum[0]) - diff).abs() <= 1e-3 * a.abs_sum[0]);
    }

    #[test]
    fn raw_widths_widen_like_the_original() {
        let c = case("raw.load3.uniform");
        let s = reference_sum(&c, KernelParams::for_case(&c), [0, 0]);
        assert_eq!(s.sum[3], s.sum[0]);
        let c4 = case("raw.load4.uniform");
        let s4 = reference_sum(&c4, KernelParams::for_case(&c4), [0, 0]);
        assert_ne!(s4.sum[3], s4.sum[0]);
        let one = case("raw.load.uniform");
        let s1 = reference_sum(&one, KernelParams::for_case(&one), [0, 0]);
        assert!(s1.sum.iter().all(|&v| v == s1.sum[0]));
    }

    #[test]
    fn unaligned_start_shifts_by_one_word() {
        let aligned = case("raw.load.uniform");
        let mut p = KernelParams::for_case(&aligned);
        p.read_start_address = 4;
        let shifted = reference_sum(&aligned, p, [0, 0]);
        let c = case("raw.load2.unaligned.uniform");
        assert_eq!(KernelParams::for_case(&c).read_start_address, 4);
        // Load (W=1) starting at byte 4 equals the sum of words 1..=256.
        let bytes = input_bytes();
        let direct: f32 = (1..=256).map(|k| word_at(bytes, 4 * k)).sum();
        assert_eq!(shifted.sum[0], direct);
    }

    #[test]
    fn random_pattern_offsets_stay_small() {
        let starts: std::collections::HashSet<u32> = (0..256).map(|l| hash(l) & 0xf).collect();
        assert!(starts.len() > 4, "random starts should vary: {starts:?}");
        let c = case("typed.rgba8.random");
        let p = KernelParams::for_case(&c);
        let sums: std::collections::HashSet<u32> = (0..256)
            .map(|l| reference_sum(&c, p, [l, 0]).sum[0].to_bits())
            .collect();
        assert!(sums.len() > 1 && sums.len() <= 16);
    }

    #[test]
    fn texture_linear_depends_on_both_axes() {
        let c = case("tex.load.rg16f.linear");
        let p = KernelParams::for_case(&c);
        let a = reference_sum(&c, p, [3, 5]);
        let b = reference_sum(&c, p, [5, 3]);
        assert_ne!(a.sum, b.sum);
        assert_eq!(a.sum[0], a.sum[2]);
        assert!(a.sum.iter().all(|v| v.is_finite()));
    }

    #[test]
    fn every_case_has_a_finite_non_zero_model() {
        for c in original_cases() {
            let s = reference_sum(&c, KernelParams::for_case(&c), [7, 3]);
            assert!(s.sum.iter().all(|v| v.is_finite()), "{}", c.id);
            assert!(s.abs_sum.iter().all(|&v| v > 0.0), "{}", c.id);
        }
    }

    #[test]
    fn tolerance_rejects_one_wrong_load() {
        let c = case("structured.float4.linear");
        let s = reference_sum(&c, KernelParams::for_case(&c), [0, 0]);
        let bytes = input_bytes();
        // Replace the first load's x with the value of another element.
        let wrong = s.sum[0] - word_at(bytes, 0) + word_at(bytes, 16 * 700);
        assert!(!Tolerance::DEFAULT.accepts(wrong, s.sum[0], s.abs_sum[0]));
        assert!(Tolerance::DEFAULT.accepts(s.sum[0], s.sum[0], s.abs_sum[0]));
        assert!(!Tolerance::DEFAULT.accepts(f32::NAN, s.sum[0], s.abs_sum[0]));
    }
}
