//! Verification of a copy: the destination poisoned, one transfer, and every byte of where the
//! data ended read back for the family's model.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::families::copies::{kinds, method, Method};
use perftest_cases::{Case, MemoryKind};

use super::{host_bytes, Copies, Role};
use crate::barriers::memory_barrier;
use crate::context::Context;
use crate::error::{Error, Result};

impl Copies {
    /// Fills where `case`'s data ends with zeros (which the model never holds).
    pub(super) fn poison(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        let bytes = case.params.working_set;
        host_bytes(&mut self.host_destination, bytes, &case.id)?.fill(0);
        let Some(kind) = kinds(case, &ctx.caps).1 else {
            return Ok(());
        };
        let at = self
            .buffers
            .iter()
            .position(|(k, _)| *k == (Role::Destination, kind, bytes))
            .ok_or_else(|| Error::InvalidArgument("the destination was not prepared".into()))?;
        if let Some(mapped) = self.buffers[at].1.mapped_mut() {
            mapped.fill(0);
            return Ok(());
        }
        let buffer = self.buffers[at].1.buffer;
        let submitter = self
            .compute
            .as_mut()
            .ok_or_else(|| Error::InvalidArgument("the compute submitter is not open".into()))?;
        submitter.submit_and_wait(ctx, 0, |device, cb| {
            // SAFETY: recording on the submitter's command buffer; the buffer is alive.
            unsafe {
                device.cmd_fill_buffer(cb, buffer, 0, vk::WHOLE_SIZE, 0);
                memory_barrier(
                    device,
                    cb,
                    (
                        vk::PipelineStageFlags::TRANSFER,
                        vk::AccessFlags::TRANSFER_WRITE,
                    ),
                    (
                        vk::PipelineStageFlags::ALL_COMMANDS,
                        vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE,
                    ),
                );
            }
        })?;
        Ok(())
    }

    /// Every byte where `case`'s data ended: the host's memory (the mapped and the cached
    /// reads), a mapped destination, or a device-local one copied to the host first.
    pub(super) fn final_destination(&mut self, ctx: &mut Context, case: &Case) -> Result<Vec<u8>> {
        let bytes = case.params.working_set;
        if matches!(method(case).1, Method::MappedRead | Method::CachedRead) {
            let kept = host_bytes(&mut self.host_destination, bytes, &case.id)?;
            return copy_of(kept, &case.id);
        }
        let kind = kinds(case, &ctx.caps)
            .1
            .ok_or_else(|| Error::InvalidArgument("the copy has no destination".into()))?;
        let dst = self.buffer((Role::Destination, kind, bytes))?;
        // The host reads host memory itself; device-local memory, even mapped, is copied to the
        // host first (the host reads a BAR at tens of MB/s).
        let device_local = matches!(
            kind,
            MemoryKind::DeviceLocal | MemoryKind::DeviceLocalMapped
        );
        if let Some(mapped) = dst.mapped().filter(|_| !device_local) {
            return copy_of(mapped, &case.id);
        }
        let from = dst.buffer;
        let mut out = ctx.create_buffer(
            "copy read-back",
            bytes,
            vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuToCpu,
        )?;
        let copied = self.copy_and_wait(ctx, from, out.buffer, bytes);
        let data = out.mapped().map(|m| copy_of(m, &case.id));
        if self.compute.as_mut().is_some_and(|l| l.settle(ctx)) {
            ctx.destroy_buffer(&mut out);
        }
        copied?;
        data.ok_or_else(|| Error::InvalidArgument("read-back memory is not mapped".into()))?
    }
}

/// A copy of `bytes` in host memory for case `id`, allocated fallibly: a host that cannot give
/// that much makes the case [`Error::Unsupported`] (skipped with the reason).
fn copy_of(bytes: &[u8], id: &str) -> Result<Vec<u8>> {
    let mut copy = Vec::new();
    copy.try_reserve_exact(bytes.len())
        .map_err(|_| Error::Unsupported {
            id: id.to_string(),
            reason: format!(
                "the host cannot allocate the {} MiB its check reads back",
                bytes.len().div_ceil(1 << 20)
            ),
        })?;
    copy.extend_from_slice(bytes);
    Ok(copy)
}
