//! `typed_buffer`: nine texel-buffer views (one per format the device supports as a uniform
//! texel buffer) of the shared 16 KB input buffer.

use ash::vk;
use perftest_cases::{Case, Format};

use crate::building_blocks::create_family;
use crate::context::Context;
use crate::error::{Result, VkResultExt};
use crate::formats::vk_format;
use crate::plan::{Bind, Descriptors, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "typed_buffer",
    spirv: |_| include_bytes!("../../spirv/typed_buffer.spv"),
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

struct TypedBuffers {
    views: [vk::BufferView; 9],
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = TypedBuffers {
        views: [vk::BufferView::null(); 9],
    };
    create_family(ctx, empty, |r, ctx| {
        for (i, format) in Format::ALL.into_iter().enumerate() {
            if !shared.caps.formats[i].uniform_texel_buffer {
                continue;
            }
            let info = vk::BufferViewCreateInfo::default()
                .buffer(shared.input)
                .format(vk_format(format))
                .offset(0)
                .range(1024 * u64::from(format.texel_bytes()));
            // SAFETY: the buffer has UNIFORM_TEXEL_BUFFER usage and the format supports it.
            r.views[i] =
                unsafe { ctx.device.create_buffer_view(&info, None) }.call("vkCreateBufferView")?;
        }
        Ok(())
    })
}

impl FamilyResources for TypedBuffers {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let format = case.params.format?;
        let i = Format::ALL.iter().position(|&f| f == format)?;
        let view = self.views[i];
        (view != vk::BufferView::null()).then(|| {
            vec![Bind {
                binding: 0,
                ty: vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
                descriptors: Descriptors::TexelBuffers(vec![view]),
            }]
        })
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for view in &mut self.views {
            // SAFETY: the caller saw the context idle; the view was created on this device
            // (null handles are ignored).
            unsafe { ctx.device.destroy_buffer_view(*view, None) };
            *view = vk::BufferView::null();
        }
    }
}
