//! `uniform_buffer`: the 16 KB input data as a uniform buffer of `vec4[1024]`, in a buffer of
//! its own that holds it at [`PLACES`] places.
//!
//! Where a uniform buffer lies sets how fast some GPUs read it: on the H200,
//! `cbuffer{float4} load random` takes 658 or 596 ns per workgroup depending on a hash of the
//! 32 KB granule of memory its data lies in (`results/nvidia-h200-stability/kernel-variants/`
//! in the repository). So the family keeps identical copies of the data 32 KB apart, each at
//! the start of a 32 KB granule of its memory block, and the measurement policy chooses where
//! a case's kernel reads them (`Bench::data_places`, `Bench::put_data`).

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::{input_bytes, Case, INPUT_BYTES};

use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "uniform_buffer",
    spirv: |_| include_bytes!("../../spirv/uniform_buffer.spv"),
    create: |ctx, _| placed_uniform(ctx),
    push_bytes: 16,
    stages: Stages::Compute,
};

/// How many copies of the data the buffer holds.
pub(super) const PLACES: u64 = 4;

/// The distance between two copies, and the granule each starts: the hash that sets the
/// H200's speed changes from one 32 KB granule to the next (16 KB apart, two copies would
/// share one).
pub(super) const PLACE_STEP: u64 = 32 * 1024;

/// The buffer and where in it each copy of the data starts.
struct PlacedUniform {
    buffer: Option<Buffer>,
    offsets: Vec<u64>,
}

/// The byte offsets in a buffer whose first byte lies at `block_offset` of its memory block
/// of `PLACES` copies 32 KB apart, each starting a 32 KB granule of the block.
fn granule_offsets(block_offset: u64) -> Vec<u64> {
    let first = (PLACE_STEP - block_offset % PLACE_STEP) % PLACE_STEP;
    (0..PLACES).map(|i| first + i * PLACE_STEP).collect()
}

/// Creates the buffer (one granule longer than the copies, so that they can start on
/// granules wherever the buffer lands) and uploads a copy of the input data at each place.
fn placed_uniform(ctx: &mut Context) -> Result<Box<dyn FamilyResources>> {
    let size = (PLACES + 1) * PLACE_STEP;
    let buffer = ctx.create_buffer(
        "uniform buffer places",
        size,
        vk::BufferUsageFlags::UNIFORM_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
        MemoryLocation::GpuOnly,
    )?;
    let block_offset = buffer.allocation.as_ref().map_or(0, |a| a.offset());
    let offsets = granule_offsets(block_offset);
    let mut bytes = vec![0u8; size as usize];
    for &offset in &offsets {
        let at = offset as usize;
        bytes[at..at + INPUT_BYTES].copy_from_slice(input_bytes());
    }
    let buffer = ctx.filled(buffer, &bytes)?;
    Ok(Box::new(PlacedUniform {
        buffer: Some(buffer),
        offsets,
    }))
}

impl FamilyResources for PlacedUniform {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        self.bindings_at(case, 0)
    }

    fn data_places(&self, _case: &Case) -> Vec<u64> {
        self.offsets.clone()
    }

    fn bindings_at(&self, _case: &Case, place: usize) -> Option<Vec<Bind>> {
        let buffer = self.buffer.as_ref()?.buffer;
        let offset = *self.offsets.get(place)?;
        let range = [(offset, INPUT_BYTES as u64)];
        let ty = vk::DescriptorType::UNIFORM_BUFFER;
        Some(vec![Bind::ranges(0, ty, buffer, &range)])
    }

    fn destroy(&mut self, ctx: &mut Context) {
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
                assert!(o + INPUT_BYTES as u64 <= (PLACES + 1) * PLACE_STEP);
                if i > 0 {
                    assert_eq!(o - offsets[i - 1], PLACE_STEP);
                }
            }
            assert!(offsets[0] < PLACE_STEP);
        }
    }
}
