//! `texture_sample`: the nine 32x32 textures with a nearest and a bilinear sampler (REPEAT
//! addressing, LOD 0).

use ash::vk;
use perftest_cases::families::texture_sample::filter;
use perftest_cases::{Case, SampleFilter};

use crate::building_blocks::{create_family, create_sampler, Textures};
use crate::context::Context;
use crate::error::Result;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_sample",
    spirv: |_| include_bytes!("../../spirv/texture_sample.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Compute,
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
        r.textures.fill(ctx, &shared.caps.formats)?;
        r.nearest = create_sampler(ctx, vk::Filter::NEAREST)?;
        r.bilinear = create_sampler(ctx, vk::Filter::LINEAR)?;
        Ok(())
    })
}

impl FamilyResources for SampleTextures {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let sampler = match filter(case) {
            SampleFilter::Nearest => self.nearest,
            SampleFilter::Bilinear => self.bilinear,
        };
        let view = self.textures.view(case.params.format?)?;
        Some(vec![Bind::images(0, &[(view, sampler)])])
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
