//! Vertex fetch (graphics suite): draws with rasterization discarded, so only the vertex stage
//! runs. Each vertex reads its 1-4 attributes either through the input assembler (vertex
//! buffers, interleaved in one stream or one stream per attribute, indexed with 16- or 32-bit
//! indices or not) or by pulling the same bytes from a storage buffer in the vertex shader
//! (`StructuredBuffer` of the attribute type, `ByteAddressBuffer` words decoded by hand, or a
//! buffer device address), `shaders/vertex_fetch.vert`. A draw's instance is 256 vertices (one
//! group): 256 vertices of data (at most 16 KB, like the original's input), read again by every
//! instance. Verified through the output buffer, which the vertex shader writes when verifying
//! (`vertexPipelineStoresAndAtomics`).
//!
//! Params: `width` = attributes; `variant` = [`Layout::variant`] (format, path, streams,
//! indices).

use crate::case::{Case, Params, Pattern};
use crate::family::{Family, FamilyRef, Unit, Work};
use crate::feature::Feature;
use crate::mip::half_bits;
use crate::reference::{KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The vertex-fetch family.
pub struct VertexFetch;

/// Vertices in one instance (one group): the data every instance reads.
pub const VERTICES: u32 = 256;

/// The format of every attribute of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexFormat {
    /// `VK_FORMAT_R8G8B8A8_UNORM`.
    Rgba8,
    /// `VK_FORMAT_R16G16B16A16_SFLOAT`.
    Rgba16f,
    /// `VK_FORMAT_R32G32B32_SFLOAT` (the input assembler supplies w = 1).
    Rgb32f,
    /// `VK_FORMAT_R32G32B32A32_SFLOAT`.
    Rgba32f,
}

impl VertexFormat {
    /// Every format, in the suite's order.
    pub const ALL: [VertexFormat; 4] = [
        VertexFormat::Rgba8,
        VertexFormat::Rgba16f,
        VertexFormat::Rgb32f,
        VertexFormat::Rgba32f,
    ];

    /// Bytes of one attribute.
    pub fn bytes(self) -> u32 {
        match self {
            VertexFormat::Rgba8 => 4,
            VertexFormat::Rgba16f => 8,
            VertexFormat::Rgb32f => 12,
            VertexFormat::Rgba32f => 16,
        }
    }

    /// Components stored (the fourth of RGB32F is the input assembler's 1).
    pub fn components(self) -> u32 {
        match self {
            VertexFormat::Rgb32f => 3,
            _ => 4,
        }
    }

    /// The word ids and names use (`rgba8`).
    pub fn token(self) -> &'static str {
        match self {
            VertexFormat::Rgba8 => "rgba8",
            VertexFormat::Rgba16f => "rgba16f",
            VertexFormat::Rgb32f => "rgb32f",
            VertexFormat::Rgba32f => "rgba32f",
        }
    }

    /// The name reports use (`RGBA8`).
    pub fn name(self) -> &'static str {
        match self {
            VertexFormat::Rgba8 => "RGBA8",
            VertexFormat::Rgba16f => "RGBA16F",
            VertexFormat::Rgb32f => "RGB32F",
            VertexFormat::Rgba32f => "RGBA32F",
        }
    }

    /// The value of the shaders' `FORMAT` constant (its index in [`VertexFormat::ALL`]).
    pub fn index(self) -> u32 {
        match self {
            VertexFormat::Rgba8 => 0,
            VertexFormat::Rgba16f => 1,
            VertexFormat::Rgb32f => 2,
            VertexFormat::Rgba32f => 3,
        }
    }
}

/// How the vertex shader gets its attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Path {
    /// Vertex buffers through the input assembler (fixed-function fetch).
    InputAssembler,
    /// Pulled from a storage buffer of the attribute's type (`StructuredBuffer<T>`).
    Structured,
    /// Pulled as 32-bit words from a storage buffer and decoded (`ByteAddressBuffer`).
    Raw,
    /// Pulled through a buffer device address (`T*`).
    Address,
}

/// Which vertices a draw reads and how they are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Indices {
    /// `vkCmdDraw`: vertices 0..256 of every instance.
    None,
    /// `vkCmdDrawIndexed` with 16-bit indices 0..256 (in order: each vertex once).
    U16,
    /// `vkCmdDrawIndexed` with 32-bit indices 0..256.
    U32,
}

/// Everything a vertex-fetch case varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The attributes' format.
    pub format: VertexFormat,
    /// Attributes per vertex, 1-4.
    pub attributes: u32,
    /// Where the attributes come from.
    pub path: Path,
    /// One stream per attribute (input assembler only) rather than one interleaved stream.
    pub separate: bool,
    /// Indexed or not.
    pub indices: Indices,
}

