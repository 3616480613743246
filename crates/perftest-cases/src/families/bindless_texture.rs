//! `Texture2D[32].SampleLevel`: a fixed array of 32 textures indexed at runtime, uniformly,
//! non-uniformly or through a scalarizing loop (`shaders/bindless_texture.comp`, one SPIR-V
//! per way). Params: `format` RGBA8, `width` 4, `variant` the [`Indexing`], `count` the
//! textures per 32 lanes (N); every case's pattern is `linear` (each thread walks 32
//! consecutive texels).
//!
//! Binding 0 is `uniform sampler2D textures[32]`: 32 RGBA8 UNORM 64x64 single-mip textures
//! with one sampler (nearest, CLAMP_TO_EDGE, normalized coordinates, LOD 0). Texel `(x, y)`
//! of texture `t` holds the four bytes of `modern_word(t * 4096 + y * 64 + x)`,
//! little-endian (R, G, B, A). Each thread takes 32 samples: sample `i` of thread `g`
//! (global index) reads texel `x = s & 63`, `y = (s >> 6) & 63` with
//! `s = (g * 32 + i) | elementsMask`, by `textureLod` at the texel centre
//! `((x + 0.5) / 64, (y + 0.5) / 64)`, and adds `uvec4(round(value * 255))` — the texel's
//! bytes — into a `uvec4` with wrapping adds.
//!
//! Which texture the thread samples:
//! - **uniform** (`modern.tex.uniform`, the control): texture 5, read from the push
//!   constants (`KernelParams::index`), dynamically uniform but unknown to the compiler;
//! - **non-uniform** (`modern.tex.nonuniform.n<N>`): texture `((g & 31) * N) >> 5`, indexed
//!   with `nonuniformEXT` (`NonUniformResourceIndex`): the 32 threads of every aligned run of
//!   32 (a wave on 32-lane hardware) use `N` textures, each shared by a contiguous run of
//!   `32 / N` lanes (N = 1 is the uniform index behind the non-uniform qualifier);
//! - **scalarized** (`modern.tex.scalarized.n<N>`): the same texture index without
//!   `nonuniformEXT`, through a waterfall loop: `first = subgroupBroadcastFirst(idx)`; the
//!   lanes whose index equals `first` take their 32 samples from `textures[first]` and leave
//!   the loop, the others go round again. The loop wraps the whole 32-sample loop (as
//!   engines scalarize a material's descriptor once), so each wave runs the sample loop
//!   once per distinct texture. The result is the same as the non-uniform way.
//!
//! The scalarized cases need subgroup ballot and, besides dynamic indexing, sampled-image
//! non-uniform indexing: `first` is uniform across a subgroup, but Vulkan's "dynamically
//! uniform" means uniform across the whole invocation group (the workgroup), so on a device
//! without that feature such an index is not guaranteed to work.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::data::modern_word;
use crate::descriptor_slots::{add_words, global_index};
use crate::family::{Family, FamilyRef, Unit, Work};
use crate::feature::Feature;
use crate::format::Format;
use crate::reference::KernelParams;
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// Textures in the array.
pub const TEXTURES: u32 = 32;

/// Width and height of every texture.
pub const TEXTURE_SIDE: u32 = 64;

/// Samples per thread.
pub const SAMPLES: u32 = 32;

/// The texture the uniform case samples (`KernelParams::index`).
pub const UNIFORM_TEXTURE: u32 = 5;

/// Textures per 32-lane wave of the non-uniform and scalarized cases.
pub const PER_WAVE: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// How a case picks its texture (`Params::variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Indexing {
    /// One texture for the dispatch, from the push constants.
    Uniform,
    /// A per-lane index with `nonuniformEXT`.
    NonUniform,
    /// A per-lane index resolved by a `subgroupBroadcastFirst` loop.
    Scalarized,
}

impl Indexing {
    /// The case's way of indexing.
    pub fn of(case: &Case) -> Indexing {
        match case.params.variant {
            1 => Indexing::NonUniform,
            2 => Indexing::Scalarized,
            _ => Indexing::Uniform,
        }
    }

