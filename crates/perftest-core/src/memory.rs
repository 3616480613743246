//! Buffers allocated through gpu-allocator, uploads through a staging buffer, and the release of
//! images (which [`crate::image_shapes`] creates).

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;

use crate::barriers::memory_barrier;
use crate::context::{Context, DEFAULT_FENCE_TIMEOUT};
use crate::error::{Error, Result, VkResultExt};

/// A buffer and its memory: an allocation of gpu-allocator, or memory of one chosen type
/// ([`Context::create_buffer_of_type`]).
pub(crate) struct Buffer {
    pub(crate) buffer: vk::Buffer,
    pub(crate) allocation: Option<Allocation>,
    pub(crate) size: u64,
    /// Memory allocated for this buffer alone, in a chosen memory type.
    pub(crate) dedicated: Option<Dedicated>,
}

/// Memory allocated for one buffer in a chosen memory type, mapped for its lifetime where the
/// type is host-visible.
pub(crate) struct Dedicated {
    memory: vk::DeviceMemory,
    /// The host address of the mapping (0: not host-visible).
    mapped: usize,
    /// Bytes mapped.
    len: usize,
}

impl Buffer {
    /// The buffer's memory as the host sees it, where the host can map it.
    pub(crate) fn mapped(&self) -> Option<&[u8]> {
        if let Some(d) = self.dedicated.as_ref().filter(|d| d.mapped != 0) {
            // SAFETY: the mapping covers `len` bytes and lives as long as the memory, which
            // `self` owns; the borrow of `self` keeps it alive.
            return Some(unsafe { std::slice::from_raw_parts(d.mapped as *const u8, d.len) });
        }
        self.allocation.as_ref().and_then(|a| a.mapped_slice())
    }

    /// [`Buffer::mapped`], writable.
    pub(crate) fn mapped_mut(&mut self) -> Option<&mut [u8]> {
        if let Some(d) = self.dedicated.as_ref().filter(|d| d.mapped != 0) {
            // SAFETY: as in `mapped`; the mutable borrow of `self` makes this the only view.
            return Some(unsafe { std::slice::from_raw_parts_mut(d.mapped as *mut u8, d.len) });
        }
        self.allocation.as_mut().and_then(|a| a.mapped_slice_mut())
    }
}

/// A 2D image, its memory and a view of it.
pub(crate) struct Image {
    pub(crate) image: vk::Image,
    pub(crate) view: vk::ImageView,
    pub(crate) allocation: Option<Allocation>,
}

impl Context {
    /// Creates a buffer bound to fresh memory at `location`, owned by one queue family at a
    /// time (`VK_SHARING_MODE_EXCLUSIVE`): how every buffer a kernel reads is made unless its
    /// family says otherwise.
    pub(crate) fn create_buffer(
        &mut self,
        what: &'static str,
        size: u64,
        usage: vk::BufferUsageFlags,
        location: MemoryLocation,
    ) -> Result<Buffer> {
        self.create_shared_buffer(what, size, usage, location, &[])
    }

    /// [`Context::create_buffer`], shared concurrently (`VK_SHARING_MODE_CONCURRENT`) by the
    /// queue families `families` where they are two or more (distinct families of the device),
    /// else exclusive.
    pub(crate) fn create_shared_buffer(
        &mut self,
        what: &'static str,
        size: u64,
        usage: vk::BufferUsageFlags,
        location: MemoryLocation,
        families: &[u32],
    ) -> Result<Buffer> {
        let info = vk::BufferCreateInfo::default().size(size).usage(usage);
        let info = if families.len() > 1 {
            info.sharing_mode(vk::SharingMode::CONCURRENT)
                .queue_family_indices(families)
        } else {
            info.sharing_mode(vk::SharingMode::EXCLUSIVE)
        };
        // SAFETY: valid device and create info.
        let buffer = unsafe { self.device.create_buffer(&info, None) }.call("vkCreateBuffer")?;
        // SAFETY: `buffer` was just created on this device.
        let requirements = unsafe { self.device.get_buffer_memory_requirements(buffer) };
        let allocation = self.allocator.allocate(&AllocationCreateDesc {
            name: what,
            requirements,
            location,
            linear: true,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        });
        let allocation = match allocation {
            Ok(a) => a,
            Err(source) => {
                // SAFETY: unused buffer of this device.
                unsafe { self.device.destroy_buffer(buffer, None) };
                return Err(Error::Allocation { what, source });
            }
        };
        let mut made = Buffer {
            buffer,
            allocation: Some(allocation),
            size,
            dedicated: None,
        };
        // SAFETY: memory and offset come from an allocation sized for this buffer.
        let bound = unsafe {
            let a = made.allocation.as_ref().map(|a| (a.memory(), a.offset()));
            match a {
                Some((memory, offset)) => self.device.bind_buffer_memory(buffer, memory, offset),
                None => Ok(()),
            }
        };
        if let Err(r) = bound {
            self.destroy_buffer(&mut made);
            return Err(Error::Vulkan {
                call: "vkBindBufferMemory",
                result: r,
            });
        }
        Ok(made)
    }

