//! The formats of the memory suite's texture-bandwidth family: 128-, 64- and 32-bit texels
//! and three block-compressed formats, with the texels of an image of any size in each,
//! generated row by row (so that a large image is uploaded in slices) and decoded texel by
//! texel (so that the CPU model reads only the texels it checks).
//!
//! Data: a pure function of the texel's (or block's) index in the image, from the lowbias32
//! hash ([`crate::mix32`]) plus a per-format salt:
//! - `RGBA32F`: each channel a float of exponent -3..=4 (values 1/8..32) and a hashed
//!   mantissa; `RGBA16F` likewise in halves; `B10G11R11F` as the texture suite's
//!   ([`crate::ExtraFormat::B10g11r11`]: exponents 12..=19 of the 5-bit bias 15); `RGBA8` the
//!   hash's bytes as they come.
//! - `BC1` and `BC7`: block `b` (blocks row-major) is [`crate::bc_block`] `b` of the texture
//!   suite's format (BC7 in mode `b % 8`), so every mode occurs along every row of blocks.
//! - `ASTC4x4`: void-extent blocks (one LDR colour per block, its four UNORM16 channels
//!   `v * 257` for hashed bytes `v`, so that they decode to `v / 255` whatever the decode
//!   precision): the bytes an ASTC 4x4 texture moves (16 per 4x4 texels) without its decode
//!   work, since a general ASTC decoder is beyond this model.

use crate::bc::decode_bc1;
use crate::bc7::decode_bc7;
use crate::data::mix32;
use crate::extra_format::{bc_block, ufloat_to_f32, ExtraFormat};
use crate::format::half_to_f32;

/// A texel format of the texture-bandwidth family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BandwidthFormat {
    /// `R32G32B32A32_SFLOAT`: 128 bits a texel.
    Rgba32f,
    /// `R16G16B16A16_SFLOAT`: 64 bits.
    Rgba16f,
    /// `R8G8B8A8_UNORM`: 32 bits.
    Rgba8,
    /// `B10G11R11_UFLOAT_PACK32`: 32 bits, three channels.
    B10g11r11,
    /// `BC7_UNORM_BLOCK`: 8 bits (16-byte 4x4 blocks).
    Bc7,
    /// `ASTC_4x4_UNORM_BLOCK`: 8 bits (16-byte 4x4 blocks).
    Astc4x4,
    /// `BC1_RGBA_UNORM_BLOCK`: 4 bits (8-byte 4x4 blocks).
    Bc1,
}

/// What a shader reads from one texel: four channels and how far a conforming decoder may be
/// from each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Texel {
    /// The exact value per channel (missing channels as Vulkan fills them: 0, alpha 1).
    pub value: [f32; 4],
    /// The allowed deviation per channel.
    pub slack: [f32; 4],
}

impl BandwidthFormat {
    /// Every format, widest first.
    pub const ALL: [BandwidthFormat; 7] = [
        BandwidthFormat::Rgba32f,
        BandwidthFormat::Rgba16f,
        BandwidthFormat::Rgba8,
        BandwidthFormat::B10g11r11,
        BandwidthFormat::Bc7,
        BandwidthFormat::Astc4x4,
        BandwidthFormat::Bc1,
    ];

    /// Position in [`BandwidthFormat::ALL`].
    pub fn index(self) -> usize {
        BandwidthFormat::ALL
            .iter()
            .position(|&f| f == self)
            .unwrap_or(0)
    }

