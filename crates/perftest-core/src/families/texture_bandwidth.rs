//! `texture_bandwidth`: one single-mip image per (format, size), made when the first case
//! that reads it is prepared and uploaded in slices of at most 64 MB, each generated straight
//! into its staging buffer ([`BandwidthFormat::write_rows`]), bound with a nearest sampler
//! (`texelFetch` ignores it) at binding 0.

use ash::vk;
use perftest_cases::bandwidth_format::BandwidthFormat;
use perftest_cases::families::texture_bandwidth::{format_of, size_of};
use perftest_cases::Case;

use crate::building_blocks::{create_family, create_sampler};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::image_shapes::{ImageDesc, ImageSlices};
use crate::memory::Image;
use crate::plan::{Bind, FamilyResources, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_bandwidth",
    spirv: |_| include_bytes!("../../spirv/texture_bandwidth.spv"),
    create: |ctx, _| {
        let empty = Images {
            images: Vec::new(),
            nearest: vk::Sampler::null(),
        };
        create_family(ctx, empty, |r, ctx| {
            r.nearest = create_sampler(ctx, vk::Filter::NEAREST)?;
            Ok(())
        })
    },
    push_bytes: 32,
    stages: Stages::Compute,
};

/// The most bytes one upload slice holds.
const SLICE_BYTES: u64 = 64 << 20;

/// The Vulkan format of `format`.
fn vk_format(format: BandwidthFormat) -> vk::Format {
    match format {
        BandwidthFormat::Rgba32f => vk::Format::R32G32B32A32_SFLOAT,
        BandwidthFormat::Rgba16f => vk::Format::R16G16B16A16_SFLOAT,
        BandwidthFormat::Rgba8 => vk::Format::R8G8B8A8_UNORM,
        BandwidthFormat::B10g11r11 => vk::Format::B10G11R11_UFLOAT_PACK32,
        BandwidthFormat::Bc7 => vk::Format::BC7_UNORM_BLOCK,
        BandwidthFormat::Astc4x4 => vk::Format::ASTC_4X4_UNORM_BLOCK,
        BandwidthFormat::Bc1 => vk::Format::BC1_RGBA_UNORM_BLOCK,
    }
}

/// The slices of a `width` x `height` image of `format`: the most rows (a power of two, a
/// whole number of block rows) whose bytes stay within [`SLICE_BYTES`], at most the image.
fn slices(format: BandwidthFormat, width: u32, height: u32) -> ImageSlices {
    let row_bytes = format.image_bytes(width, 1).max(1);
    let fit = (SLICE_BYTES / row_bytes).max(1);
    let rows = (1u32 << fit.ilog2().min(31))
        .max(format.block_side())
        .min(height);
    ImageSlices {
        rows,
        bytes: format.image_bytes(width, rows),
    }
}

/// What tells the images apart: the format and the size (width, height).
type ImageKey = (BandwidthFormat, (u32, u32));

/// The images prepared so far, by (format, size), and the sampler they are bound with.
struct Images {
    images: Vec<(ImageKey, Image)>,
    nearest: vk::Sampler,
}

impl Images {
    fn image(&self, case: &Case) -> Option<&Image> {
        let key = (format_of(case), size_of(case));
        self.images.iter().find(|(k, _)| *k == key).map(|(_, i)| i)
    }
}

impl FamilyResources for Images {
    fn prepare(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        if self.image(case).is_some() {
            return Ok(());
        }
        let (format, (width, height)) = (format_of(case), size_of(case));
        let most = ctx.target.adapter.properties.limits.max_image_dimension2_d;
        if width.max(height) > most {
            return Err(Error::Unsupported {
                id: case.id.clone(),
                reason: format!(
                    "maxImageDimension2D is {most}; the case reads a {width}x{height} image"
                ),
            });
        }
        let mut desc = ImageDesc::texture(vk_format(format), width, 1);
        desc.extent.height = height;
        let image = ctx.create_sliced_image(
            &desc,
            slices(format, width, height),
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            |first_row, rows, bytes| format.write_rows(width, first_row, rows, bytes),
        )?;
        self.images.push(((format, (width, height)), image));
        Ok(())
    }

    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let image = self.image(case)?;
        Some(vec![Bind::images(0, &[(image.view, self.nearest)])])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        // SAFETY: the caller saw the context idle; the sampler was created on this device
        // (a null handle is ignored).
        unsafe { ctx.device.destroy_sampler(self.nearest, None) };
        self.nearest = vk::Sampler::null();
        for (_, mut image) in self.images.drain(..) {
            ctx.destroy_image(&mut image);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_stay_within_64_mb_and_divide_the_image() {
        let s = slices(BandwidthFormat::Rgba32f, 8192, 4096);
        assert_eq!(
            s,
            ImageSlices {
                rows: 512,
                bytes: 64 << 20
            }
        );
        let s = slices(BandwidthFormat::Bc1, 8192, 4096);
        assert_eq!((s.rows, s.bytes), (4096, 16 << 20));
        let s = slices(BandwidthFormat::Bc7, 64, 64);
        assert_eq!((s.rows, s.bytes), (64, 4096));
        for f in BandwidthFormat::ALL {
            for (w, h) in [(64, 64), (8192, 4096)] {
                let s = slices(f, w, h);
                assert!(h % s.rows == 0 && s.rows % f.block_side() == 0 && s.bytes <= SLICE_BYTES);
            }
        }
    }
}
