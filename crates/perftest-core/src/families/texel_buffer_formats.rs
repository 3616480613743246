//! `texel_buffer_formats`: for each extra format the device supports as a uniform texel buffer,
//! a buffer of its 1024 generated texels and a view of it in that format. Float formats run
//! the original `typed_buffer.spv`, integer formats `texture_formats_uint_buffer.spv`.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::format_models::format_of;
use perftest_cases::{Case, ExtraFormat};

use crate::building_blocks::create_family;
use crate::context::Context;
use crate::error::{Result, VkResultExt};
use crate::formats::vk_extra_format;
use crate::memory::Buffer;
use crate::plan::{Bind, Descriptors, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "texel_buffer_formats",
    spirv,
    create,
    push_bytes: 16,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    if format_of(case).is_integer() {
        include_bytes!("../../spirv/texture_formats_uint_buffer.spv")
    } else {
        include_bytes!("../../spirv/typed_buffer.spv")
    }
}

/// One buffer and view per supported format.
struct FormatBuffers {
    buffers: Vec<(ExtraFormat, Buffer, vk::BufferView)>,
}

fn create(ctx: &mut Context, shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = FormatBuffers {
        buffers: Vec::new(),
    };
    create_family(ctx, empty, |r, ctx| {
        for format in ExtraFormat::ALL {
            let supported = shared.caps.extra_formats[format.index()].uniform_texel_buffer;
            if format.is_compressed() || !supported {
                continue;
            }
            let data = format.data();
            let buffer = ctx.create_buffer(
                "texel buffer",
                data.len() as u64,
                vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
                MemoryLocation::GpuOnly,
            )?;
            let handle = buffer.buffer;
            r.buffers.push((format, buffer, vk::BufferView::null()));
            if let Some((_, uploaded, _)) = r.buffers.last() {
                ctx.upload_buffer(uploaded, data)?;
            }
            let info = vk::BufferViewCreateInfo::default()
                .buffer(handle)
                .format(vk_extra_format(format))
                .offset(0)
                .range(data.len() as u64);
            // SAFETY: the buffer has UNIFORM_TEXEL_BUFFER usage and the format supports it.
            let view =
                unsafe { ctx.device.create_buffer_view(&info, None) }.call("vkCreateBufferView")?;
            if let Some(last) = r.buffers.last_mut() {
                last.2 = view;
            }
        }
        Ok(())
    })
}

impl FamilyResources for FormatBuffers {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let format = format_of(case);
        let view = self
            .buffers
            .iter()
            .find(|(f, _, v)| *f == format && *v != vk::BufferView::null())?
            .2;
        Some(vec![Bind {
            binding: 0,
            ty: vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
            descriptors: Descriptors::TexelBuffers(vec![view]),
        }])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for (_, mut buffer, view) in self.buffers.drain(..) {
            // SAFETY: the caller saw the context idle; the view was created on this device
            // (a null handle is ignored).
            unsafe { ctx.device.destroy_buffer_view(view, None) };
            ctx.destroy_buffer(&mut buffer);
        }
    }
}
