//! The texture suite's extra formats: packed, sRGB, 16-bit UNORM, unsigned integer and
//! block-compressed, with the data the suite uploads in each and the CPU model of what a
//! shader reads back.
//!
//! They are a type of their own rather than more variants of [`crate::Format`]: the nine
//! original formats are matched, indexed and laid out (`[_; 9]` tables, one 16 KB input block
//! viewed in every format) throughout the original suite, and none of that fits a format
//! without a byte-sized texel (BC), with integer results (UINT) or with data of its own. Keeping
//! them apart leaves the original suite's code and data untouched.
//!
//! Data: every extra format has its own 32x32 texture (and, for the formats a texel buffer can
//! hold, the same 1024 texels as a buffer), generated from the lowbias32 hash
//! ([`crate::mix32`]) of the word index plus a per-format salt:
//! - UNORM, sRGB, packed A2B10G10R10 and UINT texels are the hash's bytes as they come;
//! - B10G11R11 texels get exponents 12..=19 in each channel (values in 1/8..32, never infinite
//!   or NaN), mantissas from the hash;
//! - BC blocks: see [`bc_block`].

use std::sync::OnceLock;

use crate::bc::{decode_bc1, decode_bc4, decode_bc5, BlockTexel};
use crate::bc7::{decode_bc7, BlockWriter};
use crate::data::{mix32, TEXTURE_SIZE};

/// A texel format of the texture suite's format cases, beyond the original nine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExtraFormat {
    /// `B10G11R11_UFLOAT_PACK32`: unsigned 11-, 11- and 10-bit floats packed in 32 bits.
    B10g11r11,
    /// `A2B10G10R10_UNORM_PACK32`: 10-bit UNORM RGB and 2-bit UNORM alpha in 32 bits.
    A2b10g10r10,
    /// `R8G8B8A8_SRGB`: sRGB-encoded RGB (decoded to linear by the sampler), linear alpha.
    Rgba8Srgb,
    /// `R16_UNORM`.
    R16,
    /// `R16G16_UNORM`.
    Rg16,
    /// `R16G16B16A16_UNORM`.
    Rgba16,
    /// `R8_UINT`.
    R8ui,
    /// `R16_UINT`.
    R16ui,
    /// `R32_UINT`.
    R32ui,
    /// `BC1_RGBA_UNORM_BLOCK`: 8-byte blocks of 4x4 texels, RGB565 endpoints, 1-bit alpha.
    Bc1,
    /// `BC4_UNORM_BLOCK`: 8-byte blocks, one channel.
    Bc4,
    /// `BC5_UNORM_BLOCK`: 16-byte blocks, two channels.
    Bc5,
    /// `BC7_UNORM_BLOCK`: 16-byte blocks, RGBA in eight modes.
    Bc7,
}

/// What a shader reads from one texel of an extra format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TexelValue {
    /// A float format: four channels (missing ones as Vulkan fills them: 0, alpha 1) and how
    /// far a conforming implementation may be from each (see [`ExtraFormat::slack_rule`]).
    Float {
        /// The exact value per channel.
        value: [f32; 4],
        /// The allowed deviation per channel.
        slack: [f32; 4],
    },
    /// An unsigned integer format: four channels (missing ones 0, alpha 1), exact.
    Uint([u32; 4]),
}

impl ExtraFormat {
    /// Every extra format, in suite order.
    pub const ALL: [ExtraFormat; 13] = [
        ExtraFormat::B10g11r11,
        ExtraFormat::A2b10g10r10,
        ExtraFormat::Rgba8Srgb,
        ExtraFormat::R16,
        ExtraFormat::Rg16,
        ExtraFormat::Rgba16,
        ExtraFormat::R8ui,
        ExtraFormat::R16ui,
        ExtraFormat::R32ui,
        ExtraFormat::Bc1,
        ExtraFormat::Bc4,
        ExtraFormat::Bc5,
        ExtraFormat::Bc7,
    ];

    /// Position in [`ExtraFormat::ALL`].
    pub fn index(self) -> usize {
        ExtraFormat::ALL
            .iter()
            .position(|&f| f == self)
            .unwrap_or(0)
    }