    /// The name case names use (`RGBA16F`, `B10G11R11F`, `ASTC4x4`).
    pub fn name(self) -> &'static str {
        match self {
            BandwidthFormat::Rgba32f => "RGBA32F",
            BandwidthFormat::Rgba16f => "RGBA16F",
            BandwidthFormat::Rgba8 => "RGBA8",
            BandwidthFormat::B10g11r11 => "B10G11R11F",
            BandwidthFormat::Bc7 => "BC7",
            BandwidthFormat::Astc4x4 => "ASTC4x4",
            BandwidthFormat::Bc1 => "BC1",
        }
    }

    /// The id word (`rgba16f`, `b10g11r11f`, `astc4x4`).
    pub fn id_token(self) -> &'static str {
        match self {
            BandwidthFormat::Rgba32f => "rgba32f",
            BandwidthFormat::Rgba16f => "rgba16f",
            BandwidthFormat::Rgba8 => "rgba8",
            BandwidthFormat::B10g11r11 => "b10g11r11f",
            BandwidthFormat::Bc7 => "bc7",
            BandwidthFormat::Astc4x4 => "astc4x4",
            BandwidthFormat::Bc1 => "bc1",
        }
    }

    /// Channels a shader sees (the `WIDTH` the kernel widens from).
    pub fn components(self) -> u32 {
        match self {
            BandwidthFormat::B10g11r11 => 3,
            _ => 4,
        }
    }

    /// Bits of memory one texel takes.
    pub fn bits_per_texel(self) -> u32 {
        match self {
            BandwidthFormat::Rgba32f => 128,
            BandwidthFormat::Rgba16f => 64,
            BandwidthFormat::Rgba8 | BandwidthFormat::B10g11r11 => 32,
            BandwidthFormat::Bc7 | BandwidthFormat::Astc4x4 => 8,
            BandwidthFormat::Bc1 => 4,
        }
    }

    /// Side of a block in texels: 4 for the compressed formats, else 1.
    pub fn block_side(self) -> u32 {
        if self.is_compressed() {
            4
        } else {
            1
        }
    }

    /// Bytes of one block (of one texel for the uncompressed formats).
    pub fn block_bytes(self) -> u32 {
        self.bits_per_texel() * self.block_side() * self.block_side() / 8
    }

    /// True for the block-compressed formats.
    pub fn is_compressed(self) -> bool {
        matches!(
            self,
            BandwidthFormat::Bc7 | BandwidthFormat::Astc4x4 | BandwidthFormat::Bc1
        )
    }

    /// Bytes of a `width` x `height` image.
    pub fn image_bytes(self, width: u32, height: u32) -> u64 {
        u64::from(width) * u64::from(height) * u64::from(self.bits_per_texel()) / 8
    }

    /// The Vulkan format's name (for messages).
    pub fn vk_name(self) -> &'static str {
        match self {
            BandwidthFormat::Rgba32f => "VK_FORMAT_R32G32B32A32_SFLOAT",
            BandwidthFormat::Rgba16f => "VK_FORMAT_R16G16B16A16_SFLOAT",
            BandwidthFormat::Rgba8 => "VK_FORMAT_R8G8B8A8_UNORM",
            BandwidthFormat::B10g11r11 => "VK_FORMAT_B10G11R11_UFLOAT_PACK32",
            BandwidthFormat::Bc7 => "VK_FORMAT_BC7_UNORM_BLOCK",
            BandwidthFormat::Astc4x4 => "VK_FORMAT_ASTC_4x4_UNORM_BLOCK",
            BandwidthFormat::Bc1 => "VK_FORMAT_BC1_RGBA_UNORM_BLOCK",
        }
    }

    fn salt(self) -> u32 {
        (self.index() as u32 + 1).wrapping_mul(0x85eb_ca6b)
    }

    /// Hash `k` of the format's data: lowbias32 of `k` plus the format's salt.
    fn hash(self, k: u32) -> u32 {
        mix32(k.wrapping_add(self.salt()))
    }

    /// Block (or texel) `b` of the image, row-major, as uploaded (its first
    /// [`BandwidthFormat::block_bytes`] bytes).
    pub fn block(self, b: u32) -> [u8; 16] {
        let words = |w: [u32; 4]| {
            let mut out = [0u8; 16];
            for (chunk, word) in out.chunks_exact_mut(4).zip(w) {
                chunk.copy_from_slice(&word.to_le_bytes());
            }
            out
        };
        let h = |k: u32| self.hash(b.wrapping_mul(4).wrapping_add(k));
        match self {
            BandwidthFormat::Rgba32f => words([0, 1, 2, 3].map(|k| shaped_f32(h(k)))),
            BandwidthFormat::Rgba16f => words([
                shaped_half(h(0)) | (shaped_half(h(1)) << 16),
                shaped_half(h(2)) | (shaped_half(h(3)) << 16),
                0,
                0,
            ]),
            BandwidthFormat::Rgba8 => words([h(0), 0, 0, 0]),
            BandwidthFormat::B10g11r11 => {
                let r = h(0);
                let (g, b) = (mix32(r ^ 0x5bd1_e995), mix32(r ^ 0x1b87_3593));
                words([
                    shaped_ufloat(r, 6) | (shaped_ufloat(g, 6) << 11) | (shaped_ufloat(b, 5) << 22),
                    0,
                    0,
                    0,
                ])
            }
            BandwidthFormat::Bc7 => bc_block(ExtraFormat::Bc7, b),
            BandwidthFormat::Bc1 => bc_block(ExtraFormat::Bc1, b),
            BandwidthFormat::Astc4x4 => astc_void_extent(h(0)),
        }
    }

    /// Writes texel rows `first_row..first_row + rows` of a `width`-wide image to `out`,
    /// tightly packed (for the compressed formats, the block rows they cover: `first_row` and
    /// `rows` are multiples of 4). `out` holds exactly those bytes.
    pub fn write_rows(self, width: u32, first_row: u32, rows: u32, out: &mut [u8]) {
        let side = self.block_side();
        let per_row = width / side;
        let first = first_row / side * per_row;
        let count = rows / side * per_row;
        let n = self.block_bytes() as usize;
        let blocks = (count as usize * n).min(out.len() / n * n);
        crate::parallel::fill_units(&mut out[..blocks], n, |start, run| {
            let start = first + start as u32;
            for (b, chunk) in (start..).zip(run.chunks_exact_mut(n)) {
                chunk.copy_from_slice(&self.block(b)[..n]);
            }
        });
    }

    /// Texel `(x, y)` of a `width`-wide image as a shader reads it.
    pub fn texel(self, width: u32, x: u32, y: u32) -> Texel {
        let side = self.block_side();
        let b = (y / side) * (width / side) + x / side;
        let within = ((y % side) * side + x % side) as usize;
        let bytes = self.block(b);
        let word = |i: usize| {
            u32::from_le_bytes([
                bytes[4 * i],
                bytes[4 * i + 1],
                bytes[4 * i + 2],
                bytes[4 * i + 3],
            ])
        };
        let exact = |value: [f32; 4]| Texel {
            value,
            slack: [0.0; 4],
        };
        match self {
            BandwidthFormat::Rgba32f => exact([0, 1, 2, 3].map(|i| f32::from_bits(word(i)))),
            BandwidthFormat::Rgba16f => exact(
                [0, 1, 2, 3]
                    .map(|c| half_to_f32(u16::from_le_bytes([bytes[2 * c], bytes[2 * c + 1]]))),
            ),
            BandwidthFormat::Rgba8 => exact([0, 1, 2, 3].map(|c| f32::from(bytes[c]) / 255.0)),
            BandwidthFormat::B10g11r11 => {
                let w = word(0);
                exact([
                    ufloat_to_f32(w & 0x7ff, 6),
                    ufloat_to_f32((w >> 11) & 0x7ff, 6),
                    ufloat_to_f32(w >> 22, 5),
                    1.0,
                ])
            }
            BandwidthFormat::Bc7 => exact(decode_bc7(&bytes)[within].map(|c| f32::from(c) / 255.0)),
            BandwidthFormat::Bc1 => {
                let mut b8 = [0u8; 8];
                b8.copy_from_slice(&bytes[..8]);
                let t = decode_bc1(&b8)[within];
                Texel {
                    value: t.value,
                    slack: t.slack,
                }
            }
            BandwidthFormat::Astc4x4 => {
                // The UNORM16 channels are v * 257 = v / 255 exactly; a decoder that returns
                // FP16 (Vulkan's default precision) rounds that by up to 2^-11 of it.
                let value = [0, 1, 2, 3].map(|c| f32::from(bytes[8 + 2 * c]) / 255.0);
                Texel {
                    value,
                    slack: value.map(|v| v / 2048.0),
                }
            }
        }
    }
}

