//! `texture_storage`: a 32x32 storage image of each format the device supports as one
//! (`STORAGE_IMAGE` optimal-tiling feature), holding the original texture's bytes, in layout
//! `GENERAL`, bound as a `STORAGE_IMAGE` descriptor.

use ash::vk;
use perftest_cases::{texture_bytes, Case, Format, TEXTURE_SIZE};

use crate::building_blocks::create_family;
use crate::context::Context;
use crate::error::Result;
use crate::formats::vk_format;
use crate::image_shapes::ImageDesc;
use crate::memory::Image;
use crate::plan::{Bind, Descriptors, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_storage",
    spirv,
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

/// The SPIR-V of `case`: one per format (the image's format qualifier).
fn spirv(case: &Case) -> &'static [u8] {
    match case.params.format.unwrap_or(Format::Rgba8) {
        Format::R8 => include_bytes!("../../spirv/texture_storage_r8.spv"),
        Format::Rg8 => include_bytes!("../../spirv/texture_storage_rg8.spv"),
        Format::Rgba8 => include_bytes!("../../spirv/texture_storage_rgba8.spv"),
        Format::R16f => include_bytes!("../../spirv/texture_storage_r16f.spv"),
        Format::Rg16f => include_bytes!("../../spirv/texture_storage_rg16f.spv"),
        Format::Rgba16f => include_bytes!("../../spirv/texture_storage_rgba16f.spv"),
        Format::R32f => include_bytes!("../../spirv/texture_storage_r32f.spv"),
        Format::Rg32f => include_bytes!("../../spirv/texture_storage_rg32f.spv"),
        Format::Rgba32f => include_bytes!("../../spirv/texture_storage_rgba32f.spv"),
    }
}

/// A 32x32 single-mip 2D storage image of `format`.
fn desc(format: Format) -> ImageDesc {
    ImageDesc {
        format: vk_format(format),
        image_type: vk::ImageType::TYPE_2D,
        extent: vk::Extent3D {
            width: TEXTURE_SIZE,
            height: TEXTURE_SIZE,
            depth: 1,
        },
        layers: 1,
        levels: 1,
        flags: vk::ImageCreateFlags::empty(),
        usage: vk::ImageUsageFlags::STORAGE,
        view_type: vk::ImageViewType::TYPE_2D,
        tiling: vk::ImageTiling::OPTIMAL,
    }
}

struct StorageImages {
    images: Vec<(Format, Image)>,
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = StorageImages { images: Vec::new() };
    create_family(ctx, empty, |r, ctx| {
        for (i, format) in Format::ALL.into_iter().enumerate() {
            if !shared.caps.formats[i].storage_image {
                continue;
            }
            let bytes = texture_bytes(format.texel_bytes());
            let image =
                ctx.create_filled_image(&desc(format), &[bytes], vk::ImageLayout::GENERAL)?;
            r.images.push((format, image));
        }
        Ok(())
    })
}

impl FamilyResources for StorageImages {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let format = case.params.format?;
        let view = self.images.iter().find(|(f, _)| *f == format)?.1.view;
        Some(vec![Bind {
            binding: 0,
            ty: vk::DescriptorType::STORAGE_IMAGE,
            descriptors: Descriptors::Images(vec![vk::DescriptorImageInfo {
                sampler: vk::Sampler::null(),
                image_view: view,
                image_layout: vk::ImageLayout::GENERAL,
            }]),
        }])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for (_, mut image) in self.images.drain(..) {
            ctx.destroy_image(&mut image);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_its_own_kernel_and_a_full_texture() {
        let mut seen = std::collections::HashSet::new();
        for format in Format::ALL {
            let d = desc(format);
            assert_eq!(
                d.bytes(format.texel_bytes()),
                texture_bytes(format.texel_bytes()).len() as u64
            );
            let case = perftest_cases::families::texture_storage::TextureStorage;
            let c = perftest_cases::Family::cases(&case)
                .into_iter()
                .find(|c| c.params.format == Some(format))
                .unwrap_or_else(|| unreachable!());
            assert!(seen.insert(spirv(&c).as_ptr()), "{format:?}");
        }
    }
}
