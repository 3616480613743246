//! The nine 32x32 textures with a family's set of samplers, shared by the texture suite's
//! sampling families (`texture_address`, `texture_unnormalized`, `texture_offcentre`,
//! `texture_gather`, `texture_separate`, `texture_precision`): binding 0 is the texture of the
//! case's format with the sampler the family names for the case, as one combined image
//! sampler, or, for [`SamplerBinding::Separate`], the texture alone with the sampler at binding
//! 2.

use ash::vk;
use perftest_cases::{Case, SamplerState};

use crate::building_blocks::{create_family, create_sampler_state, Textures};
use crate::context::Context;
use crate::error::Result;
use crate::plan::{Bind, FamilyResources, Shared};

/// How a family's kernels take the texture and its sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SamplerBinding {
    /// One combined image sampler at binding 0 (GLSL `sampler2D`).
    Combined,
    /// The sampled image at binding 0 (`texture2D`) and the sampler at binding 2 (`sampler`).
    Separate,
}

/// The textures and one sampler per state the family uses.
pub(super) struct SampledTextures {
    textures: Textures,
    samplers: Vec<(SamplerState, vk::Sampler)>,
    state: fn(&Case) -> SamplerState,
    binding: SamplerBinding,
}

/// Creates and uploads the textures the device can sample, and a sampler for each of
/// `states`; `state` says which one a case uses. Bound as one combined image sampler.
pub(super) fn create(
    ctx: &mut Context,
    shared: &Shared<'_>,
    states: &[SamplerState],
    state: fn(&Case) -> SamplerState,
) -> Result<Box<dyn FamilyResources>> {
    create_bound(ctx, shared, states, state, SamplerBinding::Combined)
}

/// [`create`], bound as `binding` says.
pub(super) fn create_bound(
    ctx: &mut Context,
    shared: &Shared<'_>,
    states: &[SamplerState],
    state: fn(&Case) -> SamplerState,
    binding: SamplerBinding,
) -> Result<Box<dyn FamilyResources>> {
    let empty = SampledTextures {
        textures: Textures::default(),
        samplers: Vec::new(),
        state,
        binding,
    };
    create_family(ctx, empty, |r, ctx| {
        r.textures.fill(ctx, &shared.caps.formats)?;
        for &s in states {
            let sampler = create_sampler_state(ctx, s)?;
            r.samplers.push((s, sampler));
        }
        Ok(())
    })
}

impl FamilyResources for SampledTextures {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let want = (self.state)(case);
        let sampler = self.samplers.iter().find(|(s, _)| *s == want)?.1;
        let view = self.textures.view(case.params.format?)?;
        Some(match self.binding {
            SamplerBinding::Combined => vec![Bind::images(0, &[(view, sampler)])],
            SamplerBinding::Separate => {
                vec![Bind::sampled_image(0, view), Bind::sampler(2, sampler)]
            }
        })
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for (_, sampler) in self.samplers.drain(..) {
            // SAFETY: the caller saw the context idle; the sampler was created on this device.
            unsafe { ctx.device.destroy_sampler(sampler, None) };
        }
        self.textures.destroy(ctx);
    }
}
