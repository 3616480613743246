//! `texture_mips`: six-level mip chains of the nine 32x32 textures (a varied chain and a flat
//! one per format, see `perftest_cases::MipChain`), a trilinear sampler and, where the device
//! has `samplerAnisotropy`, an anisotropic one (16x).

use ash::vk;
use perftest_cases::families::texture_mips::{self, MipMode, MAX_ANISOTROPY};
use perftest_cases::{mip_level_bytes, Case, Feature, Format, MipChain, MIP_LEVELS, TEXTURE_SIZE};

use crate::building_blocks::{create_family, create_mip_sampler};
use crate::context::Context;
use crate::error::Result;
use crate::formats::vk_format;
use crate::image_shapes::ImageDesc;
use crate::memory::Image;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_mips",
    spirv: |case| match texture_mips::mode(case) {
        MipMode::Trilinear => include_bytes!("../../spirv/texture_mips_lod.spv"),
        MipMode::Grad => include_bytes!("../../spirv/texture_mips_grad.spv"),
        MipMode::Aniso16 => include_bytes!("../../spirv/texture_mips_aniso.spv"),
    },
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

/// The chains of every format the device can sample, and the two samplers.
struct MipTextures {
    /// `[chain][format]`, chains in `MipChain::ALL` order, formats in `Format::ALL` order.
    images: [[Option<Image>; 9]; 2],
    trilinear: vk::Sampler,
    /// Null where the device lacks `samplerAnisotropy`.
    anisotropic: vk::Sampler,
}

fn chain_index(chain: MipChain) -> usize {
    usize::from(chain == MipChain::Flat)
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = MipTextures {
        images: Default::default(),
        trilinear: vk::Sampler::null(),
        anisotropic: vk::Sampler::null(),
    };
    let anisotropy = shared.caps.has(Feature::SamplerAnisotropy);
    let support = shared.caps.formats;
    create_family(ctx, empty, |r, ctx| {
        for chain in MipChain::ALL {
            for (f, format) in Format::ALL.into_iter().enumerate() {
                if !support[f].sampled_image {
                    continue;
                }
                let levels: Vec<Vec<u8>> = (0..MIP_LEVELS)
                    .map(|level| mip_level_bytes(chain, format, level))
                    .collect();
                let slices: Vec<&[u8]> = levels.iter().map(Vec::as_slice).collect();
                r.images[chain_index(chain)][f] = Some(ctx.create_filled_image(
                    &ImageDesc::texture(vk_format(format), TEXTURE_SIZE, MIP_LEVELS),
                    &slices,
                    vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                )?);
            }
        }
        r.trilinear = create_mip_sampler(ctx, None)?;
        if anisotropy {
            r.anisotropic = create_mip_sampler(ctx, Some(MAX_ANISOTROPY))?;
        }
        Ok(())
    })
}

impl FamilyResources for MipTextures {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let mode = texture_mips::mode(case);
        let sampler = match mode {
            MipMode::Aniso16 => self.anisotropic,
            MipMode::Trilinear | MipMode::Grad => self.trilinear,
        };
        if sampler == vk::Sampler::null() {
            return None;
        }
        let f = Format::ALL
            .iter()
            .position(|&x| Some(x) == case.params.format)?;
        let view = self.images[chain_index(mode.chain())][f].as_ref()?.view;
        Some(vec![Bind::images(0, &[(view, sampler)])])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        // SAFETY: the caller saw the context idle; the samplers were created on this device
        // (null handles are ignored).
        unsafe {
            ctx.device.destroy_sampler(self.trilinear, None);
            ctx.device.destroy_sampler(self.anisotropic, None);
        }
        self.trilinear = vk::Sampler::null();
        self.anisotropic = vk::Sampler::null();
        for image in self.images.iter_mut().flatten().flatten() {
            ctx.destroy_image(image);
        }
        self.images = Default::default();
    }
}
