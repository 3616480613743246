//! The adaptive dispatch-size rule.
//!
//! A case starts with a guess of how many workgroups to dispatch (the previous case's answer,
//! or one group). While one dispatch takes less than [`GROWTH_THRESHOLD_NS`] the count grows
//! tenfold, because tiny dispatches are dominated by fixed costs and say little about the
//! per-group time. Above the threshold the count is scaled by `target / measured` toward the
//! target time (about 20 ms). The count never exceeds what one `vkCmdDispatch` can launch within
//! the device's `maxComputeWorkGroupCount`; [`split_groups`] spreads it over X, Y and Z.

/// Below this GPU time (2 ms) a dispatch is grown tenfold instead of scaled to the target.
pub const GROWTH_THRESHOLD_NS: f64 = 2_000_000.0;

/// How much a too-short dispatch grows per step.
pub const GROWTH_FACTOR: u64 = 10;

/// A measurement time of 20 ms (ten 2 ms dispatches), as the sizing rule's examples use.
pub const DEFAULT_TARGET_NS: f64 = 20_000_000.0;

/// The GPU time a measured dispatch is sized for by default (2 ms), whatever the number of
/// samples and the measurement time are.
///
/// Why: the time per workgroup of a dispatch includes what the dispatch pays once (its launch,
/// its ramp, its partly idle last wave), so it depends on the dispatch's size. Options
/// that should only change the precision of a figure (more samples, a shorter measurement)
/// would otherwise shrink the dispatch and change the figure itself. With a fixed dispatch time
/// they change how many dispatches are timed, not what one dispatch is.
pub const DEFAULT_DISPATCH_NS: f64 = 2_000_000.0;

/// The fewest waves (workgroups the device runs at once) a measured dispatch holds, where the
/// device says how many that is (8).
///
/// Why: a dispatch of few waves ends with a wave whose groups finish unevenly over the SMs, and
/// that tail is a large, noisy share of it (the measurement chapter gives the evidence).
pub const MIN_WAVES: u64 = 8;

/// The default limit on the X dimension of a dispatch, on top of `maxComputeWorkGroupCount[0]`
/// (the seed article's 10000).
pub const DEFAULT_FIRST_DIM_CAP: u32 = 10_000;

/// A target below 2 ms grows tenfold only while under this fraction of it (a fifth).
pub const SMALL_TARGET_GROWTH_FRACTION: f64 = 0.2;

/// Below this time a dispatch grows tenfold instead of being scaled to `target_ns`:
/// [`GROWTH_THRESHOLD_NS`] (2 ms), or a fifth of a smaller target (the start-up probe's 0.5 ms
/// dispatches), since a threshold above the target would make the rule oscillate and one at the
/// target would grow every dispatch short of it tenfold.
pub fn growth_threshold(target_ns: f64) -> f64 {
    if target_ns >= GROWTH_THRESHOLD_NS {
        GROWTH_THRESHOLD_NS
    } else {
        target_ns * SMALL_TARGET_GROWTH_FRACTION
    }
}

/// The group count to try after a dispatch of `current` groups took `measured_ns`.
///
/// - `measured_ns` under the [growth threshold](growth_threshold), zero, negative, NaN or
///   infinite: grow tenfold (saturating).
/// - otherwise: scale `current` by `target_ns / measured_ns` and round to the nearest whole
///   group.
///
/// A `target_ns` that is not a positive finite number leaves the count unchanged. The result is
/// always clamped to `[1, max_total]` (a `max_total` of 0 is treated as 1), so it can be
/// dispatched as it is.
pub fn next_group_count(current: u64, measured_ns: f64, target_ns: f64, max_total: u64) -> u64 {
    let max_total = max_total.max(1);
    let current = current.clamp(1, max_total);
    if !(target_ns.is_finite() && target_ns > 0.0) {
        return current;
    }
    let threshold = growth_threshold(target_ns);
    let next = if !measured_ns.is_finite() || measured_ns <= 0.0 || measured_ns < threshold {
        current.saturating_mul(GROWTH_FACTOR)
    } else {
        let scaled = (current as f64 * (target_ns / measured_ns)).round();
        // `as` saturates for floats: huge values become u64::MAX, tiny ones 0 (clamped below).
        scaled as u64
    };
    next.clamp(1, max_total)
}

/// The usable per-dimension limits: X is also held to `first_dim_cap`; a zero limit (never
/// reported by a conforming driver) is treated as 1.
fn dimension_caps(max_count: [u32; 3], first_dim_cap: u32) -> [u64; 3] {
    [
        u64::from(max_count[0].min(first_dim_cap).max(1)),
        u64::from(max_count[1].max(1)),
        u64::from(max_count[2].max(1)),
    ]
}

