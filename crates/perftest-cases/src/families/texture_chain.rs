//! Texture read latency (memory suite): a chain through the texels of a 2D texture, each read's
//! coordinates coming from the texel the previous read returned (`shaders/texture_chain.comp`),
//! beside the buffer pointer chase ([`super::pointer_chase`]) at the same working sets.
//!
//! What it measures: the cost of one texture read that depends on the one before, against one
//! buffer load that does (`mem.texchain.fetch.16kb` against `mem.sweep.latency.16kb`). Vendors
//! warn that such dependent texture reads serialize the sampler; the chain makes every read
//! dependent, so the time per step is the latency of one texture read at that working set.
//!
//! Two ways through the texture unit:
//! - `fetch`: an `R32_UINT` texture of `side` x `side` texels (`side` a power of two); texel
//!   `n` (row-major, `(n % side, n / side)`) holds the index of the next texel, read with
//!   `texelFetch` at `(n & (side - 1), n >> log2(side))` (two integer operations per step: a
//!   texture coordinate has two axes, a pointer one).
//! - `sample`: an `RG32_SFLOAT` texture of `2h` x `h` texels; texel `n` holds the normalized
//!   coordinates of the next texel's centre (`((x + 0.5) / w, (y + 0.5) / h)`, exact in f32),
//!   sampled with `textureLod(.., 0)` through a nearest, clamp-to-edge sampler: the step is the
//!   sample itself, with no arithmetic between reads.
//!
//! Every texel is a node: the next-node table is a random cyclic permutation of all texels
//! ([`crate::chase::chain`], the pointer chase's), so the whole texture is the working set
//! whatever the driver's tiling, and one lap visits every texel. Unlike the pointer chase's
//! 128-byte nodes, a line brought in holds other texels of the chain: at the larger working set
//! a share of the steps (the first-level cache's size over the set) still hit it, which makes
//! the texture look faster, not slower.
//!
//! Working sets: 16 KB (every GPU's first-level cache) and 4 MB (beyond the first level, in the
//! second on every GPU of the committed reports), the pointer chase's `16kb` and `4mb` points.
//!
//! A dispatch runs one workgroup in which one thread follows the chain ([`crate::Unit::DependentLoad`],
//! blocks of 256 steps in family word 3), going on from where the last dispatch stopped: its
//! position (the texel index, or the coordinates' bits) lies in the case's 16-byte slot of a
//! small storage buffer (slot in family word 0). Verification: each of the 1024 verification
//! threads walks one block from texel 0 and writes the texel reached and the wrapping sum of
//! the texels visited ([`crate::chase::walk`]), so a chain read wrongly cannot pass.
//!
//! Params: `variant` 0 fetch, 1 sample; `working_set` the texture's bytes.

use crate::case::{Case, Params, Pattern};
use crate::chase::{chain, size_words, walk, STEPS};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::extra_format::ExtraFormat;
use crate::family::{Family, FamilyRef, Work};
use crate::format::Format;
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The texture-chain family.
pub struct TextureChain;

/// The working sets, in bytes: the pointer chase's 16 KB and 4 MB points.
pub const SIZES: [u64; 2] = [16 << 10, 4 << 20];

/// The two ways through the texture unit, in case order: `variant` and id word.
pub const KINDS: [(u32, &str); 2] = [(FETCH, "fetch"), (SAMPLE, "sample")];

/// `variant` of the `texelFetch` chain (`R32_UINT`).
pub const FETCH: u32 = 0;

/// `variant` of the sampled chain (`RG32_SFLOAT`, nearest).
pub const SAMPLE: u32 = 1;

/// The id prefix of the family's cases.
pub const ID_PREFIX: &str = "mem.texchain.";

/// Bytes of one texel of `variant`'s texture.
pub fn texel_bytes(variant: u32) -> u32 {
    if variant == SAMPLE {
        8
    } else {
        4
    }
}

/// The texture's width and height in texels: `side` x `side` for the fetch chain, `2h` x `h`
/// for the sampled one (the texel count is a power of two either way).
pub fn extent(case: &Case) -> [u32; 2] {
    let texels = texels(case);
    let log = texels.trailing_zeros();
    let height = 1u32 << (log / 2);
    [texels / height, height]
}

/// Texels of `case`'s texture (its nodes).
pub fn texels(case: &Case) -> u32 {
    let bytes = case.params.working_set / u64::from(texel_bytes(case.params.variant));
    u32::try_from(bytes).unwrap_or(u32::MAX)
}

/// The slot of `case`'s position in the family's position buffer (16 bytes each), in
/// [`TextureChain::cases`] order.
pub fn slot(case: &Case) -> u32 {
    let size = SIZES
        .iter()
        .position(|&s| s == case.params.working_set)
        .unwrap_or(0);
    case.params.variant * SIZES.len() as u32 + size as u32
}

/// Position slots in the buffer: one per case.
pub const SLOTS: u32 = (KINDS.len() * SIZES.len()) as u32;

/// The texels of `case`'s texture, tightly packed rows (see the module docs): the next texel's
/// index (fetch) or the normalized coordinates of its centre (sample), little-endian.
pub fn texture_data(case: &Case) -> Vec<u8> {
    let next = chain(texels(case));
    let [w, h] = extent(case);
    let mut out = Vec::with_capacity(next.len() * texel_bytes(case.params.variant) as usize);
    for to in next {
        if case.params.variant == SAMPLE {
            let (x, y) = (to % w, to / w);
            let u = (x as f32 + 0.5) / w as f32;
            let v = (y as f32 + 0.5) / h as f32;
            out.extend_from_slice(&u.to_le_bytes());
            out.extend_from_slice(&v.to_le_bytes());
        } else {
            out.extend_from_slice(&to.to_le_bytes());
        }
    }
    out
}

