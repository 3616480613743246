//! `texture_srgb`: the RGBA8 data of the sampling twins viewed as `R8G8B8A8_SRGB` — a 32x32
//! single-level texture (the original RGBA8 texels) with the original's bilinear REPEAT
//! sampler, the six-level varied chain with the trilinear sampler and the flat chain with the
//! 16x anisotropic one (only where the device has `samplerAnisotropy`) — run by the twins'
//! kernels (`texture_sample.spv`, `texture_mips_lod.spv`, `texture_mips_aniso.spv`).

use ash::vk;
use perftest_cases::families::texture_srgb::{self, SrgbMode};
use perftest_cases::{
    mip_level_bytes, AddressMode, Case, ExtraFormat, Feature, Format, SampleFilter, SamplerState,
    MIP_LEVELS, TEXTURE_SIZE,
};

use crate::building_blocks::{create_family, create_mip_sampler, create_sampler_state};
use crate::context::Context;
use crate::error::Result;
use crate::formats::vk_extra_format;
use crate::image_shapes::ImageDesc;
use crate::memory::Image;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_srgb",
    spirv: |case| match texture_srgb::mode(case) {
        SrgbMode::Bilinear => include_bytes!("../../spirv/texture_sample.spv"),
        SrgbMode::Trilinear => include_bytes!("../../spirv/texture_mips_lod.spv"),
        SrgbMode::Aniso16 => include_bytes!("../../spirv/texture_mips_aniso.spv"),
    },
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

/// `anisotropy` of the 16x sampler.
const MAX_ANISOTROPY: f32 = 16.0;

/// One sRGB image and one sampler per mode (`SrgbMode::ALL` order); null samplers where the
/// device cannot make them.
struct SrgbTextures {
    images: Vec<Image>,
    samplers: [vk::Sampler; 3],
}

/// The levels a mode's image holds: level 0 alone for bilinear, else the whole chain.
fn levels(mode: SrgbMode) -> u32 {
    match mode {
        SrgbMode::Bilinear => 1,
        SrgbMode::Trilinear | SrgbMode::Aniso16 => MIP_LEVELS,
    }
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = SrgbTextures {
        images: Vec::new(),
        samplers: [vk::Sampler::null(); 3],
    };
    let srgb = ExtraFormat::Rgba8Srgb;
    let support = shared.caps.extra_formats[srgb.index()];
    let anisotropy = shared.caps.has(Feature::SamplerAnisotropy);
    create_family(ctx, empty, |r, ctx| {
        if !(support.sampled_image && support.linear_filter) {
            return Ok(());
        }
        for mode in SrgbMode::ALL {
            let data: Vec<Vec<u8>> = (0..levels(mode))
                .map(|level| mip_level_bytes(mode.chain(), Format::Rgba8, level))
                .collect();
            let slices: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
            r.images.push(ctx.create_filled_image(
                &ImageDesc::texture(vk_extra_format(srgb), TEXTURE_SIZE, levels(mode)),
                &slices,
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            )?);
        }
        let bilinear = SamplerState::new(SampleFilter::Bilinear, AddressMode::Repeat);
        r.samplers[0] = create_sampler_state(ctx, bilinear)?;
        r.samplers[1] = create_mip_sampler(ctx, None)?;
        if anisotropy {
            r.samplers[2] = create_mip_sampler(ctx, Some(MAX_ANISOTROPY))?;
        }
        Ok(())
    })
}

impl FamilyResources for SrgbTextures {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let mode = texture_srgb::mode(case);
        let i = SrgbMode::ALL.iter().position(|&m| m == mode)?;
        let sampler = *self.samplers.get(i)?;
        if sampler == vk::Sampler::null() {
            return None;
        }
        let view = self.images.get(i)?.view;
        Some(vec![Bind::images(0, &[(view, sampler)])])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for sampler in &mut self.samplers {
            // SAFETY: the caller saw the context idle; the sampler was created on this device
            // (a null handle is ignored).
            unsafe { ctx.device.destroy_sampler(*sampler, None) };
            *sampler = vk::Sampler::null();
        }
        for mut image in self.images.drain(..) {
            ctx.destroy_image(&mut image);
        }
    }
}