/// The largest group count one dispatch can launch: the product of the per-dimension limits,
/// X held to `first_dim_cap` (saturating at `u64::MAX`, which no real device reaches).
pub fn max_total(max_count: [u32; 3], first_dim_cap: u32) -> u64 {
    let [x, y, z] = dimension_caps(max_count, first_dim_cap);
    x.saturating_mul(y).saturating_mul(z)
}

/// The number of groups a dispatch of `dims` launches (saturating at `u64::MAX`).
pub fn group_total(dims: [u32; 3]) -> u64 {
    u64::from(dims[0])
        .saturating_mul(u64::from(dims[1]))
        .saturating_mul(u64::from(dims[2]))
}

/// Spreads `total` groups over X/Y/Z within the per-dimension limits.
///
/// X stays within `min(max_count[0], first_dim_cap)`, Y within `max_count[1]`, Z within
/// `max_count[2]`; every dimension is at least 1. `total` is first clamped to
/// `[1, max_total(max_count, first_dim_cap)]`.
///
/// Rounding: the product ([`group_total`]) never exceeds the clamped total and may fall short
/// of it, because a count with no fitting factorisation (a large prime, say) cannot be launched
/// exactly. Z is the fewest layers that fit, Y the fewest rows of each layer, X the rest rounded
/// down, so the shortfall is below `Z * (Y + 1)` groups: exact while `total` fits in X, and
/// otherwise under about `3 / X-limit` of the total (0.03% with the default cap). Callers must
/// use the returned dimensions' product, not the requested total, as the group count.
pub fn split_groups(total: u64, max_count: [u32; 3], first_dim_cap: u32) -> [u32; 3] {
    let [x_cap, y_cap, _] = dimension_caps(max_count, first_dim_cap);
    let total = total.clamp(1, max_total(max_count, first_dim_cap));
    let layer = x_cap.saturating_mul(y_cap);
    // Fewest Z layers of at most `layer` groups; `total <= layer * z_cap` keeps z within its cap.
    let z = total.div_ceil(layer);
    let per_layer = total / z; // <= layer, >= 1
    let y = per_layer.div_ceil(x_cap); // <= y_cap
    let x = per_layer / y; // <= x_cap, >= 1 because y <= per_layer
    [to_u32(x), to_u32(y), to_u32(z)]
}

/// Rounds `total` to the nearest whole number of `wave`s (groups the device runs at once), at
/// least one wave and at most `max_total`'s last whole wave. Counts below one wave, or a `wave`
/// of 0 or 1, are returned unchanged.
///
/// Why: a dispatch runs in waves of `wave` groups, and its last wave is partly idle unless the
/// count is a whole number of waves. With a few waves per dispatch (slow cases), that idle tail
/// makes the time per group depend on the exact count — by over 1% from one run to the next when
/// the count is sized from a noisy probe. Whole waves remove the dependence.
pub fn round_to_waves(total: u64, wave: u64, max_total: u64) -> u64 {
    if wave <= 1 || total < wave || max_total < wave {
        return total;
    }
    let waves = ((total as f64 / wave as f64).round() as u64).clamp(1, max_total / wave);
    waves * wave
}

/// Like [`split_groups`], but lays a whole number of waves out exactly as `[wave, waves, 1]`
/// when that fits the limits (so the product is exactly `total`).
pub fn split_waves(total: u64, wave: u64, max_count: [u32; 3], first_dim_cap: u32) -> [u32; 3] {
    let [x_cap, y_cap, _] = dimension_caps(max_count, first_dim_cap);
    if wave > 1 && total % wave == 0 && wave <= x_cap && total / wave <= y_cap {
        return [to_u32(wave), to_u32(total / wave), 1];
    }
    split_groups(total, max_count, first_dim_cap)
}

