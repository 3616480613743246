//! How a family's kernels are built and bound: the [`Plan`] each family declares, the
//! bindings and draw geometry its resources answer with ([`FamilyResources`]), and what every
//! family's resources may use ([`Shared`]). The families and the code that builds, dispatches
//! and verifies kernels both read these types; the registry of every family's plan is
//! `families`.

use ash::vk;
use perftest_cases::{Case, DeviceCaps};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::operation::Operation;

/// The descriptors of one binding, in the form their descriptor write needs (one entry per
/// array element; a plain binding has one).
#[derive(Clone, Debug)]
pub(crate) enum Descriptors {
    /// Buffers or buffer ranges (`STORAGE_BUFFER`, `UNIFORM_BUFFER`).
    Buffers(Vec<vk::DescriptorBufferInfo>),
    /// Texel buffer views (`UNIFORM_TEXEL_BUFFER`).
    TexelBuffers(Vec<vk::BufferView>),
    /// Images with their samplers (`COMBINED_IMAGE_SAMPLER`), in `SHADER_READ_ONLY_OPTIMAL`;
    /// sampled images alone (`SAMPLED_IMAGE`, no sampler) in the same layout; samplers alone
    /// (`SAMPLER`, no image); or storage images (`STORAGE_IMAGE`, no sampler) in `GENERAL`.
    Images(Vec<vk::DescriptorImageInfo>),
}

impl Descriptors {
    /// Array elements in the binding.
    pub(crate) fn count(&self) -> u32 {
        let n = match self {
            Descriptors::Buffers(v) => v.len(),
            Descriptors::TexelBuffers(v) => v.len(),
            Descriptors::Images(v) => v.len(),
        };
        u32::try_from(n).unwrap_or(u32::MAX)
    }
}

/// One binding of set 0 that a family's kernel reads or writes (binding 1 is always the
/// verification output and belongs to no family).
#[derive(Clone, Debug)]
pub(crate) struct Bind {
    /// The binding number in the family's GLSL.
    pub(crate) binding: u32,
    /// Its descriptor type.
    pub(crate) ty: vk::DescriptorType,
    /// What it holds.
    pub(crate) descriptors: Descriptors,
}

impl Bind {
    /// A whole buffer at `binding`.
    pub(crate) fn buffer(binding: u32, ty: vk::DescriptorType, buffer: vk::Buffer) -> Bind {
        Bind::ranges(binding, ty, buffer, &[(0, vk::WHOLE_SIZE)])
    }

    /// An array of ranges (`(offset, size)`) of one buffer at `binding`.
    pub(crate) fn ranges(
        binding: u32,
        ty: vk::DescriptorType,
        buffer: vk::Buffer,
        ranges: &[(u64, u64)],
    ) -> Bind {
        let infos = ranges
            .iter()
            .map(|&(offset, range)| vk::DescriptorBufferInfo {
                buffer,
                offset,
                range,
            })
            .collect();
        Bind {
            binding,
            ty,
            descriptors: Descriptors::Buffers(infos),
        }
    }

    /// An array of sampled images, each with its sampler, at `binding`.
    pub(crate) fn images(binding: u32, images: &[(vk::ImageView, vk::Sampler)]) -> Bind {
        let infos = images
            .iter()
            .map(|&(image_view, sampler)| vk::DescriptorImageInfo {
                sampler,
                image_view,
                image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            })
            .collect();
        Bind {
            binding,
            ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            descriptors: Descriptors::Images(infos),
        }
    }

    /// One sampled image without a sampler (`SAMPLED_IMAGE`, a GLSL `texture2D`) at
    /// `binding`.
    pub(crate) fn sampled_image(binding: u32, view: vk::ImageView) -> Bind {
        Bind {
            binding,
            ty: vk::DescriptorType::SAMPLED_IMAGE,
            descriptors: Descriptors::Images(vec![vk::DescriptorImageInfo {
                sampler: vk::Sampler::null(),
                image_view: view,
                image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            }]),
        }
    }

    /// One sampler on its own (`SAMPLER`, a GLSL `sampler`) at `binding`.
    pub(crate) fn sampler(binding: u32, sampler: vk::Sampler) -> Bind {
        Bind {
            binding,
            ty: vk::DescriptorType::SAMPLER,
            descriptors: Descriptors::Images(vec![vk::DescriptorImageInfo {
                sampler,
                image_view: vk::ImageView::null(),
                image_layout: vk::ImageLayout::UNDEFINED,
            }]),
        }
    }
}

/// One family's resources on one device.
pub(crate) trait FamilyResources: Send + Sync {
    /// Creates what `case` alone needs (e.g. a working set of its size) unless it exists;
    /// called for every case before its pipeline is built. Default: nothing.
    fn prepare(&mut self, _ctx: &mut Context, _case: &Case) -> Result<()> {
        Ok(())
    }

    /// The bindings `case`'s kernel uses besides the verification output; `None` when the
    /// device lacks what they need.
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>>;

    /// The places the data `case` reads lies at, each an identical copy: their byte offsets in
    /// the buffer that holds them ([`FamilyResources::bindings_at`] binds one). Default: one
    /// place.
    fn data_places(&self, _case: &Case) -> Vec<u64> {
        vec![0]
    }

    /// The bindings of `case` with its data at place `place` of
    /// [`FamilyResources::data_places`]; default: [`FamilyResources::bindings`].
    fn bindings_at(&self, case: &Case, _place: usize) -> Option<Vec<Bind>> {
        self.bindings(case)
    }