/// A positive float of exponent -3..=4 (values 1/8..32) and a hashed 23-bit mantissa.
fn shaped_f32(r: u32) -> u32 {
    ((124 + (r >> 29)) << 23) | (r & 0x7f_ffff)
}

/// A positive half of exponent -3..=4 (values 1/8..32) and a hashed 10-bit mantissa.
fn shaped_half(r: u32) -> u32 {
    shaped_ufloat(r, 10)
}

/// An unsigned float of `mantissa_bits` mantissa bits with exponent 12..=19 of bias 15.
fn shaped_ufloat(r: u32, mantissa_bits: u32) -> u32 {
    ((12 + (r >> 29)) << mantissa_bits) | (r & ((1 << mantissa_bits) - 1))
}

/// An ASTC void-extent LDR block (block mode `0x1fc`, LDR, no extent) of one colour: the
/// bytes of `r` as UNORM16 channels `v * 257`.
fn astc_void_extent(r: u32) -> [u8; 16] {
    let mut out = [0xffu8; 16];
    out[0] = 0xfc;
    out[1] = 0xfd;
    for (c, v) in r.to_le_bytes().into_iter().enumerate() {
        let unorm16 = u16::from(v) * 257;
        out[8 + 2 * c..10 + 2 * c].copy_from_slice(&unorm16.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn sizes_names_and_tokens() {
        let bits: Vec<u32> = BandwidthFormat::ALL
            .iter()
            .map(|f| f.bits_per_texel())
            .collect();
        assert_eq!(bits, [128, 64, 32, 32, 8, 8, 4]);
        let blocks: Vec<u32> = BandwidthFormat::ALL
            .iter()
            .map(|f| f.block_bytes())
            .collect();
        assert_eq!(blocks, [16, 8, 4, 4, 16, 16, 8]);
        let tokens: HashSet<&str> = BandwidthFormat::ALL.iter().map(|f| f.id_token()).collect();
        assert_eq!(tokens.len(), 7);
        assert_eq!(BandwidthFormat::Rgba32f.image_bytes(8192, 4096), 512 << 20);
        assert_eq!(BandwidthFormat::Bc1.image_bytes(8192, 4096), 16 << 20);
        for f in BandwidthFormat::ALL {
            assert_eq!(BandwidthFormat::ALL[f.index()], f);
        }
    }

    #[test]
    fn rows_hold_the_blocks_the_texels_decode_from() {
        for f in BandwidthFormat::ALL {
            let (width, rows) = (64u32, 8u32);
            let bytes = f.image_bytes(width, rows) as usize;
            let mut all = vec![0u8; bytes];
            f.write_rows(width, 0, rows, &mut all);
            // The second half written on its own is the same bytes.
            let mut half = vec![0u8; bytes / 2];
            f.write_rows(width, 4, 4, &mut half);
            assert_eq!(&all[bytes / 2..], &half[..], "{f:?}");
            assert!(
                all.chunks(4).filter(|w| w == &[0, 0, 0, 0]).count() < 4,
                "{f:?}"
            );
        }
        // Texel (5, 6) of RGBA8 is bytes 4 * (6 * 64 + 5) of the image.
        let mut img = vec![0u8; 64 * 8 * 4];
        BandwidthFormat::Rgba8.write_rows(64, 0, 8, &mut img);
        let at = 4 * (6 * 64 + 5);
        assert_eq!(
            BandwidthFormat::Rgba8.texel(64, 5, 6).value,
            [0, 1, 2, 3].map(|c| f32::from(img[at + c]) / 255.0)
        );
    }

    #[test]
    fn texels_are_finite_bounded_and_varied() {
        for f in BandwidthFormat::ALL {
            let texels: Vec<Texel> = (0..256).map(|i| f.texel(64, i % 64, i / 64 * 3)).collect();
            let distinct: HashSet<String> =
                texels.iter().map(|t| format!("{:?}", t.value)).collect();
            // BC1 colours are cube corners and their blends: fewer distinct texels.
            let least = if f == BandwidthFormat::Bc1 { 6 } else { 12 };
            assert!(distinct.len() > least, "{f:?}: {}", distinct.len());
            for t in &texels {
                assert!(t
                    .value
                    .iter()
                    .all(|v| v.is_finite() && (0.0..32.0).contains(v)));
                assert!(t.slack.iter().all(|s| (0.0..0.04).contains(s)), "{f:?}");
            }
        }
        // Float channels lie in 1/8..32.
        for f in [BandwidthFormat::Rgba32f, BandwidthFormat::Rgba16f] {
            let t = f.texel(1024, 7, 9);
            assert!(t.value.iter().all(|v| (0.125..32.0).contains(v)), "{t:?}");
        }
    }

    #[test]
    fn astc_blocks_are_ldr_void_extent() {
        let b = BandwidthFormat::Astc4x4.block(3);
        // Block mode 0x1fc, the LDR bit clear, the two reserved bits and the extent all ones.
        let low = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        assert_eq!(low & 0x1ff, 0x1fc);
        assert_eq!((low >> 9) & 1, 0);
        assert_eq!(low >> 10, (1 << 54) - 1);
        let t = BandwidthFormat::Astc4x4.texel(64, 12, 0);
        assert_eq!(t.value[1], f32::from(b[10]) / 255.0);
        assert_eq!(u16::from_le_bytes([b[10], b[11]]), u16::from(b[10]) * 257);
    }
}
