//! Sampler state as plain data, and the CPU model of what a sampler returns from the suite's
//! 32x32 textures (the texture suite's families).
//!
//! The model follows the Vulkan specification's texel filtering in f32: a sample position
//! `(s, t)` is given in texels (`u * 32` for normalized coordinates). Nearest reads texel
//! `(floor(s), floor(t))`; bilinear blends the 2x2 texels from `(i0, j0) = (floor(s - 0.5),
//! floor(t - 0.5))` with weights from `alpha = frac(s - 0.5)`, `beta = frac(t - 0.5)`; gather
//! returns one component of that same 2x2 footprint. Each integer texel coordinate goes
//! through the sampler's [`AddressMode`] before it is read; a coordinate outside the texture
//! under CLAMP_TO_BORDER reads the border colour, transparent black (0 in every channel).

use std::sync::OnceLock;

use crate::case::SampleFilter;
use crate::data::{texture_bytes, TEXTURE_SIZE};
use crate::format::Format;
use crate::reference::texel;

/// A sampler address mode (Vulkan's `VkSamplerAddressMode`), the same along every axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressMode {
    /// `REPEAT` (the original's WRAP): coordinates wrap modulo the size.
    Repeat,
    /// `MIRRORED_REPEAT`: every other repetition is mirrored.
    MirroredRepeat,
    /// `CLAMP_TO_EDGE`: coordinates clamp to the first and last texel.
    ClampToEdge,
    /// `CLAMP_TO_BORDER`: coordinates outside the texture read the border colour
    /// (`FLOAT_TRANSPARENT_BLACK`: 0 in every channel).
    ClampToBorder,
}

impl AddressMode {
    /// Every mode, in suite order (REPEAT first: the original's mode).
    pub const ALL: [AddressMode; 4] = [
        AddressMode::Repeat,
        AddressMode::MirroredRepeat,
        AddressMode::ClampToEdge,
        AddressMode::ClampToBorder,
    ];

    /// The word case ids and names use (`repeat`, `mirror`, `clamp`, `border`).
    pub fn word(self) -> &'static str {
        match self {
            AddressMode::Repeat => "repeat",
            AddressMode::MirroredRepeat => "mirror",
            AddressMode::ClampToEdge => "clamp",
            AddressMode::ClampToBorder => "border",
        }
    }

    /// The texel an integer coordinate `i` (any value, inside the texture or not) reads along
    /// an axis of `size` texels: its index, or `None` for the border colour.
    pub fn texel(self, i: i64, size: u32) -> Option<u32> {
        let n = i64::from(size);
        let index = match self {
            AddressMode::Repeat => i.rem_euclid(n),
            AddressMode::MirroredRepeat => {
                // (size - 1) - mirror((i mod 2 size) - size), mirror(a) = a >= 0 ? a : -(1 + a)
                let t = i.rem_euclid(2 * n);
                if t < n {
                    t
                } else {
                    2 * n - 1 - t
                }
            }
            AddressMode::ClampToEdge => i.clamp(0, n - 1),
            AddressMode::ClampToBorder => {
                if (0..n).contains(&i) {
                    i
                } else {
                    return None;
                }
            }
        };
        u32::try_from(index).ok()
    }
}

/// What a sampler is made of, as far as the suite varies it; every sampler also has LOD 0
/// only (`minLod = maxLod = 0`, mipmap mode NEAREST), no anisotropy, no compare, and the
/// border colour `FLOAT_TRANSPARENT_BLACK`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerState {
    /// Minification and magnification filter.
    pub filter: SampleFilter,
    /// Address mode along U, V and W.
    pub address: AddressMode,
    /// True for `unnormalizedCoordinates` (coordinates in texels, not 0..1).
    pub unnormalized: bool,
}

impl SamplerState {
    /// A sampler with normalized coordinates.
    pub const fn new(filter: SampleFilter, address: AddressMode) -> Self {
        SamplerState {
            filter,
            address,
            unnormalized: false,
        }
    }
}

/// The decoded texels of the 32x32 texture of `format`, row-major (decoded once per process).
fn decoded(format: Format) -> &'static [[f32; 4]] {
    static TEXELS: [OnceLock<Vec<[f32; 4]>>; 9] = [const { OnceLock::new() }; 9];
    let i = Format::ALL.iter().position(|&f| f == format).unwrap_or(0);
    TEXELS[i].get_or_init(|| {
        let bytes = texture_bytes(format.texel_bytes());
        (0..(TEXTURE_SIZE * TEXTURE_SIZE) as usize)
            .map(|t| texel(format, bytes, t))
            .collect()
    })
}

/// Texel `(i, j)` of the 32x32 texture of `format` under `address`, decoded to four channels
/// (missing channels as Vulkan fills them; the border colour is 0 in every channel).
pub fn texel_at(format: Format, address: AddressMode, i: i64, j: i64) -> [f32; 4] {
    match (
        address.texel(i, TEXTURE_SIZE),
        address.texel(j, TEXTURE_SIZE),
    ) {
        (Some(x), Some(y)) => decoded(format)
            .get((y * TEXTURE_SIZE + x) as usize)
            .copied()
            .unwrap_or([f32::NAN; 4]),
        _ => [0.0; 4],
    }
}