    /// Channels a shader sees (the `WIDTH` the kernels widen from: 1, 2, 3 or 4).
    pub fn components(self) -> u32 {
        match self {
            ExtraFormat::R16
            | ExtraFormat::R8ui
            | ExtraFormat::R16ui
            | ExtraFormat::R32ui
            | ExtraFormat::Bc4 => 1,
            ExtraFormat::Rg16 | ExtraFormat::Bc5 => 2,
            ExtraFormat::B10g11r11 => 3,
            ExtraFormat::A2b10g10r10
            | ExtraFormat::Rgba8Srgb
            | ExtraFormat::Rgba16
            | ExtraFormat::Bc1
            | ExtraFormat::Bc7 => 4,
        }
    }

    /// True for the unsigned integer formats (read through `usampler*`, summed exactly).
    pub fn is_integer(self) -> bool {
        matches!(
            self,
            ExtraFormat::R8ui | ExtraFormat::R16ui | ExtraFormat::R32ui
        )
    }

    /// Bytes of one 4x4 block of a block-compressed format; `None` for the others.
    pub fn block_bytes(self) -> Option<u32> {
        match self {
            ExtraFormat::Bc1 | ExtraFormat::Bc4 => Some(8),
            ExtraFormat::Bc5 | ExtraFormat::Bc7 => Some(16),
            _ => None,
        }
    }

    /// True for the block-compressed formats (textures only; no texel buffer holds them).
    pub fn is_compressed(self) -> bool {
        self.block_bytes().is_some()
    }

    /// Bytes of one texel of an uncompressed format; `None` for block-compressed formats.
    pub fn texel_bytes(self) -> Option<u32> {
        match self {
            ExtraFormat::R8ui => Some(1),
            ExtraFormat::R16 | ExtraFormat::R16ui => Some(2),
            ExtraFormat::B10g11r11
            | ExtraFormat::A2b10g10r10
            | ExtraFormat::Rgba8Srgb
            | ExtraFormat::Rg16
            | ExtraFormat::R32ui => Some(4),
            ExtraFormat::Rgba16 => Some(8),
            _ => None,
        }
    }

    /// The bytes a case counts per load: the texel's size; for a block-compressed format the
    /// size of the UNORM8 texel it decodes to (BC1 and BC7 4, BC4 1, BC5 2), since a texel
    /// takes half a byte (BC1, BC4) or one byte (BC5, BC7) of the block.
    pub fn load_bytes(self) -> u32 {
        self.texel_bytes().unwrap_or_else(|| self.components())
    }

