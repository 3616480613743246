//! `texture_load`: the nine 32x32 textures, read with `texelFetch` (bound as combined image
//! samplers with a nearest sampler, which `texelFetch` ignores).

use ash::vk;
use perftest_cases::Case;

use crate::building_blocks::{create_family, create_sampler, Textures};
use crate::context::Context;
use crate::error::Result;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_load",
    spirv: |_| include_bytes!("../../spirv/texture_load.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

struct LoadTextures {
    textures: Textures,
    nearest: vk::Sampler,
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = LoadTextures {
        textures: Textures::default(),
        nearest: vk::Sampler::null(),
    };
    create_family(ctx, empty, |r, ctx| {
        r.textures.fill(ctx, &shared.caps.formats)?;
        r.nearest = create_sampler(ctx, vk::Filter::NEAREST)?;
        Ok(())
    })
}

impl FamilyResources for LoadTextures {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let view = self.textures.view(case.params.format?)?;
        Some(vec![Bind::images(0, &[(view, self.nearest)])])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        // SAFETY: the caller saw the context idle; the sampler was created on this device
        // (a null handle is ignored).
        unsafe { ctx.device.destroy_sampler(self.nearest, None) };
        self.nearest = vk::Sampler::null();
        self.textures.destroy(ctx);
    }
}
