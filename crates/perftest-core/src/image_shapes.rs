//! Images of any shape (1D, 2D, 2D array, 3D, cube; any number of mip levels) with a view,
//! created and filled through a staging buffer into the layout the kernels read them in: the one
//! place perftest makes images ([`Context::create_filled_image`]).

use ash::vk;
use gpu_allocator::vulkan::{AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;

use crate::barriers::image_transition;
use crate::context::Context;
use crate::error::{Error, Result, VkResultExt};
use crate::memory::Image;

/// What an image is: its format, type, size, layers, flags, usage and the type of its view.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ImageDesc {
    /// Texel format.
    pub(crate) format: vk::Format,
    /// `TYPE_1D`, `TYPE_2D` or `TYPE_3D`.
    pub(crate) image_type: vk::ImageType,
    /// Width, height and depth (1 for what the type lacks).
    pub(crate) extent: vk::Extent3D,
    /// Array layers (6 for a cube).
    pub(crate) layers: u32,
    /// Mip levels (level `k` is the extent `>> k`, at least 1).
    pub(crate) levels: u32,
    /// Creation flags (`CUBE_COMPATIBLE` for a cube).
    pub(crate) flags: vk::ImageCreateFlags,
    /// Usage; `TRANSFER_DST` is added for the upload.
    pub(crate) usage: vk::ImageUsageFlags,
    /// The type of the view made with the image.
    pub(crate) view_type: vk::ImageViewType,
    /// `OPTIMAL` (the driver's layout), or `LINEAR` (rows in order: 2D, one level, one layer
    /// only, where the format's linear-tiling features allow its usage).
    pub(crate) tiling: vk::ImageTiling,
}

impl ImageDesc {
    /// A sampled `side` x `side` 2D texture of `levels` mip levels with a 2D view.
    pub(crate) fn texture(format: vk::Format, side: u32, levels: u32) -> ImageDesc {
        ImageDesc {
            format,
            image_type: vk::ImageType::TYPE_2D,
            extent: vk::Extent3D {
                width: side,
                height: side,
                depth: 1,
            },
            layers: 1,
            levels,
            flags: vk::ImageCreateFlags::empty(),
            usage: vk::ImageUsageFlags::SAMPLED,
            view_type: vk::ImageViewType::TYPE_2D,
            tiling: vk::ImageTiling::OPTIMAL,
        }
    }

    /// Bytes of tightly packed texels of every layer, given `texel_bytes` per texel.
    #[cfg(test)]
    pub(crate) fn bytes(&self, texel_bytes: u32) -> u64 {
        let e = self.extent;
        u64::from(e.width)
            * u64::from(e.height)
            * u64::from(e.depth)
            * u64::from(self.layers)
            * u64::from(texel_bytes)
    }
}

/// Every layer of the first `levels` mip levels.
fn all_layers(layers: u32, levels: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: levels,
        base_array_layer: 0,
        layer_count: layers,
    }
}

