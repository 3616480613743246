//! `Texture1D`, `Texture2DArray`, `Texture3D` and `TextureCube<FMT>.Load/Sample`: the original
//! `Texture2D` kernels' loop over images of the other shapes (`shaders/texture_shape.comp`),
//! one `Load` (`texelFetch`) and one `Sample` (`textureLod` with the original's nearest REPEAT
//! sampler, LOD 0, at texel centres) case per shape, format and pattern.
//!
//! What it measures: what an image's shape costs against the original `Texture2D<FMT>.Load`
//! and `Texture2D<FMT>.Sample(nearest)` rows — the same loop, the same texel coordinates, the
//! same number of distinct texels per workgroup, only the image type, its memory layout and the
//! coordinate math change.
//!
//! Addressing, as in the original: 16x16 workgroups, a 16x16 loop per thread (`x` inner); the
//! thread's start per axis is `0` (uniform), its local id (linear) or `hash(local) & 4` with
//! `hash(x) = x * 0x3504f333` (random, the original's hash); load `(x, y)` uses the texel
//! coordinates `(ex, ey) = (start + (x, y)) | elementsMask`, each 0..=30. Each shape reads
//! them as follows:
//! - 1D: one image of 1024 texels holding the bytes of the 32x32 texture, read at texel
//!   `ey * 32 + ex` (sampled at `u = (ey * 32 + ex + 0.5) / 1024`). 1024 texels rather than
//!   32: every thread then reads exactly the texels, and values, of the `Texture2D` case (the
//!   model is the original's), and a workgroup touches as many distinct texels; only the
//!   layout differs (a 1D image is a line, so the 16x16 footprint is 16 runs of 16 texels). A
//!   32-texel image would reread one row 16 times and compare with nothing.
//! - 2D array: 32x32 x 4 layers; texel `(ex, ey)` lives in layer `ey & 3`, so every thread
//!   reads across all four layers, a wave's two rows come from two layers, and a workgroup
//!   touches as many distinct texels as the `Texture2D` case (sampled at
//!   `(uv, layer)` with `uv = (e + 0.5) / 32`).
//! - 3D: 32x32x4; texel `(ex, ey)` lives in slice `ey & 3` (sampled at
//!   `(uv, (slice + 0.5) / 4)`). Slice `k` holds layer `k` of the array's data, so the 3D rows
//!   read exactly what the array rows read: the two differ only in the image type.
//! - Cube: 6 faces of 32x32; texel `(ex, ey)` lives on face `ey % 6`. `Sample` uses the
//!   direction that hits that texel's centre: with `a = (2 ex + 1) / 32 - 1` and
//!   `b = (2 ey + 1) / 32 - 1` (the face coordinates `2s - 1`, `2t - 1`), `+X (1, -b, -a)`,
//!   `-X (-1, -b, a)`, `+Y (a, 1, b)`, `-Y (a, -1, -b)`, `+Z (a, -b, 1)`, `-Z (-a, -b, -1)`
//!   (the Vulkan face-selection table inverted, major axis 1 so no division rounds, and
//!   `|a|, |b| <= 31/32` so no face ties), a few ALU operations per sample that the other
//!   shapes do not pay. `Load` has no cube form (GLSL has no `texelFetch` on a `samplerCube`,
//!   HLSL no `TextureCube.Load`): it reads the same image through a 2D-array view of its six
//!   faces, `texelFetch(faces, (ex, ey, face))`, as engines do.
//!
//! Data: layer `k` (array layer, 3D slice, cube face) of the image of FMT holds the `k`-th
//! `32 * 32 * texel_bytes` bytes of the input stream continued past 16 KB
//! ([`crate::layered_texture_bytes`]): layer 0 is the original 32x32 texture, the other
//! layers are more of the same pseudo-random, never-zero data.
//!
//! Every coordinate is an exact binary fraction at a texel centre, so nearest sampling returns
//! the texel itself (the sampler's REPEAT mode never applies: every coordinate lies inside the
//! image; cube sampling ignores address modes). The widened results (`xxxx`, `xyxy`, `xyzw`)
//! are summed in f32 and compared with the CPU model within the default tolerance.
//!
//! The `Sample` rows use the original's REPEAT sampler, so they compare with the original
//! `Texture2D<FMT>.Sample(nearest)` rows (see [`super::texture_address`] for the address
//! mode's cost), the `Load` rows with `Texture2D<FMT>.Load`.
//! A case needs only its format's `SAMPLED_IMAGE` optimal-tiling feature (the 1D, 3D and cube
//! image types of these nine formats need no device feature); lavapipe runs every case.
//!
//! Params: `format`; `width` = the format's components; `variant` = shape index * 2 + read
//! (0 load, 1 sample); see [`shape`] and [`crate::read_of`].

