//! The deterministic input data every case reads.
//!
//! One 16 KB block serves every resource: typed buffer views, raw and structured views,
//! the uniform buffer, and (its first `32 * 32 * texel_bytes` bytes) each 32x32 texture.
//! The bytes are pseudo-random, never zero, and chosen so that every way the suite reads them
//! gives a finite, moderate number: each 32-bit word is a float in ±[2^-7, 2^9), and each of
//! its two 16-bit halves is a normal half float (no infinities, NaNs or denormals). UNORM8 views
//! accept any byte. Random data keeps wrong addressing visible and defeats compression.

use std::sync::OnceLock;

/// Size of the input block in bytes (the original's 16 KB working set).
pub const INPUT_BYTES: usize = 16 * 1024;

/// Width and height of every texture.
pub const TEXTURE_SIZE: u32 = 32;

/// One step of SplitMix32-style mixing: a well-spread deterministic sequence.
fn next_random(state: &mut u32) -> u32 {
    *state = state.wrapping_add(0x9e37_79b9);
    let mut z = *state;
    z = (z ^ (z >> 16)).wrapping_mul(0x85eb_ca6b);
    z = (z ^ (z >> 13)).wrapping_mul(0xc2b2_ae35);
    z ^ (z >> 16)
}

/// Makes one input word from 32 random bits, respecting the ranges described above.
pub(crate) fn shape_word(r: u32) -> u32 {
    let sign = r & 0x8000_0000;
    // f32 exponent 120..=135: the high half's 5-bit exponent is then 15 or 16.
    let exponent = (120 + ((r >> 27) & 0xf)) << 23;
    let high_mantissa = r & 0x007f_0000;
    // Low half: sign and mantissa random, exponent 8..=15 (bit 14 clear, bit 13 set).
    let low = (r & 0x8000) | 0x2000 | (r & 0x1c00) | (r & 0x03ff);
    sign | exponent | high_mantissa | low
}

/// Returns the 16 KB input block (little-endian words), generated once per process.
pub fn input_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let mut state = 0x5eed_1234u32;
        (0..INPUT_BYTES / 4)
            .flat_map(|_| shape_word(next_random(&mut state)).to_le_bytes())
            .collect()
    })
}

/// Layers of 32x32 texels [`layered_texture_bytes`] can serve (a cube's six faces).
pub const MAX_TEXTURE_LAYERS: u32 = 6;

/// The input stream continued past the 16 KB block: [`MAX_TEXTURE_LAYERS`] x 16 KB made by the
/// same generator from the same seed, so its first 16 KB are [`input_bytes`] and every word
/// has the same ranges (generated once per process).
fn layered_input_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let mut state = 0x5eed_1234u32;
        (0..MAX_TEXTURE_LAYERS as usize * INPUT_BYTES / 4)
            .flat_map(|_| shape_word(next_random(&mut state)).to_le_bytes())
            .collect()
    })
}

/// Returns the texels of `layers` 32x32 layers (array layers, 3D slices or cube faces) of a
/// format with `texel_bytes` bytes per texel, layer after layer, each row-major: the first
/// `layers * 32 * 32 * texel_bytes` bytes of the input stream continued past 16 KB. Layer 0
/// is the 32x32 texture of [`texture_bytes`]; at most [`MAX_TEXTURE_LAYERS`] layers.
pub fn layered_texture_bytes(texel_bytes: u32, layers: u32) -> &'static [u8] {
    let len = (layers.min(MAX_TEXTURE_LAYERS) * TEXTURE_SIZE * TEXTURE_SIZE * texel_bytes) as usize;
    let bytes = layered_input_bytes();
    &bytes[..len.min(bytes.len())]
}

/// Returns the texels of the 32x32 texture of a format with `texel_bytes` bytes per texel,
/// row-major: the first `32 * 32 * texel_bytes` bytes of [`input_bytes`].
pub fn texture_bytes(texel_bytes: u32) -> &'static [u8] {
    let len = (TEXTURE_SIZE * TEXTURE_SIZE * texel_bytes) as usize;
    let bytes = input_bytes();
    &bytes[..len.min(bytes.len())]
}

