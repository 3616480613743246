//! `Texture2D<FMT>.Load` and `Texture2D<FMT>.Sample(nearest)` in the texture suite's extra
//! formats ([`ExtraFormat`]): packed `B10G11R11F` and `A2B10G10R10`, `RGBA8_SRGB`, 16-bit UNORM
//! `R16`/`RG16`/`RGBA16`, unsigned integer `R8UI`/`R16UI`/`R32UI`, and block-compressed
//! `BC1` (with alpha), `BC4`, `BC5` and `BC7`.
//!
//! What it measures: the load and nearest-sample rate of each format, to set beside the
//! original suite's `Texture2D<FMT>.Load` and `.Sample(nearest)` rows: the float formats run
//! the original kernels themselves (`texture_load.spv`, `texture_sample.spv`; the format is the
//! image view's), the integer formats the same loops over a `usampler2D`
//! (`shaders/texture_formats_uint.comp`) summed in wrapping 32-bit integers.
//!
//! Addressing, as in the original: 16x16 workgroups, a 16x16 loop per thread; the thread's
//! start per axis is `0` (uniform), its local id (linear) or `hash(local) & 4` with
//! `hash(x) = x * 0x3504f333` (random, the original's hash); step `(x, y)` reads texel
//! `(ex, ey) = (start + (x, y)) | elementsMask` of the format's 32x32 single-mip texture, by
//! `texelFetch` (load) or by `textureLod` at the texel centre `uv = (e + 0.5) / 32`, LOD 0,
//! with the original's nearest REPEAT sampler (sample: integer formats cannot be filtered
//! linearly, nearest sampling of every format is allowed). Results widen to four lanes as the
//! original's (`xxxx`, `xyxy`, `xyzx` for the three channels of `B10G11R11F`, `xyzw`).
//!
//! Data and CPU model: each format has its own texels generated from the lowbias32 hash
//! ([`crate::mix32`]); see [`ExtraFormat`] and [`crate::bc_block`]. The model decodes every
//! texel exactly — unsigned 11/10-bit floats, 10/2-bit and 16-bit UNORM, the sRGB EOTF of
//! the Khronos Data Format Specification, and the BC1/BC4/BC5/BC7 blocks by pure decoders
//! ([`crate::decode_bc1`], [`crate::decode_bc4`], [`crate::decode_bc5`],
//! [`crate::decode_bc7`], every BC7 mode) — and sums each thread's loads in f32 in the
//! kernel's order. A float lane passes when `|gpu - model| <= 1e-4 * sum|terms| + slack`,
//! where the slack sums what each decoded texel may deviate by
//! ([`ExtraFormat::slack_rule`]): 0 for packed, UNORM16 and BC7 texels (BC7 decodes in exact
//! integer arithmetic); one UNORM8 step (1/255) for an interpolated BC4/BC5 value; one step
//! plus 3% of the endpoints' distance for an interpolated BC1 channel whose endpoints differ
//! (hardware rounds the palette its own way; the texture suite's chapter gives measured
//! decoders); half an sRGB code step for sRGB RGB (lavapipe's cubic approximation is within
//! 0.35 of a code). The generated blocks keep interpolated texels rare (BC1 one in 64, BC4
//! and BC5 one in 16), so the slack of a sum (at most 0.15 for BC1 and 0.12 for BC4/BC5, in
//! lanes whose sums are near 100) stays below what one wrong texel changes (a third on
//! average). The sRGB slack is wider (about 0.5 in lanes whose sums are near 80): a missing
//! or wrong decode fails, a single wrong texel among 256 may pass. Integer formats are
//! checked exactly.
//!
//! Skips: every case needs `SAMPLED_IMAGE` (optimal tiling) for its format from
//! `vkGetPhysicalDeviceFormatProperties`; the BC cases also need `textureCompressionBC`
//! (perftest enables it where offered; on a borrowed device it counts as absent).
//!
//! Params: `width` = the format's channels; `variant` = format index in [`ExtraFormat::ALL`]
//! * 2 + kind (0 load, 1 sample).