use std::sync::OnceLock;

use crate::case::{Case, Params};
use crate::data::{layered_texture_bytes, MAX_TEXTURE_LAYERS, TEXTURE_SIZE};
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{texel, texture_loop, widen, KernelParams, ReferenceSum};
use crate::sampler::TextureRead;
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The image-shape family.
pub struct TextureShape;

/// An image shape of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A 1D image of 1024 texels.
    OneD,
    /// A 2D array image of 32x32 x [`ARRAY_LAYERS`] layers.
    Array,
    /// A 3D image of 32x32x[`ARRAY_LAYERS`].
    ThreeD,
    /// A cube image of [`CUBE_FACES`] 32x32 faces.
    Cube,
}

/// Layers of the 2D array image and slices of the 3D image.
pub const ARRAY_LAYERS: u32 = 4;

/// Faces of the cube image.
pub const CUBE_FACES: u32 = 6;

/// Texels of the 1D image (as many as the 32x32 texture).
pub const ONE_D_TEXELS: u32 = TEXTURE_SIZE * TEXTURE_SIZE;

impl Shape {
    /// Every shape, in suite order.
    pub const ALL: [Shape; 4] = [Shape::OneD, Shape::Array, Shape::ThreeD, Shape::Cube];

    /// The word case ids use (`1d`, `array`, `3d`, `cube`).
    pub fn word(self) -> &'static str {
        match self {
            Shape::OneD => "1d",
            Shape::Array => "array",
            Shape::ThreeD => "3d",
            Shape::Cube => "cube",
        }
    }

    /// The HLSL resource type names use (`Texture2DArray`).
    pub fn type_name(self) -> &'static str {
        match self {
            Shape::OneD => "Texture1D",
            Shape::Array => "Texture2DArray",
            Shape::ThreeD => "Texture3D",
            Shape::Cube => "TextureCube",
        }
    }

    /// 32x32 layers of data the image holds (array layers, 3D slices, cube faces; the 1D
    /// image holds one layer's bytes).
    pub fn layers(self) -> u32 {
        match self {
            Shape::OneD => 1,
            Shape::Array | Shape::ThreeD => ARRAY_LAYERS,
            Shape::Cube => CUBE_FACES,
        }
    }

    /// The layer (array layer, 3D slice, cube face) that holds the loop's texel `(ex, ey)`;
    /// 0 for 1D, whose texel `ey * 32 + ex` is texel `(ex, ey)` of layer 0.
    pub fn layer_of(self, ey: u32) -> u32 {
        match self {
            Shape::OneD => 0,
            Shape::Array | Shape::ThreeD => ey & (ARRAY_LAYERS - 1),
            Shape::Cube => ey % CUBE_FACES,
        }
    }
}

/// The shape of a case of this family.
pub fn shape(case: &Case) -> Shape {
    Shape::ALL
        .get((case.params.variant / 2) as usize)
        .copied()
        .unwrap_or(Shape::OneD)
}

/// The decoded texels of the [`MAX_TEXTURE_LAYERS`] layers of `format`, layer after layer,
/// row-major (decoded once per process).
fn decoded(format: Format) -> &'static [[f32; 4]] {
    static TEXELS: [OnceLock<Vec<[f32; 4]>>; 9] = [const { OnceLock::new() }; 9];
    let i = Format::ALL.iter().position(|&f| f == format).unwrap_or(0);
    TEXELS[i].get_or_init(|| {
        let bytes = layered_texture_bytes(format.texel_bytes(), MAX_TEXTURE_LAYERS);
        (0..(MAX_TEXTURE_LAYERS * TEXTURE_SIZE * TEXTURE_SIZE) as usize)
            .map(|t| texel(format, bytes, t))
            .collect()
    })
}

/// Texel `(x, y)` of layer `layer` of the images of `format` (coordinates wrap modulo 32),
/// decoded to four channels.
pub fn layer_texel(format: Format, layer: u32, x: u32, y: u32) -> [f32; 4] {
    let (x, y) = (x % TEXTURE_SIZE, y % TEXTURE_SIZE);
    let i = (layer * TEXTURE_SIZE + y) * TEXTURE_SIZE + x;
    decoded(format)
        .get(i as usize)
        .copied()
        .unwrap_or([f32::NAN; 4])
}

