//! The resources shared by every case — the format-support table and the verification output
//! buffer — and each family's own resources, created when the family's first case is
//! prepared. Also the building blocks families make their resources from: the 16 KB input
//! buffer, the nine 32x32 textures, samplers.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::{
    input_bytes, texture_bytes, Case, Format, FormatSupport, INPUT_BYTES, TEXTURE_SIZE,
};

use crate::context::Context;
use crate::error::{Error, Result, VkResultExt};
use crate::families::{plan_for, FamilyResources, Input};
use crate::formats::{query_support, vk_format};
use crate::memory::{Buffer, Image};

/// Workgroups of a verification dispatch (`[x, y, z]`): 4 groups, so the group-index math in
/// the store path is exercised along X and Z.
pub const VERIFY_GROUPS: [u32; 3] = [2, 1, 2];

/// Threads in a verification dispatch.
pub const VERIFY_THREADS: u32 = 4 * 256;

/// Everything the kernels bind: shared parts, and the resources of every family prepared so
/// far.
pub(crate) struct Resources {
    pub(crate) support: [FormatSupport; 9],
    /// The 16 KB input buffer the buffer families read (typed views, storage and uniform
    /// bindings of one buffer, as in the original). Created first, before any other resource,
    /// so it lands where it always did: on the H200 `cbuffer{float4} load random` runs 12%
    /// faster when the uniform buffer is a separate allocation placed after the others.
    pub(crate) input: Buffer,
    pub(crate) output: Buffer,
    families: Vec<(&'static str, Box<dyn FamilyResources>)>,
}

impl Resources {
    /// Reads the format support and creates the verification output buffer; no family's
    /// resources yet (see [`Resources::ensure`]).
    pub(crate) fn new(ctx: &mut Context) -> Result<Self> {
        let support = query_support(&ctx.instance, ctx.target.physical_device);
        let input = input_buffer(ctx)?;
        let output = ctx.create_buffer(
            "verification output",
            u64::from(VERIFY_THREADS) * 16,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuToCpu,
        )?;
        Ok(Resources {
            support,
            input,
            output,
            families: Vec::new(),
        })
    }

    /// Creates the resources of `case`'s family unless they exist already.
    pub(crate) fn ensure(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        let label = case.family.label();
        if self.families.iter().any(|(l, _)| *l == label) {
            return Ok(());
        }
        let plan = plan_for(case)?;
        let shared = Shared {
            support: &self.support,
            input: self.input.buffer,
        };
        let made = (plan.create)(ctx, &shared)?;
        self.families.push((label, made));
        Ok(())
    }

    /// What binding 0 of `case`'s kernel reads (its family's resources must exist).
    pub(crate) fn input(&self, case: &Case) -> Result<Input> {
        let label = case.family.label();
        self.families
            .iter()
            .find(|(l, _)| *l == label)
            .and_then(|(_, r)| r.input(case))
            .ok_or_else(|| Error::Unsupported {
                id: case.id.clone(),
                reason: format!("the {label} resources for this case are not available"),
            })
    }

    /// Destroys everything; only call after `ctx.settle()` returned true.
    pub(crate) fn destroy(&mut self, ctx: &mut Context) {
        for (_, family) in &mut self.families {
            family.destroy(ctx);
        }
        self.families.clear();
        ctx.destroy_buffer(&mut self.input);
        ctx.destroy_buffer(&mut self.output);
    }
}

/// Creates a family's resources with `fill`, starting from `empty`; on failure destroys what
/// was made (when no upload can still use it) and returns the error.
pub(crate) fn create_family<R: FamilyResources + 'static>(
    ctx: &mut Context,
    mut empty: R,
    fill: impl FnOnce(&mut R, &mut Context) -> Result<()>,
) -> Result<Box<dyn FamilyResources>> {
    match fill(&mut empty, ctx) {
        Ok(()) => Ok(Box::new(empty)),
        Err(e) => {
            if ctx.settle() {
                empty.destroy(ctx);
            }
            Err(e)
        }
    }
}

/// What every family's resources may use: the device's format support and the shared input
/// buffer (owned by [`Resources`]; a family never destroys it).
pub(crate) struct Shared<'a> {
    /// Which of the nine formats the device supports, and how.
    pub(crate) support: &'a [FormatSupport; 9],
    /// The 16 KB input buffer, usable as storage, uniform and uniform texel buffer.
    pub(crate) input: vk::Buffer,
}

/// Creates the 16 KB input buffer (storage, uniform and uniform-texel usage) and uploads the
/// input data.
fn input_buffer(ctx: &mut Context) -> Result<Buffer> {
    let buffer = ctx.create_buffer(
        "input buffer",
        INPUT_BYTES as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST,
        MemoryLocation::GpuOnly,
    )?;
    let mut buffer = buffer;
    if let Err(e) = ctx.upload_buffer(&buffer, input_bytes()) {
        if ctx.settle() {
            ctx.destroy_buffer(&mut buffer);
        }
        return Err(e);
    }
    Ok(buffer)
}

/// The nine 32x32 single-mip textures of the suite's formats (those the device can sample).
#[derive(Default)]
pub(crate) struct Textures {
    images: [Option<Image>; 9],
}

impl Textures {
    /// Creates and uploads every texture `support` allows.
    pub(crate) fn fill(&mut self, ctx: &mut Context, support: &[FormatSupport; 9]) -> Result<()> {
        for (i, format) in Format::ALL.into_iter().enumerate() {
            if !support[i].sampled_image {
                continue;
            }
            let extent = vk::Extent2D {
                width: TEXTURE_SIZE,
                height: TEXTURE_SIZE,
            };
            let image = ctx.create_image(
                vk_format(format),
                extent,
                vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
            )?;
            let uploaded = ctx.upload_image(&image, extent, texture_bytes(format.texel_bytes()));
            self.images[i] = Some(image);
            uploaded?;
        }
        Ok(())
    }

    /// The view of the texture of `format`, if it was created.
    pub(crate) fn view(&self, format: Format) -> Option<vk::ImageView> {
        let i = Format::ALL.iter().position(|&f| f == format)?;
        self.images[i].as_ref().map(|t| t.view)
    }

    /// Destroys every texture (only after `ctx.settle()` returned true).
    pub(crate) fn destroy(&mut self, ctx: &mut Context) {
        for image in self.images.iter_mut().flatten() {
            ctx.destroy_image(image);
        }
        self.images = Default::default();
    }
}

/// A sampler with `filter`, REPEAT addressing and LOD 0 only (the original's WRAP samplers).
pub(crate) fn create_sampler(ctx: &Context, filter: vk::Filter) -> Result<vk::Sampler> {
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

/// Resources of a family that reads the whole shared input buffer through one descriptor
/// (nothing of its own to destroy).
struct SingleBuffer(vk::Buffer);

impl FamilyResources for SingleBuffer {
    fn input(&self, _case: &Case) -> Option<Input> {
        Some(Input::Buffer(self.0))
    }

    fn destroy(&mut self, _ctx: &mut Context) {}
}

/// The resources of a family that binds the shared input buffer as a whole (storage or
/// uniform).
pub(crate) fn single_buffer(shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    Ok(Box::new(SingleBuffer(shared.input)))
}
