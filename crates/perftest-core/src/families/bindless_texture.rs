//! `bindless_texture`: 32 RGBA8 64x64 textures, each with the point-clamp sampler, bound as one
//! array of 32 combined image samplers at binding 0 (one SPIR-V per way of indexing).

use ash::vk;
use perftest_cases::families::bindless_texture::{
    texture_array_bytes, Indexing, TEXTURES, TEXTURE_SIDE,
};
use perftest_cases::Case;

use crate::building_blocks::{create_clamp_sampler, create_family};
use crate::context::Context;
use crate::error::Result;
use crate::image_shapes::ImageDesc;
use crate::memory::Image;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "bindless_texture",
    spirv,
    create,
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match Indexing::of(case) {
        Indexing::Uniform => include_bytes!("../../spirv/bindless_texture_uniform.spv"),
        Indexing::NonUniform => include_bytes!("../../spirv/bindless_texture_nonuniform.spv"),
        Indexing::Scalarized => include_bytes!("../../spirv/bindless_texture_scalarized.spv"),
    }
}

/// The texture array and its sampler.
struct TextureArray {
    images: Vec<Image>,
    sampler: vk::Sampler,
}

fn create(ctx: &mut Context, _shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = TextureArray {
        images: Vec::new(),
        sampler: vk::Sampler::null(),
    };
    create_family(ctx, empty, |r, ctx| {
        r.sampler = create_clamp_sampler(ctx, vk::Filter::NEAREST)?;
        let bytes = texture_array_bytes();
        let desc = ImageDesc::texture(vk::Format::R8G8B8A8_UNORM, TEXTURE_SIDE, 1);
        let per_texture = (TEXTURE_SIDE * TEXTURE_SIDE * 4) as usize;
        for texels in bytes.chunks_exact(per_texture) {
            r.images.push(ctx.create_filled_image(
                &desc,
                &[texels],
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            )?);
        }
        Ok(())
    })
}

impl FamilyResources for TextureArray {
    fn bindings(&self, _case: &Case) -> Option<Vec<Bind>> {
        if self.images.len() != TEXTURES as usize {
            return None;
        }
        let array: Vec<_> = self.images.iter().map(|i| (i.view, self.sampler)).collect();
        Some(vec![Bind::images(0, &array)])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        // SAFETY: the caller saw the context idle; the sampler was created on this device (a
        // null handle is ignored).
        unsafe { ctx.device.destroy_sampler(self.sampler, None) };
        self.sampler = vk::Sampler::null();
        for image in &mut self.images {
            ctx.destroy_image(image);
        }
        self.images.clear();
    }
}
