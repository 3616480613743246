//! `vertex_fetch`: the vertex data of each layout (its streams, made when its first case is
//! prepared), 16- and 32-bit index buffers, the input-assembler state and the draw.

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::families::vertex_fetch::{
    layout, stream_bytes, streams, Indices, Layout, Path, VertexFormat, VERTICES,
};
use perftest_cases::{Case, Feature};

use crate::building_blocks::create_family;
use crate::context::Context;
use crate::error::Result;
use crate::memory::Buffer;
use crate::plan::{Bind, FamilyResources, Geometry, Plan, Shared, Stages, VertexInput};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "vertex_fetch",
    spirv,
    create,
    push_bytes: 32,
    stages: Stages::Vertex,
};

/// The vertex shader of a case.
fn spirv(case: &Case) -> &'static [u8] {
    let l = layout(case);
    match (l.path, l.format, l.attributes) {
        (Path::InputAssembler, _, 1) => include_bytes!("../../spirv/vertex_input_1.spv"),
        (Path::InputAssembler, _, 2) => include_bytes!("../../spirv/vertex_input_2.spv"),
        (Path::InputAssembler, _, 3) => include_bytes!("../../spirv/vertex_input_3.spv"),
        (Path::InputAssembler, _, _) => include_bytes!("../../spirv/vertex_input_4.spv"),
        (Path::Raw, _, _) => include_bytes!("../../spirv/vertex_pull_raw.spv"),
        (Path::Structured, VertexFormat::Rgba8, _) => {
            include_bytes!("../../spirv/vertex_pull_structured_rgba8.spv")
        }
        (Path::Structured, VertexFormat::Rgba16f, _) => {
            include_bytes!("../../spirv/vertex_pull_structured_rgba16f.spv")
        }
        (Path::Structured, VertexFormat::Rgb32f, _) => {
            include_bytes!("../../spirv/vertex_pull_structured_rgb32f.spv")
        }
        (Path::Structured, VertexFormat::Rgba32f, _) => {
            include_bytes!("../../spirv/vertex_pull_structured_rgba32f.spv")
        }
        (Path::Address, VertexFormat::Rgba8, _) => {
            include_bytes!("../../spirv/vertex_pull_address_rgba8.spv")
        }
        (Path::Address, VertexFormat::Rgba16f, _) => {
            include_bytes!("../../spirv/vertex_pull_address_rgba16f.spv")
        }
        (Path::Address, VertexFormat::Rgb32f, _) => {
            include_bytes!("../../spirv/vertex_pull_address_rgb32f.spv")
        }
        (Path::Address, VertexFormat::Rgba32f, _) => {
            include_bytes!("../../spirv/vertex_pull_address_rgba32f.spv")
        }
    }
}

/// The Vulkan format of an attribute.
fn vk_format(format: VertexFormat) -> vk::Format {
    match format {
        VertexFormat::Rgba8 => vk::Format::R8G8B8A8_UNORM,
        VertexFormat::Rgba16f => vk::Format::R16G16B16A16_SFLOAT,
        VertexFormat::Rgb32f => vk::Format::R32G32B32_SFLOAT,
        VertexFormat::Rgba32f => vk::Format::R32G32B32A32_SFLOAT,
    }
}

/// One layout's streams (and the device address of the first, where the device has them).
struct Streams {
    layout: Layout,
    buffers: Vec<Buffer>,
    address: Option<u64>,
}

/// The family's buffers.
struct VertexData {
    /// Indices 0..256, 16-bit and 32-bit.
    indices: [Option<Buffer>; 2],
    /// The streams of every layout prepared so far.
    streams: Vec<Streams>,
}

impl VertexData {
    /// The streams of `case`'s layout, once prepared.
    fn streams(&self, case: &Case) -> Option<&Streams> {
        let l = layout(case);
        // The index kind changes no byte of the vertex data.
        let key = |s: &Layout| (s.format, s.attributes, s.path, s.separate);
        self.streams.iter().find(|s| key(&s.layout) == key(&l))
    }
}

/// A buffer of `bytes` with `usage` (and transfers to it), filled.
fn filled_buffer(
    ctx: &mut Context,
    what: &'static str,
    bytes: &[u8],
    mut usage: vk::BufferUsageFlags,
) -> Result<Buffer> {
    usage |= vk::BufferUsageFlags::TRANSFER_DST;
    let buffer = ctx.create_buffer(what, bytes.len() as u64, usage, MemoryLocation::GpuOnly)?;
    ctx.filled(buffer, bytes)
}