    /// The name case names use (`B10G11R11F`, `RGBA8_SRGB`, `R16UI`, `BC7`).
    pub fn name(self) -> &'static str {
        match self {
            ExtraFormat::B10g11r11 => "B10G11R11F",
            ExtraFormat::A2b10g10r10 => "A2B10G10R10",
            ExtraFormat::Rgba8Srgb => "RGBA8_SRGB",
            ExtraFormat::R16 => "R16",
            ExtraFormat::Rg16 => "RG16",
            ExtraFormat::Rgba16 => "RGBA16",
            ExtraFormat::R8ui => "R8UI",
            ExtraFormat::R16ui => "R16UI",
            ExtraFormat::R32ui => "R32UI",
            ExtraFormat::Bc1 => "BC1",
            ExtraFormat::Bc4 => "BC4",
            ExtraFormat::Bc5 => "BC5",
            ExtraFormat::Bc7 => "BC7",
        }
    }

    /// Lower-case token used in case ids (`b10g11r11f`, `rgba8srgb`, `r16ui`, `bc7`).
    pub fn id_token(self) -> &'static str {
        match self {
            ExtraFormat::B10g11r11 => "b10g11r11f",
            ExtraFormat::A2b10g10r10 => "a2b10g10r10",
            ExtraFormat::Rgba8Srgb => "rgba8srgb",
            ExtraFormat::R16 => "r16",
            ExtraFormat::Rg16 => "rg16",
            ExtraFormat::Rgba16 => "rgba16",
            ExtraFormat::R8ui => "r8ui",
            ExtraFormat::R16ui => "r16ui",
            ExtraFormat::R32ui => "r32ui",
            ExtraFormat::Bc1 => "bc1",
            ExtraFormat::Bc4 => "bc4",
            ExtraFormat::Bc5 => "bc5",
            ExtraFormat::Bc7 => "bc7",
        }
    }

    /// The Vulkan format's name (for messages).
    pub fn vk_name(self) -> &'static str {
        match self {
            ExtraFormat::B10g11r11 => "VK_FORMAT_B10G11R11_UFLOAT_PACK32",
            ExtraFormat::A2b10g10r10 => "VK_FORMAT_A2B10G10R10_UNORM_PACK32",
            ExtraFormat::Rgba8Srgb => "VK_FORMAT_R8G8B8A8_SRGB",
            ExtraFormat::R16 => "VK_FORMAT_R16_UNORM",
            ExtraFormat::Rg16 => "VK_FORMAT_R16G16_UNORM",
            ExtraFormat::Rgba16 => "VK_FORMAT_R16G16B16A16_UNORM",
            ExtraFormat::R8ui => "VK_FORMAT_R8_UINT",
            ExtraFormat::R16ui => "VK_FORMAT_R16_UINT",
            ExtraFormat::R32ui => "VK_FORMAT_R32_UINT",
            ExtraFormat::Bc1 => "VK_FORMAT_BC1_RGBA_UNORM_BLOCK",
            ExtraFormat::Bc4 => "VK_FORMAT_BC4_UNORM_BLOCK",
            ExtraFormat::Bc5 => "VK_FORMAT_BC5_UNORM_BLOCK",
            ExtraFormat::Bc7 => "VK_FORMAT_BC7_UNORM_BLOCK",
        }
    }

    /// How far a conforming implementation may be from the exact value, in words (module docs
    /// and reports).
    pub fn slack_rule(self) -> &'static str {
        match self {
            ExtraFormat::Rgba8Srgb => {
                "RGB within half an sRGB code step of the exact decode (Direct3D's rule; a \
                 single wrong texel can hide in a sum, a missing or wrong decode cannot)"
            }
            ExtraFormat::Bc1 => {
                "an interpolated channel within one UNORM8 step plus 3% of the distance \
                 between its endpoints (a blend of equal endpoints exactly), a channel of an \
                 endpoint that is neither 0 nor the largest value within half a step"
            }
            ExtraFormat::Bc4 | ExtraFormat::Bc5 => {
                "an interpolated value within one UNORM8 step (1/255); endpoints exact"
            }
            ExtraFormat::Bc7 => "exact (BC7 decoding is integer arithmetic)",
            ExtraFormat::R8ui | ExtraFormat::R16ui | ExtraFormat::R32ui => "exact (integers)",
            _ => "exact (the default tolerance covers float rounding)",
        }
    }

    /// The bytes uploaded for the 32x32 texture (and, for uncompressed formats, the texel
    /// buffer): 1024 texels row-major, or the 8x8 blocks row-major (generated once).
    pub fn data(self) -> &'static [u8] {
        static DATA: [OnceLock<Vec<u8>>; 13] = [const { OnceLock::new() }; 13];
        DATA[self.index()].get_or_init(|| generate(self))
    }

    /// The 1024 texels of the 32x32 texture as a shader reads them, row-major (texel
    /// `x + 32 y`; for uncompressed formats also buffer element `x + 32 y`), decoded once.
    pub fn texels(self) -> &'static [TexelValue] {
        static TEXELS: [OnceLock<Vec<TexelValue>>; 13] = [const { OnceLock::new() }; 13];
        TEXELS[self.index()].get_or_init(|| decode_all(self))
    }
}

/// Texels in the 32x32 texture.
const TEXELS: u32 = TEXTURE_SIZE * TEXTURE_SIZE;

/// Word `i` of an extra format's raw data: lowbias32 of `i` plus the format's salt.
fn raw_word(format: ExtraFormat, i: u32) -> u32 {
    let salt = (format.index() as u32 + 1).wrapping_mul(0x9e37_79b9);
    mix32(i.wrapping_add(salt))
}

/// An unsigned float of `mantissa_bits` mantissa bits with exponent 12..=19 and mantissa from
/// `r` (value `2^(e - 15) (1 + m / 2^mantissa_bits)`, in 1/8..32).
fn shaped_ufloat(r: u32, mantissa_bits: u32) -> u32 {
    let exponent = 12 + (r >> 29);
    (exponent << mantissa_bits) | (r & ((1 << mantissa_bits) - 1))
}