/// Converts a dimension already known to fit in `u32`.
fn to_u32(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod wave_tests {
    use super::*;

    #[test]
    fn rounds_to_whole_waves_within_limits() {
        assert_eq!(round_to_waves(5258, 1056, u64::MAX), 5280);
        assert_eq!(round_to_waves(5196, 1056, u64::MAX), 5280);
        assert_eq!(round_to_waves(1200, 1056, u64::MAX), 1056);
        assert_eq!(round_to_waves(900, 1056, u64::MAX), 900); // under one wave: unchanged
        assert_eq!(round_to_waves(5000, 0, u64::MAX), 5000);
        assert_eq!(round_to_waves(10_000, 1056, 5000), 4224); // never above the limit
    }

    #[test]
    fn whole_waves_split_exactly() {
        let max = [65535, 65535, 65535];
        assert_eq!(split_waves(63360, 1056, max, 10_000), [1056, 60, 1]);
        assert_eq!(group_total(split_waves(63360, 1056, max, 10_000)), 63360);
        // Not a whole number of waves, or a wave wider than X allows: the plain split.
        assert_eq!(
            split_waves(5000, 1056, max, 10_000),
            split_groups(5000, max, 10_000)
        );
        assert_eq!(
            split_waves(40_000, 20_000, max, 10_000),
            split_groups(40_000, max, 10_000)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A typical desktop limit set.
    const LIMITS: [u32; 3] = [65535, 65535, 65535];

    #[test]
    fn grows_tenfold_below_two_ms() {
        assert_eq!(
            next_group_count(1, 10_000.0, DEFAULT_TARGET_NS, u64::MAX),
            10
        );
        assert_eq!(
            next_group_count(40, 1_999_999.0, DEFAULT_TARGET_NS, u64::MAX),
            400
        );
        // At the threshold the rule switches to scaling: 2 ms -> 20 ms is also x10 here.
        assert_eq!(
            next_group_count(40, 2_000_000.0, DEFAULT_TARGET_NS, u64::MAX),
            400
        );
        assert_eq!(
            next_group_count(40, 4_000_000.0, DEFAULT_TARGET_NS, u64::MAX),
            200
        );
    }

    #[test]
    fn scales_toward_target_and_rounds() {
        assert_eq!(
            next_group_count(1000, 30_000_000.0, 20_000_000.0, u64::MAX),
            667
        );
        assert_eq!(next_group_count(3, 8_000_000.0, 20_000_000.0, u64::MAX), 8); // 7.5 -> 8
        assert_eq!(
            next_group_count(1000, 20_000_000.0, 20_000_000.0, u64::MAX),
            1000
        );
        // Far too long: shrinks, but never below one group.
        assert_eq!(next_group_count(1, 1e12, 20_000_000.0, u64::MAX), 1);
    }

    #[test]
    fn bad_measurements_grow() {
        for bad in [0.0, -5.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(
                next_group_count(7, bad, DEFAULT_TARGET_NS, u64::MAX),
                70,
                "{bad}"
            );
        }
    }

    #[test]
    fn bad_target_keeps_count() {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(next_group_count(7, 5e6, bad, u64::MAX), 7, "{bad}");
        }
    }

    #[test]
    fn small_target_does_not_oscillate() {
        // Target 1 ms: a 1.5 ms dispatch is scaled down, not grown tenfold.
        assert_eq!(
            next_group_count(300, 1_500_000.0, 1_000_000.0, u64::MAX),
            200
        );
    }

    #[test]
    fn clamps_to_limits_and_saturates() {
        assert_eq!(
            next_group_count(u64::MAX, 1.0, DEFAULT_TARGET_NS, u64::MAX),
            u64::MAX
        );
        assert_eq!(
            next_group_count(u64::MAX / 3, 1.0, DEFAULT_TARGET_NS, u64::MAX),
            u64::MAX
        );
        assert_eq!(next_group_count(100, 1.0, DEFAULT_TARGET_NS, 500), 500);
        assert_eq!(next_group_count(u64::MAX, 3e6, 1e300, u64::MAX), u64::MAX);
        assert_eq!(next_group_count(0, 5e6, DEFAULT_TARGET_NS, 0), 1);
        assert_eq!(next_group_count(9000, 5e6, DEFAULT_TARGET_NS, 1000), 1000);
    }

    /// A device whose dispatch time is a fixed cost plus a per-group cost.
    fn linear_device(groups: u64) -> f64 {
        50_000.0 + 3_700.0 * groups as f64
    }

    #[test]
    fn converges_on_a_linear_device() {
        let limit = max_total(LIMITS, DEFAULT_FIRST_DIM_CAP);
        let mut groups = 1;
        let mut steps = 0;
        loop {
            let time = linear_device(groups);
            let next = next_group_count(groups, time, DEFAULT_TARGET_NS, limit);
            steps += 1;
            if next == groups || steps > 10 {
                break;
            }
            groups = next;
        }
        assert!(steps <= 7, "took {steps} steps");
        let time = linear_device(groups);
        assert!(
            (time / DEFAULT_TARGET_NS - 1.0).abs() < 0.01,
            "{groups} groups -> {time} ns"
        );
    }

    #[test]
    fn converges_when_capped_by_the_device() {
        // Extremely fast device: the count reaches the launch limit and stays there.
        let limit = max_total([1000, 10, 1], DEFAULT_FIRST_DIM_CAP);
        assert_eq!(limit, 10_000);
        let mut groups = 1;
        for _ in 0..10 {
            groups = next_group_count(groups, groups as f64 * 0.01, DEFAULT_TARGET_NS, limit);
        }
        assert_eq!(groups, limit);
    }

    #[test]
    fn max_total_and_group_total() {
        assert_eq!(max_total(LIMITS, 10_000), 10_000 * 65535 * 65535);
        assert_eq!(max_total(LIMITS, u32::MAX), 65535u64 * 65535 * 65535);
        assert_eq!(max_total([u32::MAX; 3], u32::MAX), u64::MAX);
        assert_eq!(max_total([0, 0, 0], 0), 1);
        assert_eq!(group_total([3, 5, 7]), 105);
        assert_eq!(group_total([u32::MAX; 3]), u64::MAX);
        assert_eq!(group_total([0, 5, 7]), 0);
    }

    #[test]
    fn split_examples() {
        assert_eq!(split_groups(1, LIMITS, 10_000), [1, 1, 1]);
        assert_eq!(split_groups(0, LIMITS, 10_000), [1, 1, 1]);
        assert_eq!(split_groups(4096, LIMITS, 10_000), [4096, 1, 1]);
        assert_eq!(split_groups(10_000, LIMITS, 10_000), [10_000, 1, 1]);
        assert_eq!(split_groups(10_001, LIMITS, 10_000), [5000, 2, 1]);
        assert_eq!(split_groups(40_000, LIMITS, 10_000), [10_000, 4, 1]);
        // 7919 is prime; with X limited to 100 it cannot be launched exactly.
        let dims = split_groups(7919, LIMITS, 100);
        assert_eq!(dims, [98, 80, 1]);
        assert_eq!(group_total(dims), 7840);
        // Beyond the launch limit: clamped to it exactly.
        assert_eq!(
            split_groups(u64::MAX, LIMITS, 10_000),
            [10_000, 65535, 65535]
        );
        // Limits whose product exceeds u64: clamped to u64::MAX, launched with 2^64 - 4 groups.
        let dims = split_groups(u64::MAX, [u32::MAX; 3], u32::MAX);
        assert_eq!(group_total(dims), u64::MAX - 3);
    }

    /// Checks the documented guarantees of one split.
    fn check_split(total: u64, max_count: [u32; 3], cap: u32) {
        let dims = split_groups(total, max_count, cap);
        let caps = [
            max_count[0].min(cap).max(1),
            max_count[1].max(1),
            max_count[2].max(1),
        ];
        for axis in 0..3 {
            assert!(dims[axis] >= 1, "{total} {max_count:?} {cap}: {dims:?}");
            assert!(
                dims[axis] <= caps[axis],
                "{total} {max_count:?} {cap}: {dims:?}"
            );
        }
        let wanted = total.clamp(1, max_total(max_count, cap));
        let got = group_total(dims);
        assert!(got <= wanted, "{total} {max_count:?} {cap}: {dims:?}");
        let shortfall = wanted - got;
        let bound = u64::from(dims[2]).saturating_mul(u64::from(dims[1]) + 1);
        assert!(
            shortfall < bound,
            "{total} {max_count:?} {cap}: {dims:?} short {shortfall}"
        );
        if wanted <= u64::from(caps[0]) {
            assert_eq!(got, wanted, "{total} {max_count:?} {cap}: {dims:?}");
        }
        if u64::from(caps[0]) >= 1000 && wanted >= 1000 {
            let relative = shortfall as f64 / wanted as f64;
            assert!(
                relative < 3.5 / f64::from(caps[0]),
                "{total}: {dims:?} short {relative}"
            );
        }
    }

    #[test]
    fn split_never_exceeds_limits() {
        let limit_sets: [[u32; 3]; 6] = [
            LIMITS,
            [65535, 1, 1],
            [1, 1, 1],
            [7, 3, 2],
            [2_147_483_647, 65535, 65535],
            [u32::MAX, u32::MAX, u32::MAX],
        ];
        let caps = [1, 3, 100, 10_000, u32::MAX];
        let mut totals: Vec<u64> = (0..=2000).collect();
        let mut x: u64 = 1;
        while x < u64::MAX / 3 {
            totals.extend([x - 1, x, x + 1, x * 2 + 1]);
            x = x.saturating_mul(3);
        }
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            totals.push(state >> (state % 64));
        }
        totals.extend([u64::MAX, u64::MAX - 1, 1 << 63, (1 << 63) - 1]);
        for &limits in &limit_sets {
            for &cap in &caps {
                for &total in &totals {
                    check_split(total, limits, cap);
                }
            }
        }
    }

    #[test]
    fn sizing_then_split_round_trip() {
        // The runner's loop: pick a count, split it, use the product as the actual count.
        let limit = max_total(LIMITS, DEFAULT_FIRST_DIM_CAP);
        let mut groups = 1;
        for _ in 0..8 {
            let dims = split_groups(groups, LIMITS, DEFAULT_FIRST_DIM_CAP);
            let actual = group_total(dims);
            groups = next_group_count(actual, linear_device(actual), DEFAULT_TARGET_NS, limit);
        }
        let time = linear_device(group_total(split_groups(groups, LIMITS, 10_000)));
        assert!((time / DEFAULT_TARGET_NS - 1.0).abs() < 0.01, "{time}");
    }
}
