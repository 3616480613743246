//! `Texture2D<FMT>.Sample(bilinear, off-centre)`: bilinear samples a quarter texel past the
//! texel centre (`shaders/texture_offcentre.comp`), REPEAT addressing, LOD 0, so that every
//! sample blends four texels.
//!
//! What it measures: the cost of a bilinear sample that really filters (the original's
//! bilinear cases sample at texel centres, where hardware may skip the blend), to compare with
//! the `repeat` bilinear rows of [`super::texture_address`].
//!
//! Addressing as in the original `Sample` cases (16x16 workgroups, 16x16 samples per thread,
//! start per axis 0 / local id / `(local * 0x3504f333) & 4`, texel
//! `(ex, ey) = (start + (x, y)) | elementsMask`), sampled at `uv = (e + 0.75) / 32`: the
//! footprint is texels `ex, ex + 1` by `ey, ey + 1` (the `+1` neighbour wraps under REPEAT)
//! with weights 0.75 and 0.25 per axis (0.5625, 0.1875, 0.1875, 0.0625). The widened results
//! are summed in f32.
//!
//! Verification: the CPU model ([`crate::sample`]) blends the format's decoded texels in
//! f32, and scales each lane's tolerance by the sum of |weight x texel| over every texel the
//! lane blended (the magnitude the filter rounds at; for UNORM8 it equals the sum). GPUs
//! filter with limited precision — weights with as few as 8 fraction bits (exact for 0.25 and
//! 0.75), UNORM8 blended in reduced precision and possibly rounded, even truncated, to 8 bits
//! per sample, which moves a UNORM8 sum by up to about 4e-3 of that scale; half floats may be
//! blended and rounded in half precision (2^-11 per sample) — so [`tolerance`] accepts 1e-2
//! of the scale for UNORM8 and 1e-3 for the float formats (the texture suite's chapter gives
//! the errors seen).
//!
//! What that still rejects (unit-tested against four wrong kernels: sampling at the texel
//! centre without a blend, blending the `-1` neighbours, swapping the weights, blending the
//! `+2` neighbours): for the float formats most lanes of every case; for UNORM8 some lanes
//! of every `linear` case (so the case fails). A thread's sum runs over a contiguous 16x16
//! window, and summed over a window a quarter-texel shift of the blend cancels except along
//! the window's edges, so the UNORM8 `uniform` and `random` cases (one or two windows) can
//! pass such a kernel; a wrong texture, format or window fails them as any case.
//!
//! Params: `format`; `width` = the format's components.

