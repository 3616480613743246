//! Pure decoders of the block-compressed formats BC1 (with alpha), BC4 and BC5 (UNORM), as the
//! Khronos Data Format Specification describes them ("S3TC" and "RGTC" chapters), for the CPU
//! model of the texture suite's block-compressed cases. BC7 is in [`crate::bc7`].
//!
//! Each 4x4 block decodes to sixteen texels in row-major order inside the block (texel
//! `x + 4 * y`). A decoded channel carries, beside its exact value, a *slack*: how far a
//! conforming decoder may be from that value. The specification describes the palette in
//! exact arithmetic, and hardware rounds it differently (endpoints expanded by bit
//! replication, interpolants computed in 8 bits with truncation or with weights out of 64):
//! - a BC1 endpoint channel that is 0 or the largest 5- or 6-bit value decodes to exactly 0 or
//!   1 everywhere (slack 0); any other endpoint channel may be off by half a UNORM8 step
//!   (slack 0.5/255);
//! - an interpolated BC1 channel (the 1/3, 2/3 and 1/2 palette entries) whose endpoints
//!   differ may be off by one UNORM8 step plus 3% of the distance between the endpoints, more
//!   than its endpoints (slack `1/255 + 0.03 |e0 - e1|` plus theirs). A blend of equal
//!   endpoints is the endpoint;
//! - a BC4/BC5 endpoint is a byte and decodes exactly; an interpolated value may be off by one
//!   UNORM8 step (slack 1/255); the 6-value mode's 0 and 1 are exact.

/// One decoded texel of a block: four channels (RGBA) and the slack of each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlockTexel {
    /// The exact value of each channel, as the specification computes it.
    pub value: [f32; 4],
    /// How far a conforming decoder may be from `value`, per channel.
    pub slack: [f32; 4],
}

/// One UNORM8 step.
const STEP: f64 = 1.0 / 255.0;

/// The share of the distance between two BC1 endpoints an interpolated channel may be off by,
/// beyond one UNORM8 step.
const BC1_BLEND_SLACK: f64 = 0.03;

/// Slack of one BC1 endpoint channel of `bits` bits holding `v`: 0 at the ends of the range.
fn endpoint_slack(v: u16, bits: u32) -> f64 {
    if v == 0 || u32::from(v) == (1 << bits) - 1 {
        0.0
    } else {
        0.5 * STEP
    }
}

/// An RGB565 colour as three exact channels and their slacks.
fn rgb565(c: u16) -> ([f64; 3], [f64; 3]) {
    let (r, g, b) = (c >> 11, (c >> 5) & 0x3f, c & 0x1f);
    (
        [
            f64::from(r) / 31.0,
            f64::from(g) / 63.0,
            f64::from(b) / 31.0,
        ],
        [
            endpoint_slack(r, 5),
            endpoint_slack(g, 6),
            endpoint_slack(b, 5),
        ],
    )
}

/// Decodes a BC1 block with alpha (`VK_FORMAT_BC1_RGBA_UNORM_BLOCK`).
///
/// Bytes 0..2 and 2..4 are the RGB565 endpoints `color0` and `color1` (little-endian), bytes
/// 4..8 the 2-bit indices (texel `i` at bits `2i..2i+2`). When `color0 > color1` the palette
/// is `color0, color1, (2 color0 + color1) / 3, (color0 + 2 color1) / 3`, all opaque; else
/// it is `color0, color1, (color0 + color1) / 2` and transparent black `(0, 0, 0, 0)`.
pub fn decode_bc1(block: &[u8; 8]) -> [BlockTexel; 16] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let indices = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    let (e0, s0) = rgb565(c0);
    let (e1, s1) = rgb565(c1);
    let opaque = |v: [f64; 3], s: [f64; 3]| BlockTexel {
        value: [v[0] as f32, v[1] as f32, v[2] as f32, 1.0],
        slack: [s[0] as f32, s[1] as f32, s[2] as f32, 0.0],
    };
    let mix = |w0: f64, w1: f64, d: f64| {
        let v = [0, 1, 2].map(|c| (w0 * e0[c] + w1 * e1[c]) / d);
        let s = [0, 1, 2].map(|c| {
            let ends = s0[c].max(s1[c]);
            if e0[c] == e1[c] {
                ends
            } else {
                ends + STEP + BC1_BLEND_SLACK * (e0[c] - e1[c]).abs()
            }
        });
        opaque(v, s)
    };
    let palette = if c0 > c1 {
        [
            opaque(e0, s0),
            opaque(e1, s1),
            mix(2.0, 1.0, 3.0),
            mix(1.0, 2.0, 3.0),
        ]
    } else {
        [
            opaque(e0, s0),
            opaque(e1, s1),
            mix(1.0, 1.0, 2.0),
            BlockTexel {
                value: [0.0; 4],
                slack: [0.0; 4],
            },
        ]
    };
    std::array::from_fn(|i| palette[((indices >> (2 * i)) & 3) as usize])
}

