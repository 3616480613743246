//! Copies on a queue, timed by GPU timestamps: `vkCmdCopyBuffer` on the transfer-only or the
//! compute queue, and the copy shader on the compute queue.

use std::time::Duration;

use ash::vk;
use perftest_cases::families::copies::{kinds, method, source_span, Method};
use perftest_cases::Case;

use super::{Copies, Role};
use crate::barriers::Scope;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::families::address_kernel::{AddressPush, ELEMENTS_PER_GROUP};
use crate::submitter::{record_runs, SUBMITTER_QUERIES};

/// The transfers of a copy, as a barrier sees them.
const COPY_WRITES: Scope = (
    vk::PipelineStageFlags::TRANSFER,
    vk::AccessFlags::TRANSFER_WRITE,
);
const COPY_ACCESS: Scope = (
    vk::PipelineStageFlags::TRANSFER,
    vk::AccessFlags::from_raw(
        vk::AccessFlags::TRANSFER_READ.as_raw() | vk::AccessFlags::TRANSFER_WRITE.as_raw(),
    ),
);
/// The copy shader's accesses.
const SHADER_WRITES: Scope = (
    vk::PipelineStageFlags::COMPUTE_SHADER,
    vk::AccessFlags::SHADER_WRITE,
);
const SHADER_ACCESS: Scope = (
    vk::PipelineStageFlags::COMPUTE_SHADER,
    vk::AccessFlags::from_raw(
        vk::AccessFlags::SHADER_READ.as_raw() | vk::AccessFlags::SHADER_WRITE.as_raw(),
    ),
);

impl Copies {
    /// `runs` runs of `count` copies of `case` on its queue, each run between two timestamps;
    /// each copy after a barrier on the one before.
    pub(super) fn time_on_gpu(
        &mut self,
        ctx: &mut Context,
        case: &Case,
        count: u64,
        runs: u32,
    ) -> Result<Vec<Duration>> {
        if runs == 0 || runs > SUBMITTER_QUERIES / 2 {
            return Err(Error::InvalidArgument(format!(
                "runs per submission must be 1..={}, got {runs}",
                SUBMITTER_QUERIES / 2
            )));
        }
        let bytes = case.params.working_set;
        let (source, destination) = kinds(case, &ctx.caps);
        let (Some(source), Some(destination)) = (source, destination) else {
            return Err(Error::InvalidArgument(format!(
                "{} is not a queue copy",
                case.id
            )));
        };
        let src = self.buffer((Role::Source, source, bytes))?;
        let dst = self.buffer((Role::Destination, destination, bytes))?;
        let (src_buffer, dst_buffer) = (src.buffer, dst.buffer);
        let shader = method(case).1 == Method::Shader;
        let push = if shader {
            AddressPush {
                src: ctx.buffer_address(src),
                dst: ctx.buffer_address(dst),
                elements: u32::try_from(bytes / 16).unwrap_or(u32::MAX),
                value: 0,
            }
        } else {
            AddressPush::default()
        };
        let groups = u32::try_from(u64::from(push.elements).div_ceil(ELEMENTS_PER_GROUP))
            .unwrap_or(u32::MAX);
        // Step n reads slot n of the source, so that no cache holds what it copies.
        let slots = (source_span(bytes) / bytes.max(1)).max(1);
        let offset = move |n: u64| (n % slots) * bytes;
        let kernel = self.shader.as_ref();
        let submitter = match method(case).1 {
            Method::TransferQueue => self.transfer.as_mut(),
            _ => self.compute.as_mut(),
        }
        .ok_or_else(|| Error::InvalidArgument("the copy's queue is not open".into()))?;
        let pool = submitter.queries();
        let (writes, access) = if shader {
            (SHADER_WRITES, SHADER_ACCESS)
        } else {
            (COPY_WRITES, COPY_ACCESS)
        };
        submitter.submit_and_wait(ctx, 2 * runs, |device, cb| {
            let step = |device: &ash::Device, cb: vk::CommandBuffer, n: u64| match kernel {
                // SAFETY: recording; the kernel is bound below and the addresses name live
                // buffers of this device (the source's slot lies inside it).
                Some(k) if shader => unsafe {
                    let from = AddressPush {
                        src: push.src + offset(n),
                        ..push
                    };
                    k.dispatch(device, cb, from, groups)
                },
                // SAFETY: recording; both buffers are alive, the source's slot and the
                // destination `bytes` long.
                _ => unsafe {
                    let region = [vk::BufferCopy::default().src_offset(offset(n)).size(bytes)];
                    device.cmd_copy_buffer(cb, src_buffer, dst_buffer, &region);
                },
            };
            // SAFETY: recording on the submitter's command buffer; every handle is alive.
            unsafe {
                if let Some(k) = kernel.filter(|_| shader) {
                    k.bind(device, cb);
                }
                record_runs(
                    device,
                    cb,
                    pool,
                    (runs, count),
                    &step,
                    Some((writes, access)),
                );
            }
        })?;
        submitter.times(ctx, runs)
    }
}