    /// The four family words of the push constants (bytes 16..32: e.g. a device address, low
    /// word first); default zeros.
    fn push(&self, _case: &Case) -> [u32; 4] {
        [0; 4]
    }

    /// The buffer `case`'s kernel writes (stores, atomics) and how many of its bytes
    /// verification reads back: cleared to zero before a verification dispatch. Default:
    /// none.
    fn written(&self, _case: &Case) -> Option<(vk::Buffer, u64)> {
        None
    }

    /// What a draw of `case` binds and how many vertices one instance (one group) has: for
    /// [`Stages::Vertex`] families. Default: the 16x16 tile of [`Stages::Fragment`] cases.
    fn geometry(&self, _case: &Case) -> Geometry {
        Geometry::tile()
    }

    /// The vertex input state of `case`'s pipeline (input-assembler streams and attributes);
    /// default none.
    fn vertex_input(&self, _case: &Case) -> VertexInput {
        VertexInput::default()
    }

    /// The operation `case` names, for a family whose plan runs in [`Stages::Operation`];
    /// default none.
    fn operation(&mut self, _case: &Case) -> Option<&mut dyn Operation> {
        None
    }

    /// Destroys every object (only after `ctx.settle()` returned true; idempotent).
    fn destroy(&mut self, ctx: &mut Context);
}

/// Which shader stages a family's kernels run in, and so what kind of pipeline they build and
/// what a timed "dispatch" of N groups records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stages {
    /// A compute shader ([`Plan::spirv`]): a dispatch of N workgroups.
    Compute,
    /// A fragment shader ([`Plan::spirv`]) over 16x16 tiles of the offscreen attachment, drawn
    /// by `shaders/tiles.vert`: a draw of N instances, one tile (one group of 256 fragments)
    /// each.
    Fragment,
    /// A vertex shader ([`Plan::spirv`]) with rasterization discarded: a draw of N instances
    /// of [`FamilyResources::geometry`]'s vertices (256, one group, each).
    Vertex,
    /// No kernel: each case is an [`Operation`] of the family's resources (a copy, a write by
    /// the host, a submission), one "group" being one operation.
    Operation,
}

impl Stages {
    /// Whether the kernel is a graphics pipeline.
    pub(crate) fn is_graphics(self) -> bool {
        matches!(self, Stages::Fragment | Stages::Vertex)
    }
}

/// Creates and fills a family's resources, given what all families share (format support, the
/// input buffer).
pub(crate) type CreateResources = fn(&mut Context, &Shared<'_>) -> Result<Box<dyn FamilyResources>>;

/// The `create` of a family whose cases use another family's resources (their
/// [`perftest_cases::Family::resource_case_id`]): never called, since `Resources` looks the other
/// family up instead.
pub(crate) fn borrowed(_: &mut Context, _: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    Err(Error::InvalidArgument(
        "this family's cases use another family's resources".into(),
    ))
}

/// The `spirv` of a family whose cases run their original's kernel
/// ([`perftest_cases::Family::original`]): none of its own, since
/// [`crate::kernels::spirv_for`] runs the original's instead.
pub(crate) fn original_spirv(_: &Case) -> &'static [u8] {
    &[]
}

/// How a family's kernels are built and bound.
pub(crate) struct Plan {
    /// The family's label (`perftest_cases::Family::label`).
    pub(crate) label: &'static str,
    /// The SPIR-V module a case runs.
    pub(crate) spirv: fn(&Case) -> &'static [u8],
    /// Creates and fills the family's resources.
    pub(crate) create: CreateResources,
    /// Bytes of push constants the kernels declare: 16 (the shared words) or 32 (with the
    /// family's four words, [`FamilyResources::push`]).
    pub(crate) push_bytes: u32,
    /// The stages its kernels run in.
    pub(crate) stages: Stages,
}

/// What every family's resources may use: the device's capabilities and the shared input
/// buffer (owned by [`Resources`](crate::resources::Resources); a family never destroys it).
pub(crate) struct Shared<'a> {
    /// What the device supports (formats, features, limits).
    pub(crate) caps: &'a DeviceCaps,
    /// The 16 KB input buffer, usable as storage, uniform and uniform texel buffer.
    pub(crate) input: vk::Buffer,
}

/// Vertices of one tile: two triangles.
const TILE_VERTICES: u32 = 6;

/// What a draw binds besides the pipeline: vertex streams, an index buffer, and the vertices
/// of one instance.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    /// Vertices (or indices, when indexed) per instance.
    pub(crate) vertices: u32,
    /// Vertex buffers, bound from binding 0 at offset 0.
    pub(crate) streams: Vec<vk::Buffer>,
    /// Index buffer and index type, for indexed draws.
    pub(crate) index: Option<(vk::Buffer, vk::IndexType)>,
}

impl Geometry {
    /// The tile `shaders/tiles.vert` draws: no buffers, six vertices.
    pub(crate) fn tile() -> Geometry {
        Geometry {
            vertices: TILE_VERTICES,
            streams: Vec::new(),
            index: None,
        }
    }
}

/// A pipeline's vertex input state (input-assembler streams and attributes).
#[derive(Clone, Debug, Default)]
pub(crate) struct VertexInput {
    /// One per stream.
    pub(crate) bindings: Vec<vk::VertexInputBindingDescription>,
    /// One per attribute.
    pub(crate) attributes: Vec<vk::VertexInputAttributeDescription>,
}
