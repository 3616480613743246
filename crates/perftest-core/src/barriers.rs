//! Recording the barriers the kernels, draws and uploads need.

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

/// The one level and layer of a single-level colour image.
pub(crate) const COLOR_LEVEL: vk::ImageSubresourceRange = vk::ImageSubresourceRange {
    aspect_mask: vk::ImageAspectFlags::COLOR,
    base_mip_level: 0,
    level_count: 1,
    base_array_layer: 0,
    layer_count: 1,
};

/// Records a layout transition of `range` of `image` (e.g. [`COLOR_LEVEL`]), making `src`
/// accesses available and visible to `dst`.
///
/// # Safety
/// `cb` must be recording on `device`, outside a render pass; `image` must be alive and `range`
/// within it.
pub(crate) unsafe fn image_transition(
    device: &ash::Device,
    cb: vk::CommandBuffer,
    (image, range): (vk::Image, vk::ImageSubresourceRange),
    (old, new): (vk::ImageLayout, vk::ImageLayout),
    (src_stage, src_access): Scope,
    (dst_stage, dst_access): Scope,
) {
    let barrier = [vk::ImageMemoryBarrier::default()
        .src_access_mask(src_access)
        .dst_access_mask(dst_access)
        .old_layout(old)
        .new_layout(new)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(range)];
    // SAFETY: guaranteed by the caller.
    unsafe {
        device.cmd_pipeline_barrier(
            cb,
            src_stage,
            dst_stage,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &barrier,
        );
    }
}
