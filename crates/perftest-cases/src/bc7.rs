//! A pure decoder of BC7 (`VK_FORMAT_BC7_UNORM_BLOCK`, "BPTC" in the Khronos Data Format
//! Specification and `ARB_texture_compression_bptc`): all eight modes, with their partitions,
//! anchor indices, P-bits, rotations and index selection.
//!
//! BC7 decoding is exact integer arithmetic (every interpolation is
//! `((64 - w) e0 + w e1 + 32) >> 6` on 8-bit endpoints), so a decoded texel is four bytes and a
//! conforming decoder returns exactly these bytes.

/// Per mode: subsets, partition bits, rotation bits, index-selection bits, colour bits, alpha
/// bits, per-endpoint P-bits, shared P-bits, index bits, secondary index bits (the
/// specification's Table.M).
#[derive(Clone, Copy)]
struct Mode {
    subsets: usize,
    partition_bits: u32,
    rotation_bits: u32,
    selection_bits: u32,
    color_bits: u32,
    alpha_bits: u32,
    endpoint_pbits: bool,
    shared_pbits: bool,
    index_bits: u32,
    index2_bits: u32,
}

const fn mode(f: [u32; 10]) -> Mode {
    Mode {
        subsets: f[0] as usize,
        partition_bits: f[1],
        rotation_bits: f[2],
        selection_bits: f[3],
        color_bits: f[4],
        alpha_bits: f[5],
        endpoint_pbits: f[6] == 1,
        shared_pbits: f[7] == 1,
        index_bits: f[8],
        index2_bits: f[9],
    }
}

const MODES: [Mode; 8] = [
    mode([3, 4, 0, 0, 4, 0, 1, 0, 3, 0]),
    mode([2, 6, 0, 0, 6, 0, 0, 1, 3, 0]),
    mode([3, 6, 0, 0, 5, 0, 0, 0, 2, 0]),
    mode([2, 6, 0, 0, 7, 0, 1, 0, 2, 0]),
    mode([1, 0, 2, 1, 5, 6, 0, 0, 2, 3]),
    mode([1, 0, 2, 0, 7, 8, 0, 0, 2, 2]),
    mode([1, 0, 0, 0, 7, 7, 1, 0, 4, 0]),
    mode([2, 6, 0, 0, 5, 5, 1, 0, 2, 0]),
];

/// Interpolation weights (out of 64) for 2-, 3- and 4-bit indices.
const WEIGHTS_2: [u32; 4] = [0, 21, 43, 64];
const WEIGHTS_3: [u32; 8] = [0, 9, 18, 27, 37, 46, 55, 64];
const WEIGHTS_4: [u32; 16] = [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64];