fn generate(format: ExtraFormat) -> Vec<u8> {
    if let Some(block_bytes) = format.block_bytes() {
        let blocks = TEXELS / 16;
        return (0..blocks)
            .flat_map(|b| bc_block(format, b).into_iter().take(block_bytes as usize))
            .collect();
    }
    let bytes = TEXELS * format.texel_bytes().unwrap_or(4);
    let words = bytes.div_ceil(4);
    let mut out: Vec<u8> = (0..words)
        .flat_map(|i| {
            let r = raw_word(format, i);
            let w = if format == ExtraFormat::B10g11r11 {
                let (a, b, c) = (r, mix32(r ^ 0x5bd1_e995), mix32(r ^ 0x1b87_3593));
                shaped_ufloat(a, 6) | (shaped_ufloat(b, 6) << 11) | (shaped_ufloat(c, 5) << 22)
            } else {
                r
            };
            w.to_le_bytes()
        })
        .collect();
    out.truncate(bytes as usize);
    out
}

/// Block `b` of a block-compressed format's texture (16 bytes; BC1 and BC4 use the first 8),
/// from the hashes `h(k) = lowbias32(b * 16 + k + salt)`:
/// - BC1: endpoints are two different corners of the RGB cube (every channel 0 or the largest
///   value, so they decode exactly everywhere); three blocks in four use the 4-colour mode
///   (`color0 > color1`), the rest the 3-colour mode with transparent black. A texel takes an
///   interpolated palette entry with probability 1/64 (and, in the 3-colour mode, transparent
///   black with probability 1/8), else one of the endpoints: the CPU model is exact for
///   endpoints and allows one UNORM8 step plus 3% of the endpoints' distance (0.034 for the
///   corners' full distance) for interpolated channels, so keeping them rare keeps the summed
///   allowance (about 0.1 over a thread's 256 loads) below the change one wrong texel makes.
/// - BC4 (and each half of BC5): endpoint bytes from the hash, three blocks in four in the
///   8-value mode (`r0 > r1`), the rest in the 6-value mode; a texel takes an interpolated
///   index with probability 1/16 (and, in the 6-value mode, the constants 0 or 1 with
///   probability 1/8), else an endpoint.
/// - BC7: the mode is `b % 8` (every mode, eight blocks each) and every other bit comes from
///   the hash: random fields are valid in every mode, and BC7 decodes exactly.
pub fn bc_block(format: ExtraFormat, b: u32) -> [u8; 16] {
    let h = |k: u32| raw_word(format, b * 16 + k);
    match format {
        ExtraFormat::Bc1 => {
            let mut out = [0u8; 16];
            out[..8].copy_from_slice(&bc1_block(h));
            out
        }
        ExtraFormat::Bc4 => {
            let mut out = [0u8; 16];
            out[..8].copy_from_slice(&bc4_block(h, 0));
            out
        }
        ExtraFormat::Bc5 => {
            let mut out = [0u8; 16];
            out[..8].copy_from_slice(&bc4_block(h, 0));
            out[8..].copy_from_slice(&bc4_block(h, 8));
            out
        }
        _ => bc7_block(b % 8, h),
    }
}

/// An RGB565 corner of the RGB cube: bit 0 red, bit 1 green, bit 2 blue.
fn corner(c: u32) -> u16 {
    let mut v = 0u16;
    if c & 1 != 0 {
        v |= 0xf800;
    }
    if c & 2 != 0 {
        v |= 0x07e0;
    }
    if c & 4 != 0 {
        v |= 0x001f;
    }
    v
}

fn bc1_block(h: impl Fn(u32) -> u32) -> [u8; 8] {
    let r = h(0);
    let a = corner(r & 7);
    // A different corner: add 1..=7 modulo 8.
    let b = corner(((r & 7) + 1 + ((r >> 3) % 7)) & 7);
    let four = (r >> 8) & 3 != 0;
    let (c0, c1) = if four {
        (a.max(b), a.min(b))
    } else {
        (a.min(b), a.max(b))
    };
    let mut indices = 0u32;
    for i in 0..16 {
        let t = h(1 + i);
        let index = match (t & 63, four) {
            (0, true) => 2 + ((t >> 6) & 1),
            (0, false) => 2,
            (1..=8, false) => 3,
            _ => (t >> 6) & 1,
        };
        indices |= index << (2 * i);
    }
    let mut out = [0u8; 8];
    out[..2].copy_from_slice(&c0.to_le_bytes());
    out[2..4].copy_from_slice(&c1.to_le_bytes());
    out[4..].copy_from_slice(&indices.to_le_bytes());
    out
}

