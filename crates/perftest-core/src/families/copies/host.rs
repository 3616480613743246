//! Transfers the host takes part in, timed by the host's clock: writes into and reads out of
//! mapped device-local memory, the staged upload and the cached readback (their submissions and
//! waits included).

use std::hint::black_box;
use std::time::{Duration, Instant};

use ash::vk;
use perftest_cases::families::copies::{kinds, method, Method};
use perftest_cases::{Case, MemoryKind};

use super::{host_bytes, Copies, Role};
use crate::barriers::memory_barrier;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::memory::Buffer;
use crate::submitter::HOST_READS;

/// 4-byte words in a 64-byte line: the scattered writes' passes.
const WORDS_PER_LINE: usize = 16;

impl Copies {
    /// `runs` runs of `count` transfers of `case`, each run timed by the host's clock.
    pub(super) fn time_on_host(
        &mut self,
        ctx: &mut Context,
        case: &Case,
        count: u64,
        runs: u32,
    ) -> Result<Vec<Duration>> {
        let mut times = Vec::with_capacity(runs as usize);
        for _ in 0..runs {
            let start = Instant::now();
            for _ in 0..count {
                self.transfer_once(ctx, case)?;
            }
            times.push(start.elapsed());
        }
        Ok(times)
    }

    /// One transfer of `case` by the host (and, staged or cached, a submission and its wait).
    fn transfer_once(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        let bytes = case.params.working_set;
        let (source, destination) = kinds(case, &ctx.caps);
        match method(case).1 {
            Method::MappedWrite => {
                let dst = self.mapped(Role::Destination, destination, bytes)?;
                let src = host_bytes(&mut self.host_source, bytes, &case.id)?;
                dst_of(&mut self.buffers, dst)?.copy_from_slice(src);
            }
            Method::MappedScattered => {
                let dst = self.mapped(Role::Destination, destination, bytes)?;
                let src = host_bytes(&mut self.host_source, bytes, &case.id)?;
                scattered_write(dst_of(&mut self.buffers, dst)?, src);
            }
            Method::MappedRead => {
                let src = self.mapped(Role::Source, source, bytes)?;
                let from = dst_of(&mut self.buffers, src)?;
                let len = usize::try_from(bytes).unwrap_or(usize::MAX).min(from.len());
                host_bytes(&mut self.host_destination, bytes, &case.id)?
                    .copy_from_slice(&from[..len]);
            }
            Method::Staged => self.staged(ctx, case)?,
            Method::CachedRead => self.cached_read(ctx, case)?,
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "{} is a queue copy",
                    case.id
                )))
            }
        }
        black_box(&self.host_destination);
        Ok(())
    }

    /// Where the buffer of (`role`, `kind`, `bytes`) is in the family's list, when mapped.
    fn mapped(&self, role: Role, kind: Option<MemoryKind>, bytes: u64) -> Result<usize> {
        let kind = kind.ok_or_else(|| Error::InvalidArgument("no mapped buffer".into()))?;
        let key = super::stored((role, kind, bytes));
        self.buffers
            .iter()
            .position(|(k, b)| *k == key && b.mapped().is_some())
            .ok_or_else(|| Error::InvalidArgument("the mapped buffer was not prepared".into()))
    }

    /// The host copies the source into the staging buffer, then a copy on the compute queue
    /// moves it into device-local memory, and the host waits for it.
    fn staged(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        let bytes = case.params.working_set;
        let (source, destination) = kinds(case, &ctx.caps);
        let staging = self.mapped(Role::Source, source, bytes)?;
        let src = host_bytes(&mut self.host_source, bytes, &case.id)?;
        dst_of(&mut self.buffers, staging)?[..src.len()].copy_from_slice(src);
        let from = self.buffers[staging].1.buffer;
        let to = self
            .buffer((
                Role::Destination,
                destination.unwrap_or(MemoryKind::DeviceLocal),
                bytes,
            ))?
            .buffer;
        self.copy_and_wait(ctx, from, to, bytes)
    }

    /// A copy on the compute queue into host-cached memory, a wait, then the host copies it
    /// out.
    fn cached_read(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        let bytes = case.params.working_set;
        let (source, destination) = kinds(case, &ctx.caps);
        let from = self
            .buffer((
                Role::Source,
                source.unwrap_or(MemoryKind::DeviceLocal),
                bytes,
            ))?
            .buffer;
        let cached = self.mapped(Role::Destination, destination, bytes)?;
        let to = self.buffers[cached].1.buffer;
        self.copy_and_wait(ctx, from, to, bytes)?;
        let out = dst_of(&mut self.buffers, cached)?;
        host_bytes(&mut self.host_destination, bytes, &case.id)?.copy_from_slice(out);
        Ok(())
    }

    /// One `vkCmdCopyBuffer` of `bytes` on the compute submitter, made visible to the host, waited
    /// for.
    pub(super) fn copy_and_wait(
        &mut self,
        ctx: &mut Context,
        from: vk::Buffer,
        to: vk::Buffer,
        bytes: u64,
    ) -> Result<()> {
        let submitter = self
            .compute
            .as_mut()
            .ok_or_else(|| Error::InvalidArgument("the compute submitter is not open".into()))?;
        submitter.submit_and_wait(ctx, 0, |device, cb| {
            let region = [vk::BufferCopy::default().size(bytes)];
            // SAFETY: recording on the submitter's command buffer; both buffers are alive and at
            // least `bytes` long.
            unsafe {
                device.cmd_copy_buffer(cb, from, to, &region);
                memory_barrier(
                    device,
                    cb,
                    (
                        vk::PipelineStageFlags::TRANSFER,
                        vk::AccessFlags::TRANSFER_WRITE,
                    ),
                    HOST_READS,
                );
            }
        })?;
        Ok(())
    }
}

/// The mapped bytes of entry `at` of `buffers`.
fn dst_of(buffers: &mut [((Role, MemoryKind, u64), Buffer)], at: usize) -> Result<&mut [u8]> {
    buffers
        .get_mut(at)
        .and_then(|(_, b)| b.mapped_mut())
        .ok_or_else(|| Error::InvalidArgument("the buffer is not mapped".into()))
}

/// Writes `src` into `dst` one 4-byte word at a time in [`WORDS_PER_LINE`] passes: pass `p`
/// writes word `p` of every 64-byte line, so every line is written sixteen times, out of order
/// (volatile stores, which the compiler may neither merge nor reorder).
fn scattered_write(dst: &mut [u8], src: &[u8]) {
    let words = dst.len().min(src.len()) / 4;
    let out = dst.as_mut_ptr().cast::<u32>();
    for pass in 0..WORDS_PER_LINE {
        for w in (pass..words).step_by(WORDS_PER_LINE) {
            let b = &src[4 * w..4 * w + 4];
            let word = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            // SAFETY: `w < words`, so the 4 bytes at `4 * w` lie inside `dst`; mapped memory is
            // aligned to at least 4 bytes (minMemoryMapAlignment is at least 64).
            unsafe { out.add(w).write_volatile(word) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scattered_writes_copy_every_byte() {
        let src: Vec<u8> = (0..4096u32).map(|i| (i * 7 + 3) as u8).collect();
        let mut dst = vec![0u32; 1024];
        // SAFETY: a u32 buffer viewed as its bytes.
        let bytes = unsafe { std::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<u8>(), 4096) };
        scattered_write(bytes, &src);
        assert_eq!(bytes, &src[..]);
    }
}
