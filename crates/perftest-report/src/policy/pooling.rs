//! Pooling: the samples a case whose dispatches vary collects beyond `--samples`, within the
//! same interleaved rounds, so that its median lands on its fastest level.

use crate::statistics::{median, Summary};

/// Above this coefficient of variation of a case's samples (0.25%) it collects more samples.
pub const POOL_CV: f64 = 0.0025;

/// A noisy case collects this many times `--samples` samples.
pub const POOL_FACTOR: usize = 6;

/// A pooled case spends on its extra samples at most what [`POOL_FACTOR`] times `--samples`
/// dispatches of this many times the dispatch target take (a factor, three).
pub const POOL_SPAN: f64 = 3.0;

/// Original-sized dispatches (4 x 1024 workgroups) whose GPU time a pooled case's samples fit
/// in: 60, what perftest-vk's fixed schedule (30 warm-up and 30 timed frames) spends on every
/// case, so that the noisiest cases cost no more than there.
pub const POOL_BUDGET_DISPATCHES: u64 = 60;

/// The samples a pooled case whose dispatches have `groups` workgroups collects:
/// [`POOL_FACTOR`] times `base` for a case whose dispatches take up to [`POOL_SPAN`] times
/// `dispatch_ns`, in proportion fewer for one whose dispatches take longer, and no more than
/// fit in [`POOL_BUDGET_DISPATCHES`] original-sized dispatches; but at least twice `base`,
/// enough for [`modes`](crate::modes::modes) to tell levels apart.
pub fn pool_samples(base: usize, dispatch_ns: f64, samples: &[f64], groups: u64) -> usize {
    let full = base * POOL_FACTOR;
    let span = POOL_SPAN * dispatch_ns;
    let Some(t) = median(samples).filter(|t| t.is_finite() && *t > 0.0) else {
        return full.max(2 * base);
    };
    let spanned = if t > span && span > 0.0 {
        (full as f64 * span / t).round() as usize
    } else {
        full
    };
    let budget_groups = POOL_BUDGET_DISPATCHES * crate::derived::ORIGINAL_GROUPS_PER_DISPATCH;
    let budget = if groups > 0 {
        // `as` saturates.
        (budget_groups as f64 / groups as f64).floor() as usize
    } else {
        full
    };
    spanned.min(budget).clamp(2 * base, full.max(2 * base))
}

/// Whether `samples` vary by more than [`POOL_CV`] through more than one stray dispatch. With
/// three samples: their CV is over it, and without the sample farthest from their median still
/// over a quarter of it. With more: without that sample, their CV is over a third of it.
/// A dispatch 0.5% slow among samples within 0.02% of each other is not noise the median
/// feels. The measurement chapter gives how often noisy cases escape both rules.
pub fn noisy(samples: &[f64]) -> bool {
    let Some(all) = Summary::of(samples).filter(|_| samples.len() >= 3) else {
        return false;
    };
    let distance = |t: &f64| (t - all.median).abs();
    let farthest = (0..samples.len())
        .max_by(|&i, &j| distance(&samples[i]).total_cmp(&distance(&samples[j])))
        .unwrap_or(0);
    let mut rest = samples.to_vec();
    rest.swap_remove(farthest);
    let Some(rest_cv) = Summary::of(&rest).map(|r| r.cv) else {
        return false;
    };
    if rest.len() >= 4 {
        rest_cv > POOL_CV / 3.0
    } else {
        all.cv > POOL_CV && rest_cv > POOL_CV / 4.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_stray_dispatch_is_not_noise() {
        assert!(!noisy(&[100.5, 100.0, 100.01]));
        assert!(!noisy(&[100.0, 100.01, 100.0, 99.99, 100.6, 100.0]));
        // cbuffer{float4} load random on the H200: 0.3-0.5% per dispatch.
        assert!(noisy(&[100.0, 100.5, 99.6]));
        assert!(noisy(&[100.0, 100.6, 99.5, 100.3, 99.8, 100.5]));
        // Six dispatches of `cbuffer{float4} load random` on an H200 (ns per workgroup), which
        // vary by 0.09% without the farthest: over a third of POOL_CV, under half of it.
        assert!(noisy(&[597.24, 598.7, 598.6, 597.01, 597.83, 597.56]));
        // Under a third of POOL_CV without the farthest (0.07%), over a quarter: steady.
        assert!(!noisy(&[100.0, 100.1, 99.92, 100.05, 99.95, 100.4]));
        assert!(!noisy(&[100.0, 100.01, 100.02, 100.0]));
        assert!(!noisy(&[100.0, 101.0]));
    }

    #[test]
    fn a_long_dispatch_collects_fewer_samples() {
        // 2 ms dispatches of one original dispatch's groups (60 of them fit): six times six.
        let big = 4096;
        assert_eq!(pool_samples(6, 2e6, &[2e6, 2.01e6, 2e6], big), 36);
        // 5.6 ms, within three times the target: all 36.
        assert_eq!(pool_samples(6, 2e6, &[5.6e6, 5.6e6, 5.62e6], big), 36);
        // 14.7 ms: 36 * 6 / 14.7.
        assert_eq!(pool_samples(6, 2e6, &[14.7e6, 14.76e6, 14.7e6], big), 15);
        // 30 ms: at least twice six.
        assert_eq!(pool_samples(6, 2e6, &[30e6, 30e6, 30e6], big), 12);
        assert_eq!(pool_samples(6, 2e6, &[], big), 36);
    }

    #[test]
    fn a_pooled_case_fits_in_what_the_peer_spends_on_it() {
        // 2 ms dispatches of 15,360 groups: 60 original dispatches are 16 of them.
        assert_eq!(pool_samples(6, 2e6, &[2e6, 2.01e6, 2e6], 15_360), 16);
        // `cbuffer{float4} load random` on the H100: 8,448 groups in 5.04 ms, 29 fit.
        assert_eq!(pool_samples(6, 2e6, &[5.04e6, 5.05e6, 5.04e6], 8448), 29);
        // A fast case whose budget is under twice six keeps twelve.
        assert_eq!(pool_samples(6, 2e6, &[2e6, 2e6, 2e6], 200_000), 12);
        // No groups known: no budget.
        assert_eq!(pool_samples(6, 2e6, &[2e6, 2e6, 2e6], 0), 36);
    }
}
