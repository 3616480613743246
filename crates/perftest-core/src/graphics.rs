//! Graphics pipelines: the offscreen attachment graphics cases draw into, building a graphics
//! pipeline, and recording a draw (dynamic rendering where the device has it enabled,
//! render-pass objects otherwise). What a draw binds ([`Geometry`]) is part of a family's
//! plan.
//!
//! A graphics "dispatch" of N groups is one draw of N instances. A fragment-shader case's
//! instance is one 16x16 tile of the attachment (256 fragments, a workgroup's worth), placed
//! by `shaders/tiles.vert`; a vertex-shader case's instance is its family's 256 vertices.

use ash::vk;

use crate::barriers::{image_transition as transition, COLOR_LEVEL};
use crate::context::Context;
use crate::error::{Error, Result, VkResultExt};
use crate::image_shapes::ImageDesc;
use crate::memory::Image;
use crate::plan::{Geometry, Stages, VertexInput};

/// Side of the square attachment, in pixels: 64 x 64 tiles.
pub(crate) const TARGET_SIDE: u32 = 1024;

/// Side of a tile, in pixels: one tile is one workgroup of 256 fragments.
pub(crate) const TILE_SIDE: u32 = 16;

/// Format of the attachment: a fragment writes its four-lane sum there when verifying.
pub(crate) const TARGET_FORMAT: vk::Format = vk::Format::R32G32B32A32_SFLOAT;

/// The attachment's handles a kernel keeps to record its draws.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attachment {
    image: vk::Image,
    view: vk::ImageView,
    /// Render passes for timing (contents not loaded) and for verification (cleared); both
    /// store; null with dynamic rendering.
    passes: [vk::RenderPass; 2],
    framebuffer: vk::Framebuffer,
}

impl Attachment {
    /// Whether draws use dynamic rendering.
    fn dynamic(&self) -> bool {
        self.framebuffer == vk::Framebuffer::null()
    }
}

/// The offscreen attachment, kept in `COLOR_ATTACHMENT_OPTIMAL` between draws.
pub(crate) struct RenderTarget {
    image: Image,
    attachment: Attachment,
}

/// Every pixel of the attachment.
fn full_area() -> vk::Rect2D {
    vk::Rect2D {
        offset: vk::Offset2D { x: 0, y: 0 },
        extent: vk::Extent2D {
            width: TARGET_SIDE,
            height: TARGET_SIDE,
        },
    }
}

impl RenderTarget {
    /// Creates the attachment (and, without dynamic rendering, its render passes and
    /// framebuffer) and moves it to `COLOR_ATTACHMENT_OPTIMAL`.
    pub(crate) fn new(ctx: &mut Context) -> Result<RenderTarget> {
        let desc = ImageDesc {
            usage: vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            ..ImageDesc::texture(TARGET_FORMAT, TARGET_SIDE, 1)
        };
        let image = ctx.create_shaped_image(&desc)?;
        let mut target = RenderTarget {
            attachment: Attachment {
                image: image.image,
                view: image.view,
                passes: [vk::RenderPass::null(); 2],
                framebuffer: vk::Framebuffer::null(),
            },
            image,
        };
        match target.finish(ctx) {
            Ok(()) => Ok(target),
            Err(e) => {
                if ctx.settle() {
                    target.destroy(ctx);
                }
                Err(e)
            }
        }
    }

    /// Makes the render passes and framebuffer (without dynamic rendering) and moves the
    /// attachment to `COLOR_ATTACHMENT_OPTIMAL`.
    fn finish(&mut self, ctx: &mut Context) -> Result<()> {
        if !ctx.dynamic_rendering {
            for (i, load) in [
                (0, vk::AttachmentLoadOp::DONT_CARE),
                (1, vk::AttachmentLoadOp::CLEAR),
            ] {
                // Stored in both: a pass whose output nobody may read is one a driver may skip.
                let store = vk::AttachmentStoreOp::STORE;
                let attachments = [vk::AttachmentDescription::default()
                    .format(TARGET_FORMAT)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .load_op(load)
                    .store_op(store)
                    .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                    .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                    .initial_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                    .final_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)];
                let color = [vk::AttachmentReference {
                    attachment: 0,
                    layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                }];
                let subpasses = [vk::SubpassDescription::default()
                    .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
                    .color_attachments(&color)];
                let info = vk::RenderPassCreateInfo::default()
                    .attachments(&attachments)
                    .subpasses(&subpasses);
                // SAFETY: valid device; the create info points at live locals.
                self.attachment.passes[i] = unsafe { ctx.device.create_render_pass(&info, None) }
                    .call("vkCreateRenderPass")?;
            }
            let views = [self.attachment.view];
            let info = vk::FramebufferCreateInfo::default()
                .render_pass(self.attachment.passes[0])
                .attachments(&views)
                .width(TARGET_SIDE)
                .height(TARGET_SIDE)
                .layers(1);
            // SAFETY: the render pass and view are alive and match (one colour attachment).
            self.attachment.framebuffer = unsafe { ctx.device.create_framebuffer(&info, None) }
                .call("vkCreateFramebuffer")?;
        }
        let image = self.attachment.image;
        ctx.submit_and_wait(|device, cb| {
            // SAFETY: recording, outside a render pass; the image is alive.
            unsafe {
                transition(
                    device,
                    cb,
                    (image, COLOR_LEVEL),
                    (
                        vk::ImageLayout::UNDEFINED,
                        vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                    ),
                    (
                        vk::PipelineStageFlags::TOP_OF_PIPE,
                        vk::AccessFlags::empty(),
                    ),
                    (
                        vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                        vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                    ),
                );
            }
        })
    }

    /// The handles a kernel keeps.
    pub(crate) fn attachment(&self) -> Attachment {
        self.attachment
    }

    /// Destroys everything (only after `ctx.settle()` returned true; idempotent).
    pub(crate) fn destroy(&mut self, ctx: &mut Context) {
        // SAFETY: the caller saw the context idle; null handles are ignored.
        unsafe {
            ctx.device
                .destroy_framebuffer(self.attachment.framebuffer, None);
            for pass in self.attachment.passes {
                ctx.device.destroy_render_pass(pass, None);
            }
        }
        self.attachment.framebuffer = vk::Framebuffer::null();
        self.attachment.passes = [vk::RenderPass::null(); 2];
        ctx.destroy_image(&mut self.image);
    }
}

