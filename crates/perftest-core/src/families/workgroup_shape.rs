//! `workgroup_shape`: a 32 KB device-local storage buffer of the input stream (the raw and
//! exchange loads) and a 512x48 RGBA8 image of it (the texture loads, `texelFetch` through the
//! nearest sampler, which it ignores), both at binding 0.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::families::workgroup_shape::{
    buffer_bytes, image_bytes, BUFFER_BYTES, EXCHANGE, IMAGE_SIZE, TEXTURE,
};
use perftest_cases::{Case, Format};

use crate::building_blocks::{create_family, create_sampler};
use crate::context::Context;
use crate::error::Result;
use crate::formats::vk_format;
use crate::image_shapes::ImageDesc;
use crate::memory::{Buffer, Image};
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "workgroup_shape",
    spirv,
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

/// The SPIR-V of `case`: one per operation.
fn spirv(case: &Case) -> &'static [u8] {
    match case.params.variant {
        TEXTURE => include_bytes!("../../spirv/workgroup_shape_texture.spv"),
        EXCHANGE => include_bytes!("../../spirv/workgroup_shape_exchange.spv"),
        _ => include_bytes!("../../spirv/workgroup_shape_raw.spv"),
    }
}

/// The buffer, the image (where the device samples RGBA8) and the sampler.
struct ShapeResources {
    buffer: Option<Buffer>,
    image: Option<Image>,
    nearest: vk::Sampler,
}

/// The sampled [`IMAGE_SIZE`] RGBA8 image with a 2D view.
fn image_desc() -> ImageDesc {
    let mut desc = ImageDesc::texture(vk_format(Format::Rgba8), IMAGE_SIZE[0], 1);
    desc.extent.height = IMAGE_SIZE[1];
    desc
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = ShapeResources {
        buffer: None,
        image: None,
        nearest: vk::Sampler::null(),
    };
    let rgba8 = Format::ALL.iter().position(|&f| f == Format::Rgba8);
    let sampled = rgba8.is_some_and(|i| shared.caps.formats[i].sampled_image);
    create_family(ctx, empty, |r, ctx| {
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST;
        let buffer = ctx.create_buffer(
            "workgroup-shape buffer",
            BUFFER_BYTES as u64,
            usage,
            MemoryLocation::GpuOnly,
        )?;
        r.buffer = Some(ctx.filled(buffer, buffer_bytes())?);
        r.nearest = create_sampler(ctx, vk::Filter::NEAREST)?;
        if sampled {
            r.image = Some(ctx.create_filled_image(
                &image_desc(),
                &[image_bytes()],
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            )?);
        }
        Ok(())
    })
}

impl FamilyResources for ShapeResources {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        if case.params.variant == TEXTURE {
            let view = self.image.as_ref()?.view;
            return Some(vec![Bind::images(0, &[(view, self.nearest)])]);
        }
        let buffer = self.buffer.as_ref()?;
        Some(vec![Bind::buffer(
            0,
            vk::DescriptorType::STORAGE_BUFFER,
            buffer.buffer,
        )])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        // SAFETY: the caller saw the context idle; the sampler was created on this device (a
        // null handle is ignored).
        unsafe { ctx.device.destroy_sampler(self.nearest, None) };
        self.nearest = vk::Sampler::null();
        if let Some(mut image) = self.image.take() {
            ctx.destroy_image(&mut image);
        }
        if let Some(mut buffer) = self.buffer.take() {
            ctx.destroy_buffer(&mut buffer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_image_holds_exactly_its_texels() {
        let desc = image_desc();
        assert_eq!([desc.extent.width, desc.extent.height], IMAGE_SIZE);
        assert_eq!(desc.bytes(4), image_bytes().len() as u64);
    }
}