    /// Creates a buffer bound to memory of its own in the memory type `memory` (mapped for its
    /// lifetime where the type is host-visible): how the transfer suite places a buffer in
    /// each kind of memory, which gpu-allocator's locations do not choose between. The buffer
    /// is shared by the compute and the transfer queue where the context has both (so no
    /// ownership transfer is needed between them).
    pub(crate) fn create_buffer_of_type(
        &mut self,
        size: u64,
        usage: vk::BufferUsageFlags,
        memory: perftest_cases::MemoryTypeInfo,
    ) -> Result<Buffer> {
        let families: Vec<u32> = std::iter::once(self.target.summary.queue_family)
            .chain(self.transfer_queue.map(|(f, _)| f))
            .collect();
        let info = vk::BufferCreateInfo::default().size(size).usage(usage);
        let info = if families.len() > 1 {
            info.sharing_mode(vk::SharingMode::CONCURRENT)
                .queue_family_indices(&families)
        } else {
            info.sharing_mode(vk::SharingMode::EXCLUSIVE)
        };
        // SAFETY: valid device and create info.
        let buffer = unsafe { self.device.create_buffer(&info, None) }.call("vkCreateBuffer")?;
        let mut made = Buffer {
            buffer,
            allocation: None,
            size,
            dedicated: None,
        };
        let addressed = usage.contains(vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS);
        match self.bind_dedicated(&mut made, memory, addressed) {
            Ok(()) => Ok(made),
            Err(e) => {
                self.destroy_buffer(&mut made);
                Err(e)
            }
        }
    }