use crate::case::{Case, Params, SampleFilter};
use crate::check::{check_sums, Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{texture_loop, widen, KernelParams, ReferenceSum};
use crate::sampler::{sample_magnitude, AddressMode, SamplerState};
use crate::sampling::{sample_needs, sample_sum, tolerance};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The off-centre family.
pub struct TextureOffcentre;

/// The family's only sampler: bilinear, REPEAT, normalized coordinates.
pub const SAMPLER: SamplerState = SamplerState::new(SampleFilter::Bilinear, AddressMode::Repeat);

/// Where each sample lands, in texels from the texel's corner (0.5 is its centre).
pub const OFFSET: f32 = 0.75;

impl Family for TextureOffcentre {
    fn label(&self) -> &'static str {
        "texture_offcentre"
    }

    fn title(&self) -> &'static str {
        "Texture samples, bilinear off-centre"
    }

    fn cases(&self) -> Vec<Case> {
        Format::ALL
            .into_iter()
            .flat_map(|format| {
                Case::per_pattern(
                    FamilyRef(&TextureOffcentre),
                    Suite::Texture,
                    &format!("tex.offcentre.bilinear.{}", format.id_token()),
                    &format!(
                        "Texture2D<{}>.Sample(bilinear, off-centre)",
                        format.texture_name()
                    ),
                    Params {
                        format: Some(format),
                        width: format.components(),
                        ..Params::default()
                    },
                )
            })
            .collect()
    }

    fn workgroup_size(&self) -> [u32; 2] {
        [16, 16]
    }

    fn loop_trip(&self) -> u32 {
        16
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        case.params.format.map_or(0, Format::texel_bytes)
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        sample_needs(case.params.format, SampleFilter::Bilinear)
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let format = case.params.format.unwrap_or(Format::R8);
        let at = |e: u32| e as f32 + OFFSET;
        let magnitudes = texture_loop(case, params, local, |ex, ey| {
            widen(
                sample_magnitude(format, SAMPLER, at(ex), at(ey)),
                format.components(),
            )
        });
        ReferenceSum {
            sum: sample_sum(case, params, local, SAMPLER, OFFSET).sum,
            abs_sum: magnitudes.sum,
        }
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let format = case.params.format.unwrap_or(Format::R8);
        check_sums(case, &readback.sums, tolerance(format))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Pattern;
    use crate::format::ChannelKind;
    use crate::sampler::texel_at;

    #[test]
    fn cases_ids_and_names() {
        let cases = TextureOffcentre.cases();
        assert_eq!(cases.len(), 27);
        assert_eq!(cases[0].id, "tex.offcentre.bilinear.r8.uniform");
        assert_eq!(cases[14].id, "tex.offcentre.bilinear.rg16f.random");
        assert_eq!(
            cases[14].name,
            "Texture2D<RG16F>.Sample(bilinear, off-centre) random"
        );
        assert!(cases.iter().all(|c| c.suite == Suite::Texture));
        assert!(cases.iter().all(|c| c.needs().len() == 2));
    }

    /// A wrong kernel: each sample blends `(ex + dx, ey + dy)` with weight `w` on the sampled
    /// texel and `1 - w` on the neighbour along each axis (REPEAT).
    fn wrong(case: &Case, local: [u32; 2], d: i64, w: f32) -> [f32; 4] {
        let format = case.params.format.unwrap_or(Format::R8);
        let p = KernelParams::for_case(case);
        texture_loop(case, p, local, |ex, ey| {
            let (x, y) = (i64::from(ex), i64::from(ey));
            let at = |i, j| texel_at(format, AddressMode::Repeat, i, j);
            let (t00, t10, t01, t11) = (at(x, y), at(x + d, y), at(x, y + d), at(x + d, y + d));
            let q = [w * w, (1.0 - w) * w, w * (1.0 - w), (1.0 - w) * (1.0 - w)];
            let v =
                [0, 1, 2, 3].map(|c| q[0] * t00[c] + q[1] * t10[c] + q[2] * t01[c] + q[3] * t11[c]);
            widen(v, format.components())
        })
        .sum
    }

    #[test]
    fn the_model_passes_and_wrong_blends_fail() {
        for case in TextureOffcentre.cases() {
            let p = KernelParams::for_case(&case);
            let float = case.params.format.map(Format::channel_kind) != Some(ChannelKind::Unorm8);
            // Every thread where few lanes fail, every fifth elsewhere (to keep the test quick).
            let step = if float { 5 } else { 1 };
            let locals: Vec<[u32; 2]> = (0..256).step_by(step).map(|l| [l % 16, l / 16]).collect();
            let model: Vec<ReferenceSum> = locals
                .iter()
                .map(|&l| TextureOffcentre.reference(&case, p, l))
                .collect();
            if case.pattern == Pattern::Linear {
                let sums: Vec<[f32; 4]> = (0..256)
                    .map(|l| TextureOffcentre.reference(&case, p, [l % 16, l / 16]).sum)
                    .collect();
                let readback = Readback {
                    sums,
                    written: Vec::new(),
                };
                assert!(TextureOffcentre.verify(&case, &readback).passed());
            }
            if !float && case.pattern != Pattern::Linear {
                continue; // one or two windows per lane: a wrong UNORM8 blend may pass
            }
            // The share of lanes the family's tolerance rejects for a kernel that samples at
            // the texel centre (no blend), blends the -1 neighbours, swaps the weights, or
            // blends the +2 neighbours.
            let tol = tolerance(case.params.format.unwrap_or(Format::R8));
            let shares = [(1, 1.0), (-1, 0.75), (1, 0.25), (2, 0.75)].map(|(d, w)| {
                let mut bad = 0;
                for (&l, want) in locals.iter().zip(&model) {
                    let got = wrong(&case, l, d, w);
                    bad += (0..4)
                        .filter(|&k| !tol.accepts(got[k], want.sum[k], want.abs_sum[k]))
                        .count();
                }
                bad as f64 / (4 * locals.len()) as f64
            });
            if float {
                // Most lanes of every float case fail.
                assert!(shares.iter().all(|&s| s > 0.5), "{}: {shares:?}", case.id);
            } else if case.pattern == Pattern::Linear {
                // Some lanes of every linear UNORM8 case fail, so the case fails.
                assert!(shares.iter().all(|&s| s > 0.0), "{}: {shares:?}", case.id);
            }
        }
    }

    #[test]
    fn magnitudes_scale_the_tolerance() {
        let case = &TextureOffcentre.cases()[3 * 6 + 1]; // r32f linear
        let p = KernelParams::for_case(case);
        let r = TextureOffcentre.reference(case, p, [2, 3]);
        // Signed float texels partly cancel: |sum| <= sum of |samples| <= sum of |terms|.
        assert!(r.sum[0].abs() < r.abs_sum[0]);
        let unorm = &TextureOffcentre.cases()[1];
        let u = TextureOffcentre.reference(unorm, p, [2, 3]);
        assert!((u.sum[0] - u.abs_sum[0]).abs() <= 1e-4 * u.abs_sum[0]);
        assert_eq!(tolerance(Format::Rg8).relative, 1e-2);
        assert_eq!(tolerance(Format::Rgba16f).relative, 1e-3);
    }
}