/// Subset of each texel (`x + 4 y`) in the 64 two-subset partitions (Table.P2).
const PARTITIONS_2: [&str; 64] = [
    "0011001100110011",
    "0001000100010001",
    "0111011101110111",
    "0001001100110111",
    "0000000100010011",
    "0011011101111111",
    "0001001101111111",
    "0000000100110111",
    "0000000000010011",
    "0011011111111111",
    "0000000101111111",
    "0000000000010111",
    "0001011111111111",
    "0000000011111111",
    "0000111111111111",
    "0000000000001111",
    "0000100011101111",
    "0111000100000000",
    "0000000010001110",
    "0111001100010000",
    "0011000100000000",
    "0000100011001110",
    "0000000010001100",
    "0111001100110001",
    "0011000100010000",
    "0000100010001100",
    "0110011001100110",
    "0011011001101100",
    "0001011111101000",
    "0000111111110000",
    "0111000110001110",
    "0011100110011100",
    "0101010101010101",
    "0000111100001111",
    "0101101001011010",
    "0011001111001100",
    "0011110000111100",
    "0101010110101010",
    "0110100101101001",
    "0101101010100101",
    "0111001111001110",
    "0001001111001000",
    "0011001001001100",
    "0011101111011100",
    "0110100110010110",
    "0011110011000011",
    "0110011010011001",
    "0000011001100000",
    "0100111001000000",
    "0010011100100000",
    "0000001001110010",
    "0000010011100100",
    "0110110010010011",
    "0011011011001001",
    "0110001110011100",
    "0011100111000110",
    "0110110011001001",
    "0110001100111001",
    "0111111010000001",
    "0001100011100111",
    "0000111100110011",
    "0011001111110000",
    "0010001011101110",
    "0100010001110111",
];
/// Subset of each texel in the 64 three-subset partitions (Table.P3).
const PARTITIONS_3: [&str; 64] = [
    "0011001102212222",
    "0001001122112221",
    "0000200122112211",
    "0222002200110111",
    "0000000011221122",
    "0011001100220022",
    "0022002211111111",
    "0011001122112211",
    "0000000011112222",
    "0000111111112222",
    "0000111122222222",
    "0012001200120012",
    "0112011201120112",
    "0122012201220122",
    "0011011211221222",
    "0011200122002220",
    "0001001101121122",
    "0111001120012200",
    "0000112211221122",
    "0022002200221111",
    "0111011102220222",
    "0001000122212221",
    "0000001101220122",
    "0000110022102210",
    "0122012200110000",
    "0012001211222222",
    "0110122112210110",
    "0000011012211221",
    "0022110211020022",
    "0110011020022222",
    "0011012201220011",
    "0000200022112221",
    "0000000211221222",
    "0222002200120011",
    "0011001200220222",
    "0120012001200120",
    "0000111122220000",
    "0120120120120120",
    "0120201212010120",
    "0011220011220011",
    "0011112222000011",
    "0101010122222222",
    "0000000021212121",
    "0022112200221122",
    "0022001100220011",
    "0220122102201221",
    "0101222222220101",
    "0000212121212121",
    "0101010101012222",
    "0222011102220111",
    "0002111200021112",
    "0000211221122112",
    "0222011101110222",
    "0002111211120002",
    "0110011001102222",
    "0000000021122112",
    "0110011022222222",
    "0022001100110022",
    "0022112211220022",
    "0000000000002112",
    "0002000100020001",
    "0222122202221222",
    "0101222222222222",
    "0111201122012220",
];
/// Anchor texel of the second subset of each two-subset partition (Table.A2).
const ANCHOR_2: [u8; 64] = [
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2, 8, 2, 2, 8, 8, 15, 2, 8,
    2, 2, 8, 8, 2, 2, 15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6, 6, 2, 6, 8, 15, 15, 2,
    2, 15, 15, 15, 15, 15, 2, 2, 15,
];
/// Anchor texel of the second subset of each three-subset partition (Table.A3a).
const ANCHOR_3_SECOND: [u8; 64] = [
    3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, 3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5,
    15, 15, 8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15, 3, 15, 5, 5, 5, 8, 5, 10, 5,
    10, 8, 13, 15, 12, 3, 3,
];
/// Anchor texel of the third subset of each three-subset partition (Table.A3b).
const ANCHOR_3_THIRD: [u8; 64] = [
    15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6,
    10, 15, 15, 10, 8, 15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8, 15, 3, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
];

/// Reads the block's bits from the lowest (bit 0 of byte 0) up.
struct Bits {
    block: u128,
    at: u32,
}

impl Bits {
    fn read(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let v = (self.block >> self.at) as u32 & ((1u32 << n) - 1);
        self.at += n;
        v
    }
}

/// The subset of texel `i` under `partition` of a mode with `subsets` subsets.
fn subset_of(subsets: usize, partition: usize, i: usize) -> usize {
    let row = match subsets {
        2 => PARTITIONS_2[partition & 63],
        3 => PARTITIONS_3[partition & 63],
        _ => return 0,
    };
    usize::from(row.as_bytes()[i] - b'0')
}

/// Whether texel `i` is the anchor of its subset (its index has one bit less).
fn is_anchor(subsets: usize, partition: usize, i: usize) -> bool {
    let p = partition & 63;
    i == 0
        || match subsets {
            2 => i == usize::from(ANCHOR_2[p]),
            3 => i == usize::from(ANCHOR_3_SECOND[p]) || i == usize::from(ANCHOR_3_THIRD[p]),
            _ => false,
        }
}

/// Expands a `bits`-bit value to 8 bits by replicating its top bits.
fn expand(v: u32, bits: u32) -> u32 {
    let v = v << (8 - bits);
    v | (v >> bits)
}

/// `((64 - w) e0 + w e1 + 32) >> 6` with the weight of `index` for `bits`-bit indices.
fn interpolate(e0: u32, e1: u32, index: u32, bits: u32) -> u32 {
    let w = match bits {
        2 => WEIGHTS_2[index as usize & 3],
        3 => WEIGHTS_3[index as usize & 7],
        _ => WEIGHTS_4[index as usize & 15],
    };
    ((64 - w) * e0 + w * e1 + 32) >> 6
}