fn bc4_block(h: impl Fn(u32) -> u32, salt: u32) -> [u8; 8] {
    let r = mix32(h(0) ^ salt);
    let (x, y) = ((r & 0xff) as u8, ((r >> 8) & 0xff) as u8);
    let (x, y) = if x == y { (x, y ^ 0x80) } else { (x, y) };
    let eight = (r >> 16) & 3 != 0;
    let (r0, r1) = if eight {
        (x.max(y), x.min(y))
    } else {
        (x.min(y), x.max(y))
    };
    let mut bits = 0u64;
    for i in 0..16u32 {
        let t = mix32(h(1 + i) ^ salt);
        let index = match (t & 15, eight) {
            (0, true) => 2 + (t >> 4) % 6,
            (0, false) => 2 + (t >> 4) % 4,
            (1 | 2, false) => 6 + ((t >> 4) & 1),
            _ => (t >> 4) & 1,
        };
        bits |= u64::from(index) << (3 * i);
    }
    let mut out = [0u8; 8];
    out[0] = r0;
    out[1] = r1;
    out[2..].copy_from_slice(&bits.to_le_bytes()[..6]);
    out
}

fn bc7_block(mode: u32, h: impl Fn(u32) -> u32) -> [u8; 16] {
    // The mode bits, then 32-bit hashes until the block is full.
    let mut w = BlockWriter::new(mode);
    let mut left = 128 - (mode + 1);
    let mut k = 0;
    while left > 0 {
        let n = left.min(32);
        w.write(h(k), n);
        left -= n;
        k += 1;
    }
    w.bytes()
}

/// An unsigned float of `mantissa_bits` mantissa bits and a 5-bit exponent (bias 15), as in
/// `B10G11R11_UFLOAT_PACK32`.
pub fn ufloat_to_f32(bits: u32, mantissa_bits: u32) -> f32 {
    let m = f64::from(bits & ((1 << mantissa_bits) - 1));
    let scale = f64::from(1u32 << mantissa_bits);
    let e = (bits >> mantissa_bits) & 0x1f;
    let v = match e {
        0 => m / scale * 2f64.powi(-14),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / scale) * 2f64.powi(e as i32 - 15),
    };
    v as f32
}

/// The sRGB EOTF on an 8-bit code (the Khronos Data Format Specification's
/// `KHR_DF_TRANSFER_SRGB`): `c / 12.92` for `c <= 0.04045`, else `((c + 0.055) / 1.055)^2.4`,
/// with `c = code / 255`, computed in f64 and rounded to f32.
pub fn srgb_to_linear(code: u8) -> f32 {
    srgb_eotf(f64::from(code)) as f32
}

/// The sRGB EOTF of a (possibly fractional) code in 0..=255.
fn srgb_eotf(code: f64) -> f64 {
    let c = code.clamp(0.0, 255.0) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// How far a decoded sRGB channel may be from [`srgb_to_linear`]: half an sRGB code step
/// (the larger of `L(code + 1/2) - L(code)` and `L(code) - L(code - 1/2)`). Vulkan states no
/// precision for the decode; this is Direct3D's rule for sRGB-to-float conversion, which
/// drivers follow (lavapipe's cubic approximation stays within 0.35 of a code).
pub fn srgb_slack(code: u8) -> f32 {
    let c = f64::from(code);
    let l = srgb_eotf(c);
    (srgb_eotf(c + 0.5) - l).max(l - srgb_eotf(c - 0.5)) as f32
}

fn word(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 4) {
        Some(w) => u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
        None => 0,
    }
}

fn half(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 2) {
        Some(h) => u32::from(u16::from_le_bytes([h[0], h[1]])),
        None => 0,
    }
}

/// Fills the channels a format lacks as Vulkan does (0, alpha 1).
fn fill(channels: &[f32]) -> [f32; 4] {
    let mut v = [0.0, 0.0, 0.0, 1.0];
    v[..channels.len()].copy_from_slice(channels);
    v
}

