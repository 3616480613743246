//! `RWTexture2D<FMT>.Load`: `imageLoad` from a 32x32 storage image
//! (`shaders/texture_storage.comp`, one SPIR-V per format), descriptor type `STORAGE_IMAGE`,
//! image layout `GENERAL`.
//!
//! What it measures: reading texels through the storage-image path (no sampler, the image's
//! format known to the shader) against the original `Texture2D<FMT>.Load` rows (`texelFetch`
//! on a sampled image): same loop, same texels, same data.
//!
//! Addressing, as in the original `Load` kernel: 16x16 workgroups, a 16x16 loop per thread;
//! the thread's start per axis is `0` (uniform), its local id (linear) or `hash(local) & 4`
//! with `hash(x) = x * 0x3504f333` (random, the original's hash); load `(x, y)` reads texel
//! `(start + (x, y)) | elementsMask` of the 32x32 image of the case's format, which holds the
//! original texture's bytes. The widened results (`xxxx`, `xyxy`, `xyzw`) are summed in f32 and
//! compared with the CPU model (the original `Texture2D.Load` model) within the default
//! tolerance.
//!
//! Formats: every image is declared with its GLSL format qualifier (`layout(r8)`, `rg8`,
//! `rgba8`, `r16f`, `rg16f`, `rgba16f`, `r32f`, `rg32f`, `rgba32f`), so the kernels do not need
//! `shaderStorageImageReadWithoutFormat`; all nine formats have a qualifier. A case needs its
//! format's `STORAGE_IMAGE` optimal-tiling feature (else it is skipped with that reason). The
//! qualifiers `r8`, `rg8`, `r16f`, `rg16f` and `rg32f` belong to SPIR-V's
//! `StorageImageExtendedFormats` capability, so those cases also need the device feature
//! `shaderStorageImageExtendedFormats` (perftest enables it where offered; without it they are
//! skipped with that reason); `rgba8`, `rgba16f`, `r32f` and `rgba32f` are core formats. The
//! rule is conservative: the current Vulkan specification makes the capability always
//! available and the feature only a promise of `STORAGE_IMAGE` support for those formats
//! (Khronos' validation layer 1.3.239 accepts the kernels with the feature off), but older
//! specifications and layers tie the capability to the feature. Lavapipe offers the feature
//! and `STORAGE_IMAGE` for all nine formats, so no case skips there.
//!
//! Params: `format`; `width` = the format's components.

use crate::case::{Case, Params};
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::format::Format;
use crate::reference::{texture_sum, KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The storage-image family.
pub struct TextureStorage;

/// The GLSL format qualifier of `format`'s storage image (`rgba16f`).
pub fn glsl_qualifier(format: Format) -> &'static str {
    match format {
        Format::R8 => "r8",
        Format::Rg8 => "rg8",
        Format::Rgba8 => "rgba8",
        Format::R16f => "r16f",
        Format::Rg16f => "rg16f",
        Format::Rgba16f => "rgba16f",
        Format::R32f => "r32f",
        Format::Rg32f => "rg32f",
        Format::Rgba32f => "rgba32f",
    }
}

/// Whether `format`'s qualifier needs SPIR-V's `StorageImageExtendedFormats` capability (the
/// device feature `shaderStorageImageExtendedFormats`).
pub fn needs_extended_formats(format: Format) -> bool {
    !matches!(
        format,
        Format::Rgba8 | Format::Rgba16f | Format::R32f | Format::Rgba32f
    )
}

