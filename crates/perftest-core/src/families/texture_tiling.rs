//! `texture_tiling`: linearly tiled copies of the 32x32 textures of the family's formats (those
//! the device samples in linear tiling), read by the original `texture_load` and
//! `texture_sample` kernels (the same SPIR-V) with the original nearest and bilinear samplers
//! (REPEAT addressing, LOD 0).

use ash::vk;
use perftest_cases::families::texture_tiling::{BILINEAR, FORMATS, LOAD};
use perftest_cases::{Case, FormatFeature};

use crate::building_blocks::{create_family, create_sampler, Textures};
use crate::context::Context;
use crate::error::Result;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_tiling",
    spirv: |case| {
        if case.params.variant == LOAD {
            include_bytes!("../../spirv/texture_load.spv")
        } else {
            include_bytes!("../../spirv/texture_sample.spv")
        }
    },
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

struct LinearTextures {
    textures: Textures,
    nearest: vk::Sampler,
    bilinear: vk::Sampler,
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = LinearTextures {
        textures: Textures::default(),
        nearest: vk::Sampler::null(),
        bilinear: vk::Sampler::null(),
    };
    let linear: Vec<_> = FORMATS
        .into_iter()
        .filter(|&f| shared.caps.format_has(f, FormatFeature::LinearSampledImage))
        .collect();
    create_family(ctx, empty, |r, ctx| {
        r.textures
            .fill_tiled(ctx, &linear, vk::ImageTiling::LINEAR)?;
        r.nearest = create_sampler(ctx, vk::Filter::NEAREST)?;
        r.bilinear = create_sampler(ctx, vk::Filter::LINEAR)?;
        Ok(())
    })
}

impl FamilyResources for LinearTextures {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let sampler = if case.params.variant == BILINEAR {
            self.bilinear
        } else {
            self.nearest
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
