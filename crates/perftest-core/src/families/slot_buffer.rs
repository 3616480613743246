//! The 128 KB buffer of modern-suite words that the slot families read
//! (`descriptor_index`, `typed_alias`, `eight_regions`), and the three ways they bind it: as
//! eight descriptors over its 16 KB slots, as one whole binding, or by device address.

use ash::vk;
use perftest_cases::descriptor_slots::{SLOTS, SLOT_BUFFER_BYTES, SLOT_BYTES};
use perftest_cases::{Case, Feature};

use crate::building_blocks::modern_buffer;
use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources};

/// How a case's kernel reaches the slot buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum View {
    /// Binding 0: eight storage-buffer descriptors, slot `s` over bytes `s * 16 KB` onwards.
    Slots,
    /// Binding 0: one storage-buffer descriptor over the whole 128 KB.
    Whole,
    /// No binding: the buffer's device address in the family words of the push constants.
    Address,
}

/// One family's slot buffer.
pub(super) struct SlotBuffer {
    buffer: Option<Buffer>,
    address: u64,
    view: fn(&Case) -> View,
}

/// Creates and fills the 128 KB slot buffer of a family whose cases bind it as `view` says.
pub(super) fn create(
    ctx: &mut Context,
    view: fn(&Case) -> View,
) -> Result<Box<dyn FamilyResources>> {
    let buffer = modern_buffer(ctx, "slot buffer", SLOT_BUFFER_BYTES, true)?;
    let address = if ctx.caps.has(Feature::BufferDeviceAddress) {
        ctx.buffer_address(&buffer)
    } else {
        0
    };
    Ok(Box::new(SlotBuffer {
        buffer: Some(buffer),
        address,
        view,
    }))
}

impl FamilyResources for SlotBuffer {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let buffer = self.buffer.as_ref()?.buffer;
        let ty = vk::DescriptorType::STORAGE_BUFFER;
        Some(match (self.view)(case) {
            View::Slots => {
                let ranges: Vec<(u64, u64)> = (0..u64::from(SLOTS))
                    .map(|s| (s * SLOT_BYTES, SLOT_BYTES))
                    .collect();
                vec![Bind::ranges(0, ty, buffer, &ranges)]
            }
            View::Whole => vec![Bind::buffer(0, ty, buffer)],
            View::Address => Vec::new(),
        })
    }

    fn push(&self, case: &Case) -> [u32; 4] {
        match (self.view)(case) {
            View::Address => [self.address as u32, (self.address >> 32) as u32, 0, 0],
            _ => [0; 4],
        }
    }

    fn destroy(&mut self, ctx: &mut Context) {
        if let Some(mut buffer) = self.buffer.take() {
            ctx.destroy_buffer(&mut buffer);
        }
    }
}
