//! `texture_sample`: the nine 32x32 textures with a nearest and a bilinear sampler (REPEAT
//! addressing, LOD 0).

use ash::vk;
use perftest_cases::families::texture_sample::filter;
use perftest_cases::{Case, SampleFilter};

use super::{FamilyResources, Input, Plan};
use crate::context::Context;
use crate::error::Result;
use crate::resources::{create_family, create_sampler, Shared, Textures};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_sample",
    descriptor_type: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
    spirv: |_| include_bytes!("../../spirv/texture_sample.spv"),
    create,
};

struct SampleTextures {
    textures: Textures,
    nearest: vk::Sampler,
    bilinear: vk::Sampler,
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = SampleTextures {
        textures: Textures::default(),
        nearest: vk::Sampler::null(),
        bilinear: vk::Sampler::null(),
    };
    create_family(ctx, empty, |r, ctx| {
        r.textures.fill(ctx, shared.support)?;
        r.nearest = create_sampler(ctx, vk::Filter::NEAREST)?;
        r.bilinear = create_sampler(ctx, vk::Filter::LINEAR)?;
        Ok(())
    })
}

impl FamilyResources for SampleTextures {
    fn input(&self, case: &Case) -> Option<Input> {
        let sampler = match filter(case) {
            SampleFilter::Nearest => self.nearest,
            SampleFilter::Bilinear => self.bilinear,
        };
        Some(Input::Image {
            view: self.textures.view(case.params.format?)?,
            sampler,
        })
    }

    fn destroy(&mut self, ctx: &mut Context) {
        // SAFETY: the caller saw the context idle; the samplers were created on this device
        // (null handles are ignored).
        unsafe {
            ctx.device.destroy_sampler(self.nearest, None);
            ctx.device.destroy_sampler(self.bilinear, None);
        }
        self.nearest = vk::Sampler::null();
        self.bilinear = vk::Sampler::null();
        self.textures.destroy(ctx);
    }
}