/// Creates the index buffers (the streams come with each layout's first case).
fn create(ctx: &mut Context, _: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    let empty = VertexData {
        indices: [None, None],
        streams: Vec::new(),
    };
    create_family(ctx, empty, |r, ctx| {
        let u16s: Vec<u8> = (0..VERTICES as u16).flat_map(u16::to_le_bytes).collect();
        let u32s: Vec<u8> = (0..VERTICES).flat_map(u32::to_le_bytes).collect();
        let usage = vk::BufferUsageFlags::INDEX_BUFFER;
        r.indices[0] = Some(filled_buffer(ctx, "16-bit indices", &u16s, usage)?);
        r.indices[1] = Some(filled_buffer(ctx, "32-bit indices", &u32s, usage)?);
        Ok(())
    })
}

impl FamilyResources for VertexData {
    fn prepare(&mut self, ctx: &mut Context, case: &Case) -> Result<()> {
        if self.streams(case).is_some() {
            return Ok(());
        }
        let l = layout(case);
        let mut usage = vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::STORAGE_BUFFER;
        let with_address = ctx.caps.has(Feature::BufferDeviceAddress);
        if with_address {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let mut made = Streams {
            layout: l,
            buffers: Vec::new(),
            address: None,
        };
        for stream in 0..streams(&l) {
            match filled_buffer(ctx, "vertex data", &stream_bytes(&l, stream), usage) {
                Ok(buffer) => made.buffers.push(buffer),
                Err(e) => {
                    if ctx.settle() {
                        for b in &mut made.buffers {
                            ctx.destroy_buffer(b);
                        }
                    }
                    return Err(e);
                }
            }
        }
        made.address = made
            .buffers
            .first()
            .filter(|_| with_address)
            .map(|b| ctx.buffer_address(b));
        self.streams.push(made);
        Ok(())
    }

    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        let s = self.streams(case)?;
        match s.layout.path {
            Path::Structured | Path::Raw => Some(vec![Bind::buffer(
                0,
                vk::DescriptorType::STORAGE_BUFFER,
                s.buffers.first()?.buffer,
            )]),
            Path::Address => s.address.map(|_| Vec::new()),
            Path::InputAssembler => Some(Vec::new()),
        }
    }

    fn push(&self, case: &Case) -> [u32; 4] {
        match self.streams(case).and_then(|s| s.address) {
            Some(a) if layout(case).path == Path::Address => [a as u32, (a >> 32) as u32, 0, 0],
            _ => [0; 4],
        }
    }

    fn geometry(&self, case: &Case) -> Geometry {
        let l = layout(case);
        let streams = match (l.path, self.streams(case)) {
            (Path::InputAssembler, Some(s)) => s.buffers.iter().map(|b| b.buffer).collect(),
            _ => Vec::new(),
        };
        let index = match l.indices {
            Indices::None => None,
            Indices::U16 => self.indices[0]
                .as_ref()
                .map(|b| (b.buffer, vk::IndexType::UINT16)),
            Indices::U32 => self.indices[1]
                .as_ref()
                .map(|b| (b.buffer, vk::IndexType::UINT32)),
        };
        Geometry {
            vertices: VERTICES,
            streams,
            index,
        }
    }

    fn vertex_input(&self, case: &Case) -> VertexInput {
        let l = layout(case);
        if l.path != Path::InputAssembler {
            return VertexInput::default();
        }
        let bindings = (0..streams(&l))
            .map(|binding| vk::VertexInputBindingDescription {
                binding,
                stride: l.stride(),
                input_rate: vk::VertexInputRate::VERTEX,
            })
            .collect();
        let attributes = (0..l.attributes)
            .map(|a| vk::VertexInputAttributeDescription {
                location: a,
                binding: if l.separate { a } else { 0 },
                format: vk_format(l.format),
                offset: if l.separate { 0 } else { a * l.format.bytes() },
            })
            .collect();
        VertexInput {
            bindings,
            attributes,
        }
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for b in self.indices.iter_mut().flatten() {
            ctx.destroy_buffer(b);
        }
        for s in &mut self.streams {
            for b in &mut s.buffers {
                ctx.destroy_buffer(b);
            }
        }
        self.streams.clear();
    }
}
