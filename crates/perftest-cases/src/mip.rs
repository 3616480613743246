//! The texture suite's mipmapped textures — a full chain of six levels (32x32, 16x16, 8x8, 4x4,
//! 2x2, 1x1) for each of the nine formats — and the CPU model of sampling them with linear
//! filtering within and between levels (trilinear).
//!
//! Two chains per format, each level holding data of its own that the model knows exactly
//! (no level is a filtered copy of the level above):
//! - [`MipChain::Varied`]: level 0 is the original 32x32 texture ([`crate::texture_bytes`]);
//!   level `k >= 1` holds pseudo-random words: word `i` is `lowbias32(i + k * 0x9e3779b9)`
//!   shaped like the input block's words, so that every view of it (UNORM8, half, float) is
//!   finite, normal and non-zero.
//! - [`MipChain::Flat`]: every texel of a level is the same: per channel `c`, levels 0 and 1
//!   hold `n = 96 + 32c` and levels 2 to 5 hold `n / 2` (as `n / 255` in UNORM8, `n / 256` in
//!   the float formats, exact in half precision). Any weighted average of texels from levels
//!   0 and 1 returns level 0's value, whatever the weights; a coarser level shows.
//!
//! The sampling model follows the specification's texel filtering in f32, REPEAT addressing:
//! a position `(s, t)` in level-0 texels is `(s / 2^k, t / 2^k)` in level `k`, where bilinear
//! filtering blends the 2x2 footprint ([`crate::footprint`]); a level of detail `l + f`
//! blends levels `l` and `l + 1` with weights `1 - f` and `f` (mipmap mode LINEAR).

use std::sync::OnceLock;

use crate::data::{mix32, shape_word, texture_bytes, TEXTURE_SIZE};
use crate::format::{ChannelKind, Format};
use crate::reference::texel;
use crate::sampler::footprint;

/// Levels in every chain: 32x32 down to 1x1.
pub const MIP_LEVELS: u32 = 6;

/// Which data a mip chain holds (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MipChain {
    /// Level 0 the original texture, each smaller level its own pseudo-random texels.
    Varied,
    /// One value per level and channel; levels 0 and 1 equal, levels 2 to 5 half of it.
    Flat,
}

impl MipChain {
    /// Both chains.
    pub const ALL: [MipChain; 2] = [MipChain::Varied, MipChain::Flat];
}

/// Width and height of `level` (32 >> level; the last level for anything larger).
pub fn level_size(level: u32) -> u32 {
    TEXTURE_SIZE >> level.min(MIP_LEVELS - 1)
}

/// The numerator `n` of channel `c` of every texel of `level` in the [`MipChain::Flat`] chain:
/// `96 + 32c` for levels 0 and 1, half of it below.
pub fn flat_numerator(level: u32, c: u32) -> u32 {
    let n = 96 + 32 * c.min(3);
    if level <= 1 {
        n
    } else {
        n / 2
    }
}

/// The bits of a half float equal to `value`, which must be a normal half (the flat values
/// `n / 256` are).
pub(crate) fn half_bits(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = (bits >> 16) & 0x8000;
    let exponent = ((bits >> 23) & 0xff).saturating_sub(127 - 15);
    let mantissa = (bits >> 13) & 0x3ff;
    (sign | (exponent << 10) | mantissa) as u16
}

/// The bytes of one texel of `level` of the flat chain of `format`.
fn flat_texel(format: Format, level: u32) -> Vec<u8> {
    (0..format.components())
        .flat_map(|c| {
            let n = flat_numerator(level, c);
            match format.channel_kind() {
                ChannelKind::Unorm8 => vec![n as u8],
                ChannelKind::Float16 => half_bits(n as f32 / 256.0).to_le_bytes().to_vec(),
                ChannelKind::Float32 => (n as f32 / 256.0).to_le_bytes().to_vec(),
            }
        })
        .collect()
}

/// The tightly packed, row-major texels of `level` of `chain` for `format`: what is uploaded
/// to that level of the image.
pub fn mip_level_bytes(chain: MipChain, format: Format, level: u32) -> Vec<u8> {
    let size = level_size(level);
    let texels = (size * size) as usize;
    let len = texels * format.texel_bytes() as usize;
    match chain {
        MipChain::Varied if level == 0 => texture_bytes(format.texel_bytes()).to_vec(),
        MipChain::Varied => {
            let seed = level.wrapping_mul(0x9e37_79b9);
            (0..len.div_ceil(4) as u32)
                .flat_map(|i| shape_word(mix32(i.wrapping_add(seed))).to_le_bytes())
                .take(len)
                .collect()
        }
        MipChain::Flat => flat_texel(format, level).repeat(texels),
    }
}

