//! One benchmark case: what it reads and how.

use crate::format::Format;

/// How the threads of a workgroup pick their addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Every thread reads the same address (`htid = 0`).
    Uniform,
    /// Neighbouring threads read neighbouring elements (`htid = localIndex`).
    Linear,
    /// Threads start at a hashed offset (`htid = (localIndex * 0x3504f333) & 0xf`).
    Random,
}

impl Pattern {
    /// All patterns in the original's order.
    pub const ALL: [Pattern; 3] = [Pattern::Uniform, Pattern::Linear, Pattern::Random];

    /// The word the original printed (`uniform`).
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Uniform => "uniform",
            Pattern::Linear => "linear",
            Pattern::Random => "random",
        }
    }

    /// The value of the kernels' `PATTERN` specialization constant.
    pub fn spec_value(self) -> u32 {
        match self {
            Pattern::Uniform => 0,
            Pattern::Linear => 1,
            Pattern::Random => 2,
        }
    }
}

/// Sampler filter of a `Texture2D.Sample` case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleFilter {
    /// Point sampling.
    Nearest,
    /// Bilinear filtering (at texel centres, so the result is the texel itself).
    Bilinear,
}

/// The kind of resource a case loads from, with its family-specific parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// `Buffer<FMT>.Load`: a uniform texel buffer read with `texelFetch`.
    TypedBuffer {
        /// Format of the texel buffer view.
        format: Format,
    },
    /// `ByteAddressBuffer.LoadN`: a storage buffer of 32-bit words, `words` consecutive words
    /// per load, reinterpreted as floats.
    RawBuffer {
        /// Dwords per load (1..=4).
        words: u32,
        /// Start 4 bytes into the buffer, so 8/16-byte loads are not naturally aligned.
        unaligned: bool,
    },
    /// `StructuredBuffer<float|float2|float4>.Load`: a storage buffer of `float`/`vec2`/`vec4`.
    StructuredBuffer {
        /// Floats per element (1, 2 or 4).
        components: u32,
    },
    /// `cbuffer{float4} load`: a 16 KB uniform buffer of `vec4[1024]`.
    UniformBuffer,
    /// `Texture2D<FMT>.Load`: `texelFetch` on a 32x32 sampled image.
    TextureLoad {
        /// Format of the image.
        format: Format,
    },
    /// `Texture2D<FMT>.Sample`: `textureLod` at texel centres, LOD 0, REPEAT addressing.
    TextureSample {
        /// Format of the image.
        format: Format,
        /// Nearest or bilinear sampler.
        filter: SampleFilter,
    },
}

impl Family {
    /// The texel format, for typed buffers and textures.
    pub fn format(self) -> Option<Format> {
        match self {
            Family::TypedBuffer { format }
            | Family::TextureLoad { format }
            | Family::TextureSample { format, .. } => Some(format),
            _ => None,
        }
    }

    /// True for the two texture families (16x16 workgroups, 2D addressing).
    pub fn is_texture(self) -> bool {
        matches!(
            self,
            Family::TextureLoad { .. } | Family::TextureSample { .. }
        )
    }

    /// Components of the value one load returns before widening to four lanes.
    pub fn components(self) -> u32 {
        match self {
            Family::TypedBuffer { format }
            | Family::TextureLoad { format }
            | Family::TextureSample { format, .. } => format.components(),
            Family::RawBuffer { words, .. } => words,
            Family::StructuredBuffer { components } => components,
            Family::UniformBuffer => 4,
        }
    }

    /// Bytes one load reads from the resource.
    pub fn bytes_per_load(self) -> u32 {
        match self {
            Family::TypedBuffer { format }
            | Family::TextureLoad { format }
            | Family::TextureSample { format, .. } => format.texel_bytes(),
            Family::RawBuffer { words, .. } => 4 * words,
            Family::StructuredBuffer { components } => 4 * components,
            Family::UniformBuffer => 16,
        }
    }
}

/// One benchmark case of the suite.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Case {
    /// Stable machine-friendly id, e.g. `raw.load4.unaligned.random`.
    pub id: String,
    /// The display name the original printed, e.g. `ByteAddressBuffer.Load4 unaligned random`.
    pub name: String,
    /// Resource family and its parameters.
    pub family: Family,
    /// Access pattern.
    pub pattern: Pattern,
}

impl Case {
    /// Bytes one load reads (the unit of the bytes/s figure).
    pub fn bytes_per_load(&self) -> u32 {
        self.family.bytes_per_load()
    }

    /// Workgroup shape: `256x1` for buffers, `16x16` for textures.
    pub fn workgroup_size(&self) -> [u32; 2] {
        if self.family.is_texture() {
            [16, 16]
        } else {
            [256, 1]
        }
    }
}
