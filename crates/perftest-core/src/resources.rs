//! The resources every case reads: one 16 KB buffer (typed, raw, structured and uniform
//! views), nine 32x32 textures, two samplers, and the verification output buffer.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::{
    input_bytes, texture_bytes, Format, FormatSupport, INPUT_BYTES, TEXTURE_SIZE,
};

use crate::context::Context;
use crate::error::{Result, VkResultExt};
use crate::formats::{query_support, vk_format};
use crate::memory::{Buffer, Image};

/// Workgroups of a verification dispatch (`[x, y, z]`): 4 groups, so the group-index math in
/// the store path is exercised along X and Z.
pub const VERIFY_GROUPS: [u32; 3] = [2, 1, 2];

/// Threads in a verification dispatch.
pub const VERIFY_THREADS: u32 = 4 * 256;

/// Everything the kernels bind.
pub(crate) struct Resources {
    pub(crate) support: [FormatSupport; 9],
    pub(crate) input: Buffer,
    pub(crate) texel_views: [vk::BufferView; 9],
    pub(crate) textures: [Option<Image>; 9],
    pub(crate) nearest: vk::Sampler,
    pub(crate) bilinear: vk::Sampler,
    pub(crate) output: Buffer,
}

impl Resources {
    /// Creates and fills every resource the device supports.
    pub(crate) fn new(ctx: &mut Context) -> Result<Self> {
        let support = query_support(&ctx.instance, ctx.target.physical_device);
        let mut r = Resources {
            support,
            input: Buffer {
                buffer: vk::Buffer::null(),
                allocation: None,
                size: 0,
            },
            texel_views: [vk::BufferView::null(); 9],
            textures: Default::default(),
            nearest: vk::Sampler::null(),
            bilinear: vk::Sampler::null(),
            output: Buffer {
                buffer: vk::Buffer::null(),
                allocation: None,
                size: 0,
            },
        };
        match r.fill(ctx) {
            Ok(()) => Ok(r),
            Err(e) => {
                // Destroy only what no unfinished upload can still use.
                if ctx.settle() {
                    r.destroy(ctx);
                }
                Err(e)
            }
        }
    }

    fn fill(&mut self, ctx: &mut Context) -> Result<()> {
        self.input = ctx.create_buffer(
            "input buffer",
            INPUT_BYTES as u64,
            vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::UNIFORM_BUFFER
                | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
                | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuOnly,
        )?;
        ctx.upload_buffer(&self.input, input_bytes())?;
        self.output = ctx.create_buffer(
            "verification output",
            u64::from(VERIFY_THREADS) * 16,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuToCpu,
        )?;
        for (i, format) in Format::ALL.into_iter().enumerate() {
            if self.support[i].uniform_texel_buffer {
                let info = vk::BufferViewCreateInfo::default()
                    .buffer(self.input.buffer)
                    .format(vk_format(format))
                    .offset(0)
                    .range(1024 * u64::from(format.texel_bytes()));
                // SAFETY: the buffer has UNIFORM_TEXEL_BUFFER usage and the format supports it.
                self.texel_views[i] = unsafe { ctx.device.create_buffer_view(&info, None) }
                    .call("vkCreateBufferView")?;
            }
            if self.support[i].sampled_image {
                let extent = vk::Extent2D {
                    width: TEXTURE_SIZE,
                    height: TEXTURE_SIZE,
                };
                let image = ctx.create_image(
                    vk_format(format),
                    extent,
                    vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
                )?;
                let uploaded =
                    ctx.upload_image(&image, extent, texture_bytes(format.texel_bytes()));
                self.textures[i] = Some(image);
                uploaded?;
            }
        }
        self.nearest = create_sampler(ctx, vk::Filter::NEAREST)?;
        self.bilinear = create_sampler(ctx, vk::Filter::LINEAR)?;
        Ok(())
    }

    /// Destroys everything; only call after `ctx.settle()` returned true.
    pub(crate) fn destroy(&mut self, ctx: &mut Context) {
        // SAFETY: callers destroy only after `settle` confirmed that no submission of ours is
        // unfinished; these objects were created on ctx's device (null handles are ignored).
        unsafe {
            ctx.device.destroy_sampler(self.nearest, None);
            ctx.device.destroy_sampler(self.bilinear, None);
            for view in self.texel_views {
                ctx.device.destroy_buffer_view(view, None);
            }
        }
        for image in self.textures.iter_mut().flatten() {
            ctx.destroy_image(image);
        }
        ctx.destroy_buffer(&mut self.input);
        ctx.destroy_buffer(&mut self.output);
    }
}

fn create_sampler(ctx: &Context, filter: vk::Filter) -> Result<vk::Sampler> {
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(vk::SamplerAddressMode::REPEAT)
        .address_mode_v(vk::SamplerAddressMode::REPEAT)
        .address_mode_w(vk::SamplerAddressMode::REPEAT)
        .min_lod(0.0)
        .max_lod(0.0);
    // SAFETY: valid device and create info.
    unsafe { ctx.device.create_sampler(&info, None) }.call("vkCreateSampler")
}