/// Decodes a BC4 UNORM block (`VK_FORMAT_BC4_UNORM_BLOCK`) to sixteen `(value, slack)` pairs.
///
/// Bytes 0 and 1 are the endpoints `r0` and `r1`, bytes 2..8 the 3-bit indices (texel `i` at
/// bits `3i..3i+3` of the 48-bit little-endian field). When `r0 > r1` index `k` in 2..=7 is
/// `((8 - k) r0 + (k - 1) r1) / 7`; else index `k` in 2..=5 is `((6 - k) r0 + (k - 1) r1) / 5`,
/// index 6 is 0 and index 7 is 1. Values are divided by 255.
pub fn decode_bc4(block: &[u8; 8]) -> [(f32, f32); 16] {
    let (r0, r1) = (f64::from(block[0]), f64::from(block[1]));
    let mut bits = 0u64;
    for (k, &b) in block[2..].iter().enumerate() {
        bits |= u64::from(b) << (8 * k);
    }
    let eight = block[0] > block[1];
    let value = |k: u64| -> (f64, f64) {
        match k {
            0 => (r0, 0.0),
            1 => (r1, 0.0),
            _ if eight => {
                let k = k as f64;
                (((8.0 - k) * r0 + (k - 1.0) * r1) / 7.0, 1.0)
            }
            6 => (0.0, 0.0),
            7 => (255.0, 0.0),
            _ => {
                let k = k as f64;
                (((6.0 - k) * r0 + (k - 1.0) * r1) / 5.0, 1.0)
            }
        }
    };
    std::array::from_fn(|i| {
        let (v, steps) = value((bits >> (3 * i)) & 7);
        ((v / 255.0) as f32, (steps * STEP) as f32)
    })
}