impl Context {
    /// Creates an image as `desc` says, bound to device-local memory, with a view of
    /// `desc.view_type` over every layer and level.
    pub(crate) fn create_shaped_image(&mut self, desc: &ImageDesc) -> Result<Image> {
        let info = vk::ImageCreateInfo::default()
            .flags(desc.flags)
            .image_type(desc.image_type)
            .format(desc.format)
            .extent(desc.extent)
            .mip_levels(desc.levels.max(1))
            .array_layers(desc.layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(desc.tiling)
            .usage(desc.usage | vk::ImageUsageFlags::TRANSFER_DST)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: valid device and create info.
        let image = unsafe { self.device.create_image(&info, None) }.call("vkCreateImage")?;
        let mut made = Image {
            image,
            view: vk::ImageView::null(),
            allocation: None,
        };
        // SAFETY: `image` was just created on this device.
        let requirements = unsafe { self.device.get_image_memory_requirements(image) };
        match self.allocator.allocate(&AllocationCreateDesc {
            name: "texture",
            requirements,
            location: MemoryLocation::GpuOnly,
            linear: desc.tiling == vk::ImageTiling::LINEAR,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        }) {
            Ok(a) => made.allocation = Some(a),
            Err(source) => {
                self.destroy_image(&mut made);
                return Err(Error::Allocation {
                    what: "a texture",
                    source,
                });
            }
        }
        let bound = match made.allocation.as_ref() {
            // SAFETY: the allocation was made for this image's requirements.
            Some(a) => unsafe { self.device.bind_image_memory(image, a.memory(), a.offset()) }
                .call("vkBindImageMemory"),
            None => Ok(()),
        };
        match bound.and_then(|()| self.create_view(made.image, desc, desc.view_type)) {
            Ok(view) => {
                made.view = view;
                Ok(made)
            }
            Err(e) => {
                self.destroy_image(&mut made);
                Err(e)
            }
        }
    }

    /// Creates another view of `image` (made from `desc`), of `view_type`, over every layer
    /// and level; the caller destroys it.
    pub(crate) fn create_view(
        &self,
        image: vk::Image,
        desc: &ImageDesc,
        view_type: vk::ImageViewType,
    ) -> Result<vk::ImageView> {
        let info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(view_type)
            .format(desc.format)
            .subresource_range(all_layers(desc.layers, desc.levels.max(1)));
        // SAFETY: `image` is a live image of this device bound to memory.
        unsafe { self.device.create_image_view(&info, None) }.call("vkCreateImageView")
    }

    /// Copies `bytes` through a staging buffer into `regions` of `image`: `range` goes from
    /// UNDEFINED to TRANSFER_DST_OPTIMAL before the copy and to `layout` after it, visible to
    /// compute shaders.
    fn upload_regions(
        &mut self,
        image: vk::Image,
        bytes: &[u8],
        range: vk::ImageSubresourceRange,
        regions: &[vk::BufferImageCopy],
        layout: vk::ImageLayout,
    ) -> Result<()> {
        self.with_staging(bytes, |device, cb, src| {
            // SAFETY: recording into a command buffer in the recording state; `image` is alive
            // and `range` within it; `src` holds the bytes.
            unsafe {
                image_transition(
                    device,
                    cb,
                    (image, range),
                    (
                        vk::ImageLayout::UNDEFINED,
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    ),
                    (
                        vk::PipelineStageFlags::TOP_OF_PIPE,
                        vk::AccessFlags::empty(),
                    ),
                    (
                        vk::PipelineStageFlags::TRANSFER,
                        vk::AccessFlags::TRANSFER_WRITE,
                    ),
                );
                device.cmd_copy_buffer_to_image(
                    cb,
                    src,
                    image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    regions,
                );
                image_transition(
                    device,
                    cb,
                    (image, range),
                    (vk::ImageLayout::TRANSFER_DST_OPTIMAL, layout),
                    (
                        vk::PipelineStageFlags::TRANSFER,
                        vk::AccessFlags::TRANSFER_WRITE,
                    ),
                    (
                        vk::PipelineStageFlags::COMPUTE_SHADER,
                        vk::AccessFlags::SHADER_READ,
                    ),
                );
            }
        })
    }

    /// Creates an image as `desc` says and fills it, leaving it in `layout` for compute
    /// shaders: `levels[k]` holds mip level `k` of every layer, tightly packed (layer after
    /// layer, a 3D image slice after slice, rows in order; block-compressed formats in
    /// blocks), level `k` being the extent `>> k`; `desc.levels` is taken from `levels`. The
    /// one way perftest makes images. On failure nothing is left allocated (unless an upload
    /// may still be running).
    pub(crate) fn create_filled_image(
        &mut self,
        desc: &ImageDesc,
        levels: &[&[u8]],
        layout: vk::ImageLayout,
    ) -> Result<Image> {
        let count = u32::try_from(levels.len()).unwrap_or(0);
        if count == 0 || levels.iter().any(|l| l.is_empty()) {
            return Err(Error::InvalidArgument(format!(
                "no texels for a {:?} image of {} level(s)",
                desc.format,
                levels.len()
            )));
        }
        let desc = ImageDesc {
            levels: count,
            ..*desc
        };
        let mut bytes = Vec::new();
        let mut regions = Vec::with_capacity(levels.len());
        for (level, data) in (0u32..).zip(levels) {
            // Each level's copy starts at a multiple of 16 bytes (any texel or block size
            // divides it).
            bytes.resize(bytes.len().next_multiple_of(16), 0);
            let e = desc.extent;
            regions.push(
                vk::BufferImageCopy::default()
                    .buffer_offset(bytes.len() as u64)
                    .image_subresource(vk::ImageSubresourceLayers {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        mip_level: level,
                        base_array_layer: 0,
                        layer_count: desc.layers,
                    })
                    .image_extent(vk::Extent3D {
                        width: (e.width >> level).max(1),
                        height: (e.height >> level).max(1),
                        depth: (e.depth >> level).max(1),
                    }),
            );
            bytes.extend_from_slice(data);
        }
        let mut image = self.create_shaped_image(&desc)?;
        let range = all_layers(desc.layers, count);
        if let Err(e) = self.upload_regions(image.image, &bytes, range, &regions, layout) {
            if self.settle() {
                self.destroy_image(&mut image);
            }
            return Err(e);
        }
        Ok(image)
    }

    /// Creates a single-mip 2D image as `desc` says and fills it slice by slice, leaving it in
    /// `layout` for compute shaders: slice `k` is texel rows `k * slice.rows ..` (the image's
    /// height a multiple of `slice.rows`, itself a multiple of the block height), whose
    /// `slice.bytes` bytes `write(first_row, rows, bytes)` writes straight into a staging
    /// buffer. A large image so needs one slice of host-visible memory at a time, and no copy
    /// of it on the host. On failure nothing is left allocated (unless an upload may still be
    /// running).
    pub(crate) fn create_sliced_image(
        &mut self,
        desc: &ImageDesc,
        slice: ImageSlices,
        layout: vk::ImageLayout,
        mut write: impl FnMut(u32, u32, &mut [u8]),
    ) -> Result<Image> {
        let (width, height) = (desc.extent.width, desc.extent.height);
        if slice.rows == 0 || height % slice.rows != 0 {
            return Err(Error::InvalidArgument(format!(
                "slices of {} rows do not divide an image {height} rows tall",
                slice.rows
            )));
        }
        let desc = ImageDesc { levels: 1, ..*desc };
        let mut image = self.create_shaped_image(&desc)?;
        let range = all_layers(1, 1);
        let count = height / slice.rows;
        for k in 0..count {
            let first_row = k * slice.rows;
            let region = vk::BufferImageCopy::default()
                .image_subresource(vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                })
                .image_offset(vk::Offset3D {
                    x: 0,
                    y: i32::try_from(first_row).unwrap_or(i32::MAX),
                    z: 0,
                })
                .image_extent(vk::Extent3D {
                    width,
                    height: slice.rows,
                    depth: 1,
                });
            let (first, last) = (k == 0, k + 1 == count);
            let target = image.image;
            let uploaded = self.with_staging_written(
                slice.bytes,
                |bytes| write(first_row, slice.rows, bytes),
                |device, cb, src| {
                    // SAFETY: recording into a command buffer in the recording state; the
                    // image is alive, `range` within it, and `src` holds the slice's bytes.
                    unsafe {
                        record_slice(
                            device,
                            cb,
                            (src, target, range),
                            region,
                            (first, last),
                            layout,
                        )
                    }
                },
            );
            if let Err(e) = uploaded {
                if self.settle() {
                    self.destroy_image(&mut image);
                }
                return Err(e);
            }
        }
        Ok(image)
    }
}