    /// Allocates, binds and (where host-visible) maps memory of type `memory` for `made`, with
    /// the device-address flag where the buffer has device-address usage (`addressed`).
    fn bind_dedicated(
        &mut self,
        made: &mut Buffer,
        memory: perftest_cases::MemoryTypeInfo,
        addressed: bool,
    ) -> Result<()> {
        // SAFETY: the buffer was just created on this device.
        let requirements = unsafe { self.device.get_buffer_memory_requirements(made.buffer) };
        if memory.index >= 32 || requirements.memory_type_bits & (1 << memory.index) == 0 {
            return Err(Error::InvalidArgument(format!(
                "memory type {} cannot hold this buffer (memoryTypeBits {:#x})",
                memory.index, requirements.memory_type_bits
            )));
        }
        let mut flags =
            vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
        let mut info = vk::MemoryAllocateInfo::default()
            .allocation_size(requirements.size)
            .memory_type_index(memory.index);
        if addressed {
            info = info.push_next(&mut flags);
        }
        // SAFETY: valid device and allocate info.
        let handle =
            unsafe { self.device.allocate_memory(&info, None) }.call("vkAllocateMemory")?;
        made.dedicated = Some(Dedicated {
            memory: handle,
            mapped: 0,
            len: 0,
        });
        // SAFETY: the memory was allocated for this buffer's requirements, at offset 0.
        unsafe { self.device.bind_buffer_memory(made.buffer, handle, 0) }
            .call("vkBindBufferMemory")?;
        if memory.host_visible() {
            // SAFETY: host-visible memory, not mapped yet, mapped whole.
            let ptr = unsafe {
                self.device
                    .map_memory(handle, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            }
            .call("vkMapMemory")?;
            if let Some(d) = made.dedicated.as_mut() {
                d.mapped = ptr as usize;
                d.len = usize::try_from(made.size).unwrap_or(usize::MAX);
            }
        }
        Ok(())
    }

    /// Destroys a buffer and frees its memory (idempotent).
    pub(crate) fn destroy_buffer(&mut self, buffer: &mut Buffer) {
        // SAFETY: no unfinished submission uses the buffer: it was never submitted, or the
        // caller saw the context idle (`settle` or `is_idle`) before destroying it.
        unsafe { self.device.destroy_buffer(buffer.buffer, None) };
        buffer.buffer = vk::Buffer::null();
        if let Some(a) = buffer.allocation.take() {
            let _ = self.allocator.free(a);
        }
        if let Some(d) = buffer.dedicated.take() {
            // SAFETY: the buffer bound to this memory is destroyed; freeing unmaps it.
            unsafe { self.device.free_memory(d.memory, None) };
        }
    }

    /// Destroys an image, its view, and frees its memory (idempotent).
    pub(crate) fn destroy_image(&mut self, image: &mut Image) {
        // SAFETY: no unfinished submission uses the image: it was never submitted, or the
        // caller saw the context idle (`settle`) before destroying it.
        unsafe {
            self.device.destroy_image_view(image.view, None);
            self.device.destroy_image(image.image, None);
        }
        image.view = vk::ImageView::null();
        image.image = vk::Image::null();
        if let Some(a) = image.allocation.take() {
            let _ = self.allocator.free(a);
        }
    }

    /// Copies `bytes` into a staging buffer and runs `record` to copy from it on the GPU.
    pub(crate) fn with_staging(
        &mut self,
        bytes: &[u8],
        record: impl FnOnce(&ash::Device, vk::CommandBuffer, vk::Buffer),
    ) -> Result<()> {
        self.with_staging_written(
            bytes.len() as u64,
            |slice| slice.copy_from_slice(bytes),
            record,
        )
    }

    /// Makes a staging buffer of `len` bytes, lets `write` fill them in place (so that large
    /// uploads need no second copy on the host) and runs `record` to copy from it on the GPU.
    pub(crate) fn with_staging_written(
        &mut self,
        len: u64,
        write: impl FnOnce(&mut [u8]),
        record: impl FnOnce(&ash::Device, vk::CommandBuffer, vk::Buffer),
    ) -> Result<()> {
        let mut staging = self.create_buffer(
            "staging",
            len,
            vk::BufferUsageFlags::TRANSFER_SRC,
            MemoryLocation::CpuToGpu,
        )?;
        let filled = match staging.mapped_mut() {
            Some(slice) if slice.len() as u64 >= len => {
                write(&mut slice[..len as usize]);
                true
            }
            _ => false,
        };
        let result = if filled {
            let src = staging.buffer;
            // Uploads are tiny: give them at least the default timeout even when the user
            // asked for a very short one to catch long dispatches.
            let timeout = self.fence_timeout().max(DEFAULT_FENCE_TIMEOUT);
            self.submit_and_wait_for(timeout, |device, cb| record(device, cb, src))
        } else {
            Err(Error::InvalidArgument(
                "staging memory is not host-visible".into(),
            ))
        };
        if self.is_idle() {
            self.destroy_buffer(&mut staging);
        } else {
            // The copy may still be running: leak the staging buffer instead of freeing it.
            std::mem::forget(staging);
        }
        result
    }

    /// The device address of `buffer`, which must have been created with
    /// `SHADER_DEVICE_ADDRESS` usage on a device with `bufferDeviceAddress` enabled.
    pub(crate) fn buffer_address(&self, buffer: &Buffer) -> u64 {
        let info = vk::BufferDeviceAddressInfo::default().buffer(buffer.buffer);
        // SAFETY: the buffer is alive, on this device, with device-address usage (caller).
        unsafe { self.device.get_buffer_device_address(&info) }
    }

    /// `buffer`, just created, with `bytes` uploaded to its start; on failure the buffer is
    /// destroyed (unless the upload may still be running) and the error returned.
    pub(crate) fn filled(&mut self, mut buffer: Buffer, bytes: &[u8]) -> Result<Buffer> {
        match self.upload_buffer(&buffer, bytes) {
            Ok(()) => Ok(buffer),
            Err(e) => {
                if self.settle() {
                    self.destroy_buffer(&mut buffer);
                }
                Err(e)
            }
        }
    }

    /// Uploads `bytes` to the start of `dst` and makes them visible to shaders.
    pub(crate) fn upload_buffer(&mut self, dst: &Buffer, bytes: &[u8]) -> Result<()> {
        let dst = dst.buffer;
        self.with_staging(bytes, |device, cb, src| {
            let region = [vk::BufferCopy {
                src_offset: 0,
                dst_offset: 0,
                size: bytes.len() as u64,
            }];
            // SAFETY: recording into a command buffer in the recording state; handles valid.
            unsafe {
                device.cmd_copy_buffer(cb, src, dst, &region);
                memory_barrier(
                    device,
                    cb,
                    (
                        vk::PipelineStageFlags::TRANSFER,
                        vk::AccessFlags::TRANSFER_WRITE,
                    ),
                    (
                        vk::PipelineStageFlags::COMPUTE_SHADER,
                        vk::AccessFlags::SHADER_READ | vk::AccessFlags::UNIFORM_READ,
                    ),
                );
            }
        })
    }
}