/// Decodes a BC5 UNORM block (`VK_FORMAT_BC5_UNORM_BLOCK`): a BC4 block for red (bytes 0..8)
/// and one for green (bytes 8..16); blue is 0 and alpha 1.
pub fn decode_bc5(block: &[u8; 16]) -> [BlockTexel; 16] {
    let mut red = [0u8; 8];
    let mut green = [0u8; 8];
    red.copy_from_slice(&block[..8]);
    green.copy_from_slice(&block[8..]);
    let (r, g) = (decode_bc4(&red), decode_bc4(&green));
    std::array::from_fn(|i| BlockTexel {
        value: [r[i].0, g[i].0, 0.0, 1.0],
        slack: [r[i].1, g[i].1, 0.0, 0.0],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bc1(c0: u16, c1: u16, indices: u32) -> [u8; 8] {
        let mut b = [0u8; 8];
        b[..2].copy_from_slice(&c0.to_le_bytes());
        b[2..4].copy_from_slice(&c1.to_le_bytes());
        b[4..].copy_from_slice(&indices.to_le_bytes());
        b
    }

    #[test]
    fn bc1_constant_colour_block() {
        // Pure red in both endpoints, every index 0: sixteen opaque red texels, exact.
        let texels = decode_bc1(&bc1(0xf800, 0xf800, 0));
        for t in texels {
            assert_eq!(t.value, [1.0, 0.0, 0.0, 1.0]);
            assert_eq!(t.slack, [0.0; 4]);
        }
    }

    #[test]
    fn bc1_four_colour_palette_and_index_order() {
        // White over black, texel i has index i % 4: white, black, 2/3, 1/3.
        let indices = (0..16).fold(0u32, |acc, i| acc | ((i % 4) << (2 * i)));
        let texels = decode_bc1(&bc1(0xffff, 0x0000, indices));
        let third = (1.0f64 / 3.0) as f32;
        let two_thirds = (2.0f64 / 3.0) as f32;
        assert_eq!(texels[0].value, [1.0; 4]);
        assert_eq!(texels[1].value, [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(texels[2].value, [two_thirds, two_thirds, two_thirds, 1.0]);
        assert_eq!(texels[7].value, [third, third, third, 1.0]);
        assert_eq!(texels[0].slack, [0.0; 4]);
        assert_eq!(texels[3].slack[0], (1.0f64 / 255.0 + 0.03) as f32);
        assert_eq!(texels[3].slack[3], 0.0);
    }

    #[test]
    fn bc1_blends_of_equal_endpoint_channels_are_exact() {
        // Red over black in the 4-colour mode: green and blue blend equal endpoints.
        let texels = decode_bc1(&bc1(0xf800, 0x0000, 0b10));
        let third = (1.0f64 / 3.0) as f32;
        assert_eq!(texels[0].value, [(2.0f64 / 3.0) as f32, 0.0, 0.0, 1.0]);
        assert_eq!(texels[1].value, [1.0, 0.0, 0.0, 1.0]);
        assert!(
            texels[0].slack[0] > 0.03 && texels[0].slack[1] == 0.0 && texels[0].slack[2] == 0.0
        );
        let mid = decode_bc1(&bc1(0x0000, 0x001f, 0b10))[0];
        assert_eq!(mid.value[2], 0.5);
        assert_eq!(mid.slack, [0.0, 0.0, (1.0f64 / 255.0 + 0.03) as f32, 0.0]);
        assert!(third > 0.0);
    }

    #[test]
    fn bc1_three_colour_mode_has_a_midpoint_and_transparent_black() {
        // color0 <= color1: black, blue, half blue, transparent.
        let indices = 0b11_10_01_00;
        let texels = decode_bc1(&bc1(0x0000, 0x001f, indices));
        assert_eq!(texels[0].value, [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(texels[1].value, [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(texels[2].value, [0.0, 0.0, 0.5, 1.0]);
        assert_eq!(texels[3].value, [0.0; 4]);
        assert_eq!(texels[3].slack, [0.0; 4]);
        // Equal endpoints are the three-colour mode too.
        let equal = decode_bc1(&bc1(0x07e0, 0x07e0, 3));
        assert_eq!(equal[0].value, [0.0; 4]);
        assert_eq!(equal[1].value, [0.0, 1.0, 0.0, 1.0]);
    }

    #[test]
    fn bc1_mid_range_endpoints_expand_exactly_with_slack() {
        // Red 16/31, green 32/63, blue 1/31.
        let c = (16 << 11) | (32 << 5) | 1;
        let t = decode_bc1(&bc1(c, c, 0))[0];
        assert_eq!(
            t.value,
            [
                (16.0f64 / 31.0) as f32,
                (32.0f64 / 63.0) as f32,
                (1.0f64 / 31.0) as f32,
                1.0
            ]
        );
        assert!(t.slack[..3].iter().all(|&s| s == (0.5f64 / 255.0) as f32));
    }

    fn bc4(r0: u8, r1: u8, indices: [u64; 16]) -> [u8; 8] {
        let bits = indices
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &k)| acc | (k << (3 * i)));
        let mut b = [0u8; 8];
        b[0] = r0;
        b[1] = r1;
        b[2..].copy_from_slice(&bits.to_le_bytes()[..6]);
        b
    }

    #[test]
    fn bc4_constant_and_endpoint_blocks() {
        let constant = decode_bc4(&bc4(51, 51, [0; 16]));
        assert!(constant.iter().all(|&(v, s)| v == 0.2 && s == 0.0));
        let mut idx = [0u64; 16];
        idx[15] = 1;
        let ends = decode_bc4(&bc4(255, 0, idx));
        assert_eq!(ends[0], (1.0, 0.0));
        assert_eq!(ends[15], (0.0, 0.0));
    }

    #[test]
    fn bc4_eight_value_mode() {
        // r0 = 217 > r1 = 0: index k in 2..=7 is (8 - k) * 31 / 255.
        let idx: [u64; 16] = std::array::from_fn(|i| (i % 8) as u64);
        let texels = decode_bc4(&bc4(217, 0, idx));
        for (i, &(v, s)) in texels.iter().enumerate() {
            let k = (i % 8) as u32;
            let want = match k {
                0 => 217.0,
                1 => 0.0,
                _ => f64::from(8 - k) * 31.0,
            };
            assert_eq!(v, (want / 255.0) as f32, "texel {i}");
            assert_eq!(s > 0.0, k >= 2, "texel {i}");
        }
    }

    #[test]
    fn bc4_six_value_mode() {
        // r0 = 10 <= r1 = 60: indices 2..=5 step by 10; 6 is 0 and 7 is 1.
        let idx: [u64; 16] = std::array::from_fn(|i| (i % 8) as u64);
        let texels = decode_bc4(&bc4(10, 60, idx));
        let want = [10.0, 60.0, 20.0, 30.0, 40.0, 50.0, 0.0, 255.0];
        for (i, &(v, s)) in texels.iter().enumerate() {
            assert_eq!(v, (want[i % 8] / 255.0) as f32, "texel {i}");
            assert_eq!(s > 0.0, (2..=5).contains(&(i % 8)), "texel {i}");
        }
    }

    #[test]
    fn bc5_is_two_bc4_blocks() {
        let mut block = [0u8; 16];
        block[..8].copy_from_slice(&bc4(255, 255, [0; 16]));
        block[8..].copy_from_slice(&bc4(0, 51, [1; 16]));
        for t in decode_bc5(&block) {
            assert_eq!(t.value, [1.0, 0.2, 0.0, 1.0]);
            assert_eq!(t.slack, [0.0; 4]);
        }
    }
}