    /// The `Params::variant` value.
    pub fn variant(self) -> u32 {
        match self {
            Indexing::Uniform => 0,
            Indexing::NonUniform => 1,
            Indexing::Scalarized => 2,
        }
    }
}

/// Texel `(x, y)` of texture `t`: the bytes of its word, R in the low byte.
pub fn texel(t: u32, x: u32, y: u32) -> [u32; 4] {
    let w = modern_word(t * TEXTURE_SIDE * TEXTURE_SIDE + y * TEXTURE_SIDE + x);
    [w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, w >> 24]
}

/// The bytes of all 32 textures, texture after texture, rows of 64 texels, 4 bytes each.
pub fn texture_array_bytes() -> Vec<u8> {
    crate::data::modern_bytes(u64::from(TEXTURES * TEXTURE_SIDE * TEXTURE_SIDE * 4))
}

/// The bindless-texture family.
pub struct BindlessTexture;

impl BindlessTexture {
    /// The texture thread `g` of `case` samples.
    pub fn texture_of(case: &Case, params: KernelParams, g: u32) -> u32 {
        match Indexing::of(case) {
            Indexing::Uniform => params.index,
            _ => ((g & 31) * case.params.count) >> 5,
        }
    }

    /// The CPU model: the `uvec4` sum of the thread at `local` of verification group `group`.
    pub fn model(case: &Case, params: KernelParams, group: u32, local: u32) -> [u32; 4] {
        let g = global_index(group, local);
        let t = BindlessTexture::texture_of(case, params, g);
        let mut acc = [0u32; 4];
        for i in 0..SAMPLES {
            let s = g.wrapping_mul(SAMPLES).wrapping_add(i) | params.elements_mask;
            add_words(&mut acc, texel(t, s & 63, (s >> 6) & 63));
        }
        acc
    }
}

