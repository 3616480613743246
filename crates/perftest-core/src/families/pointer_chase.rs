//! `pointer_chase`: one device-local buffer per working-set size holding the chain of node
//! addresses, built on the CPU once the buffer's device address is known and uploaded when the
//! first case of that size is prepared; the kernel gets node 0's address in family words 0-1.

use perftest_cases::chase::chain_bytes;
use perftest_cases::{Case, Feature};

use crate::building_blocks::modern_buffer;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Plan, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "pointer_chase",
    spirv: |_| include_bytes!("../../spirv/pointer_chase.spv"),
    create: |_, _| Ok(Box::new(Chains::default())),
    push_bytes: 32,
    stages: Stages::Compute,
};

/// One chain: its working-set size, buffer and device address.
struct Chain {
    bytes: u64,
    buffer: Buffer,
    address: u64,
}

/// The chains prepared so far (also the resources of `cache_carveout`, which chases the same
/// chains).
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
