//! What the sampling families share (`texture_address`, `texture_offcentre`,
//! `texture_separate`, `texture_precision`, `texture_unnormalized`, `texture_mips`,
//! `texture_derivatives`): the filter-by-format grid of their cases, the filter bit of a
//! case's parameters, what a sample needs of a format, the CPU model of a sampled texture loop,
//! and how close a filtered sum must come to it.

use crate::case::{Case, Params, SampleFilter};
use crate::family::FamilyRef;
use crate::format::{ChannelKind, Format};
use crate::reference::{texture_loop, widen, KernelParams, ReferenceSum, Tolerance};
use crate::sampler::{sample, SamplerState};
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The filters in suite order, with their words.
pub const FILTERS: [(SampleFilter, &str); 2] = [
    (SampleFilter::Nearest, "nearest"),
    (SampleFilter::Bilinear, "bilinear"),
];

/// The texture suite's sampling cases of one sampler kind: for each filter, then each of
/// `formats`, the three patterns of `Texture2D<FMT>.Sample(FILTER{qualifier})`, with id
/// `{id_stem}.FILTER.FMT.PATTERN`; `variant` is `variant_base` plus the filter bit.
pub fn filter_format_cases(
    family: FamilyRef,
    id_stem: &str,
    qualifier: &str,
    formats: &[Format],
    variant_base: u32,
) -> Vec<Case> {
    let mut cases = Vec::new();
    for (filter, word) in FILTERS {
        for &format in formats {
            cases.extend(Case::per_pattern(
                family,
                Suite::Texture,
                &format!("{id_stem}.{word}.{}", format.id_token()),
                &format!(
                    "Texture2D<{}>.Sample({word}{qualifier})",
                    format.texture_name()
                ),
                Params {
                    format: Some(format),
                    width: format.components(),
                    variant: variant_base + filter_bit(filter),
                    ..Params::default()
                },
            ));
        }
    }
    cases
}

/// The `Params::variant` bit of a filter (0 nearest, 1 bilinear).
pub fn filter_bit(filter: SampleFilter) -> u32 {
    u32::from(filter == SampleFilter::Bilinear)
}

/// The filter a `Params::variant` bit names.
pub fn filter_of(bit: u32) -> SampleFilter {
    if bit & 1 == 1 {
        SampleFilter::Bilinear
    } else {
        SampleFilter::Nearest
    }
}

/// What a sample of `format` with `filter` needs: a sampled image, filterable for bilinear.
pub fn sample_needs(format: Option<Format>, filter: SampleFilter) -> Vec<DeviceNeed> {
    let Some(format) = format else {
        return Vec::new();
    };
    let mut needs = vec![DeviceNeed::Format(format, FormatFeature::SampledImage)];
    if filter == SampleFilter::Bilinear {
        needs.push(DeviceNeed::Format(
            format,
            FormatFeature::SampledImageFilterLinear,
        ));
    }
    needs
}

/// The CPU model shared by the sampling families: the texture loop, each texel `(ex, ey)`
/// sampled by `state` at the texel-space position `(ex + offset, ey + offset)`, widened to
/// four lanes.
pub fn sample_sum(
    case: &Case,
    params: KernelParams,
    local: [u32; 2],
    state: SamplerState,
    offset: f32,
) -> ReferenceSum {
    let format = case.params.format.unwrap_or(Format::R8);
    texture_loop(case, params, local, |ex, ey| {
        let at = |e: u32| e as f32 + offset;
        widen(sample(format, state, at(ex), at(ey)), format.components())
    })
}

/// How close a GPU's filtered sums of `format` must be to the f32 model: 1e-2 of the lane's
/// sum of |weight x texel| for UNORM8, 1e-3 for the float formats (see the module docs).
pub fn tolerance(format: Format) -> Tolerance {
    match format.channel_kind() {
        ChannelKind::Unorm8 => Tolerance { relative: 1e-2 },
        ChannelKind::Float16 | ChannelKind::Float32 => Tolerance { relative: 1e-3 },
    }
}