impl Family for BindlessTexture {
    fn label(&self) -> &'static str {
        "bindless_texture"
    }

    fn title(&self) -> &'static str {
        "Bindless texture arrays"
    }

    fn cases(&self) -> Vec<Case> {
        let case = |id: String, name: String, indexing: Indexing, count: u32| Case {
            id,
            name,
            suite: Suite::Modern,
            family: FamilyRef(&BindlessTexture),
            params: Params {
                format: Some(Format::Rgba8),
                width: 4,
                variant: indexing.variant(),
                count,
                ..Params::default()
            },
            pattern: Pattern::Linear,
        };
        let mut cases = vec![case(
            "modern.tex.uniform".into(),
            "Texture2D[32].SampleLevel uniform index".into(),
            Indexing::Uniform,
            1,
        )];
        for (indexing, word, display) in [
            (
                Indexing::NonUniform,
                "nonuniform",
                "NonUniformResourceIndex",
            ),
            (Indexing::Scalarized, "scalarized", "scalarized"),
        ] {
            for n in PER_WAVE {
                cases.push(case(
                    format!("modern.tex.{word}.n{n}"),
                    format!("Texture2D[32].SampleLevel {display} N={n}"),
                    indexing,
                    n,
                ));
            }
        }
        cases
    }

    fn loop_trip(&self) -> u32 {
        SAMPLES
    }

    fn bytes_per_load(&self, _case: &Case) -> u32 {
        4
    }

    fn work(&self, _case: &Case) -> Work {
        Work {
            unit: Unit::Load,
            per_thread: SAMPLES,
        }
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = vec![
            DeviceNeed::Feature(Feature::SampledImageDynamic),
            DeviceNeed::Format(Format::Rgba8, FormatFeature::SampledImage),
        ];
        match Indexing::of(case) {
            Indexing::Uniform => {}
            Indexing::NonUniform => {
                needs.push(DeviceNeed::Feature(Feature::SampledImageNonUniform))
            }
            Indexing::Scalarized => {
                needs.push(DeviceNeed::Feature(Feature::SampledImageNonUniform));
                needs.push(DeviceNeed::SubgroupBallot);
            }
        }
        needs
    }

    fn constants(&self, case: &Case) -> [u32; 3] {
        [case.params.count, 0, 0]
    }

    fn kernel_params(&self, case: &Case) -> KernelParams {
        KernelParams {
            index: if Indexing::of(case) == Indexing::Uniform {
                UNIFORM_TEXTURE
            } else {
                0
            },
            ..KernelParams::default()
        }
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let params = KernelParams::for_case(case);
        check_words(readback, case.threads(), |group, local| {
            BindlessTexture::model(case, params, group, local)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn case(id: &str) -> Case {
        BindlessTexture
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("no case {id}"))
    }

    #[test]
    fn thirteen_cases_with_stable_ids() {
        let cases = BindlessTexture.cases();
        assert_eq!(cases.len(), 13);
        assert_eq!(cases[0].id, "modern.tex.uniform");
        assert_eq!(cases[0].name, "Texture2D[32].SampleLevel uniform index");
        assert_eq!(cases[1].id, "modern.tex.nonuniform.n1");
        assert_eq!(
            cases[6].name,
            "Texture2D[32].SampleLevel NonUniformResourceIndex N=32"
        );
        assert_eq!(cases[12].id, "modern.tex.scalarized.n32");
        assert_eq!(cases[10].name, "Texture2D[32].SampleLevel scalarized N=8");
        assert!(cases.iter().all(|c| c.bytes_per_load() == 4));
        assert!(cases.iter().all(|c| c.work().per_thread == 32));
        assert_eq!(KernelParams::for_case(&cases[0]).index, 5);
        assert_eq!(cases[3].family.constants(&cases[3]), [4, 0, 0]);
        assert!(cases.iter().all(|c| c
            .needs()
            .contains(&DeviceNeed::Feature(Feature::SampledImageDynamic))));
        assert!(cases[12].needs().contains(&DeviceNeed::SubgroupBallot));
        assert!(cases[12]
            .needs()
            .contains(&DeviceNeed::Feature(Feature::SampledImageNonUniform)));
        assert!(!cases[0]
            .needs()
            .contains(&DeviceNeed::Feature(Feature::SampledImageNonUniform)));
    }

    #[test]
    fn n_textures_per_wave_in_contiguous_runs() {
        for n in PER_WAVE {
            let c = case(&format!("modern.tex.nonuniform.n{n}"));
            let params = KernelParams::for_case(&c);
            let wave: Vec<u32> = (64..96)
                .map(|g| BindlessTexture::texture_of(&c, params, g))
                .collect();
            let distinct: HashSet<u32> = wave.iter().copied().collect();
            assert_eq!(distinct.len() as u32, n);
            assert!(wave.windows(2).all(|w| w[0] <= w[1]));
            assert_eq!(wave.iter().filter(|&&t| t == 0).count() as u32, 32 / n);
        }
    }

    #[test]
    fn model_sums_texel_bytes() {
        let c = case("modern.tex.uniform");
        let params = KernelParams::for_case(&c);
        // Thread 2 of group 0 samples texels 64..96 of row 1 (x 0..32) of texture 5.
        let mut want = [0u32; 4];
        for x in 0..32 {
            let w = modern_word(5 * 4096 + 64 + x);
            for (lane, byte) in want.iter_mut().zip(w.to_le_bytes()) {
                *lane += u32::from(byte);
            }
        }
        assert_eq!(BindlessTexture::model(&c, params, 0, 2), want);
        // The scalarized and non-uniform ways compute the same sums.
        let a = case("modern.tex.nonuniform.n8");
        let b = case("modern.tex.scalarized.n8");
        for t in [0, 31, 300, 1023] {
            assert_eq!(
                BindlessTexture::model(&a, KernelParams::for_case(&a), t / 256, t % 256),
                BindlessTexture::model(&b, KernelParams::for_case(&b), t / 256, t % 256)
            );
        }
    }

    #[test]
    fn texture_bytes_follow_the_texel_layout() {
        let bytes = texture_array_bytes();
        assert_eq!(bytes.len(), 32 * 64 * 64 * 4);
        let at = |t: u32, x: u32, y: u32| {
            let o = ((t * 4096 + y * 64 + x) * 4) as usize;
            [0, 1, 2, 3].map(|k| u32::from(bytes[o + k]))
        };
        assert_eq!(at(7, 3, 60), texel(7, 3, 60));
        assert_eq!(at(31, 63, 63), texel(31, 63, 63));
    }
}