const PATHS: [Path; 4] = [
    Path::InputAssembler,
    Path::Structured,
    Path::Raw,
    Path::Address,
];
const INDICES: [Indices; 3] = [Indices::None, Indices::U16, Indices::U32];

impl Layout {
    /// The layout's encoding in [`Params::variant`]: format, path, index kind and streams in
    /// bits 0-1, 2-3, 4-5 and 6.
    pub fn variant(&self) -> u32 {
        let path = PATHS.iter().position(|&p| p == self.path).unwrap_or(0) as u32;
        let indices = INDICES.iter().position(|&i| i == self.indices).unwrap_or(0) as u32;
        self.format.index() | path << 2 | indices << 4 | u32::from(self.separate) << 6
    }

    /// Bytes from one vertex to the next in a stream.
    pub fn stride(&self) -> u32 {
        if self.separate {
            self.format.bytes()
        } else {
            self.format.bytes() * self.attributes
        }
    }
}

/// The layout of a case of this family.
pub fn layout(case: &Case) -> Layout {
    let v = case.params.variant;
    Layout {
        format: VertexFormat::ALL[(v & 3) as usize],
        attributes: case.params.width.clamp(1, 4),
        path: PATHS[((v >> 2) & 3) as usize],
        indices: INDICES[(((v >> 4) & 3) as usize).min(2)],
        separate: (v >> 6) & 1 == 1,
    }
}

/// Component `c` of attribute `a` of vertex `v`, as the shader sees it: values exact in every
/// format (UNORM8 n/255, halves and floats n/64), never zero.
pub fn value(format: VertexFormat, v: u32, a: u32, c: u32) -> f32 {
    if c >= format.components() {
        return 1.0;
    }
    let n = (v * 37 + a * 101 + c * 59 + 13) % 251 + 1;
    match format {
        VertexFormat::Rgba8 => n as f32 / 255.0,
        _ => n as f32 / 64.0,
    }
}

/// The stored bytes of component `c` of attribute `a` of vertex `v`.
fn component_bytes(format: VertexFormat, v: u32, a: u32, c: u32) -> Vec<u8> {
    let n = (v * 37 + a * 101 + c * 59 + 13) % 251 + 1;
    match format {
        VertexFormat::Rgba8 => vec![n as u8],
        VertexFormat::Rgba16f => half_bits(n as f32 / 64.0).to_le_bytes().to_vec(),
        _ => (n as f32 / 64.0).to_le_bytes().to_vec(),
    }
}

/// The bytes of stream `stream` of `layout` ([`VERTICES`] vertices; interleaved layouts have
/// one stream, separate ones one per attribute).
pub fn stream_bytes(layout: &Layout, stream: u32) -> Vec<u8> {
    let attributes: Vec<u32> = if layout.separate {
        vec![stream]
    } else {
        (0..layout.attributes).collect()
    };
    (0..VERTICES)
        .flat_map(|v| {
            attributes.iter().flat_map(move |&a| {
                (0..layout.format.components())
                    .flat_map(move |c| component_bytes(layout.format, v, a, c))
            })
        })
        .collect()
}

/// The streams a layout binds.
pub fn streams(layout: &Layout) -> u32 {
    if layout.separate {
        layout.attributes
    } else {
        1
    }
}

impl Family for VertexFetch {
    fn label(&self) -> &'static str {
        "vertex_fetch"
    }

    fn title(&self) -> &'static str {
        "Vertex fetch"
    }

    fn cases(&self) -> Vec<Case> {
        let mut layouts = Vec::new();
        for format in VertexFormat::ALL {
            let base = Layout {
                format,
                attributes: 1,
                path: Path::InputAssembler,
                separate: false,
                indices: Indices::None,
            };
            for attributes in 1..=4 {
                layouts.push(Layout { attributes, ..base });
            }
            for attributes in [2, 4] {
                layouts.push(Layout {
                    attributes,
                    separate: true,
                    ..base
                });
            }
            for indices in [Indices::U16, Indices::U32] {
                for attributes in [1, 4] {
                    layouts.push(Layout {
                        attributes,
                        indices,
                        ..base
                    });
                }
            }
            for path in [Path::Structured, Path::Raw, Path::Address] {
                for attributes in [1, 4] {
                    layouts.push(Layout {
                        attributes,
                        path,
                        ..base
                    });
                }
            }
            layouts.push(Layout {
                attributes: 4,
                path: Path::Structured,
                indices: Indices::U32,
                ..base
            });
        }
        layouts.iter().map(case_of).collect()
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        let l = layout(case);
        l.format.bytes() * l.attributes
    }

    fn work(&self, _case: &Case) -> Work {
        Work {
            unit: Unit::Vertex,
            per_thread: 1,
        }
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = vec![
            DeviceNeed::GraphicsQueue,
            DeviceNeed::Feature(Feature::VertexPipelineStores),
        ];
        if layout(case).path == Path::Address {
            needs.push(DeviceNeed::Feature(Feature::BufferDeviceAddress));
        }
        needs
    }

    fn constants(&self, case: &Case) -> [u32; 3] {
        [layout(case).format.index(), 0, 0]
    }

    fn reference(&self, case: &Case, _params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let l = layout(case);
        let v = local[0] % VERTICES;
        let mut r = ReferenceSum {
            sum: [0.0; 4],
            abs_sum: [0.0; 4],
        };
        for a in 0..l.attributes {
            for c in 0..4 {
                let x = value(l.format, v, a, c);
                r.sum[c as usize] += x;
                r.abs_sum[c as usize] += x.abs();
            }
        }
        r
    }
}