impl Family for TextureStorage {
    fn label(&self) -> &'static str {
        "texture_storage"
    }

    fn title(&self) -> &'static str {
        "Storage image loads"
    }

    fn cases(&self) -> Vec<Case> {
        Format::ALL
            .into_iter()
            .flat_map(|format| {
                Case::per_pattern(
                    FamilyRef(&TextureStorage),
                    Suite::Texture,
                    &format!("tex.storage.load.{}", format.id_token()),
                    &format!("RWTexture2D<{}>.Load", format.texture_name()),
                    Params {
                        format: Some(format),
                        width: format.components(),
                        ..Params::default()
                    },
                )
            })
            .collect()
    }

    fn workgroup_size(&self) -> [u32; 2] {
        [16, 16]
    }

    fn loop_trip(&self) -> u32 {
        16
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        case.params.format.map_or(0, Format::texel_bytes)
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let Some(format) = case.params.format else {
            return Vec::new();
        };
        let mut needs = vec![DeviceNeed::Format(format, FormatFeature::StorageImage)];
        if needs_extended_formats(format) {
            needs.push(DeviceNeed::Feature(Feature::StorageImageExtendedFormats));
        }
        needs
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        texture_sum(
            case,
            params,
            local,
            case.params.format.unwrap_or(Format::R8),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::support;
    use crate::matrix::{find_case, original_cases};
    use crate::reference::reference_sum;
    use crate::support::{DeviceCaps, FormatSupport, Support};

    #[test]
    fn cases_ids_names_and_needs() {
        let cases = TextureStorage.cases();
        assert_eq!(cases.len(), 27);
        assert_eq!(cases[0].id, "tex.storage.load.r8.uniform");
        assert_eq!(cases[0].name, "RWTexture2D<R8>.Load uniform");
        assert_eq!(
            cases[0].needs(),
            [
                DeviceNeed::Format(Format::R8, FormatFeature::StorageImage),
                DeviceNeed::Feature(Feature::StorageImageExtendedFormats)
            ]
        );
        assert_eq!(cases[7].name, "RWTexture2D<RGBA8>.Load linear");
        assert_eq!(
            cases[7].needs(),
            [DeviceNeed::Format(
                Format::Rgba8,
                FormatFeature::StorageImage
            )]
        );
        assert_eq!(cases[26].id, "tex.storage.load.rgba32f.random");
        assert_eq!(cases[26].bytes_per_load(), 16);
        let extended: Vec<&str> = Format::ALL
            .into_iter()
            .filter(|&f| needs_extended_formats(f))
            .map(glsl_qualifier)
            .collect();
        assert_eq!(extended, ["r8", "rg8", "r16f", "rg16f", "rg32f"]);
    }

    #[test]
    fn skips_name_the_storage_feature_or_the_extended_formats() {
        let all = FormatSupport {
            uniform_texel_buffer: true,
            sampled_image: true,
            linear_filter: true,
            storage_image: true,
            linear_sampled_image: true,
            linear_tiling_filter: true,
        };
        let caps = DeviceCaps {
            formats: Format::ALL.map(|f| FormatSupport {
                storage_image: f != Format::Rgba16f,
                ..all
            }),
            ..DeviceCaps::default()
        };
        let skipped: Vec<(String, String)> = TextureStorage
            .cases()
            .iter()
            .filter(|c| c.pattern.name() == "uniform")
            .filter_map(|c| match support(c, &caps) {
                Support::Skipped(why) => Some((c.id.clone(), why)),
                Support::Supported => None,
            })
            .collect();
        let ids: Vec<&str> = skipped.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "tex.storage.load.r8.uniform",
                "tex.storage.load.rg8.uniform",
                "tex.storage.load.r16f.uniform",
                "tex.storage.load.rg16f.uniform",
                "tex.storage.load.rgba16f.uniform",
                "tex.storage.load.rg32f.uniform",
            ]
        );
        assert!(skipped[0].1.contains("shaderStorageImageExtendedFormats"));
        assert!(skipped[4].1.contains("STORAGE_IMAGE"));
        let extended = DeviceCaps {
            features: caps
                .features
                .with(Feature::StorageImageExtendedFormats, true),
            ..caps
        };
        let left: Vec<String> = TextureStorage
            .cases()
            .into_iter()
            .filter(|c| support(c, &extended) != Support::Supported)
            .map(|c| c.id)
            .collect();
        assert_eq!(left.len(), 3);
        assert!(left.iter().all(|id| id.contains(".rgba16f.")));
    }

    #[test]
    fn model_is_the_original_texture_load() {
        let originals = original_cases();
        for format in ["r8", "rg16f", "rgba32f"] {
            let theirs = find_case(&originals, &format!("tex.load.{format}.random"))
                .cloned()
                .unwrap_or_else(|| unreachable!());
            let ours = TextureStorage
                .cases()
                .into_iter()
                .find(|c| c.id == format!("tex.storage.load.{format}.random"))
                .unwrap_or_else(|| unreachable!());
            for local in [[0, 0], [15, 2]] {
                assert_eq!(
                    reference_sum(&ours, KernelParams::for_case(&ours), local),
                    reference_sum(&theirs, KernelParams::for_case(&theirs), local)
                );
            }
        }
    }
}