/// The shader modules and fixed state of one graphics pipeline.
pub(crate) struct PipelineDesc<'a> {
    /// What the kernel runs in.
    pub(crate) stages: Stages,
    /// The vertex shader.
    pub(crate) vertex: vk::ShaderModule,
    /// The fragment shader ([`Stages::Fragment`]).
    pub(crate) fragment: vk::ShaderModule,
    /// Specialization of both shaders.
    pub(crate) specialization: &'a vk::SpecializationInfo<'a>,
    /// Input-assembler state.
    pub(crate) input: &'a VertexInput,
    /// The attachment it renders to.
    pub(crate) attachment: Attachment,
    /// Pipeline creation flags (statistics capture).
    pub(crate) flags: vk::PipelineCreateFlags,
}

/// Builds a graphics pipeline as `desc` says, through `cache`.
pub(crate) fn create_pipeline(
    device: &ash::Device,
    cache: vk::PipelineCache,
    layout: vk::PipelineLayout,
    desc: &PipelineDesc<'_>,
) -> Result<vk::Pipeline> {
    let fragment = desc.stages == Stages::Fragment;
    let mut stages = vec![vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::VERTEX)
        .module(desc.vertex)
        .name(c"main")
        .specialization_info(desc.specialization)];
    if fragment {
        stages.push(
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(desc.fragment)
                .name(c"main")
                .specialization_info(desc.specialization),
        );
    }
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&desc.input.bindings)
        .vertex_attribute_descriptions(&desc.input.attributes);
    // Vertex-shader cases draw points (each vertex alone: no primitive waits for another).
    let topology = if fragment {
        vk::PrimitiveTopology::TRIANGLE_LIST
    } else {
        vk::PrimitiveTopology::POINT_LIST
    };
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(topology);
    let viewports = [vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: TARGET_SIDE as f32,
        height: TARGET_SIDE as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    }];
    let scissors = [full_area()];
    let viewport = vk::PipelineViewportStateCreateInfo::default()
        .viewports(&viewports)
        .scissors(&scissors);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .rasterizer_discard_enable(!fragment)
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
        .line_width(1.0);
    let multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let blend_attachments = [vk::PipelineColorBlendAttachmentState::default()
        .color_write_mask(vk::ColorComponentFlags::RGBA)];
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
    let formats = [TARGET_FORMAT];
    let mut rendering =
        vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
    let mut info = vk::GraphicsPipelineCreateInfo::default()
        .flags(desc.flags)
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blend)
        .layout(layout);
    if desc.attachment.dynamic() {
        info = info.push_next(&mut rendering);
    } else {
        info = info.render_pass(desc.attachment.passes[0]).subpass(0);
    }
    // SAFETY: valid device; every create info points at live locals and live handles.
    let pipelines = unsafe { device.create_graphics_pipelines(cache, &[info], None) }
        .map_err(|(_, r)| r)
        .creating_pipeline("vkCreateGraphicsPipelines")?;
    pipelines.first().copied().ok_or(Error::Pipeline {
        call: "vkCreateGraphicsPipelines",
        result: vk::Result::ERROR_UNKNOWN,
    })
}

/// What one kernel's draws record: its attachment and geometry.
#[derive(Clone)]
pub(crate) struct Draw {
    /// The attachment it renders to.
    pub(crate) attachment: Attachment,
    /// What it binds and how many vertices an instance has.
    pub(crate) geometry: Geometry,
    /// `VK_KHR_dynamic_rendering`'s functions, where dynamic rendering comes from that
    /// extension rather than from Vulkan 1.3.
    pub(crate) rendering_khr: Option<ash::khr::dynamic_rendering::Device>,
}