/// The case of `layout`.
fn case_of(layout: &Layout) -> Case {
    let f = layout.format;
    let n = layout.attributes;
    let (id, name) = match layout.path {
        Path::InputAssembler => {
            let how = match (layout.separate, layout.indices) {
                (true, _) => "separate",
                (false, Indices::None) => "interleaved",
                (false, Indices::U16) => "indexed16",
                (false, Indices::U32) => "indexed32",
            };
            (
                format!("vertex.input.{}.x{n}.{how}", f.token()),
                format!("Vertex input {}x{n} {how}", f.name()),
            )
        }
        path => {
            let (word, title) = match path {
                Path::Structured => ("structured", "StructuredBuffer"),
                Path::Raw => ("raw", "ByteAddressBuffer"),
                _ => ("address", "device address"),
            };
            let how = match layout.indices {
                Indices::None => "",
                Indices::U16 => " indexed16",
                Indices::U32 => " indexed32",
            };
            (
                format!(
                    "vertex.pull.{word}.{}.x{n}{}",
                    f.token(),
                    how.replace(' ', ".")
                ),
                format!("Vertex pull {title} {}x{n}{how}", f.name()),
            )
        }
    };
    Case {
        id,
        name,
        suite: Suite::Graphics,
        family: FamilyRef(&VertexFetch),
        params: Params {
            width: n,
            variant: layout.variant(),
            ..Params::default()
        },
        pattern: Pattern::Linear,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn layouts_survive_their_encoding() {
        let cases = VertexFetch.cases();
        assert_eq!(cases.len(), 68);
        let mut seen = HashSet::new();
        for case in &cases {
            let l = layout(case);
            assert_eq!(case_of(&l), *case);
            assert!(seen.insert(l), "{} twice", case.id);
            assert!(!(l.separate && l.path != Path::InputAssembler));
        }
    }

    #[test]
    fn streams_hold_every_vertex_once() {
        let l = Layout {
            format: VertexFormat::Rgb32f,
            attributes: 3,
            path: Path::InputAssembler,
            separate: false,
            indices: Indices::None,
        };
        let bytes = stream_bytes(&l, 0);
        assert_eq!(bytes.len() as u32, VERTICES * l.stride());
        // Vertex 5, attribute 2, component 1 of the interleaved stream.
        let at = (5 * l.stride() + 2 * 12 + 4) as usize;
        let x = f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        assert_eq!(x, value(l.format, 5, 2, 1));
        let separate = Layout {
            separate: true,
            ..l
        };
        let stream = stream_bytes(&separate, 2);
        assert_eq!(&stream[5 * 12 + 4..5 * 12 + 8], &bytes[at..at + 4]);
    }

    #[test]
    fn the_model_sums_attributes_and_fills_w() {
        let case = VertexFetch
            .cases()
            .into_iter()
            .find(|c| c.id == "vertex.input.rgb32f.x2.interleaved")
            .expect("the case exists");
        let r = VertexFetch.reference(&case, KernelParams::default(), [7, 0]);
        assert_eq!(r.sum[3], 2.0);
        assert_eq!(
            r.sum[0],
            value(VertexFormat::Rgb32f, 7, 0, 0) + value(VertexFormat::Rgb32f, 7, 1, 0)
        );
        let other = VertexFetch.reference(&case, KernelParams::default(), [8, 0]);
        assert_ne!(r.sum, other.sum);
    }

    #[test]
    fn values_are_exact_in_their_formats() {
        for v in 0..VERTICES {
            for c in 0..4 {
                let x = value(VertexFormat::Rgba16f, v, 1, c);
                let h = half_bits(x);
                assert_eq!(crate::format::half_to_f32(h), x);
                assert!(value(VertexFormat::Rgba8, v, 1, c) > 0.0);
            }
        }
    }
}