/// How [`Context::create_sliced_image`] cuts an image: texel rows and bytes per slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ImageSlices {
    /// Texel rows in one slice.
    pub(crate) rows: u32,
    /// Bytes of one slice, tightly packed.
    pub(crate) bytes: u64,
}

/// Records the copy of one slice from `src` into `image`: the first slice moves the whole
/// image from UNDEFINED to TRANSFER_DST_OPTIMAL before it, the last moves it to `layout`,
/// visible to compute shaders, after it (a barrier's first scope holds every earlier
/// submission's copies too).
///
/// # Safety
/// `cb` is recording; `src`, `image` and `range` are alive and valid for the copy.
unsafe fn record_slice(
    device: &ash::Device,
    cb: vk::CommandBuffer,
    (src, image, range): (vk::Buffer, vk::Image, vk::ImageSubresourceRange),
    region: vk::BufferImageCopy,
    (first, last): (bool, bool),
    layout: vk::ImageLayout,
) {
    let transfer = (
        vk::PipelineStageFlags::TRANSFER,
        vk::AccessFlags::TRANSFER_WRITE,
    );
    // SAFETY: the caller's contract.
    unsafe {
        if first {
            image_transition(
                device,
                cb,
                (image, range),
                (
                    vk::ImageLayout::UNDEFINED,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                ),
                (
                    vk::PipelineStageFlags::TOP_OF_PIPE,
                    vk::AccessFlags::empty(),
                ),
                transfer,
            );
        }
        device.cmd_copy_buffer_to_image(
            cb,
            src,
            image,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            &[region],
        );
        if last {
            image_transition(
                device,
                cb,
                (image, range),
                (vk::ImageLayout::TRANSFER_DST_OPTIMAL, layout),
                transfer,
                (
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::AccessFlags::SHADER_READ,
                ),
            );
        }
    }
}