impl Draw {
    /// Records one draw of `instances` instances inside its own rendering of the attachment,
    /// which is stored (a rendering whose output nobody may read is one a driver may skip; the
    /// timed fragments all discard, so nothing is written): for timing (`verify` false) nothing
    /// is loaded; for verification the attachment is first cleared to NaN, so that a fragment
    /// that writes nothing fails.
    ///
    /// # Safety
    /// `cb` must be recording on `device`, outside a render pass, with this kernel's graphics
    /// pipeline bound; every handle must be alive; the attachment in
    /// `COLOR_ATTACHMENT_OPTIMAL`.
    pub(crate) unsafe fn record(
        &self,
        device: &ash::Device,
        cb: vk::CommandBuffer,
        instances: u32,
        verify: bool,
    ) {
        let a = &self.attachment;
        let clear = [vk::ClearValue {
            color: vk::ClearColorValue {
                float32: [f32::NAN; 4],
            },
        }];
        // SAFETY: guaranteed by the caller.
        unsafe {
            if a.dynamic() {
                let load = if verify {
                    vk::AttachmentLoadOp::CLEAR
                } else {
                    vk::AttachmentLoadOp::DONT_CARE
                };
                let colors = [vk::RenderingAttachmentInfo::default()
                    .image_view(a.view)
                    .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                    .load_op(load)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .clear_value(clear[0])];
                let info = vk::RenderingInfo::default()
                    .render_area(full_area())
                    .layer_count(1)
                    .color_attachments(&colors);
                match &self.rendering_khr {
                    Some(khr) => khr.cmd_begin_rendering(cb, &info),
                    None => device.cmd_begin_rendering(cb, &info),
                }
            } else {
                let pass = a.passes[usize::from(verify)];
                let info = vk::RenderPassBeginInfo::default()
                    .render_pass(pass)
                    .framebuffer(a.framebuffer)
                    .render_area(full_area())
                    .clear_values(&clear);
                device.cmd_begin_render_pass(cb, &info, vk::SubpassContents::INLINE);
            }
            let g = &self.geometry;
            if !g.streams.is_empty() {
                let offsets = vec![0; g.streams.len()];
                device.cmd_bind_vertex_buffers(cb, 0, &g.streams, &offsets);
            }
            match g.index {
                Some((buffer, ty)) => {
                    device.cmd_bind_index_buffer(cb, buffer, 0, ty);
                    device.cmd_draw_indexed(cb, g.vertices, instances, 0, 0, 0);
                }
                None => device.cmd_draw(cb, g.vertices, instances, 0, 0),
            }
            if a.dynamic() {
                match &self.rendering_khr {
                    Some(khr) => khr.cmd_end_rendering(cb),
                    None => device.cmd_end_rendering(cb),
                }
            } else {
                device.cmd_end_render_pass(cb);
            }
        }
    }

    /// Records, after a verification draw of `tiles` instances, the copy of those tiles of the
    /// attachment into `output`, tile after tile, each tile's fragments in row order (the
    /// order of a workgroup's local indices), and leaves the attachment as it was. At most the
    /// attachment's 4096 tiles (more are not copied).
    ///
    /// # Safety
    /// As [`Draw::record`]; `output` must hold `tiles` x 256 x 16 bytes and allow transfers to
    /// it.
    pub(crate) unsafe fn record_tile_copy(
        &self,
        device: &ash::Device,
        cb: vk::CommandBuffer,
        tiles: u32,
        output: vk::Buffer,
    ) {
        let image = self.attachment.image;
        let per_row = TARGET_SIDE / TILE_SIDE;
        let regions: Vec<vk::BufferImageCopy> = (0..tiles.min(per_row * per_row))
            .map(|t| vk::BufferImageCopy {
                buffer_offset: u64::from(t) * u64::from(TILE_SIDE * TILE_SIDE) * 16,
                buffer_row_length: TILE_SIDE,
                buffer_image_height: TILE_SIDE,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                },
                image_offset: vk::Offset3D {
                    x: ((t % per_row) * TILE_SIDE) as i32,
                    y: ((t / per_row) * TILE_SIDE) as i32,
                    z: 0,
                },
                image_extent: vk::Extent3D {
                    width: TILE_SIDE,
                    height: TILE_SIDE,
                    depth: 1,
                },
            })
            .collect();
        // SAFETY: guaranteed by the caller.
        unsafe {
            transition(
                device,
                cb,
                (image, COLOR_LEVEL),
                (
                    vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                ),
                (
                    vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                    vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                ),
                (
                    vk::PipelineStageFlags::TRANSFER,
                    vk::AccessFlags::TRANSFER_READ,
                ),
            );
            device.cmd_copy_image_to_buffer(
                cb,
                image,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                output,
                &regions,
            );
            transition(
                device,
                cb,
                (image, COLOR_LEVEL),
                (
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                    vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                ),
                (vk::PipelineStageFlags::TRANSFER, vk::AccessFlags::empty()),
                (
                    vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                    vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                ),
            );
        }
    }
}