/// The bilinear footprint of the texel-space position `(s, t)`: its first texel
/// `(i0, j0) = (floor(s - 0.5), floor(t - 0.5))` and the weights `(alpha, beta)` of the
/// second column and row.
pub fn footprint(s: f32, t: f32) -> ([i64; 2], [f32; 2]) {
    let (a, b) = (s - 0.5, t - 0.5);
    let (fa, fb) = (a.floor(), b.floor());
    ([fa as i64, fb as i64], [a - fa, b - fb])
}

/// What `state`'s filter returns at the texel-space position `(s, t)` from the texture of
/// `format`, LOD 0: nearest reads one texel; bilinear blends the 2x2 footprint in f32 as
/// `(1-a)(1-b) t00 + a(1-b) t10 + (1-a)b t01 + ab t11`.
pub fn sample(format: Format, state: SamplerState, s: f32, t: f32) -> [f32; 4] {
    let address = state.address;
    match state.filter {
        SampleFilter::Nearest => texel_at(format, address, s.floor() as i64, t.floor() as i64),
        SampleFilter::Bilinear => {
            let ([i0, j0], [a, b]) = footprint(s, t);
            let t00 = texel_at(format, address, i0, j0);
            let t10 = texel_at(format, address, i0 + 1, j0);
            let t01 = texel_at(format, address, i0, j0 + 1);
            let t11 = texel_at(format, address, i0 + 1, j0 + 1);
            let w = [(1.0 - a) * (1.0 - b), a * (1.0 - b), (1.0 - a) * b, a * b];
            [0, 1, 2, 3].map(|c| w[0] * t00[c] + w[1] * t10[c] + w[2] * t01[c] + w[3] * t11[c])
        }
    }
}

/// The scale of [`sample`]'s rounding at `(s, t)`: per channel, the sum of
/// |weight x texel| over the texels the filter blends (for nearest, |texel|).
pub fn sample_magnitude(format: Format, state: SamplerState, s: f32, t: f32) -> [f32; 4] {
    let address = state.address;
    match state.filter {
        SampleFilter::Nearest => {
            texel_at(format, address, s.floor() as i64, t.floor() as i64).map(f32::abs)
        }
        SampleFilter::Bilinear => {
            let ([i0, j0], [a, b]) = footprint(s, t);
            let w = [(1.0 - a) * (1.0 - b), a * (1.0 - b), (1.0 - a) * b, a * b];
            let texels = [(i0, j0), (i0 + 1, j0), (i0, j0 + 1), (i0 + 1, j0 + 1)]
                .map(|(i, j)| texel_at(format, address, i, j));
            [0, 1, 2, 3].map(|c| (0..4).map(|k| (w[k] * texels[k][c]).abs()).sum())
        }
    }
}

