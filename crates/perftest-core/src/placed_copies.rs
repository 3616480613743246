//! Identical copies of a family's data at several places of one buffer, for the families
//! whose speed can depend on where their data lies (`Bench::data_places`, `Bench::put_data`).
//!
//! On some GPUs a load's speed depends on a hash of the 32 KB granule of memory its buffer lies
//! in (the measurement chapter gives the evidence). So the copies lie 32 KB apart, each at the start of a 32 KB granule of the buffer's memory block, and the
//! measurement policy chooses which one a case's kernel reads.

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::memory::Buffer;
use crate::plan::Bind;

/// How many copies a buffer holds.
pub(crate) const PLACES: u64 = 4;

/// The distance between two copies in bytes, and the granule each starts (16 KB apart, two
/// copies would share a 32 KB granule).
pub(crate) const PLACE_STEP: u64 = 32 * 1024;

/// One buffer holding [`PLACES`] copies of some data.
pub(crate) struct PlacedCopies {
    buffer: Option<Buffer>,
    offsets: Vec<u64>,
    len: u64,
}

/// The byte offsets, in a buffer whose first byte lies at `block_offset` of its memory block,
/// of [`PLACES`] copies 32 KB apart, each starting a 32 KB granule of the block.
fn granule_offsets(block_offset: u64) -> Vec<u64> {
    let first = (PLACE_STEP - block_offset % PLACE_STEP) % PLACE_STEP;
    (0..PLACES).map(|i| first + i * PLACE_STEP).collect()
}

impl PlacedCopies {
    /// A device-local buffer with `usage` (and transfer destination) holding a copy of `data`
    /// (at most 32 KB) at each place: one granule longer than the copies, so that they can
    /// start on granules wherever the buffer lands. On failure nothing is left allocated.
    pub(crate) fn new(
        ctx: &mut Context,
        label: &'static str,
        data: &[u8],
        usage: vk::BufferUsageFlags,
    ) -> Result<PlacedCopies> {
        let len = data.len() as u64;
        if len == 0 || len > PLACE_STEP {
            return Err(Error::InvalidArgument(format!(
                "{label}: {len} bytes cannot lie at places {PLACE_STEP} bytes apart"
            )));
        }
        let size = (PLACES + 1) * PLACE_STEP;
        let buffer = ctx.create_buffer(
            label,
            size,
            usage | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuOnly,
        )?;
        let block_offset = buffer.allocation.as_ref().map_or(0, |a| a.offset());
        let offsets = granule_offsets(block_offset);
        let mut bytes = vec![0u8; size as usize];
        for &offset in &offsets {
            let at = offset as usize;
            bytes[at..at + data.len()].copy_from_slice(data);
        }
        let buffer = ctx.filled(buffer, &bytes)?;
        Ok(PlacedCopies {
            buffer: Some(buffer),
            offsets,
            len,
        })
    }

    /// Each copy's byte offset in the buffer.
    pub(crate) fn offsets(&self) -> Vec<u64> {
        self.offsets.clone()
    }

    /// The copy at `place` as a descriptor of type `ty` at `binding`; `None` once destroyed or
    /// for a place that does not exist.
    pub(crate) fn bind(&self, binding: u32, ty: vk::DescriptorType, place: usize) -> Option<Bind> {
        let buffer = self.buffer.as_ref()?.buffer;
        let offset = *self.offsets.get(place)?;
        Some(Bind::ranges(binding, ty, buffer, &[(offset, self.len)]))
    }

    /// Destroys the buffer (idempotent).
    pub(crate) fn destroy(&mut self, ctx: &mut Context) {
        if let Some(mut buffer) = self.buffer.take() {
            ctx.destroy_buffer(&mut buffer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every copy starts a 32 KB granule of the block, inside the buffer, and the last one
    /// ends inside it too, wherever in the block the buffer starts.
    #[test]
    fn every_copy_starts_a_granule_inside_the_buffer() {
        for block_offset in [
            0,
            256,
            16 * 1024,
            32 * 1024 - 256,
            32 * 1024,
            1 << 20,
            98_560,
        ] {
            let offsets = granule_offsets(block_offset);
            assert_eq!(offsets.len() as u64, PLACES);
            for (i, &o) in offsets.iter().enumerate() {
                assert_eq!((block_offset + o) % PLACE_STEP, 0, "{block_offset} {o}");
                assert!(o + PLACE_STEP <= (PLACES + 1) * PLACE_STEP);
                if i > 0 {
                    assert_eq!(o - offsets[i - 1], PLACE_STEP);
                }
            }
            assert!(offsets[0] < PLACE_STEP);
        }
    }
}
