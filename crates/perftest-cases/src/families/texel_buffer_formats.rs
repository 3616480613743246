//! `Buffer<FMT>.Load` in the texture suite's extra formats that a texel buffer can hold
//! ([`ExtraFormat`] without the block-compressed ones): packed `B10G11R11F` and `A2B10G10R10`,
//! `RGBA8_SRGB`, 16-bit UNORM `R16`/`RG16`/`RGBA16` and unsigned integer `R8UI`/`R16UI`/
//! `R32UI`.
//!
//! What it measures: the typed-buffer load rate of each format, to set beside the original
//! suite's `Buffer<FMT>.Load` rows: the float formats run the original kernel itself
//! (`typed_buffer.spv`, a `samplerBuffer` whose format is the view's), the integer formats the
//! same loop over a `usamplerBuffer` (`shaders/texture_formats_uint.comp`) summed in wrapping
//! 32-bit integers.
//!
//! Addressing, as in the original: 256x1 workgroups, 256 loads per thread; the thread starts
//! at element `0` (uniform), its local index (linear) or `hash(local) & 15` with
//! `hash(x) = x * 0x3504f333` (random, the original's hash), and load `i` reads element
//! `(start + i) | elementsMask` by `texelFetch` of a uniform texel buffer of 1024 texels of the
//! format (the texels of the format's 32x32 texture in [`super::texture_formats`], row-major).
//! Results widen to four lanes as the original's.
//!
//! Verification as in [`super::texture_formats`]: the CPU model decodes each element exactly
//! (sRGB RGB within half an sRGB code step), float lanes pass within
//! `1e-4 * sum|terms| + slack`, integer lanes exactly.
//!
//! Skips: every case needs `UNIFORM_TEXEL_BUFFER` in the format's buffer features from
//! `vkGetPhysicalDeviceFormatProperties` (Vulkan requires it for `B10G11R11F`, `A2B10G10R10`
//! and the integer formats; `RGBA8_SRGB` and the UNORM16 formats are optional).
//!
//! Params: `width` = the format's channels; `variant` = format index in [`ExtraFormat::ALL`]
//! * 2 (the same encoding as [`super::texture_formats`], always a load).

use crate::case::{Case, Params};
use crate::check::{Readback, VerifyOutcome};
use crate::extra_format::ExtraFormat;
use crate::family::{Family, FamilyRef};
use crate::format_models::{format_of, reference_of, thread_model, verify_model};
use crate::reference::{KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The extra-format texel-buffer family.
pub struct TexelBufferFormats;

impl Family for TexelBufferFormats {
    fn label(&self) -> &'static str {
        "texel_buffer_formats"
    }

    fn title(&self) -> &'static str {
        "Texel buffers in more formats"
    }

    fn cases(&self) -> Vec<Case> {
        (0u32..)
            .zip(ExtraFormat::ALL)
            .filter(|(_, f)| !f.is_compressed())
            .flat_map(|(i, format)| {
                Case::per_pattern(
                    FamilyRef(&TexelBufferFormats),
                    Suite::Texture,
                    &format!("tex.fmt.buffer.{}", format.id_token()),
                    &format!("Buffer<{}>.Load", format.name()),
                    Params {
                        width: format.components(),
                        variant: i * 2,
                        ..Params::default()
                    },
                )
            })
            .collect()
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        format_of(case).load_bytes()
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        vec![DeviceNeed::ExtraFormat(
            format_of(case),
            FormatFeature::UniformTexelBuffer,
        )]
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        reference_of(thread_model(case, format_of(case), params, local, false))
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        verify_model(case, format_of(case), readback, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extra_format::TexelValue;
    use crate::families::typed_buffer::TypedBuffer;

    #[test]
    fn cases_ids_names_and_needs() {
        let cases = TexelBufferFormats.cases();
        assert_eq!(cases.len(), 27);
        assert_eq!(cases[0].id, "tex.fmt.buffer.b10g11r11f.uniform");
        assert_eq!(cases[0].name, "Buffer<B10G11R11F>.Load uniform");
        assert_eq!(cases[26].id, "tex.fmt.buffer.r32ui.random");
        assert!(cases.iter().all(|c| !format_of(c).is_compressed()));
        assert_eq!(
            cases[7].needs(),
            vec![DeviceNeed::ExtraFormat(
                ExtraFormat::Rgba8Srgb,
                FormatFeature::UniformTexelBuffer
            )]
        );
        assert_eq!(cases[15].bytes_per_load(), 8); // RGBA16
        assert_eq!(
            TexelBufferFormats.workgroup_size(),
            TypedBuffer.workgroup_size()
        );
    }

    #[test]
    fn the_model_sums_elements_in_the_original_order() {
        // R8UI linear: thread 5 sums elements 5..=260, widened to four equal lanes.
        let c = TexelBufferFormats
            .cases()
            .into_iter()
            .find(|c| c.id == "tex.fmt.buffer.r8ui.linear")
            .unwrap_or_else(|| unreachable!());
        let want = (5..=260u32).fold(0u32, |acc, e| {
            match ExtraFormat::R8ui.texels()[e as usize] {
                TexelValue::Uint(w) => acc.wrapping_add(w[0]),
                TexelValue::Float { .. } => unreachable!(),
            }
        });
        let got = reference_of(thread_model(
            &c,
            ExtraFormat::R8ui,
            KernelParams::for_case(&c),
            [5, 0],
            false,
        ));
        assert_eq!(got.sum.map(f32::to_bits), [want; 4]);
        // The exact check accepts the model and refuses one changed word.
        let mut readback = Readback {
            sums: (0..1024u32)
                .map(|t| {
                    reference_of(thread_model(
                        &c,
                        ExtraFormat::R8ui,
                        KernelParams::for_case(&c),
                        [t % 256, 0],
                        false,
                    ))
                    .sum
                })
                .collect(),
            written: Vec::new(),
        };
        assert!(TexelBufferFormats.verify(&c, &readback).passed());
        readback.sums[700][2] = f32::from_bits(readback.sums[700][2].to_bits() ^ 1);
        assert_eq!(TexelBufferFormats.verify(&c, &readback).mismatches, 1);
    }
}
