//! Whether a device can run a case: a pure decision over plain format-feature data.

use crate::case::Case;
use crate::format::Format;

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
}

/// The decision for one case on one device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Support {
    /// The case can run.
    Supported,
    /// The case cannot run; the reason names the missing feature and format.
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
}

impl FormatFeature {
    /// Whether `support` has this feature.
    pub fn in_support(self, support: FormatSupport) -> bool {
        match self {
            FormatFeature::UniformTexelBuffer => support.uniform_texel_buffer,
            FormatFeature::SampledImage => support.sampled_image,
            FormatFeature::SampledImageFilterLinear => support.linear_filter,
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
        }
    }
}

/// Decides whether `case` can run, given `lookup(format)` for the device's formats: the first
/// missing required feature names the reason.
pub fn support(case: &Case, lookup: impl Fn(Format) -> FormatSupport) -> Support {
    match case
        .required_features()
        .into_iter()
        .find(|&(format, feature)| !feature.in_support(lookup(format)))
    {
        Some((format, feature)) => Support::Skipped(format!(
            "{} does not support {}",
            vk_format_name(format),
            feature.vk_name()
        )),
        None => Support::Supported,
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
    use crate::matrix::original_cases;

    const ALL: FormatSupport = FormatSupport {
        uniform_texel_buffer: true,
        sampled_image: true,
        linear_filter: true,
    };

    #[test]
    fn everything_supported_runs_everything() {
        assert!(original_cases()
            .iter()
            .all(|c| support(c, |_| ALL) == Support::Supported));
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
            .filter_map(|c| match support(c, table) {
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
                .map(|c| c.required_features())
                .unwrap_or_default()
        };
        assert_eq!(get("raw.load4.linear"), vec![]);
        assert_eq!(
            get("typed.r8.uniform"),
            vec![(Format::R8, FormatFeature::UniformTexelBuffer)]
        );
        assert_eq!(
            get("tex.sample.bilinear.rg16f.random"),
            vec![
                (Format::Rg16f, FormatFeature::SampledImage),
                (Format::Rg16f, FormatFeature::SampledImageFilterLinear)
            ]
        );
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
            .filter(|c| matches!(support(c, table), Support::Skipped(_)))
            .count();
        assert_eq!(n, 9); // load, nearest, bilinear x 3 patterns
    }
}