/// The direction the cube `Sample` kernel builds for the centre of texel `(ex, ey)` of
/// `face` (0 +X, 1 -X, 2 +Y, 3 -Y, 4 +Z, 5 -Z), as `shaders/texture_shape.comp` computes it.
pub fn cube_direction(face: u32, ex: u32, ey: u32) -> [f32; 3] {
    let a = ex as f32 * (2.0 / 32.0) + (1.0 / 32.0 - 1.0);
    let b = ey as f32 * (2.0 / 32.0) + (1.0 / 32.0 - 1.0);
    let sign = if face & 1 == 0 { 1.0 } else { -1.0 };
    match face >> 1 {
        0 => [sign, -b, -sign * a],
        1 => [a, sign, sign * b],
        _ => [sign * a, -b, sign],
    }
}

/// The Vulkan specification's cube-map face selection: the face (0 +X ... 5 -Z) a direction
/// selects by its major axis (ties go to Z, then Y), and the face coordinates
/// `s = (sc / |ma| + 1) / 2`, `t = (tc / |ma| + 1) / 2`.
pub fn cube_face(d: [f32; 3]) -> (u32, f32, f32) {
    let [x, y, z] = d;
    let (face, sc, tc, ma) = if z.abs() >= x.abs() && z.abs() >= y.abs() {
        if z >= 0.0 {
            (4, x, -y, z)
        } else {
            (5, -x, -y, z)
        }
    } else if y.abs() >= x.abs() {
        if y >= 0.0 {
            (2, x, z, y)
        } else {
            (3, x, -z, y)
        }
    } else if x >= 0.0 {
        (0, -z, -y, x)
    } else {
        (1, z, -y, x)
    };
    let m = ma.abs();
    (face, 0.5 * (sc / m + 1.0), 0.5 * (tc / m + 1.0))
}

/// The CPU model: the texture loop, texel `(ex, ey)` of layer [`Shape::layer_of`]`(ey)`,
/// widened to four lanes (loads and nearest samples at texel centres return the same texel).
fn shape_sum(case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
    let format = case.params.format.unwrap_or(Format::R8);
    let shape = shape(case);
    texture_loop(case, params, local, |ex, ey| {
        widen(
            layer_texel(format, shape.layer_of(ey), ex, ey),
            format.components(),
        )
    })
}

