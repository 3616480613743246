//! The CPU model the extra-format families share (`texture_formats` and
//! `texel_buffer_formats`): the format a case reads, each thread's loads decoded and summed
//! (floats, or raw words for the integer formats), and how a readback is checked against it.

use crate::case::{Case, Pattern};
use crate::check::{check_words, thread_at, Readback, VerifyOutcome};
use crate::extra_format::{ExtraFormat, TexelValue};
use crate::reference::{hash, widen, KernelParams, ReferenceSum, Tolerance, LOADS_PER_THREAD};

/// The extra format of a case of `texture_formats` or `texel_buffer_formats`.
pub fn format_of(case: &Case) -> ExtraFormat {
    ExtraFormat::ALL
        .get((case.params.variant / 2) as usize)
        .copied()
        .unwrap_or(ExtraFormat::R8ui)
}

/// What one thread of an extra-format case must write.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ThreadModel {
    /// Float formats: the f32 sum per lane, the sum of |terms| and the summed slack.
    Float {
        sum: [f32; 4],
        abs_sum: [f32; 4],
        slack: [f32; 4],
    },
    /// Integer formats: the wrapping 32-bit sum per lane.
    Words([u32; 4]),
}

/// The texel indices (`x + 32 y`, or buffer elements) one thread reads, in load order: the
/// original 2D texture loop (`texture`) or its 1D buffer loop.
pub(crate) fn addresses(
    case: &Case,
    params: KernelParams,
    local: [u32; 2],
    texture: bool,
) -> Vec<u32> {
    let mask = params.elements_mask;
    if texture {
        let start = local.map(|l| match case.pattern {
            Pattern::Linear => l,
            Pattern::Random => hash(l) & 0x4,
            _ => 0,
        });
        let mut out = Vec::with_capacity(256);
        for y in 0..16 {
            for x in 0..16 {
                let (ex, ey) = ((start[0] + x) | mask, (start[1] + y) | mask);
                out.push((ey % 32) * 32 + ex % 32);
            }
        }
        out
    } else {
        let start = match case.pattern {
            Pattern::Linear => local[0],
            Pattern::Random => hash(local[0]) & 0xf,
            _ => 0,
        };
        (0..LOADS_PER_THREAD).map(|i| (start + i) | mask).collect()
    }
}

fn widen_words(v: [u32; 4], n: u32) -> [u32; 4] {
    match n {
        1 => [v[0]; 4],
        2 => [v[0], v[1], v[0], v[1]],
        3 => [v[0], v[1], v[2], v[0]],
        _ => v,
    }
}

/// The CPU model of the thread at `local` of a case reading `format` (texture or buffer loop).
pub(crate) fn thread_model(
    case: &Case,
    format: ExtraFormat,
    params: KernelParams,
    local: [u32; 2],
    texture: bool,
) -> ThreadModel {
    let texels = format.texels();
    let n = format.components();
    let at = addresses(case, params, local, texture);
    if format.is_integer() {
        let mut sum = [0u32; 4];
        for e in at {
            let w = match texels.get(e as usize) {
                Some(TexelValue::Uint(w)) => widen_words(*w, n),
                _ => [0; 4],
            };
            for (s, v) in sum.iter_mut().zip(w) {
                *s = s.wrapping_add(v);
            }
        }
        return ThreadModel::Words(sum);
    }
    let (mut sum, mut abs_sum, mut slack) = ([0f32; 4], [0f32; 4], [0f32; 4]);
    for e in at {
        let (v, s) = match texels.get(e as usize) {
            Some(TexelValue::Float { value, slack }) => (widen(*value, n), widen(*slack, n)),
            _ => ([f32::NAN; 4], [0.0; 4]),
        };
        for lane in 0..4 {
            sum[lane] += v[lane];
            abs_sum[lane] += v[lane].abs();
            slack[lane] += s[lane];
        }
    }
    ThreadModel::Float {
        sum,
        abs_sum,
        slack,
    }
}

/// The model as a [`ReferenceSum`] (integer sums as their bit patterns, scale 0).
pub(crate) fn reference_of(model: ThreadModel) -> ReferenceSum {
    match model {
        ThreadModel::Float { sum, abs_sum, .. } => ReferenceSum { sum, abs_sum },
        ThreadModel::Words(w) => ReferenceSum {
            sum: w.map(f32::from_bits),
            abs_sum: [0.0; 4],
        },
    }
}

/// Checks a verification read-back against [`thread_model`]: integer lanes exactly, float
/// lanes within `1e-4 * sum|terms| + slack`.
pub(crate) fn verify_model(
    case: &Case,
    format: ExtraFormat,
    readback: &Readback,
    texture: bool,
) -> VerifyOutcome {
    let params = KernelParams::for_case(case);
    let [wx, _] = case.workgroup_size();
    let models: Vec<ThreadModel> = (0..case.threads())
        .map(|l| thread_model(case, format, params, [l % wx, l / wx], texture))
        .collect();
    if format.is_integer() {
        return check_words(readback, case.threads(), |_, local| {
            match models.get(local as usize) {
                Some(ThreadModel::Words(w)) => *w,
                _ => [0; 4],
            }
        });
    }
    let mut outcome = VerifyOutcome::new();
    for (t, got) in readback.sums.iter().enumerate() {
        let (group, local) = thread_at(t, case.threads());
        let Some(&ThreadModel::Float {
            sum,
            abs_sum,
            slack,
        }) = models.get(local as usize)
        else {
            outcome.record(false, || format!("no model for thread {local}"));
            continue;
        };
        let bad = (0..4).find(|&lane| {
            let allowed = Tolerance::DEFAULT.relative * abs_sum[lane] + slack[lane];
            !(got[lane].is_finite() && (got[lane] - sum[lane]).abs() <= allowed)
        });
        outcome.record(bad.is_none(), || {
            let lane = bad.unwrap_or(0);
            format!(
                "group {group} thread {local} lane {lane}: expected {} (within {}), got {}",
                sum[lane],
                Tolerance::DEFAULT.relative * abs_sum[lane] + slack[lane],
                got[lane]
            )
        });
    }
    outcome
}