/// Reads sixteen indices of `bits` bits (anchors one bit less).
fn read_indices(bits: &mut Bits, n: u32, subsets: usize, partition: usize) -> [u32; 16] {
    std::array::from_fn(|i| {
        let width = if is_anchor(subsets, partition, i) {
            n - 1
        } else {
            n
        };
        bits.read(width)
    })
}

/// Decodes one BC7 block to sixteen RGBA8 texels, row-major inside the block (texel
/// `x + 4 y`). The reserved mode (a first byte of 0) decodes to transparent black.
pub fn decode_bc7(block: &[u8; 16]) -> [[u8; 4]; 16] {
    if block[0] == 0 {
        return [[0; 4]; 16];
    }
    let number = block[0].trailing_zeros();
    let m = MODES[number as usize];
    let mut bits = Bits {
        block: u128::from_le_bytes(*block),
        at: number + 1,
    };
    let partition = bits.read(m.partition_bits) as usize;
    let rotation = bits.read(m.rotation_bits);
    let selection = bits.read(m.selection_bits);
    // Endpoints [subset][endpoint][channel], channel 3 alpha.
    let mut ends = [[[0u32; 4]; 2]; 3];
    for c in 0..3 {
        for subset in ends.iter_mut().take(m.subsets) {
            for end in subset.iter_mut() {
                end[c] = bits.read(m.color_bits);
            }
        }
    }
    if m.alpha_bits > 0 {
        for subset in ends.iter_mut().take(m.subsets) {
            for end in subset.iter_mut() {
                end[3] = bits.read(m.alpha_bits);
            }
        }
    }
    let mut pbits = [[0u32; 2]; 3];
    if m.endpoint_pbits {
        for subset in pbits.iter_mut().take(m.subsets) {
            for p in subset.iter_mut() {
                *p = bits.read(1);
            }
        }
    } else if m.shared_pbits {
        for subset in pbits.iter_mut().take(m.subsets) {
            let p = bits.read(1);
            *subset = [p, p];
        }
    }
    let has_pbits = m.endpoint_pbits || m.shared_pbits;
    for (subset, sp) in ends.iter_mut().zip(pbits).take(m.subsets) {
        for (end, p) in subset.iter_mut().zip(sp) {
            for (c, v) in end.iter_mut().enumerate() {
                let width = if c == 3 { m.alpha_bits } else { m.color_bits };
                if c == 3 && width == 0 {
                    *v = 255;
                } else if has_pbits {
                    *v = expand((*v << 1) | p, width + 1);
                } else {
                    *v = expand(*v, width);
                }
            }
        }
    }
    let primary = read_indices(&mut bits, m.index_bits, m.subsets, partition);
    let secondary = if m.index2_bits > 0 {
        read_indices(&mut bits, m.index2_bits, 1, 0)
    } else {
        primary
    };
    std::array::from_fn(|i| {
        let [e0, e1] = ends[subset_of(m.subsets, partition, i)];
        // Colour from the primary indices unless the selection bit says otherwise; alpha from
        // the secondary indices where there are any (and the selection bit is 0).
        let (color, color_bits, alpha, alpha_bits) = if m.index2_bits == 0 {
            (primary[i], m.index_bits, primary[i], m.index_bits)
        } else if selection == 1 {
            (secondary[i], m.index2_bits, primary[i], m.index_bits)
        } else {
            (primary[i], m.index_bits, secondary[i], m.index2_bits)
        };
        let mut texel = [0u8; 4];
        for (c, out) in texel.iter_mut().enumerate() {
            let (index, width) = if c == 3 {
                (alpha, alpha_bits)
            } else {
                (color, color_bits)
            };
            *out = interpolate(e0[c], e1[c], index, width) as u8;
        }
        match rotation {
            1 => texel.swap(3, 0),
            2 => texel.swap(3, 1),
            3 => texel.swap(3, 2),
            _ => {}
        }
        texel
    })
}

/// Writes fields into a 128-bit block, lowest bits first (the encoder side of the decoder, for
/// building blocks from their fields).
#[derive(Clone, Copy, Debug, Default)]
pub struct BlockWriter {
    block: u128,
    at: u32,
}

