//! The resources shared by every case — the format-support table and the verification output
//! buffer — and each family's own resources, created when the family's first case is
//! prepared. Also the building blocks families make their resources from: the 16 KB input
//! buffer, the nine 32x32 textures, samplers.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::{
    input_bytes, texture_bytes, AddressMode, Case, DeviceCaps, Feature, Format, FormatSupport,
    SampleFilter, SamplerState, INPUT_BYTES, TEXTURE_SIZE, VERIFY_THREADS,
};

use crate::context::Context;
use crate::error::{Error, Result, VkResultExt};
use crate::families::{plan_for, Bind, FamilyResources};
use crate::formats::vk_format;
use crate::graphics::{Geometry, RenderTarget, VertexInput};
use crate::image_shapes::ImageDesc;
use crate::memory::{Buffer, Image};

/// Everything the kernels bind: shared parts, and the resources of every family prepared so
/// far.
pub(crate) struct Resources {
    /// The 16 KB input buffer the buffer families read (typed views, storage and uniform
    /// bindings of one buffer, as in the original). Created first, before any other resource,
    /// so it lands where it always did: on the H200 `cbuffer{float4} load random` runs 12%
    /// faster when the uniform buffer is a separate allocation placed after the others.
    pub(crate) input: Buffer,
    pub(crate) output: Buffer,
    families: Vec<(&'static str, Box<dyn FamilyResources>)>,
    /// The offscreen attachment of graphics cases, made with the first of them.
    target: Option<RenderTarget>,
}

/// The case whose family's resources `case` uses: the one its family names
/// ([`perftest_cases::Family::resource_case`]: a fragment-shader case's compute twin), else
/// itself.
fn resource_case(case: &Case) -> Case {
    case.family
        .resource_case(case)
        .unwrap_or_else(|| case.clone())
}

impl Resources {
    /// Reads the format support and creates the verification output buffer; no family's
    /// resources yet (see [`Resources::ensure`]).
    pub(crate) fn new(ctx: &mut Context) -> Result<Self> {
        let input = input_buffer(ctx)?;
        let output = ctx.create_buffer(
            "verification output",
            u64::from(VERIFY_THREADS) * 16,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuToCpu,
        )?;
        Ok(Resources {
            input,
            output,
            families: Vec::new(),
            target: None,
        })
    }

    /// Creates the resources of `case`'s family unless they exist already, then what `case`
    /// alone needs.
    pub(crate) fn ensure(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        if plan_for(case)?.stages.is_graphics() && self.target.is_none() {
            self.target = Some(RenderTarget::new(ctx)?);
        }
        let case = &resource_case(case);
        let label = case.family.label();
        if !self.families.iter().any(|(l, _)| *l == label) {
            let plan = plan_for(case)?;
            let caps = ctx.caps;
            let shared = Shared {
                caps: &caps,
                input: self.input.buffer,
            };
            let made = (plan.create)(ctx, &shared)?;
            self.families.push((label, made));
        }
        match self.families.iter_mut().find(|(l, _)| *l == label) {
            Some((_, family)) => family.prepare(ctx, case),
            None => Ok(()),
        }
    }

    /// The resources of `case`'s family (they must exist); a case with a compute twin uses the
    /// twin's.
    fn family(&self, case: &Case) -> Result<&dyn FamilyResources> {
        let label = case.family.label();
        self.families
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, r)| r.as_ref())
            .ok_or_else(|| Error::Unsupported {
                id: case.id.clone(),
                reason: format!("the {label} resources for this case are not available"),
            })
    }

    /// The bindings of `case`'s kernel besides the verification output.
    pub(crate) fn bindings(&self, case: &Case) -> Result<Vec<Bind>> {
        let case = &resource_case(case);
        self.family(case)?
            .bindings(case)
            .ok_or_else(|| Error::Unsupported {
                id: case.id.clone(),
                reason: format!(
                    "the {} resources for this case are not available",
                    case.family.label()
                ),
            })
    }

    /// The family words of `case`'s push constants.
    pub(crate) fn push(&self, case: &Case) -> Result<[u32; 4]> {
        let case = &resource_case(case);
        Ok(self.family(case)?.push(case))
    }

    /// The buffer `case`'s kernel writes and the bytes verification reads back, if any.
    pub(crate) fn written(&self, case: &Case) -> Result<Option<(vk::Buffer, u64)>> {
        let case = &resource_case(case);
        Ok(self.family(case)?.written(case))
    }

    /// What a draw of `case` binds (graphics cases).
    pub(crate) fn geometry(&self, case: &Case) -> Result<Geometry> {
        let case = &resource_case(case);
        Ok(self.family(case)?.geometry(case))
    }

    /// The vertex input state of `case`'s pipeline (graphics cases).
    pub(crate) fn vertex_input(&self, case: &Case) -> Result<VertexInput> {
        let case = &resource_case(case);
        Ok(self.family(case)?.vertex_input(case))
    }

    /// The attachment graphics cases draw into (created with the first graphics case).
    pub(crate) fn target(&self, case: &Case) -> Result<&RenderTarget> {
        self.target.as_ref().ok_or_else(|| Error::Unsupported {
            id: case.id.clone(),
            reason: "the attachment graphics cases draw into was not created".into(),
        })
    }

    /// Destroys everything; only call after `ctx.settle()` returned true.
    pub(crate) fn destroy(&mut self, ctx: &mut Context) {
        for (_, family) in &mut self.families {
            family.destroy(ctx);
        }
        self.families.clear();
        if let Some(target) = self.target.as_mut() {
            target.destroy(ctx);
        }
        self.target = None;
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

/// What every family's resources may use: the device's capabilities and the shared input
/// buffer (owned by [`Resources`]; a family never destroys it).
pub(crate) struct Shared<'a> {
    /// What the device supports (formats, features, limits).
    pub(crate) caps: &'a DeviceCaps,
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
    ctx.filled(buffer, input_bytes())
}

