//! `texture_chain`: one texture per case holding its chain (`R32_UINT` for the fetch chain,
//! `RG32_SFLOAT` for the sampled one), made and uploaded when the case is prepared, with a
//! nearest clamp-to-edge sampler at binding 0; binding 2 is a small storage buffer of the
//! cases' walk positions (16 bytes each, zero at first: texel 0), the case's slot in family
//! word 0.

use ash::vk;
use perftest_cases::families::texture_chain::{self, SAMPLE, SLOTS};
use perftest_cases::{Case, ExtraFormat, Format};

use crate::building_blocks::{create_clamp_sampler, create_family, modern_buffer};
use crate::context::Context;
use crate::error::Result;
use crate::formats::{vk_extra_format, vk_format};
use crate::image_shapes::ImageDesc;
use crate::memory::{Buffer, Image};
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texture_chain",
    spirv: |case| {
        if case.params.variant == SAMPLE {
            include_bytes!("../../spirv/texture_chain_sample.spv")
        } else {
            include_bytes!("../../spirv/texture_chain.spv")
        }
    },
    create,
    push_bytes: 32,
    stages: Stages::Compute,
};

/// The textures made so far (by case id), the sampler and the position buffer.
struct ChainTextures {
    textures: Vec<(String, Image)>,
    nearest: vk::Sampler,
    positions: Option<Buffer>,
}

fn create(ctx: &mut Context, _shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = ChainTextures {
        textures: Vec::new(),
        nearest: vk::Sampler::null(),
        positions: None,
    };
    create_family(ctx, empty, |r, ctx| {
        r.nearest = create_clamp_sampler(ctx, vk::Filter::NEAREST)?;
        let bytes = u64::from(SLOTS) * 16;
        let buffer = modern_buffer(ctx, "texture chain positions", bytes, false)?;
        r.positions = Some(ctx.filled(buffer, &vec![0u8; bytes as usize])?);
        Ok(())
    })
}

/// The image of `case`'s chain: its extent and format, sampled, one level.
fn desc(case: &Case) -> ImageDesc {
    let [width, height] = texture_chain::extent(case);
    let format = if case.params.variant == SAMPLE {
        vk_format(Format::Rg32f)
    } else {
        vk_extra_format(ExtraFormat::R32ui)
    };
    ImageDesc {
        extent: vk::Extent3D {
            width,
            height,
            depth: 1,
        },
        ..ImageDesc::texture(format, 1, 1)
    }
}

impl ChainTextures {
    fn view(&self, case: &Case) -> Option<vk::ImageView> {
        self.textures
            .iter()
            .find(|(id, _)| *id == case.id)
            .map(|(_, image)| image.view)
    }
}

impl FamilyResources for ChainTextures {
    fn prepare(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        if self.view(case).is_some() {
            return Ok(());
        }
        let image = ctx.create_filled_image(
            &desc(case),
            &[&texture_chain::texture_data(case)],
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        )?;
        self.textures.push((case.id.clone(), image));
        Ok(())
    }

    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let view = self.view(case)?;
        let positions = self.positions.as_ref()?;
        Some(vec![
            Bind::images(0, &[(view, self.nearest)]),
            Bind::buffer(2, vk::DescriptorType::STORAGE_BUFFER, positions.buffer),
        ])
    }

    fn push(&self, case: &Case) -> [u32; 4] {
        [texture_chain::slot(case), 0, 0, 0]
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for (_, image) in &mut self.textures {
            ctx.destroy_image(image);
        }
        self.textures.clear();
        if let Some(mut buffer) = self.positions.take() {
            ctx.destroy_buffer(&mut buffer);
        }
        // SAFETY: the caller saw the context idle; the sampler was created on this device (a
        // null handle is ignored).
        unsafe { ctx.device.destroy_sampler(self.nearest, None) };
        self.nearest = vk::Sampler::null();
    }
}