/// The decoded texels of `level` of `chain` for `format` (decoded once per process).
fn decoded(chain: MipChain, format: Format, level: u32) -> &'static [[f32; 4]] {
    const SLOTS: usize = 2 * 9 * MIP_LEVELS as usize;
    static TEXELS: [OnceLock<Vec<[f32; 4]>>; SLOTS] = [const { OnceLock::new() }; SLOTS];
    let level = level.min(MIP_LEVELS - 1);
    let c = usize::from(chain == MipChain::Flat);
    let f = Format::ALL.iter().position(|&x| x == format).unwrap_or(0);
    let slot = (c * 9 + f) * MIP_LEVELS as usize + level as usize;
    TEXELS[slot].get_or_init(|| {
        let bytes = mip_level_bytes(chain, format, level);
        let size = level_size(level);
        (0..(size * size) as usize)
            .map(|t| texel(format, &bytes, t))
            .collect()
    })
}

/// Texel `(i, j)` of `level` of `chain` for `format` under REPEAT addressing, decoded to four
/// channels (missing channels as Vulkan fills them).
pub fn mip_texel(chain: MipChain, format: Format, level: u32, i: i64, j: i64) -> [f32; 4] {
    let size = i64::from(level_size(level));
    let (x, y) = (i.rem_euclid(size), j.rem_euclid(size));
    decoded(chain, format, level)
        .get((y * size + x) as usize)
        .copied()
        .unwrap_or([f32::NAN; 4])
}

/// How a texel's decoded value becomes the value filtered: the identity for the formats the
/// chains are made for; another view of the same bytes maps them (an sRGB view of RGBA8
/// data decodes each code to linear).
pub type TexelMap = fn([f32; 4]) -> [f32; 4];

/// One level's bilinear sample at `(s, t)` in that level's texels of the texels mapped by
/// `map`: the value and, per channel, the sum of |weight x texel| (the scale of the filter's
/// rounding).
fn bilinear(
    chain: MipChain,
    format: Format,
    map: TexelMap,
    level: u32,
    [s, t]: [f32; 2],
) -> [[f32; 4]; 2] {
    let ([i0, j0], [a, b]) = footprint(s, t);
    let w = [(1.0 - a) * (1.0 - b), a * (1.0 - b), (1.0 - a) * b, a * b];
    let texels = [(i0, j0), (i0 + 1, j0), (i0, j0 + 1), (i0 + 1, j0 + 1)]
        .map(|(i, j)| map(mip_texel(chain, format, level, i, j)));
    let value = [0, 1, 2, 3].map(|c| (0..4).map(|k| w[k] * texels[k][c]).sum());
    let magnitude = [0, 1, 2, 3].map(|c| (0..4).map(|k| (w[k] * texels[k][c]).abs()).sum());
    [value, magnitude]
}

/// What a trilinear sample returns, with the scales its verification needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MipSample {
    /// The filtered value per channel.
    pub value: [f32; 4],
    /// Per channel, the sum of |weight x texel| over every texel blended.
    pub magnitude: [f32; 4],
    /// Per channel, level `l + 1`'s bilinear value minus level `l`'s: the derivative of the
    /// value with respect to the LOD fraction (0 at a whole LOD).
    pub lod_slope: [f32; 4],
}

/// A trilinear sample of `chain` for `format` at `(s, t)` in level-0 texels and level of
/// detail `lod` (clamped to the chain): bilinear in levels `floor(lod)` and the next, blended
/// with weights `1 - f` and `f`, `f = fract(lod)`.
pub fn sample_mip(chain: MipChain, format: Format, s: f32, t: f32, lod: f32) -> MipSample {
    sample_mip_mapped(chain, format, |v| v, [s, t], lod)
}

