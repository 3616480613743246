//! The resources shared by every case — the 16 KB input buffer and the verification output
//! buffer — and each family's own resources, created when the family's first case is
//! prepared. The building blocks families make their resources from are in
//! `building_blocks`.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::{input_bytes, Case, INPUT_BYTES, MAX_VERIFY_THREADS};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::families::plan_for;
use crate::graphics::RenderTarget;
use crate::memory::Buffer;
use crate::operation::Operation;
use crate::plan::{Bind, FamilyResources, Geometry, Shared, VertexInput};

/// Everything the kernels bind: shared parts, and the resources of every family prepared so
/// far.
pub(crate) struct Resources {
    /// The 16 KB input buffer the buffer families read (typed views and storage bindings of
    /// one buffer, as in the original; the uniform-buffer and constant-path families keep
    /// copies of their own, at several places). Created first, before any other resource, so
    /// it lands where it always did (its uniform usage too, which no family binds any more).
    pub(crate) input: Buffer,
    pub(crate) output: Buffer,
    families: Vec<(&'static str, Box<dyn FamilyResources>)>,
    /// The offscreen attachment of graphics cases, made with the first of them.
    target: Option<RenderTarget>,
}

/// The case whose family's resources `case` uses: the one its family names
/// ([`perftest_cases::Family::resource_case_id`]: a fragment-shader case's compute twin), else
/// itself.
fn resource_case(case: &Case) -> Case {
    case.family
        .resource_case_id(case)
        .and_then(|id| perftest_cases::case_for_id(&id))
        .unwrap_or_else(|| case.clone())
}

impl Resources {
    /// Reads the format support and creates the verification output buffer; no family's
    /// resources yet (see [`Resources::ensure`]).
    pub(crate) fn new(ctx: &mut Context) -> Result<Self> {
        let input = input_buffer(ctx)?;
        let output = ctx.create_buffer(
            "verification output",
            u64::from(MAX_VERIFY_THREADS) * 16,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryLocation::GpuToCpu,
        )?;
        Ok(Resources {
            input,
            output,
            families: Vec::new(),
            target: None,
        })
    }

    /// Creates the resources of `case`'s family unless they exist already, then what `case`
    /// alone needs.
    pub(crate) fn ensure(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        if plan_for(case)?.stages.is_graphics() && self.target.is_none() {
            self.target = Some(RenderTarget::new(ctx)?);
        }
        let case = &resource_case(case);
        let label = case.family.label();
        if !self.families.iter().any(|(l, _)| *l == label) {
            let plan = plan_for(case)?;
            let caps = ctx.caps;
            let shared = Shared {
                caps: &caps,
                input: self.input.buffer,
            };
            let made = (plan.create)(ctx, &shared)?;
            self.families.push((label, made));
        }
        match self.families.iter_mut().find(|(l, _)| *l == label) {
            Some((_, family)) => family.prepare(ctx, case),
            None => Ok(()),
        }
    }

    /// The resources of `case`'s family (they must exist); a case with a compute twin uses the
    /// twin's.
    fn family(&self, case: &Case) -> Result<&dyn FamilyResources> {
        let label = case.family.label();
        self.families
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, r)| r.as_ref())
            .ok_or_else(|| Error::Unsupported {
                id: case.id.clone(),
                reason: format!("the {label} resources for this case are not available"),
            })
    }

    /// The bindings of `case`'s kernel besides the verification output, with its data at
    /// place `place` (see [`Resources::data_places`]).
    pub(crate) fn bindings(&self, case: &Case, place: usize) -> Result<Vec<Bind>> {
        let case = &resource_case(case);
        self.family(case)?
            .bindings_at(case, place)
            .ok_or_else(|| Error::Unsupported {
                id: case.id.clone(),
                reason: format!(
                    "the {} resources for this case are not available",
                    case.family.label()
                ),
            })
    }

    /// The byte offsets of the places `case`'s data lies at in its buffer (one for most
    /// families).
    pub(crate) fn data_places(&self, case: &Case) -> Result<Vec<u64>> {
        let case = &resource_case(case);
        Ok(self.family(case)?.data_places(case))
    }

    /// The family words of `case`'s push constants.
    pub(crate) fn push(&self, case: &Case) -> Result<[u32; 4]> {
        let case = &resource_case(case);
        Ok(self.family(case)?.push(case))
    }

    /// The buffer `case`'s kernel writes and the bytes verification reads back, if any.
    pub(crate) fn written(&self, case: &Case) -> Result<Option<(vk::Buffer, u64)>> {
        let case = &resource_case(case);
        Ok(self.family(case)?.written(case))
    }

    /// What a draw of `case` binds (graphics cases).
    pub(crate) fn geometry(&self, case: &Case) -> Result<Geometry> {
        let case = &resource_case(case);
        Ok(self.family(case)?.geometry(case))
    }

    /// The vertex input state of `case`'s pipeline (graphics cases).
    pub(crate) fn vertex_input(&self, case: &Case) -> Result<VertexInput> {
        let case = &resource_case(case);
        Ok(self.family(case)?.vertex_input(case))
    }

    /// The operation of `case`, a case of a [`crate::plan::Stages::Operation`] family.
    pub(crate) fn operation(&mut self, case: &Case) -> Result<&mut dyn Operation> {
        let label = case.family.label();
        let missing = || Error::Unsupported {
            id: case.id.clone(),
            reason: format!("the {label} family has no operation for this case"),
        };
        let family = self.families.iter_mut().find(|(l, _)| *l == label);
        family
            .and_then(|(_, r)| r.operation(case))
            .ok_or_else(missing)
    }

    /// The attachment graphics cases draw into (created with the first graphics case).
    pub(crate) fn target(&self, case: &Case) -> Result<&RenderTarget> {
        self.target.as_ref().ok_or_else(|| Error::Unsupported {
            id: case.id.clone(),
            reason: "the attachment graphics cases draw into was not created".into(),
        })
    }

    /// Destroys everything; only call after `ctx.settle()` returned true.
    pub(crate) fn destroy(&mut self, ctx: &mut Context) {
        for (_, family) in &mut self.families {
            family.destroy(ctx);
        }
        self.families.clear();
        if let Some(target) = self.target.as_mut() {
            target.destroy(ctx);
        }
        self.target = None;
        ctx.destroy_buffer(&mut self.input);
        ctx.destroy_buffer(&mut self.output);
    }
}

/// Creates the 16 KB input buffer (storage, uniform and uniform-texel usage) and uploads the
/// input data.
fn input_buffer(ctx: &mut Context) -> Result<Buffer> {
    let buffer = ctx.create_buffer(
        "input buffer",
        INPUT_BYTES as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST,
        MemoryLocation::GpuOnly,
    )?;
    ctx.filled(buffer, input_bytes())
}