/// What `textureGather(sampler, uv, component)` returns at the texel-space position
/// `(s, t)` from the texture of `format`: component `component` of the bilinear footprint's
/// four texels in the specification's order `(i0, j1), (i1, j1), (i1, j0), (i0, j0)`
/// (x, y, z, w), with `i1 = i0 + 1`, `j1 = j0 + 1`.
pub fn gather(format: Format, address: AddressMode, s: f32, t: f32, component: u32) -> [f32; 4] {
    let ([i0, j0], _) = footprint(s, t);
    let c = component.min(3) as usize;
    [(i0, j0 + 1), (i0 + 1, j0 + 1), (i0 + 1, j0), (i0, j0)]
        .map(|(i, j)| texel_at(format, address, i, j)[c])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn direct(format: Format, x: u32, y: u32) -> [f32; 4] {
        texel(
            format,
            texture_bytes(format.texel_bytes()),
            (y * 32 + x) as usize,
        )
    }

    #[test]
    fn address_modes_on_coordinates_30_to_35_and_below_zero() {
        let along = |mode: AddressMode, range: std::ops::RangeInclusive<i64>| -> Vec<_> {
            range.map(|i| mode.texel(i, 32)).collect()
        };
        let s = Some;
        assert_eq!(
            along(AddressMode::Repeat, 30..=35),
            [s(30), s(31), s(0), s(1), s(2), s(3)]
        );
        assert_eq!(
            along(AddressMode::MirroredRepeat, 30..=35),
            [s(30), s(31), s(31), s(30), s(29), s(28)]
        );
        assert_eq!(
            along(AddressMode::ClampToEdge, 30..=35),
            [s(30), s(31), s(31), s(31), s(31), s(31)]
        );
        assert_eq!(
            along(AddressMode::ClampToBorder, 30..=35),
            [s(30), s(31), None, None, None, None]
        );
        assert_eq!(along(AddressMode::Repeat, -2..=-1), [s(30), s(31)]);
        assert_eq!(along(AddressMode::MirroredRepeat, -2..=-1), [s(1), s(0)]);
        assert_eq!(along(AddressMode::ClampToEdge, -2..=-1), [s(0), s(0)]);
        assert_eq!(along(AddressMode::ClampToBorder, -2..=-1), [None, None]);
        // Mirroring has period 64: 64 reads texel 0 again, 63 the last mirrored one.
        assert_eq!(AddressMode::MirroredRepeat.texel(63, 32), s(0));
        assert_eq!(AddressMode::MirroredRepeat.texel(64, 32), s(0));
        assert_eq!(AddressMode::MirroredRepeat.texel(95, 32), s(31));
    }

    #[test]
    fn border_reads_transparent_black_and_centres_read_the_texel() {
        let f = Format::Rgba16f;
        let border = SamplerState::new(SampleFilter::Nearest, AddressMode::ClampToBorder);
        assert_eq!(sample(f, border, 33.5, 3.5), [0.0; 4]);
        assert_eq!(sample(f, border, 3.5, 3.5), direct(f, 3, 3));
        // Bilinear at the last texel's centre: the border neighbour has weight 0.
        let bilinear = SamplerState::new(SampleFilter::Bilinear, AddressMode::ClampToBorder);
        assert_eq!(sample(f, bilinear, 31.5, 31.5), direct(f, 31, 31));
        assert_eq!(sample(f, bilinear, 32.5, 31.5), [0.0; 4]);
        let mirror = SamplerState::new(SampleFilter::Nearest, AddressMode::MirroredRepeat);
        assert_eq!(sample(f, mirror, 33.5, 34.5), direct(f, 30, 29));
        let clamp = SamplerState::new(SampleFilter::Bilinear, AddressMode::ClampToEdge);
        assert_eq!(sample(f, clamp, 35.5, 0.5), direct(f, 31, 0));
    }

    #[test]
    fn off_centre_bilinear_weights() {
        let ([i0, j0], [a, b]) = footprint(3.75, 5.75);
        assert_eq!((i0, j0, a, b), (3, 5, 0.25, 0.25));
        let f = Format::R32f;
        let repeat = SamplerState::new(SampleFilter::Bilinear, AddressMode::Repeat);
        let got = sample(f, repeat, 3.75, 5.75)[0];
        let want = 0.5625 * direct(f, 3, 5)[0]
            + 0.1875 * direct(f, 4, 5)[0]
            + 0.1875 * direct(f, 3, 6)[0]
            + 0.0625 * direct(f, 4, 6)[0];
        assert!(
            (got - want).abs() <= 1e-6 * want.abs().max(1.0),
            "{got} {want}"
        );
        // The +1 neighbour of the last column and row wraps to 0 under REPEAT.
        let edge = sample(f, repeat, 31.75, 31.75)[0];
        let wrapped = 0.5625 * direct(f, 31, 31)[0]
            + 0.1875 * direct(f, 0, 31)[0]
            + 0.1875 * direct(f, 31, 0)[0]
            + 0.0625 * direct(f, 0, 0)[0];
        assert!((edge - wrapped).abs() <= 1e-6 * wrapped.abs().max(1.0));
    }

    #[test]
    fn gather_returns_the_footprint_in_the_specification_order() {
        let f = Format::Rgba8;
        // At the corner between texels 6 and 7 (s = 7), rows 9 and 10 (t = 10).
        for c in 0..4 {
            let got = gather(f, AddressMode::Repeat, 7.0, 10.0, c);
            let want = [(6, 10), (7, 10), (7, 9), (6, 9)].map(|(x, y)| direct(f, x, y)[c as usize]);
            assert_eq!(got, want);
        }
        // REPEAT wraps the second column and row of the last corner.
        let got = gather(f, AddressMode::Repeat, 32.0, 32.0, 1);
        let want = [(31, 0), (0, 0), (0, 31), (31, 31)].map(|(x, y)| direct(f, x, y)[1]);
        assert_eq!(got, want);
    }
}

/// How a texture kernel reads its image: `texelFetch`, or `textureLod` with a nearest sampler at
/// texel centres. Families that read each of their images both ways keep it in the lowest bit
/// of `Params::variant` ([`read_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureRead {
    /// `texelFetch` (`Texture2D.Load`).
    Load,
    /// `textureLod` at texel centres, LOD 0 (`Texture2D.Sample`).
    Sample,
}

impl TextureRead {
    /// Both reads, in suite order.
    pub const ALL: [TextureRead; 2] = [TextureRead::Load, TextureRead::Sample];

    /// The `Params::variant` bit of this read (0 load, 1 sample).
    pub fn bit(self) -> u32 {
        u32::from(self == TextureRead::Sample)
    }
}

/// The read of a case whose family keeps it in the lowest bit of `Params::variant`.
pub fn read_of(case: &crate::Case) -> TextureRead {
    if case.params.variant & 1 == 1 {
        TextureRead::Sample
    } else {
        TextureRead::Load
    }
}