fn chain_case(variant: u32, word: &str, bytes: u64) -> Case {
    let (size_id, size_name) = size_words(bytes);
    let read = if variant == SAMPLE {
        "Texture2D<RG32F>.Sample(nearest, clamp)"
    } else {
        "Texture2D<R32_UINT>.Load"
    };
    Case {
        id: format!("{ID_PREFIX}{word}.{size_id}"),
        name: format!("Latency {size_name} ({read} chain)"),
        suite: Suite::Memory,
        family: FamilyRef(&TextureChain),
        params: Params {
            origin: None,
            format: None,
            width: if variant == SAMPLE { 2 } else { 1 },
            variant,
            working_set: bytes,
            count: 0,
        },
        pattern: Pattern::Random,
    }
}

impl Family for TextureChain {
    fn label(&self) -> &'static str {
        "texture_chain"
    }

    fn title(&self) -> &'static str {
        "Texture read latency (texture chain)"
    }

    fn cases(&self) -> Vec<Case> {
        KINDS
            .iter()
            .flat_map(|&(variant, word)| SIZES.map(|bytes| chain_case(variant, word, bytes)))
            .collect()
    }

    fn loop_trip(&self) -> u32 {
        STEPS
    }

    /// Bytes one step reads: one texel.
    fn bytes_per_load(&self, case: &Case) -> u32 {
        texel_bytes(case.params.variant)
    }

    fn work(&self, _case: &Case) -> Work {
        crate::chase::work()
    }

    /// One lap: every texel.
    fn chain_length(&self, case: &Case) -> u64 {
        u64::from(texels(case))
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let format = if case.params.variant == SAMPLE {
            DeviceNeed::Format(Format::Rg32f, FormatFeature::SampledImage)
        } else {
            DeviceNeed::ExtraFormat(ExtraFormat::R32ui, FormatFeature::SampledImage)
        };
        vec![format, DeviceNeed::DeviceMemory(case.params.working_set)]
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let (node, sum) = walk(&chain(texels(case)), STEPS);
        check_words(readback, case.threads(), |_, _| [node, sum, 1, 0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readback::words_readback;

    #[test]
    fn four_cases_at_the_pointer_chase_sizes() {
        let cases = TextureChain.cases();
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "mem.texchain.fetch.16kb",
                "mem.texchain.fetch.4mb",
                "mem.texchain.sample.16kb",
                "mem.texchain.sample.4mb",
            ]
        );
        assert_eq!(
            cases[3].name,
            "Latency 4MB (Texture2D<RG32F>.Sample(nearest, clamp) chain)"
        );
        let buffer = crate::families::pointer_chase::PointerChase.cases();
        for c in &cases {
            assert!(c.work().is_chain());
            assert_eq!(c.suite, Suite::Memory);
            let twin = format!(
                "mem.sweep.latency.{}",
                c.id.rsplit('.').next().unwrap_or("")
            );
            assert!(buffer.iter().any(|b| b.id == twin), "{twin}");
        }
        let slots: Vec<u32> = cases.iter().map(slot).collect();
        assert_eq!(slots, [0, 1, 2, 3]);
        assert_eq!(SLOTS, 4);
    }

    #[test]
    fn extents_hold_the_working_set() {
        let cases = TextureChain.cases();
        let extents: Vec<[u32; 2]> = cases.iter().map(extent).collect();
        assert_eq!(extents, [[64, 64], [1024, 1024], [64, 32], [1024, 512]]);
        for c in &cases {
            assert_eq!(texture_data(c).len() as u64, c.params.working_set);
            assert_eq!(c.chain_length(), u64::from(texels(c)));
        }
    }

    #[test]
    fn texels_point_at_the_next_texel() {
        let cases = TextureChain.cases();
        let next = chain(4096);
        let fetch = texture_data(&cases[0]);
        for (n, &to) in next.iter().enumerate().step_by(97) {
            let word = u32::from_le_bytes([
                fetch[4 * n],
                fetch[4 * n + 1],
                fetch[4 * n + 2],
                fetch[4 * n + 3],
            ]);
            assert_eq!(word, to);
        }
        let next = chain(2048);
        let sample = texture_data(&cases[2]);
        for (n, &to) in next.iter().enumerate().step_by(89) {
            let at = 8 * n;
            let u =
                f32::from_le_bytes([sample[at], sample[at + 1], sample[at + 2], sample[at + 3]]);
            let v = f32::from_le_bytes([
                sample[at + 4],
                sample[at + 5],
                sample[at + 6],
                sample[at + 7],
            ]);
            // Nearest sampling at the coordinates lands on the next texel.
            let (x, y) = ((u * 64.0).floor() as u32, (v * 32.0).floor() as u32);
            assert_eq!(y * 64 + x, to);
        }
    }

    #[test]
    fn the_model_is_one_walk_and_fails_another_size() {
        let cases = TextureChain.cases();
        let (node, sum) = walk(&chain(4096), STEPS);
        let good = words_readback(|_, _| [node, sum, 1, 0]);
        assert!(TextureChain.verify(&cases[0], &good).passed());
        assert!(!TextureChain.verify(&cases[1], &good).passed());
        assert!(!TextureChain.verify(&cases[2], &good).passed());
        let off = words_readback(|g, l| [node, sum ^ u32::from(g == 3 && l == 7), 1, 0]);
        assert!(!TextureChain.verify(&cases[0], &off).passed());
    }
}