impl BlockWriter {
    /// Starts a block of `mode` (0..=7): its mode bits written.
    pub fn new(mode: u32) -> Self {
        let mut w = BlockWriter::default();
        w.write(1 << mode.min(7), mode.min(7) + 1);
        w
    }

    /// Appends the low `n` bits of `v`.
    pub fn write(&mut self, v: u32, n: u32) -> &mut Self {
        if n > 0 && self.at < 128 {
            let mask = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
            self.block |= u128::from(v & mask) << self.at;
            self.at += n;
        }
        self
    }

    /// The block's bytes.
    pub fn bytes(&self) -> [u8; 16] {
        self.block.to_le_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent() {
        for p in 0..64 {
            // Texel 0 is always in subset 0 and each anchor lies in its own subset.
            assert_eq!(subset_of(2, p, 0), 0);
            assert_eq!(subset_of(3, p, 0), 0);
            assert_eq!(subset_of(2, p, usize::from(ANCHOR_2[p])), 1, "{p}");
            assert_eq!(subset_of(3, p, usize::from(ANCHOR_3_SECOND[p])), 1, "{p}");
            assert_eq!(subset_of(3, p, usize::from(ANCHOR_3_THIRD[p])), 2, "{p}");
            assert!(PARTITIONS_2[p].len() == 16 && PARTITIONS_3[p].len() == 16);
        }
        // Mode bits + fields + indices fill exactly 128 bits in every mode.
        for (n, m) in MODES.iter().enumerate() {
            let s = m.subsets as u32;
            let colour = 3 * 2 * s * m.color_bits + 2 * s * m.alpha_bits;
            let p = if m.endpoint_pbits {
                2 * s
            } else if m.shared_pbits {
                s
            } else {
                0
            };
            let idx = 16 * m.index_bits - s
                + if m.index2_bits > 0 {
                    16 * m.index2_bits - 1
                } else {
                    0
                };
            let total = n as u32
                + 1
                + m.partition_bits
                + m.rotation_bits
                + m.selection_bits
                + colour
                + p
                + idx;
            assert_eq!(total, 128, "mode {n}");
        }
    }

    #[test]
    fn expansion_and_weights() {
        assert_eq!(expand(0x1f, 5), 0xff);
        assert_eq!(expand(0x10, 5), 0x84);
        assert_eq!(expand(0x7f, 7), 0xff);
        assert_eq!(expand(0x55, 8), 0x55);
        assert_eq!(interpolate(0, 255, 1, 2), 84); // (21 * 255 + 32) >> 6
        assert_eq!(interpolate(0, 255, 15, 4), 255);
        assert_eq!(interpolate(100, 200, 0, 3), 100);
    }

    /// A mode 6 block: one subset, RGBA 7 bits + a P-bit per endpoint, 4-bit indices.
    fn mode6(e0: [u32; 4], e1: [u32; 4], p: [u32; 2], indices: [u32; 16]) -> [u8; 16] {
        let mut w = BlockWriter::new(6);
        for c in 0..4 {
            w.write(e0[c], 7).write(e1[c], 7);
        }
        w.write(p[0], 1).write(p[1], 1);
        for (i, &k) in indices.iter().enumerate() {
            w.write(k, if i == 0 { 3 } else { 4 });
        }
        w.bytes()
    }

    #[test]
    fn mode6_constant_block() {
        // Endpoint 0 = (0x40, 0x20, 0x7f, 0x7f) with P-bit 1: (0x81, 0x41, 0xff, 0xff).
        let block = mode6([0x40, 0x20, 0x7f, 0x7f], [0; 4], [1, 0], [0; 16]);
        assert_eq!(decode_bc7(&block), [[0x81, 0x41, 0xff, 0xff]; 16]);
    }

    #[test]
    fn mode6_endpoints_and_interpolation() {
        // Black (P 0) to white (P 1): index k gives weight WEIGHTS_4[k] * 255 / 64, rounded.
        let indices: [u32; 16] = std::array::from_fn(|i| if i == 0 { 0 } else { i as u32 });
        let texels = decode_bc7(&mode6([0; 4], [0x7f; 4], [0, 1], indices));
        for (i, t) in texels.iter().enumerate() {
            let want = ((WEIGHTS_4[i] * 255 + 32) >> 6) as u8;
            assert_eq!(*t, [want; 4], "texel {i}");
        }
        assert_eq!(texels[15], [255; 4]);
    }

    #[test]
    fn mode5_rotation_and_separate_alpha() {
        // Mode 5: rotation 1 (swap alpha and red); colour 7 bits, alpha 8 bits, 2-bit colour
        // and alpha indices, no P-bits.
        let mut w = BlockWriter::new(5);
        w.write(1, 2); // rotation
        for (e0, e1) in [(0x7f, 0x7f), (0x00, 0x00), (0x40, 0x40)] {
            w.write(e0, 7).write(e1, 7);
        }
        w.write(0x10, 8).write(0x10, 8); // alpha endpoints
        w.write(0, 31).write(0, 31); // colour and alpha indices
        let texels = decode_bc7(&w.bytes());
        // Before rotation: (255, 0, 0x81, 0x10); red and alpha swap.
        assert_eq!(texels, [[0x10, 0x00, 0x81, 0xff]; 16]);
    }

    #[test]
    fn mode4_index_selection_swaps_index_widths() {
        // Mode 4, rotation 0, selection 1: colour uses the 3-bit indices, alpha the 2-bit ones.
        // Colour black to white (5 bits), alpha black to white (6 bits).
        let mut w = BlockWriter::new(4);
        w.write(0, 2).write(1, 1);
        for _ in 0..3 {
            w.write(0, 5).write(0x1f, 5);
        }
        w.write(0, 6).write(0x3f, 6);
        // 2-bit indices: all 1 (anchor 0 has one bit: 1); 3-bit indices: all 3 (anchor: 3).
        w.write(1, 1);
        for _ in 1..16 {
            w.write(1, 2);
        }
        w.write(3, 2);
        for _ in 1..16 {
            w.write(3, 3);
        }
        let texels = decode_bc7(&w.bytes());
        let colour = ((WEIGHTS_3[3] * 255 + 32) >> 6) as u8;
        let alpha = ((WEIGHTS_2[1] * 255 + 32) >> 6) as u8;
        assert_eq!(texels, [[colour, colour, colour, alpha]; 16]);
    }

    #[test]
    fn mode1_partition_and_anchor() {
        // Mode 1, partition 13 (top half subset 0, bottom half subset 1; anchors 0 and 15):
        // subset 0 red, subset 1 blue, shared P-bits 0, every index 0.
        let mut w = BlockWriter::new(1);
        w.write(13, 6);
        // red: subset 0 both ends 0x3f, subset 1 both ends 0; green 0; blue the other way.
        for v in [0x3f, 0x3f, 0, 0] {
            w.write(v, 6);
        }
        for _ in 0..4 {
            w.write(0, 6);
        }
        for v in [0, 0, 0x3f, 0x3f] {
            w.write(v, 6);
        }
        w.write(0, 1).write(0, 1);
        let texels = decode_bc7(&w.bytes());
        // 6 bits + P-bit 0 = 0x7e, expanded to 0xfd.
        for (i, t) in texels.iter().enumerate() {
            let want = if i < 8 {
                [0xfd, 0, 0, 255]
            } else {
                [0, 0, 0xfd, 255]
            };
            assert_eq!(*t, want, "texel {i}");
        }
        assert_eq!(subset_of(2, 13, 7), 0);
        assert_eq!(subset_of(2, 13, 8), 1);
    }

    #[test]
    fn mode0_three_subsets() {
        // Mode 0, partition 0: subsets (0, 1, 2) with anchors 0, 3, 15. Each subset has a
        // constant grey: 4-bit endpoints 0x4, 0x8, 0xc, P-bits 1, indices 0.
        let mut w = BlockWriter::new(0);
        w.write(0, 4);
        for _ in 0..3 {
            for v in [0x4, 0x8, 0xc] {
                w.write(v, 4).write(v, 4);
            }
        }
        for _ in 0..6 {
            w.write(1, 1);
        }
        let texels = decode_bc7(&w.bytes());
        let grey = |v: u32| expand((v << 1) | 1, 5) as u8;
        for (i, t) in texels.iter().enumerate() {
            let g = grey([0x4, 0x8, 0xc][subset_of(3, 0, i)]);
            assert_eq!(*t, [g, g, g, 255], "texel {i}");
        }
    }

    #[test]
    fn reserved_mode_is_transparent_black() {
        assert_eq!(decode_bc7(&[0; 16]), [[0; 4]; 16]);
    }
}
