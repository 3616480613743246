//! `texture_shape`: the 1D, 2D-array, 3D and cube images of the nine formats (those the device
//! can sample), filled with their layers of the input stream, and the original nearest REPEAT
//! sampler; the cube image also has a 2D-array view of its six faces, which its `Load` cases
//! read with `texelFetch`.

use ash::vk;
use perftest_cases::families::texture_shape::{
    shape, Shape, ARRAY_LAYERS, CUBE_FACES, ONE_D_TEXELS,
};
use perftest_cases::{layered_texture_bytes, read_of, Case, Format, TextureRead, TEXTURE_SIZE};

use crate::building_blocks::{create_family, create_sampler};
use crate::context::Context;
use crate::error::Result;
use crate::formats::vk_format;
use crate::image_shapes::ImageDesc;
use crate::memory::Image;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_shape",
    spirv,
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

/// The SPIR-V of `case`: one per shape and op.
fn spirv(case: &Case) -> &'static [u8] {
    match (shape(case), read_of(case)) {
        (Shape::OneD, TextureRead::Load) => include_bytes!("../../spirv/texture_shape_1d_load.spv"),
        (Shape::OneD, TextureRead::Sample) => {
            include_bytes!("../../spirv/texture_shape_1d_sample.spv")
        }
        (Shape::Array, TextureRead::Load) => {
            include_bytes!("../../spirv/texture_shape_array_load.spv")
        }
        (Shape::Array, TextureRead::Sample) => {
            include_bytes!("../../spirv/texture_shape_array_sample.spv")
        }
        (Shape::ThreeD, TextureRead::Load) => {
            include_bytes!("../../spirv/texture_shape_3d_load.spv")
        }
        (Shape::ThreeD, TextureRead::Sample) => {
            include_bytes!("../../spirv/texture_shape_3d_sample.spv")
        }
        (Shape::Cube, TextureRead::Load) => {
            include_bytes!("../../spirv/texture_shape_cube_load.spv")
        }
        (Shape::Cube, TextureRead::Sample) => {
            include_bytes!("../../spirv/texture_shape_cube_sample.spv")
        }
    }
}

/// The image of `shape` in `format`: 1D of 1024 texels, 32x32 x 4 layers, 32x32x4, or a cube
/// of six 32x32 faces; sampled, single mip.
fn desc(shape: Shape, format: Format) -> ImageDesc {
    let square = |depth| vk::Extent3D {
        width: TEXTURE_SIZE,
        height: TEXTURE_SIZE,
        depth,
    };
    let (image_type, extent, layers, flags, view_type) = match shape {
        Shape::OneD => (
            vk::ImageType::TYPE_1D,
            vk::Extent3D {
                width: ONE_D_TEXELS,
                height: 1,
                depth: 1,
            },
            1,
            vk::ImageCreateFlags::empty(),
            vk::ImageViewType::TYPE_1D,
        ),
        Shape::Array => (
            vk::ImageType::TYPE_2D,
            square(1),
            ARRAY_LAYERS,
            vk::ImageCreateFlags::empty(),
            vk::ImageViewType::TYPE_2D_ARRAY,
        ),
        Shape::ThreeD => (
            vk::ImageType::TYPE_3D,
            square(ARRAY_LAYERS),
            1,
            vk::ImageCreateFlags::empty(),
            vk::ImageViewType::TYPE_3D,
        ),
        Shape::Cube => (
            vk::ImageType::TYPE_2D,
            square(1),
            CUBE_FACES,
            vk::ImageCreateFlags::CUBE_COMPATIBLE,
            vk::ImageViewType::CUBE,
        ),
    };
    ImageDesc {
        format: vk_format(format),
        image_type,
        extent,
        layers,
        levels: 1,
        flags,
        usage: vk::ImageUsageFlags::SAMPLED,
        view_type,
        tiling: vk::ImageTiling::OPTIMAL,
    }
}

struct ShapeImages {
    /// Every image made, with its format and shape.
    images: Vec<(Format, Shape, Image)>,
    /// The 2D-array view of each cube image's faces.
    cube_faces: Vec<(Format, vk::ImageView)>,
    nearest: vk::Sampler,
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = ShapeImages {
        images: Vec::new(),
        cube_faces: Vec::new(),
        nearest: vk::Sampler::null(),
    };
    create_family(ctx, empty, |r, ctx| {
        r.nearest = create_sampler(ctx, vk::Filter::NEAREST)?;
        for (i, format) in Format::ALL.into_iter().enumerate() {
            if !shared.caps.formats[i].sampled_image {
                continue;
            }
            for shape in Shape::ALL {
                let desc = desc(shape, format);
                let bytes = layered_texture_bytes(format.texel_bytes(), shape.layers());
                let image = ctx.create_filled_image(
                    &desc,
                    &[bytes],
                    vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                )?;
                let handle = image.image;
                r.images.push((format, shape, image));
                if shape == Shape::Cube {
                    let faces = ctx.create_view(handle, &desc, vk::ImageViewType::TYPE_2D_ARRAY)?;
                    r.cube_faces.push((format, faces));
                }
            }
        }
        Ok(())
    })
}

impl FamilyResources for ShapeImages {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let format = case.params.format?;
        let shape = shape(case);
        let view = if (shape, read_of(case)) == (Shape::Cube, TextureRead::Load) {
            self.cube_faces.iter().find(|(f, _)| *f == format)?.1
        } else {
            self.images
                .iter()
                .find(|(f, s, _)| (*f, *s) == (format, shape))?
                .2
                .view
        };
        Some(vec![Bind::images(0, &[(view, self.nearest)])])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        // SAFETY: the caller saw the context idle; the sampler and views were created on this
        // device (a null sampler is ignored).
        unsafe {
            ctx.device.destroy_sampler(self.nearest, None);
            for (_, view) in self.cube_faces.drain(..) {
                ctx.device.destroy_image_view(view, None);
            }
        }
        self.nearest = vk::Sampler::null();
        for (_, _, mut image) in self.images.drain(..) {
            ctx.destroy_image(&mut image);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_image_holds_exactly_its_layers_of_data() {
        for format in Format::ALL {
            for shape in Shape::ALL {
                let d = desc(shape, format);
                let data = layered_texture_bytes(format.texel_bytes(), shape.layers());
                assert_eq!(
                    d.bytes(format.texel_bytes()),
                    data.len() as u64,
                    "{shape:?}"
                );
            }
        }
        let cube = desc(Shape::Cube, Format::R8);
        assert_eq!(cube.layers, 6);
        assert!(cube.flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE));
        assert_eq!(desc(Shape::ThreeD, Format::R8).extent.depth, 4);
        assert_eq!(desc(Shape::OneD, Format::R8).extent.width, 1024);
    }
}