/// The modern suite's hash for random addresses and data: "lowbias32", a 32-bit integer
/// finalizer with full avalanche (the same function as `mix32` in `shaders/modern.glsl`).
pub fn mix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// Word `i` of every modern-suite working set (`dataWord` in `shaders/modern.glsl`): hashed,
/// never zero, so a wrong address or an unwritten element shows.
pub fn modern_word(i: u32) -> u32 {
    mix32(i.wrapping_add(0x9e37_79b9)) | 1
}

/// The first `bytes` bytes of a modern-suite working set: [`modern_word`] `0, 1, 2...`,
/// little-endian.
pub fn modern_bytes(bytes: u64) -> Vec<u8> {
    let words = u32::try_from(bytes / 4).unwrap_or(u32::MAX);
    let mut out = vec![0u8; words as usize * 4];
    crate::parallel::fill_units(&mut out, 4, |first, run| {
        for (i, chunk) in run.chunks_exact_mut(4).enumerate() {
            chunk.copy_from_slice(&modern_word((first + i) as u32).to_le_bytes());
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::half_to_f32;

    #[test]
    fn modern_words_are_hashed_and_never_zero() {
        // lowbias32 reference values.
        assert_eq!(mix32(0), 0);
        assert_eq!(mix32(1), 0x6889_90c0);
        assert_ne!(mix32(1), mix32(2));
        assert!((0..100_000).all(|i| modern_word(i) != 0));
        let bytes = modern_bytes(64);
        assert_eq!(bytes.len(), 64);
        assert_eq!(&bytes[4..8], &modern_word(1).to_le_bytes());
        // Hashed addresses over 2^20 elements reach most of them.
        let hit: std::collections::HashSet<u32> = (0..1u32 << 20)
            .map(|i| mix32(i) & ((1 << 20) - 1))
            .collect();
        assert!(hit.len() > 600_000, "{}", hit.len());
    }

    fn words() -> Vec<u32> {
        input_bytes()
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    #[test]
    fn deterministic_and_sized() {
        assert_eq!(input_bytes().len(), INPUT_BYTES);
        assert_eq!(input_bytes(), input_bytes());
        assert_eq!(texture_bytes(16).len(), 16 * 1024);
        assert_eq!(texture_bytes(1).len(), 1024);
    }

    #[test]
    fn every_view_is_finite_normal_and_non_zero() {
        for w in words() {
            let f = f32::from_bits(w);
            assert!(f.is_normal(), "word {w:#x}");
            assert!(
                (2f32.powi(-7)..2f32.powi(9)).contains(&f.abs()),
                "word {w:#x} = {f}"
            );
            for half in [(w >> 16) as u16, w as u16] {
                let h = half_to_f32(half);
                assert!(h.is_finite() && h != 0.0, "half {half:#x} of {w:#x}");
                assert_ne!(half & 0x7c00, 0, "denormal half {half:#x}");
            }
        }
    }

    #[test]
    fn layers_continue_the_input_stream() {
        let six = layered_texture_bytes(16, MAX_TEXTURE_LAYERS);
        assert_eq!(six.len(), 6 * INPUT_BYTES);
        assert_eq!(&six[..INPUT_BYTES], input_bytes());
        assert_eq!(layered_texture_bytes(1, 1), texture_bytes(1));
        assert_eq!(layered_texture_bytes(2, 4).len(), 4 * 2048);
        assert_eq!(layered_texture_bytes(4, 9).len(), 6 * 4096);
        for w in six.chunks_exact(4) {
            let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let f = f32::from_bits(w);
            assert!((2f32.powi(-7)..2f32.powi(9)).contains(&f.abs()), "{w:#x}");
            for half in [(w >> 16) as u16, w as u16] {
                assert_ne!(half & 0x7c00, 0, "denormal half {half:#x}");
                assert_ne!(half & 0x7c00, 0x7c00, "infinite half {half:#x}");
            }
        }
    }

    #[test]
    fn data_is_varied() {
        let bytes = input_bytes();
        let zeros = bytes.iter().filter(|&&b| b == 0).count();
        assert!(zeros < bytes.len() / 100);
        let distinct: std::collections::HashSet<u32> = words().into_iter().collect();
        assert!(distinct.len() > 4000);
    }
}
