//! Recording the global memory barriers the kernels and uploads need.

use ash::vk;

/// Where a dependency starts or ends: a pipeline stage and the accesses made there.
pub(crate) type Scope = (vk::PipelineStageFlags, vk::AccessFlags);

/// Records a global memory barrier making `src` accesses available and visible to `dst`.
///
/// # Safety
/// `cb` must be a command buffer of `device` in the recording state, outside a render pass.
pub(crate) unsafe fn memory_barrier(
    device: &ash::Device,
    cb: vk::CommandBuffer,
    src: Scope,
    dst: Scope,
) {
    let barrier = [vk::MemoryBarrier::default()
        .src_access_mask(src.1)
        .dst_access_mask(dst.1)];
    // SAFETY: guaranteed by the caller.
    unsafe {
        device.cmd_pipeline_barrier(
            cb,
            src.0,
            dst.0,
            vk::DependencyFlags::empty(),
            &barrier,
            &[],
            &[],
        );
    }
}
