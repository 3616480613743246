//! The pointer chains of the latency families (`pointer_chase`, and `cache_carveout`, which
//! chases the same chains beside declared shared memory): one device-local buffer per
//! working-set size, built on the CPU once its device address is known.

use perftest_cases::chase::chain_bytes;
use perftest_cases::{Case, Feature};

use crate::building_blocks::modern_buffer;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources};

/// One chain: its working-set size, buffer and device address.
struct Chain {
    bytes: u64,
    buffer: Buffer,
    address: u64,
}

/// The chains prepared so far.
#[derive(Default)]
pub(super) struct Chains(Vec<Chain>);

impl Chains {
    fn chain(&self, case: &Case) -> Option<&Chain> {
        self.0.iter().find(|c| c.bytes == case.params.working_set)
    }
}

impl FamilyResources for Chains {
    fn prepare(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        let bytes = case.params.working_set;
        if self.chain(case).is_some() {
            return Ok(());
        }
        if !ctx.caps.has(Feature::BufferDeviceAddress) {
            return Err(Error::InvalidArgument(
                "pointer chase without bufferDeviceAddress".into(),
            ));
        }
        let buffer = modern_buffer(ctx, "pointer chain", bytes, false)?;
        let address = ctx.buffer_address(&buffer);
        let buffer = ctx.filled(buffer, &chain_bytes(bytes, address))?;
        self.0.push(Chain {
            bytes,
            buffer,
            address,
        });
        Ok(())
    }

    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        self.chain(case).map(|_| Vec::new())
    }

    fn push(&self, case: &Case) -> [u32; 4] {
        match self.chain(case) {
            Some(c) => [c.address as u32, (c.address >> 32) as u32, 0, 0],
            None => [0; 4],
        }
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for chain in &mut self.0 {
            ctx.destroy_buffer(&mut chain.buffer);
        }
        self.0.clear();
    }
}