fn exact(channels: &[f32]) -> TexelValue {
    TexelValue::Float {
        value: fill(channels),
        slack: [0.0; 4],
    }
}

/// Decodes uncompressed texel `t` of `format` from `bytes`.
fn decode_texel(format: ExtraFormat, bytes: &[u8], t: usize) -> TexelValue {
    let n = format.components() as usize;
    let unorm16 = |c: usize| half(bytes, 2 * (t * n + c));
    match format {
        ExtraFormat::B10g11r11 => {
            let w = word(bytes, 4 * t);
            exact(&[
                ufloat_to_f32(w & 0x7ff, 6),
                ufloat_to_f32((w >> 11) & 0x7ff, 6),
                ufloat_to_f32(w >> 22, 5),
            ])
        }
        ExtraFormat::A2b10g10r10 => {
            let w = word(bytes, 4 * t);
            let ten = |s: u32| (f64::from((w >> s) & 0x3ff) / 1023.0) as f32;
            exact(&[ten(0), ten(10), ten(20), (f64::from(w >> 30) / 3.0) as f32])
        }
        ExtraFormat::Rgba8Srgb => {
            let b = |c: usize| bytes.get(4 * t + c).copied().unwrap_or(0);
            let rgb = [0, 1, 2].map(|c| srgb_to_linear(b(c)));
            let slack = [0, 1, 2].map(|c| srgb_slack(b(c)));
            TexelValue::Float {
                value: [rgb[0], rgb[1], rgb[2], f32::from(b(3)) / 255.0],
                slack: [slack[0], slack[1], slack[2], 0.0],
            }
        }
        ExtraFormat::R16 | ExtraFormat::Rg16 | ExtraFormat::Rgba16 => {
            let channels: Vec<f32> = (0..n)
                .map(|c| (f64::from(unorm16(c)) / 65535.0) as f32)
                .collect();
            exact(&channels)
        }
        ExtraFormat::R8ui => {
            TexelValue::Uint([u32::from(bytes.get(t).copied().unwrap_or(0)), 0, 0, 1])
        }
        ExtraFormat::R16ui => TexelValue::Uint([half(bytes, 2 * t), 0, 0, 1]),
        ExtraFormat::R32ui => TexelValue::Uint([word(bytes, 4 * t), 0, 0, 1]),
        ExtraFormat::Bc1 | ExtraFormat::Bc4 | ExtraFormat::Bc5 | ExtraFormat::Bc7 => {
            exact(&[f32::NAN; 4])
        }
    }
}

fn block_texel(t: BlockTexel) -> TexelValue {
    TexelValue::Float {
        value: t.value,
        slack: t.slack,
    }
}

/// Decodes one block of a block-compressed format to sixteen texels.
fn decode_block(format: ExtraFormat, block: &[u8]) -> [TexelValue; 16] {
    let mut b8 = [0u8; 8];
    let mut b16 = [0u8; 16];
    let n = block.len().min(16);
    b16[..n].copy_from_slice(&block[..n]);
    b8.copy_from_slice(&b16[..8]);
    match format {
        ExtraFormat::Bc1 => decode_bc1(&b8).map(block_texel),
        ExtraFormat::Bc4 => decode_bc4(&b8).map(|(v, s)| TexelValue::Float {
            value: [v, 0.0, 0.0, 1.0],
            slack: [s, 0.0, 0.0, 0.0],
        }),
        ExtraFormat::Bc5 => decode_bc5(&b16).map(block_texel),
        _ => decode_bc7(&b16).map(|t| exact(&t.map(|c| f32::from(c) / 255.0))),
    }
}