impl Family for TextureShape {
    fn label(&self) -> &'static str {
        "texture_shape"
    }

    fn title(&self) -> &'static str {
        "Texture shapes"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for (s, shape) in (0u32..).zip(Shape::ALL) {
            for op in TextureRead::ALL {
                for format in Format::ALL {
                    let ty = format!("{}<{}>", shape.type_name(), format.texture_name());
                    let (id, name) = match (op, shape) {
                        (TextureRead::Load, Shape::Cube) => {
                            ("load", format!("{ty}.Load(2D array view)"))
                        }
                        (TextureRead::Load, _) => ("load", format!("{ty}.Load")),
                        (TextureRead::Sample, _) => {
                            ("sample.nearest", format!("{ty}.Sample(nearest)"))
                        }
                    };
                    cases.extend(Case::per_pattern(
                        FamilyRef(&TextureShape),
                        Suite::Texture,
                        &format!("tex.shape.{}.{id}.{}", shape.word(), format.id_token()),
                        &name,
                        Params {
                            format: Some(format),
                            width: format.components(),
                            variant: s * 2 + op.bit(),
                            ..Params::default()
                        },
                    ));
                }
            }
        }
        cases
    }

    fn workgroup_size(&self) -> [u32; 2] {
        [16, 16]
    }

    fn loop_trip(&self) -> u32 {
        16
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        case.params.format.map_or(0, Format::texel_bytes)
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        case.params
            .format
            .map(|f| DeviceNeed::Format(f, FormatFeature::SampledImage))
            .into_iter()
            .collect()
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        shape_sum(case, params, local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{find_case, original_cases};
    use crate::reference::reference_sum;
    use crate::sampler::read_of;

    fn case(id: &str) -> Case {
        TextureShape
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn cases_ids_names_and_order() {
        let cases = TextureShape.cases();
        assert_eq!(cases.len(), 4 * 2 * 9 * 3);
        assert_eq!(cases[0].id, "tex.shape.1d.load.r8.uniform");
        assert_eq!(cases[0].name, "Texture1D<R8>.Load uniform");
        assert_eq!(cases[27].id, "tex.shape.1d.sample.nearest.r8.uniform");
        assert_eq!(cases[27].name, "Texture1D<R8>.Sample(nearest) uniform");
        let array = case("tex.shape.array.load.rgba16f.linear");
        assert_eq!(array.name, "Texture2DArray<RGBA16F>.Load linear");
        assert_eq!(
            (shape(&array), read_of(&array)),
            (Shape::Array, TextureRead::Load)
        );
        let volume = case("tex.shape.3d.sample.nearest.rg32f.random");
        assert_eq!(volume.name, "Texture3D<RG32F>.Sample(nearest) random");
        assert_eq!(
            (shape(&volume), read_of(&volume)),
            (Shape::ThreeD, TextureRead::Sample)
        );
        let cube = case("tex.shape.cube.load.r16f.uniform");
        assert_eq!(cube.name, "TextureCube<R16F>.Load(2D array view) uniform");
        let last = &cases[cases.len() - 1];
        assert_eq!(last.id, "tex.shape.cube.sample.nearest.rgba32f.random");
        assert_eq!(
            (shape(last), read_of(last)),
            (Shape::Cube, TextureRead::Sample)
        );
        assert_eq!(last.bytes_per_load(), 16);
        assert_eq!(
            last.needs(),
            [DeviceNeed::Format(
                Format::Rgba32f,
                FormatFeature::SampledImage
            )]
        );
        assert!(cases.iter().all(|c| c.suite == Suite::Texture));
    }

    #[test]
    fn one_d_and_layer_zero_rows_repeat_the_original_texture_rows() {
        let originals = original_cases();
        for (ours, theirs) in [
            ("tex.shape.1d.load.rgba8.linear", "tex.load.rgba8.linear"),
            (
                "tex.shape.1d.sample.nearest.rg16f.random",
                "tex.sample.nearest.rg16f.random",
            ),
        ] {
            let ours = case(ours);
            let theirs = find_case(&originals, theirs)
                .cloned()
                .unwrap_or_else(|| unreachable!());
            for local in [[0, 0], [15, 15], [7, 3]] {
                assert_eq!(
                    reference_sum(&ours, KernelParams::for_case(&ours), local),
                    reference_sum(&theirs, KernelParams::for_case(&theirs), local)
                );
            }
        }
        // Layer 0 is the original texture.
        let t = crate::sampler::texel_at(Format::Rgba16f, crate::AddressMode::Repeat, 5, 9);
        assert_eq!(layer_texel(Format::Rgba16f, 0, 5, 9), t);
    }

    #[test]
    fn layers_hold_different_data_and_array_and_3d_read_the_same() {
        assert_ne!(
            layer_texel(Format::R32f, 1, 3, 3),
            layer_texel(Format::R32f, 0, 3, 3)
        );
        let array = case("tex.shape.array.load.r32f.linear");
        let volume = case("tex.shape.3d.sample.nearest.r32f.linear");
        let flat = case("tex.shape.1d.load.r32f.linear");
        let p = KernelParams::default();
        for local in [[0, 0], [9, 4]] {
            assert_eq!(
                reference_sum(&array, p, local),
                reference_sum(&volume, p, local)
            );
            assert_ne!(
                reference_sum(&array, p, local),
                reference_sum(&flat, p, local)
            );
        }
        // Every thread of the uniform array case reads rows 0..16, four from each layer.
        let layers: Vec<u32> = (0..16).map(|ey| Shape::Array.layer_of(ey)).collect();
        assert_eq!(&layers[..6], [0, 1, 2, 3, 0, 1]);
        let faces: Vec<u32> = (0..8).map(|ey| Shape::Cube.layer_of(ey)).collect();
        assert_eq!(faces, [0, 1, 2, 3, 4, 5, 0, 1]);
    }

    #[test]
    fn cube_directions_hit_the_texel_centres_of_their_faces() {
        for face in 0..CUBE_FACES {
            for ey in 0..TEXTURE_SIZE {
                for ex in 0..TEXTURE_SIZE {
                    let d = cube_direction(face, ex, ey);
                    let (f, s, t) = cube_face(d);
                    assert_eq!(f, face, "{face} {ex} {ey} {d:?}");
                    assert_eq!(s * 32.0, ex as f32 + 0.5, "{face} {ex} {ey}");
                    assert_eq!(t * 32.0, ey as f32 + 0.5, "{face} {ex} {ey}");
                    // The major axis is exactly 1 and no other component ties with it.
                    let mut m: Vec<f32> = d.iter().map(|v| v.abs()).collect();
                    m.sort_by(f32::total_cmp);
                    assert_eq!(m[2], 1.0);
                    assert!(m[1] < 1.0);
                }
            }
        }
    }

    #[test]
    fn every_case_has_a_finite_non_zero_model() {
        for c in TextureShape.cases() {
            let s = reference_sum(&c, KernelParams::for_case(&c), [7, 3]);
            assert!(s.sum.iter().all(|v| v.is_finite()), "{}", c.id);
            assert!(s.abs_sum.iter().all(|&v| v > 0.0), "{}", c.id);
        }
    }
}
