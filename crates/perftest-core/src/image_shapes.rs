//! Images of any shape (1D, 2D, 2D array, 3D, cube, with mip levels) with a view: the one place
//! images are created; and uploads of their layers through a staging buffer into the layout the
//! kernels read them in.

use ash::vk;
use gpu_allocator::vulkan::{AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;

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
}

impl ImageDesc {
    /// A 2D image of `levels` mip levels with a 2D view.
    pub(crate) fn flat(
        format: vk::Format,
        extent: vk::Extent2D,
        levels: u32,
        usage: vk::ImageUsageFlags,
    ) -> ImageDesc {
        ImageDesc {
            format,
            image_type: vk::ImageType::TYPE_2D,
            extent: vk::Extent3D {
                width: extent.width,
                height: extent.height,
                depth: 1,
            },
            layers: 1,
            levels,
            flags: vk::ImageCreateFlags::empty(),
            usage,
            view_type: vk::ImageViewType::TYPE_2D,
        }
    }

    /// Bytes of tightly packed texels of every layer, given `texel_bytes` per texel.
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
            .tiling(vk::ImageTiling::OPTIMAL)
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
            linear: false,
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

    /// Uploads tightly packed texels (layer after layer, a 3D image slice after slice, each
    /// row-major) to every layer of `image` (made from `desc`) and leaves it in `layout`,
    /// visible to compute shaders.
    pub(crate) fn upload_layers(
        &mut self,
        image: &Image,
        desc: &ImageDesc,
        bytes: &[u8],
        layout: vk::ImageLayout,
    ) -> Result<()> {
        let region = vk::BufferImageCopy::default()
            .image_subresource(vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: desc.layers,
            })
            .image_extent(desc.extent);
        let range = all_layers(desc.layers, 1);
        self.upload_regions(image.image, bytes, range, &[region], layout)
    }

    /// Copies `bytes` through a staging buffer into `regions` of `image`: `range` goes from
    /// UNDEFINED to TRANSFER_DST_OPTIMAL before the copy and to `layout` after it, visible to
    /// compute shaders. The one way images are filled.
    pub(crate) fn upload_regions(
        &mut self,
        image: vk::Image,
        bytes: &[u8],
        range: vk::ImageSubresourceRange,
        regions: &[vk::BufferImageCopy],
        layout: vk::ImageLayout,
    ) -> Result<()> {
        self.with_staging(bytes, |device, cb, src| {
            let to_transfer = [vk::ImageMemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::empty())
                .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(range)];
            let to_shader = [vk::ImageMemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::SHADER_READ)
                .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
                .new_layout(layout)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(range)];
            // SAFETY: recording into a command buffer in the recording state; handles valid.
            unsafe {
                device.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::TOP_OF_PIPE,
                    vk::PipelineStageFlags::TRANSFER,
                    vk::DependencyFlags::empty(),
                    &[],
                    &[],
                    &to_transfer,
                );
                device.cmd_copy_buffer_to_image(
                    cb,
                    src,
                    image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    regions,
                );
                device.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::TRANSFER,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::DependencyFlags::empty(),
                    &[],
                    &[],
                    &to_shader,
                );
            }
        })
    }

    /// Creates an image as `desc` says and uploads `bytes` (a whole number of texels for every
    /// texel of every layer) to it, leaving it in `layout`; on failure nothing is left
    /// allocated (unless an upload may still be running).
    pub(crate) fn create_filled_image(
        &mut self,
        desc: &ImageDesc,
        bytes: &[u8],
        layout: vk::ImageLayout,
    ) -> Result<Image> {
        let texels = desc.bytes(1);
        let len = bytes.len() as u64;
        if texels == 0 || len == 0 || len % texels != 0 {
            return Err(Error::InvalidArgument(format!(
                "{len} bytes do not fill the {texels} texels of a {:?} image",
                desc.format
            )));
        }
        let mut image = self.create_shaped_image(desc)?;
        if let Err(e) = self.upload_layers(&image, desc, bytes, layout) {
            if self.settle() {
                self.destroy_image(&mut image);
            }
            return Err(e);
        }
        Ok(image)
    }
}