fn decode_all(format: ExtraFormat) -> Vec<TexelValue> {
    let bytes = format.data();
    let Some(block_bytes) = format.block_bytes() else {
        return (0..TEXELS as usize)
            .map(|t| decode_texel(format, bytes, t))
            .collect();
    };
    let per_row = (TEXTURE_SIZE / 4) as usize;
    let blocks: Vec<[TexelValue; 16]> = bytes
        .chunks_exact(block_bytes as usize)
        .map(|b| decode_block(format, b))
        .collect();
    (0..TEXELS as usize)
        .map(|t| {
            let (x, y) = (t % TEXTURE_SIZE as usize, t / TEXTURE_SIZE as usize);
            let block = (y / 4) * per_row + x / 4;
            blocks
                .get(block)
                .map_or(exact(&[f32::NAN; 4]), |b| b[(y % 4) * 4 + x % 4])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_tokens_and_sizes() {
        let tokens: HashSet<&str> = ExtraFormat::ALL.iter().map(|f| f.id_token()).collect();
        assert_eq!(tokens.len(), 13);
        for f in ExtraFormat::ALL {
            assert_eq!(f.id_token(), f.id_token().to_lowercase());
            assert_eq!(ExtraFormat::ALL[f.index()], f);
            assert_eq!(f.is_compressed(), f.texel_bytes().is_none());
            let want = match f.block_bytes() {
                Some(b) => 64 * b as usize,
                None => 1024 * f.texel_bytes().unwrap_or(0) as usize,
            };
            assert_eq!(f.data().len(), want, "{f:?}");
            assert_eq!(f.texels().len(), 1024, "{f:?}");
        }
        let loads: Vec<u32> = ExtraFormat::ALL.iter().map(|f| f.load_bytes()).collect();
        assert_eq!(loads, [4, 4, 4, 2, 4, 8, 1, 2, 4, 4, 1, 2, 4]);
    }

    #[test]
    fn ufloat_known_values() {
        assert_eq!(ufloat_to_f32(15 << 6, 6), 1.0);
        assert_eq!(ufloat_to_f32((16 << 6) | 32, 6), 3.0);
        assert_eq!(ufloat_to_f32((14 << 5) | 16, 5), 0.75);
        assert_eq!(ufloat_to_f32(1, 6), 2f32.powi(-20));
        assert_eq!(ufloat_to_f32(0x7bf, 6), 65024.0);
        assert!(ufloat_to_f32(31 << 6, 6).is_infinite());
        assert!(ufloat_to_f32((31 << 5) | 1, 5).is_nan());
    }

    #[test]
    fn srgb_decode_known_values() {
        assert_eq!(srgb_to_linear(0), 0.0);
        assert_eq!(srgb_to_linear(255), 1.0);
        // 10/255 = 0.0392 is on the linear segment.
        assert_eq!(srgb_to_linear(10), (10.0f64 / 255.0 / 12.92) as f32);
        // The midpoint code 188 is about 0.5029 in linear light.
        assert!((srgb_to_linear(188) - 0.502_886).abs() < 1e-5);
        assert!((1..=255u8).all(|c| srgb_to_linear(c) > srgb_to_linear(c - 1)));
        // Half a code: about 0.0089 / 2 at the top, 1 / (2 * 255 * 12.92) at the bottom.
        assert!((srgb_slack(255) - 0.00445).abs() < 1e-4);
        assert!((srgb_slack(0) - (0.5 / 255.0 / 12.92) as f32).abs() < 1e-7);
        assert!((1..=255u8).all(|c| srgb_slack(c) < 0.005));
    }

    #[test]
    fn packed_and_unorm16_texels_decode_exactly() {
        // Texel 0 of each format, decoded by hand from its bytes.
        let w = word(ExtraFormat::B10g11r11.data(), 0);
        let TexelValue::Float { value, slack } = ExtraFormat::B10g11r11.texels()[0] else {
            unreachable!()
        };
        assert_eq!(value[0], ufloat_to_f32(w & 0x7ff, 6));
        assert_eq!(value[2], ufloat_to_f32(w >> 22, 5));
        assert_eq!((value[3], slack), (1.0, [0.0; 4]));
        let w = word(ExtraFormat::A2b10g10r10.data(), 4 * 5);
        let TexelValue::Float { value, .. } = ExtraFormat::A2b10g10r10.texels()[5] else {
            unreachable!()
        };
        assert_eq!(value[1], ((w >> 10) & 0x3ff) as f32 / 1023.0);
        assert_eq!(value[3], (w >> 30) as f32 / 3.0);
        let d = ExtraFormat::Rg16.data();
        let TexelValue::Float { value, .. } = ExtraFormat::Rg16.texels()[3] else {
            unreachable!()
        };
        assert_eq!(value[1], (half(d, 14) as f64 / 65535.0) as f32);
        assert_eq!((value[2], value[3]), (0.0, 1.0));
        let d = ExtraFormat::Rgba16.data();
        let TexelValue::Float { value, .. } = ExtraFormat::Rgba16.texels()[2] else {
            unreachable!()
        };
        assert_eq!(value[3], (half(d, 16 + 6) as f64 / 65535.0) as f32);
    }

    #[test]
    fn generated_data_is_finite_and_varied() {
        for f in ExtraFormat::ALL {
            let texels = f.texels();
            let distinct: HashSet<String> = texels.iter().map(|t| format!("{t:?}")).collect();
            // BC1 colours are cube corners and their blends: fewer distinct texels.
            let least = if f == ExtraFormat::Bc1 { 12 } else { 50 };
            assert!(distinct.len() > least, "{f:?}: {}", distinct.len());
            for t in texels {
                if let TexelValue::Float { value, slack } = t {
                    assert!(value.iter().all(|v| v.is_finite()), "{f:?}");
                    assert!(slack.iter().all(|s| (0.0..0.04).contains(s)), "{f:?}");
                }
            }
        }
        // B10G11R11 values stay in 1/8..32.
        for t in ExtraFormat::B10g11r11.texels() {
            if let TexelValue::Float { value, .. } = t {
                assert!(value[..3].iter().all(|v| (0.125..32.0).contains(v)));
            }
        }
        // Integers take their full range.
        let top = ExtraFormat::R32ui
            .texels()
            .iter()
            .filter(|t| matches!(t, TexelValue::Uint(w) if w[0] >= 1 << 31))
            .count();
        assert!((400..624).contains(&top), "{top}");
    }

    #[test]
    fn generated_blocks_use_every_mode_and_keep_interpolation_rare() {
        // BC7: blocks b and b + 8 share the mode b % 8.
        let modes: Vec<u32> = (0..64)
            .map(|b| bc_block(ExtraFormat::Bc7, b)[0].trailing_zeros())
            .collect();
        assert!((0..64).all(|b| modes[b] == (b as u32) % 8));
        // BC1: both modes occur; about 1/8 of the texels carry slack.
        let bc1: Vec<[u8; 16]> = (0..64).map(|b| bc_block(ExtraFormat::Bc1, b)).collect();
        let four = bc1
            .iter()
            .filter(|b| u16::from_le_bytes([b[0], b[1]]) > u16::from_le_bytes([b[2], b[3]]))
            .count();
        assert!((32..64).contains(&four), "{four}");
        for (f, least, most) in [
            (ExtraFormat::Bc1, 6, 40),
            (ExtraFormat::Bc4, 32, 110),
            (ExtraFormat::Bc5, 64, 220),
        ] {
            let with_slack = f
                .texels()
                .iter()
                .filter(|t| matches!(t, TexelValue::Float { slack, .. } if slack.iter().any(|&s| s > 0.0)))
                .count();
            assert!((least..most).contains(&with_slack), "{f:?}: {with_slack}");
        }
        // BC1 endpoints are cube corners: every texel channel is 0, 1/3, 1/2, 2/3 or 1.
        let allowed = [0.0, 1.0 / 3.0, 0.5, 2.0 / 3.0, 1.0].map(|v: f64| v as f32);
        for t in ExtraFormat::Bc1.texels() {
            if let TexelValue::Float { value, .. } = t {
                assert!(value.iter().all(|v| allowed.contains(v)), "{value:?}");
            }
        }
        // Transparent texels occur (3-colour mode, index 3).
        assert!(ExtraFormat::Bc1
            .texels()
            .iter()
            .any(|t| matches!(t, TexelValue::Float { value, .. } if value[3] == 0.0)));
    }

    #[test]
    fn block_texels_land_at_their_image_position() {
        // Texel (5, 9) is texel (1, 1) of block (1, 2) = block 17.
        let block = bc_block(ExtraFormat::Bc7, 17);
        let want = decode_bc7(&block)[5];
        let TexelValue::Float { value, .. } = ExtraFormat::Bc7.texels()[9 * 32 + 5] else {
            unreachable!()
        };
        assert_eq!(value, want.map(|c| f32::from(c) / 255.0));
    }
}