/// A device-local storage buffer of `bytes` for the modern suite (transfer source and
/// destination too, and device-address usage where the device has `bufferDeviceAddress`),
/// filled with [`perftest_cases::modern_bytes`] when `fill` (else its contents are undefined:
/// verification clears what a kernel writes). On failure nothing is left allocated.
pub(crate) fn modern_buffer(
    ctx: &mut Context,
    what: &'static str,
    bytes: u64,
    fill: bool,
) -> Result<Buffer> {
    let mut usage = vk::BufferUsageFlags::STORAGE_BUFFER
        | vk::BufferUsageFlags::TRANSFER_SRC
        | vk::BufferUsageFlags::TRANSFER_DST;
    if ctx.caps.has(Feature::BufferDeviceAddress) {
        usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
    }
    let buffer = ctx.create_buffer(what, bytes, usage, MemoryLocation::GpuOnly)?;
    if fill {
        ctx.filled(buffer, &perftest_cases::modern_bytes(bytes))
    } else {
        Ok(buffer)
    }
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
            self.images[i] = Some(ctx.create_filled_image(
                &ImageDesc::texture(vk_format(format), TEXTURE_SIZE, 1),
                &[texture_bytes(format.texel_bytes())],
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            )?);
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

/// A sampler with `filter`, CLAMP_TO_EDGE addressing, normalized coordinates and LOD 0 only
/// (the modern suite's point-clamp sampler).
pub(crate) fn create_clamp_sampler(ctx: &Context, filter: vk::Filter) -> Result<vk::Sampler> {
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .min_lod(0.0)
        .max_lod(0.0);
    // SAFETY: valid device and create info.
    unsafe { ctx.device.create_sampler(&info, None) }.call("vkCreateSampler")
}

/// A sampler of `state` (filter, address mode along U, V and W, normalized or unnormalized
/// coordinates) with the border colour `FLOAT_TRANSPARENT_BLACK`, mipmap mode NEAREST and LOD 0
/// only (`minLod = maxLod = 0`), no anisotropy and no compare: what Vulkan allows for
/// unnormalized coordinates too (their address modes must be CLAMP_TO_EDGE or CLAMP_TO_BORDER,
/// which `state` must then say).
pub(crate) fn create_sampler_state(ctx: &Context, state: SamplerState) -> Result<vk::Sampler> {
    let filter = match state.filter {
        SampleFilter::Nearest => vk::Filter::NEAREST,
        SampleFilter::Bilinear => vk::Filter::LINEAR,
    };
    let address = match state.address {
        AddressMode::Repeat => vk::SamplerAddressMode::REPEAT,
        AddressMode::MirroredRepeat => vk::SamplerAddressMode::MIRRORED_REPEAT,
        AddressMode::ClampToEdge => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        AddressMode::ClampToBorder => vk::SamplerAddressMode::CLAMP_TO_BORDER,
    };
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(address)
        .address_mode_v(address)
        .address_mode_w(address)
        .border_color(vk::BorderColor::FLOAT_TRANSPARENT_BLACK)
        .min_lod(0.0)
        .max_lod(0.0)
        .unnormalized_coordinates(state.unnormalized);
    // SAFETY: valid device and create info.
    unsafe { ctx.device.create_sampler(&info, None) }.call("vkCreateSampler")
}

/// Resources of a family that reads the whole shared input buffer through one descriptor at
/// binding 0 (nothing of its own to destroy).
struct SingleBuffer(vk::Buffer, vk::DescriptorType);

impl FamilyResources for SingleBuffer {
    fn bindings(&self, _case: &Case) -> Option<Vec<Bind>> {
        Some(vec![Bind::buffer(0, self.1, self.0)])
    }

    fn destroy(&mut self, _ctx: &mut Context) {}
}

/// The resources of a family that binds the shared input buffer as a whole at binding 0, as
/// a descriptor of type `ty` (storage or uniform).
pub(crate) fn single_buffer(
    shared: &Shared<'_>,
    ty: vk::DescriptorType,
) -> Result<Box<dyn FamilyResources>> {
    Ok(Box::new(SingleBuffer(shared.input, ty)))
}
