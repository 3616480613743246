//! `copies`: the transfer suite's copies between the host and the device. The family's
//! resources are one buffer per (role, memory kind, size), shared by every case that copies
//! from or into it, the host's own source and destination memory per size, a submitter on the
//! compute queue, one on the transfer-only queue where there is one, and the copy shader; each
//! case is an [`Operation`] of them (`perftest_cases::families::copies` says what it does).

mod check;
mod gpu;
mod host;

use ash::vk;
use perftest_cases::families::copies::{fill_source, kinds, method, source_span, Method};
use perftest_cases::{Case, Feature, MemoryKind, Readback};

use super::address_kernel::AddressKernel;
use crate::building_blocks::create_family;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::memory::Buffer;
use crate::operation::Operation;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};
use crate::submitter::{Queue, Submitter};

/// The copy shader (`shaders/copies.comp`).
const SPIRV: &[u8] = include_bytes!("../../../spirv/copies.spv");

/// The family's plan.
pub(in crate::families) const PLAN: Plan = Plan {
    label: "copies",
    spirv: |_| SPIRV,
    create,
    push_bytes: 0,
    stages: Stages::Operation,
};

/// What a buffer is to the copies that use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Holds the source data, never written after it was filled.
    Source,
    /// Written by the copies.
    Destination,
}

/// The copies family's resources.
#[derive(Default)]
struct Copies {
    buffers: Vec<((Role, MemoryKind, u64), Buffer)>,
    /// The host's own memory per size: the source data, and a destination.
    host_source: Vec<(u64, Vec<u8>)>,
    host_destination: Vec<(u64, Vec<u8>)>,
    compute: Option<Submitter>,
    transfer: Option<Submitter>,
    shader: Option<AddressKernel>,
    /// The case [`FamilyResources::operation`] last handed out.
    current: Option<Case>,
}

fn create(ctx: &mut Context, _: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    create_family(ctx, Copies::default(), |r, ctx| {
        r.compute = Some(Submitter::new(ctx, Queue::Compute)?);
        Ok(())
    })
}

/// The usage every copy buffer has: both ends of a copy, and device addresses for the shader
/// where the device has them.
fn usage(ctx: &Context) -> vk::BufferUsageFlags {
    let mut usage = vk::BufferUsageFlags::TRANSFER_SRC
        | vk::BufferUsageFlags::TRANSFER_DST
        | vk::BufferUsageFlags::STORAGE_BUFFER;
    if ctx.caps.has(Feature::BufferDeviceAddress) {
        usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
    }
    usage
}

/// The key a buffer of `role`, `kind` and transfer size `bytes` is kept under: a source spans
/// [`source_span`] bytes (copies rotate through it), a destination the transfer's size.
fn stored((role, kind, bytes): (Role, MemoryKind, u64)) -> (Role, MemoryKind, u64) {
    match role {
        Role::Source => (role, kind, source_span(bytes)),
        Role::Destination => (role, kind, bytes),
    }
}

impl Copies {
    /// The buffer of `key` for case `id`, created (and, as a source, filled) unless it exists.
    fn ensure_buffer(
        &mut self,
        ctx: &mut Context,
        key: (Role, MemoryKind, u64),
        id: &str,
    ) -> Result<()> {
        let key = stored(key);
        if self.buffers.iter().any(|(k, _)| *k == key) {
            return Ok(());
        }
        let (role, kind, bytes) = key;
        let memory = ctx.caps.memory_kinds[kind.index()]
            .ok_or_else(|| Error::InvalidArgument(format!("no {} memory type", kind.display())))?;
        let mut buffer = ctx.create_buffer_of_type(bytes, usage(ctx), memory)?;
        if role == Role::Source {
            let filled = match buffer.mapped_mut() {
                Some(bytes) => {
                    fill_source(bytes);
                    Ok(())
                }
                None => host_bytes(&mut self.host_source, bytes, id)
                    .and_then(|data| ctx.upload_buffer(&buffer, data)),
            };
            if let Err(e) = filled {
                if ctx.settle() {
                    ctx.destroy_buffer(&mut buffer);
                }
                return Err(e);
            }
        }
        self.buffers.push((key, buffer));
        Ok(())
    }

