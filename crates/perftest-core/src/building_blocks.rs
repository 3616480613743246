//! The building blocks families make their resources from: a creation that cleans up after
//! itself, modern-suite buffers (and a family's one such buffer bound whole), the nine 32x32 textures (optimally or linearly tiled), samplers (mip-chain ones too), and the resources of a
//! family that binds the shared input buffer as a whole.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::{
    texture_bytes, AddressMode, Case, Feature, Format, FormatSupport, SampleFilter, SamplerState,
    MIP_LEVELS, TEXTURE_SIZE,
};

use crate::context::Context;
use crate::error::{Result, VkResultExt};
use crate::formats::vk_format;
use crate::image_shapes::ImageDesc;
use crate::memory::{Buffer, Image};
use crate::plan::{Bind, FamilyResources, Shared};

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

/// The resources of a family whose every kernel binds one [`modern_buffer`], filled, whole at
/// binding 0 as a storage buffer.
pub(crate) struct ModernStorageBuffer(Option<Buffer>);

impl ModernStorageBuffer {
    /// Creates the family's buffer of `bytes`, named `what`.
    pub(crate) fn create(
        ctx: &mut Context,
        what: &'static str,
        bytes: u64,
    ) -> Result<Box<dyn FamilyResources>> {
        create_family(ctx, ModernStorageBuffer(None), |r, ctx| {
            r.0 = Some(modern_buffer(ctx, what, bytes, true)?);
            Ok(())
        })
    }
}

impl FamilyResources for ModernStorageBuffer {
    fn bindings(&self, _case: &Case) -> Option<Vec<Bind>> {
        let buffer = self.0.as_ref()?;
        Some(vec![Bind::buffer(
            0,
            vk::DescriptorType::STORAGE_BUFFER,
            buffer.buffer,
        )])
    }

    fn destroy(&mut self, ctx: &mut Context) {
        if let Some(mut buffer) = self.0.take() {
            ctx.destroy_buffer(&mut buffer);
        }
    }
}

/// The nine 32x32 single-mip textures of the suite's formats (those the device can sample).
#[derive(Default)]
pub(crate) struct Textures {
    images: [Option<Image>; 9],
}

impl Textures {
    /// Creates and uploads every texture `support` allows (optimally tiled).
    pub(crate) fn fill(&mut self, ctx: &mut Context, support: &[FormatSupport; 9]) -> Result<()> {
        let sampled: Vec<Format> = Format::ALL
            .into_iter()
            .zip(support)
            .filter(|(_, s)| s.sampled_image)
            .map(|(f, _)| f)
            .collect();
        self.fill_tiled(ctx, &sampled, vk::ImageTiling::OPTIMAL)
    }

    /// Creates and uploads the textures of `formats` with `tiling` (the caller checked that
    /// the device samples them so).
    pub(crate) fn fill_tiled(
        &mut self,
        ctx: &mut Context,
        formats: &[Format],
        tiling: vk::ImageTiling,
    ) -> Result<()> {
        for (i, format) in Format::ALL.into_iter().enumerate() {
            if !formats.contains(&format) {
                continue;
            }
            let desc = ImageDesc {
                tiling,
                ..ImageDesc::texture(vk_format(format), TEXTURE_SIZE, 1)
            };
            self.images[i] = Some(ctx.create_filled_image(
                &desc,
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

/// A sampler for the six-level mip chains: LINEAR min, mag and mipmap filters, REPEAT
/// addressing, LOD 0 to the last level, no bias; with `max_anisotropy`, `anisotropyEnable`
/// and that `maxAnisotropy` (the device must have `samplerAnisotropy` enabled and allow it).
pub(crate) fn create_mip_sampler(
    ctx: &Context,
    max_anisotropy: Option<f32>,
) -> Result<vk::Sampler> {
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(vk::Filter::LINEAR)
        .min_filter(vk::Filter::LINEAR)
        .mipmap_mode(vk::SamplerMipmapMode::LINEAR)
        .address_mode_u(vk::SamplerAddressMode::REPEAT)
        .address_mode_v(vk::SamplerAddressMode::REPEAT)
        .address_mode_w(vk::SamplerAddressMode::REPEAT)
        .mip_lod_bias(0.0)
        .anisotropy_enable(max_anisotropy.is_some())
        .max_anisotropy(max_anisotropy.unwrap_or(1.0))
        .min_lod(0.0)
        .max_lod((MIP_LEVELS - 1) as f32);
    // SAFETY: valid device and create info; anisotropy only where the feature is enabled
    // (the caller's check), within `maxSamplerAnisotropy` there.
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