/// [`sample_mip`] of the texels as `map` makes them of the decoded ones (the same bytes seen
/// through another view of the format).
pub fn sample_mip_mapped(
    chain: MipChain,
    format: Format,
    map: TexelMap,
    [s, t]: [f32; 2],
    lod: f32,
) -> MipSample {
    let lod = lod.clamp(0.0, (MIP_LEVELS - 1) as f32);
    let l = lod.floor() as u32;
    let f = lod - lod.floor();
    let at = |level: u32| {
        let scale = (1u32 << level) as f32;
        bilinear(chain, format, map, level, [s / scale, t / scale])
    };
    let [a, a_mag] = at(l);
    if f == 0.0 {
        return MipSample {
            value: a,
            magnitude: a_mag,
            lod_slope: [0.0; 4],
        };
    }
    let [b, b_mag] = at(l + 1);
    MipSample {
        value: [0, 1, 2, 3].map(|c| (1.0 - f) * a[c] + f * b[c]),
        magnitude: [0, 1, 2, 3].map(|c| (1.0 - f) * a_mag[c] + f * b_mag[c]),
        lod_slope: [0, 1, 2, 3].map(|c| b[c] - a[c]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::half_to_f32;

    #[test]
    fn chains_have_every_level_at_its_size() {
        for chain in MipChain::ALL {
            for format in Format::ALL {
                for level in 0..MIP_LEVELS {
                    let size = 32 >> level;
                    assert_eq!(
                        mip_level_bytes(chain, format, level).len() as u32,
                        size * size * format.texel_bytes()
                    );
                }
            }
        }
        assert_eq!(level_size(5), 1);
        assert_eq!(level_size(9), 1);
    }

    #[test]
    fn varied_level_zero_is_the_original_texture_and_levels_differ() {
        let f = Format::Rgba16f;
        assert_eq!(
            mip_level_bytes(MipChain::Varied, f, 0),
            texture_bytes(f.texel_bytes())
        );
        let one = mip_level_bytes(MipChain::Varied, f, 1);
        let two = mip_level_bytes(MipChain::Varied, f, 2);
        assert_ne!(&one[..two.len()], &two[..]);
        assert_ne!(&one[..], &texture_bytes(f.texel_bytes())[..one.len()]);
        for format in Format::ALL {
            for level in 0..MIP_LEVELS {
                let size = 32 >> level;
                for t in 0..size * size {
                    let (i, j) = (i64::from(t % size), i64::from(t / size));
                    let v = mip_texel(MipChain::Varied, format, level, i, j);
                    assert!(v.iter().all(|x| x.is_finite()), "{format:?} {level} {t}");
                }
            }
        }
    }

    #[test]
    fn flat_levels_hold_their_values_exactly() {
        for format in Format::ALL {
            let scale = match format.channel_kind() {
                ChannelKind::Unorm8 => 255.0,
                _ => 256.0,
            };
            for level in 0..MIP_LEVELS {
                let v = mip_texel(MipChain::Flat, format, level, 3, -7);
                for c in 0..format.components() {
                    let want = flat_numerator(level, c) as f32 / scale;
                    assert_eq!(v[c as usize], want, "{format:?} {level} {c}");
                }
            }
        }
        assert_eq!(flat_numerator(1, 3), 192);
        assert_eq!(flat_numerator(2, 3), 96);
        assert_eq!(half_to_f32(half_bits(0.375)), 0.375);
        assert_eq!(half_to_f32(half_bits(0.1875)), 0.1875);
    }

    #[test]
    fn trilinear_blends_two_levels_at_half() {
        let f = Format::R32f;
        let chain = MipChain::Varied;
        // Level-0 texel centre (5, 9): level 0 returns the texel; level 1 sits at (2.75, 4.75)
        // and blends its texels 2..=3 by 4..=5 with weights 0.75 and 0.25 per axis.
        let got = sample_mip(chain, f, 5.5, 9.5, 0.5);
        let t = |l, i, j| mip_texel(chain, f, l, i, j)[0];
        let level1 =
            0.5625 * t(1, 2, 4) + 0.1875 * t(1, 3, 4) + 0.1875 * t(1, 2, 5) + 0.0625 * t(1, 3, 5);
        let want = 0.5 * t(0, 5, 9) + 0.5 * level1;
        assert!((got.value[0] - want).abs() <= 1e-6 * want.abs().max(1.0));
        assert!((got.lod_slope[0] - (level1 - t(0, 5, 9))).abs() <= 1e-5);
        assert!(got.magnitude[0] >= got.value[0].abs());
        // LOD 0 is the texel itself, with no slope.
        let zero = sample_mip(chain, f, 5.5, 9.5, 0.0);
        assert_eq!(zero.value[0], t(0, 5, 9));
        assert_eq!(zero.lod_slope, [0.0; 4]);
        // The flat chain returns level 0's value anywhere between LOD 0 and 1.
        let flat = Format::Rgba8;
        for lod in [0.0, 0.3, 0.5, 1.0] {
            let v = sample_mip(MipChain::Flat, flat, 17.3, 2.9, lod).value;
            for c in 0..4 {
                let want = flat_numerator(0, c) as f32 / 255.0;
                assert!((v[c as usize] - want).abs() < 1e-6);
            }
        }
        let coarse = sample_mip(MipChain::Flat, flat, 17.3, 2.9, 2.0).value;
        assert!((coarse[0] - 48.0 / 255.0).abs() < 1e-6);
    }
}