use crate::case::{Case, Params};
use crate::check::{Readback, VerifyOutcome};
use crate::extra_format::ExtraFormat;
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::format_models::{format_of, reference_of, thread_model, verify_model};
use crate::reference::{KernelParams, ReferenceSum};
use crate::sampler::TextureRead;
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The extra-format texture family.
pub struct TextureFormats;

impl Family for TextureFormats {
    fn label(&self) -> &'static str {
        "texture_formats"
    }

    fn title(&self) -> &'static str {
        "Textures in more formats"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for (read, word, method) in [
            (TextureRead::Load, "load", "Load"),
            (TextureRead::Sample, "sample", "Sample(nearest)"),
        ] {
            for (i, format) in (0u32..).zip(ExtraFormat::ALL) {
                cases.extend(Case::per_pattern(
                    FamilyRef(&TextureFormats),
                    Suite::Texture,
                    &format!("tex.fmt.{word}.{}", format.id_token()),
                    &format!("Texture2D<{}>.{method}", format.name()),
                    Params {
                        width: format.components(),
                        variant: i * 2 + read.bit(),
                        ..Params::default()
                    },
                ));
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
        format_of(case).load_bytes()
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let format = format_of(case);
        let mut needs = Vec::new();
        if format.is_compressed() {
            needs.push(DeviceNeed::Feature(Feature::TextureCompressionBc));
        }
        needs.push(DeviceNeed::ExtraFormat(format, FormatFeature::SampledImage));
        needs
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        reference_of(thread_model(case, format_of(case), params, local, true))
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        verify_model(case, format_of(case), readback, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extra_format::TexelValue;
    use crate::families::texture_load::TextureLoad;
    use crate::feature::FeatureSet;
    use crate::format::Format;
    use crate::format_models::{addresses, ThreadModel};
    use crate::matrix::{find_case, original_cases};
    use crate::reference::reference_sum;
    use crate::reference::widen;
    use crate::sampler::read_of;

    fn case(id: &str) -> Case {
        TextureFormats
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    /// A read-back holding the model's own answer for every thread of the 4 groups.
    pub(crate) fn model_readback(case: &Case, format: ExtraFormat, texture: bool) -> Readback {
        let params = KernelParams::for_case(case);
        let [wx, _] = case.workgroup_size();
        let sums = (0..1024u32)
            .map(|t| {
                let l = t % 256;
                reference_of(thread_model(
                    case,
                    format,
                    params,
                    [l % wx, l / wx],
                    texture,
                ))
                .sum
            })
            .collect();
        Readback {
            sums,
            written: Vec::new(),
        }
    }

    #[test]
    fn cases_ids_names_and_needs() {
        let cases = TextureFormats.cases();
        assert_eq!(cases.len(), 78);
        assert_eq!(cases[0].id, "tex.fmt.load.b10g11r11f.uniform");
        assert_eq!(cases[0].name, "Texture2D<B10G11R11F>.Load uniform");
        assert_eq!(cases[0].components(), 3);
        let s = case("tex.fmt.sample.bc7.random");
        assert_eq!(s.name, "Texture2D<BC7>.Sample(nearest) random");
        assert_eq!(
            (format_of(&s), read_of(&s)),
            (ExtraFormat::Bc7, TextureRead::Sample)
        );
        assert_eq!(
            s.needs(),
            vec![
                DeviceNeed::Feature(Feature::TextureCompressionBc),
                DeviceNeed::ExtraFormat(ExtraFormat::Bc7, FormatFeature::SampledImage)
            ]
        );
        let u = case("tex.fmt.load.r16ui.linear");
        assert_eq!(
            u.needs(),
            vec![DeviceNeed::ExtraFormat(
                ExtraFormat::R16ui,
                FormatFeature::SampledImage
            )]
        );
        assert_eq!(read_of(&u), TextureRead::Load);
        assert_eq!(case("tex.fmt.load.bc1.uniform").bytes_per_load(), 4);
        assert_eq!(case("tex.fmt.load.rgba16.uniform").bytes_per_load(), 8);
        assert!(cases.iter().all(|c| c.suite == Suite::Texture));
    }

    #[test]
    fn skips_follow_the_device_table_and_bc_compression() {
        use crate::case::support;
        use crate::families::texel_buffer_formats::TexelBufferFormats;
        use crate::support::{DeviceCaps, FormatSupport, Support};
        let all = FormatSupport {
            uniform_texel_buffer: true,
            sampled_image: true,
            linear_filter: true,
            ..FormatSupport::default()
        };
        let mut caps = DeviceCaps {
            features: FeatureSet::NONE.with(Feature::TextureCompressionBc, true),
            extra_formats: [all; 13],
            ..DeviceCaps::default()
        };
        let mut cases = TexelBufferFormats.cases();
        cases.extend(TextureFormats.cases());
        assert_eq!(cases.len(), 105);
        let skipped = |caps: &DeviceCaps| -> Vec<(String, String)> {
            cases
                .iter()
                .filter_map(|c| match support(c, caps) {
                    Support::Skipped(why) => Some((c.id.clone(), why)),
                    Support::Supported => None,
                })
                .collect()
        };
        assert!(skipped(&caps).is_empty());
        // Without textureCompressionBC: the 24 BC cases, for that reason.
        caps.features = caps.features.with(Feature::TextureCompressionBc, false);
        let bc = skipped(&caps);
        assert_eq!(bc.len(), 24);
        assert!(bc
            .iter()
            .all(|(id, why)| id.contains(".bc") && why.contains("textureCompressionBC")));
        // No sRGB texel buffers: its three buffer cases, naming the format and the feature.
        caps.features = caps.features.with(Feature::TextureCompressionBc, true);
        caps.extra_formats[ExtraFormat::Rgba8Srgb.index()].uniform_texel_buffer = false;
        let srgb = skipped(&caps);
        let ids: Vec<&str> = srgb.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "tex.fmt.buffer.rgba8srgb.uniform",
                "tex.fmt.buffer.rgba8srgb.linear",
                "tex.fmt.buffer.rgba8srgb.random"
            ]
        );
        assert!(srgb[0].1.contains("VK_FORMAT_R8G8B8A8_SRGB"));
        assert!(srgb[0].1.contains("UNIFORM_TEXEL_BUFFER"));
        // A format that cannot be sampled loses its load and sample cases, not its buffer.
        caps.extra_formats[ExtraFormat::Rgba8Srgb.index()] = all;
        caps.extra_formats[ExtraFormat::R16.index()].sampled_image = false;
        let r16 = skipped(&caps);
        assert_eq!(r16.len(), 6);
        assert!(r16.iter().all(|(id, why)| id.contains(".r16.")
            && !id.contains("buffer")
            && why.contains("SAMPLED_IMAGE")));
    }

    #[test]
    fn addressing_matches_the_original_texture_loop() {
        // Summing RGBA8 texels through our address list gives the original model's sums.
        let original = find_case(&original_cases(), "tex.load.rgba8.random")
            .cloned()
            .unwrap_or_else(|| unreachable!());
        let p = KernelParams::for_case(&original);
        let bytes = crate::data::texture_bytes(4);
        for local in [[0, 0], [3, 7], [15, 15]] {
            let mut sum = [0f32; 4];
            for e in addresses(&original, p, local, true) {
                let t = &bytes[4 * e as usize..4 * e as usize + 4];
                for (c, lane) in (0u32..).zip(sum.iter_mut()) {
                    *lane += Format::Rgba8.decode_channel(t, c);
                }
            }
            assert_eq!(sum, reference_sum(&original, p, local).sum);
        }
        assert_eq!(TextureLoad.loop_trip(), TextureFormats.loop_trip());
    }

    #[test]
    fn the_model_passes_and_one_wrong_texel_fails() {
        for id in [
            "tex.fmt.load.b10g11r11f.linear",
            "tex.fmt.sample.rgba8srgb.random",
            "tex.fmt.load.rg16.uniform",
            "tex.fmt.load.bc1.linear",
            "tex.fmt.sample.bc4.random",
            "tex.fmt.load.bc5.linear",
            "tex.fmt.sample.bc7.linear",
            "tex.fmt.load.r32ui.random",
        ] {
            let c = case(id);
            let f = format_of(&c);
            let good = model_readback(&c, f, true);
            assert!(TextureFormats.verify(&c, &good).passed(), "{id}");
            // Thread 37 reads another texel instead of its first one: a lane moves by the
            // difference of the two texels (at least 0.2; 0.8 for sRGB), which the tolerance must not hide.
            let p = KernelParams::for_case(&c);
            let first = addresses(&c, p, [37 % 16, 37 / 16], true)[0] as usize;
            let texels = f.texels();
            let n = f.components();
            // sRGB allows half a code per texel (about 0.5 per sum): its wrong texel must
            // differ by more.
            let least = if f == ExtraFormat::Rgba8Srgb {
                0.8
            } else {
                0.2
            };
            let mut bad = good.clone();
            let changed =
                (1..1024).find_map(|k| match (texels[first], texels[(first + k) % 1024]) {
                    (TexelValue::Uint(a), TexelValue::Uint(b)) if a[0] != b[0] => {
                        let w = good.words(37).unwrap_or_default();
                        bad.sums[37][0] =
                            f32::from_bits(w[0].wrapping_sub(a[0]).wrapping_add(b[0]));
                        Some(())
                    }
                    (TexelValue::Float { value: a, .. }, TexelValue::Float { value: b, .. }) => {
                        let (wa, wb) = (widen(a, n), widen(b, n));
                        let lane = (0..4).find(|&l| (wb[l] - wa[l]).abs() >= least)?;
                        bad.sums[37][lane] += wb[lane] - wa[lane];
                        Some(())
                    }
                    _ => None,
                });
            assert!(changed.is_some(), "{id}: no differing texel");
            assert!(!TextureFormats.verify(&c, &bad).passed(), "{id}");
        }
    }

    #[test]
    fn slack_stays_small_against_the_sums() {
        for f in [ExtraFormat::Bc1, ExtraFormat::Bc4, ExtraFormat::Bc5] {
            for c in TextureFormats.cases().iter().filter(|c| format_of(c) == f) {
                let p = KernelParams::for_case(c);
                for local in (0..256).map(|l| [l % 16, l / 16]) {
                    let ThreadModel::Float { abs_sum, slack, .. } =
                        thread_model(c, f, p, local, true)
                    else {
                        unreachable!()
                    };
                    for lane in 0..f.components() as usize {
                        // At most 0.12 (0.15 for BC1, whose blends may be 3% off) and a third
                        // of what one average texel contributes.
                        let cap = if f == ExtraFormat::Bc1 { 0.15f32 } else { 0.12 };
                        assert!(
                            slack[lane] <= cap.min(abs_sum[lane] / 256.0 / 3.0),
                            "{} {local:?} lane {lane}: {} of {}",
                            c.id,
                            slack[lane],
                            abs_sum[lane]
                        );
                    }
                }
            }
        }
        // sRGB: half a code per texel stays under 1% of the sum.
        for c in TextureFormats
            .cases()
            .iter()
            .filter(|c| format_of(c) == ExtraFormat::Rgba8Srgb)
        {
            let p = KernelParams::for_case(c);
            let ThreadModel::Float { abs_sum, slack, .. } =
                thread_model(c, ExtraFormat::Rgba8Srgb, p, [7, 2], true)
            else {
                unreachable!()
            };
            assert!((0..3).all(|l| slack[l] < 0.01 * abs_sum[l]), "{}", c.id);
            assert_eq!(slack[3], 0.0);
        }
    }
}
