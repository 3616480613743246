//! A compute pipeline without descriptors whose push constants name two buffers by device
//! address (`shaders/copies.comp`): the copies family's shader copy and the launches family's
//! near-empty kernel, which run it from their operations rather than as timed kernels.

use std::io::Cursor;

use ash::vk;

use crate::context::Context;
use crate::error::{Error, Result, VkResultExt};

/// Bytes of the push constants: source and destination addresses, a count and a value.
const PUSH_BYTES: u32 = 24;

/// Elements (16 bytes each) one workgroup of the copy shader copies.
pub(super) const ELEMENTS_PER_GROUP: u64 = 256 * 16;

/// The pipeline and what it is made of.
pub(super) struct AddressKernel {
    module: vk::ShaderModule,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
}

/// What one dispatch of an [`AddressKernel`] reads from its push constants.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct AddressPush {
    /// Source address (the copy's).
    pub(super) src: u64,
    /// Destination address.
    pub(super) dst: u64,
    /// Elements to copy (the copy), unused by the launch kernel.
    pub(super) elements: u32,
    /// The value the launch kernel writes.
    pub(super) value: u32,
}

impl AddressPush {
    fn bytes(&self) -> Vec<u8> {
        [
            self.src.to_le_bytes().as_slice(),
            &self.dst.to_le_bytes(),
            &self.elements.to_le_bytes(),
            &self.value.to_le_bytes(),
        ]
        .concat()
    }
}

impl AddressKernel {
    /// Builds the pipeline of `spirv` on `ctx`'s device.
    pub(super) fn new(ctx: &Context, spirv: &[u8]) -> Result<AddressKernel> {
        let mut k = AddressKernel {
            module: vk::ShaderModule::null(),
            layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
        };
        match k.build(&ctx.device, spirv) {
            Ok(()) => Ok(k),
            Err(e) => {
                k.destroy(&ctx.device);
                Err(e)
            }
        }
    }

    fn build(&mut self, device: &ash::Device, spirv: &[u8]) -> Result<()> {
        let code = ash::util::read_spv(&mut Cursor::new(spirv))
            .map_err(|e| Error::InvalidArgument(format!("embedded SPIR-V is corrupt: {e}")))?;
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .size(PUSH_BYTES)];
        // SAFETY: valid device; the create infos point at locals that outlive the calls.
        unsafe {
            self.module = device
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
                .creating_pipeline("vkCreateShaderModule")?;
            let layout_info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges);
            self.layout = device
                .create_pipeline_layout(&layout_info, None)
                .call("vkCreatePipelineLayout")?;
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(self.module)
                .name(c"main");
            let info = [vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(self.layout)];
            self.pipeline = device
                .create_compute_pipelines(vk::PipelineCache::null(), &info, None)
                .map_err(|(_, r)| r)
                .creating_pipeline("vkCreateComputePipelines")?
                .first()
                .copied()
                .unwrap_or_default();
        }
        Ok(())
    }

    /// Records the pipeline's bind.
    ///
    /// # Safety
    /// `cb` is recording on the device the kernel was built on.
    pub(super) unsafe fn bind(&self, device: &ash::Device, cb: vk::CommandBuffer) {
        // SAFETY: guaranteed by the caller.
        unsafe { device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, self.pipeline) }
    }

    /// Records one dispatch of `groups` workgroups reading `push` (after [`Self::bind`]).
    ///
    /// # Safety
    /// As [`Self::bind`]; the addresses in `push` name live buffers of the device.
    pub(super) unsafe fn dispatch(
        &self,
        device: &ash::Device,
        cb: vk::CommandBuffer,
        push: AddressPush,
        groups: u32,
    ) {
        // SAFETY: guaranteed by the caller.
        unsafe {
            device.cmd_push_constants(
                cb,
                self.layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                &push.bytes(),
            );
            device.cmd_dispatch(cb, groups, 1, 1);
        }
    }

    /// Destroys the pipeline (idempotent; only when no submission uses it).
    pub(super) fn destroy(&mut self, device: &ash::Device) {
        // SAFETY: nothing running uses these objects (caller); null handles are ignored.
        unsafe {
            device.destroy_pipeline(self.pipeline, None);
            device.destroy_pipeline_layout(self.layout, None);
            device.destroy_shader_module(self.module, None);
        }
        self.pipeline = vk::Pipeline::null();
        self.layout = vk::PipelineLayout::null();
        self.module = vk::ShaderModule::null();
    }
}