    fn buffer(&self, key: (Role, MemoryKind, u64)) -> Result<&Buffer> {
        let key = stored(key);
        self.buffers
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, b)| b)
            .ok_or_else(|| Error::InvalidArgument("a copy buffer was not prepared".into()))
    }

    /// The case being measured.
    fn case(&self) -> Result<Case> {
        self.current
            .clone()
            .ok_or_else(|| Error::InvalidArgument("no copy case was selected".into()))
    }
}

/// The host's memory of `bytes` bytes in `list` for case `id`, made (filled with the source
/// data) unless it exists. The allocation is fallible: a host that cannot give that much makes
/// the case [`Error::Unsupported`] (skipped with the reason), never ends the process.
fn host_bytes<'a>(list: &'a mut Vec<(u64, Vec<u8>)>, bytes: u64, id: &str) -> Result<&'a mut [u8]> {
    let at = match list.iter().position(|(b, _)| *b == bytes) {
        Some(i) => i,
        None => {
            let unavailable = || Error::Unsupported {
                id: id.to_string(),
                reason: format!(
                    "the host cannot allocate its {} MiB transfer buffer",
                    bytes.div_ceil(1 << 20)
                ),
            };
            let len = usize::try_from(bytes).map_err(|_| unavailable())?;
            let mut data = Vec::new();
            data.try_reserve_exact(len).map_err(|_| unavailable())?;
            data.resize(len, 0u8);
            fill_source(&mut data);
            list.push((bytes, data));
            list.len() - 1
        }
    };
    Ok(&mut list[at].1)
}

impl FamilyResources for Copies {
    fn prepare(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        let bytes = case.params.working_set;
        let (source, destination) = kinds(case, &ctx.caps);
        match source {
            Some(kind) => self.ensure_buffer(ctx, (Role::Source, kind, bytes), &case.id)?,
            None => drop(host_bytes(&mut self.host_source, bytes, &case.id)?),
        }
        match destination {
            Some(kind) => self.ensure_buffer(ctx, (Role::Destination, kind, bytes), &case.id)?,
            None => drop(host_bytes(&mut self.host_destination, bytes, &case.id)?),
        }
        match method(case).1 {
            Method::Staged => drop(host_bytes(&mut self.host_source, bytes, &case.id)?),
            Method::CachedRead => drop(host_bytes(&mut self.host_destination, bytes, &case.id)?),
            Method::TransferQueue if self.transfer.is_none() => {
                self.transfer = Some(Submitter::new(ctx, Queue::Transfer)?);
            }
            Method::Shader if self.shader.is_none() => {
                self.shader = Some(AddressKernel::new(ctx, SPIRV)?);
            }
            _ => {}
        }
        Ok(())
    }

    fn bindings(&self, _case: &Case) -> Option<Vec<Bind>> {
        Some(Vec::new())
    }

    fn operation(&mut self, case: &Case) -> Option<&mut dyn Operation> {
        self.current = Some(case.clone());
        Some(self)
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for submitter in [self.compute.as_mut(), self.transfer.as_mut()]
            .into_iter()
            .flatten()
        {
            if !submitter.settle(ctx) {
                return;
            }
            submitter.destroy(&ctx.device);
        }
        if let Some(k) = self.shader.as_mut() {
            k.destroy(&ctx.device);
        }
        for (_, b) in &mut self.buffers {
            ctx.destroy_buffer(b);
        }
        self.buffers.clear();
        self.host_source.clear();
        self.host_destination.clear();
    }
}

impl Operation for Copies {
    fn time(
        &mut self,
        ctx: &mut Context,
        count: u64,
        runs: u32,
    ) -> Result<Vec<std::time::Duration>> {
        let case = self.case()?;
        if method(&case).1.host_timed() {
            self.time_on_host(ctx, &case, count, runs)
        } else {
            self.time_on_gpu(ctx, &case, count, runs)
        }
    }

    fn readback(&mut self, ctx: &mut Context) -> Result<Readback> {
        let case = self.case()?;
        self.poison(ctx, &case)?;
        self.time(ctx, 1, 1)?;
        Ok(Readback {
            sums: Vec::new(),
            written: self.final_destination(ctx, &case)?,
        })
    }
}
