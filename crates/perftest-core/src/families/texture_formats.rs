//! `texture_formats`: for each extra format the device can sample (the BC formats only with
//! `textureCompressionBC`), a 32x32 single-mip texture of its generated texels or blocks, bound
//! with the original's nearest REPEAT sampler. Float formats run the original
//! `texture_load.spv` and `texture_sample.spv`, integer formats the
//! `texture_formats_uint_*.spv` variants.

use ash::vk;
use perftest_cases::format_models::format_of;
use perftest_cases::{read_of, Feature, TextureRead};
use perftest_cases::{Case, ExtraFormat, TEXTURE_SIZE};

use crate::building_blocks::{create_family, create_sampler};
use crate::context::Context;
use crate::error::Result;
use crate::formats::vk_extra_format;
use crate::image_shapes::ImageDesc;
use crate::memory::Image;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_formats",
    spirv,
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match (format_of(case).is_integer(), read_of(case)) {
        (false, TextureRead::Load) => include_bytes!("../../spirv/texture_load.spv"),
        (false, TextureRead::Sample) => include_bytes!("../../spirv/texture_sample.spv"),
        (true, TextureRead::Load) => include_bytes!("../../spirv/texture_formats_uint_load.spv"),
        (true, TextureRead::Sample) => {
            include_bytes!("../../spirv/texture_formats_uint_sample.spv")
        }
    }
}

/// One texture per supported format and the nearest sampler.
struct FormatTextures {
    images: Vec<(ExtraFormat, Image)>,
    nearest: vk::Sampler,
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = FormatTextures {
        images: Vec::new(),
        nearest: vk::Sampler::null(),
    };
    create_family(ctx, empty, |r, ctx| {
        r.nearest = create_sampler(ctx, vk::Filter::NEAREST)?;
        for format in ExtraFormat::ALL {
            let sampled = shared.caps.extra_formats[format.index()].sampled_image;
            if !sampled
                || (format.is_compressed() && !shared.caps.has(Feature::TextureCompressionBc))
            {
                continue;
            }
            // BC data is the 8x8 blocks, row-major: tightly packed for a 32x32 copy.
            let image = ctx.create_filled_image(
                &ImageDesc::texture(vk_extra_format(format), TEXTURE_SIZE, 1),
                &[format.data()],
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            )?;
            r.images.push((format, image));
        }
        Ok(())
    })
}

impl FamilyResources for FormatTextures {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let format = format_of(case);
        let image = &self.images.iter().find(|(f, _)| *f == format)?.1;
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
