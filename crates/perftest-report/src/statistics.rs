//! Summaries of per-dispatch GPU times, and the test that GPU clocks have settled.

/// The usual figures of a set of samples (here: GPU nanoseconds per dispatch).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Summary {
    /// Middle value; the mean of the two middle values for an even count.
    pub median: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (divides by `n - 1`); 0 for a single sample.
    pub stddev: f64,
    /// Coefficient of variation, `stddev / |mean|`; 0 when every sample is equal.
    pub cv: f64,
}

impl Summary {
    /// Summarises `samples`.
    ///
    /// `None` when there are no samples, when a sample is NaN or infinite, or when a figure
    /// would not be finite (sums overflowing, or a spread around a zero mean, whose CV has no
    /// meaning). So every figure of a returned summary is a finite number.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        if samples.is_empty() || samples.iter().any(|s| !s.is_finite()) {
            return None;
        }
        let n = samples.len() as f64;
        let median = median(samples)?;
        let min = samples.iter().copied().fold(f64::INFINITY, f64::min);
        let max = samples.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = samples.iter().sum::<f64>() / n;
        let stddev = if samples.len() < 2 {
            0.0
        } else {
            let squares: f64 = samples.iter().map(|s| (s - mean) * (s - mean)).sum();
            (squares / (n - 1.0)).sqrt()
        };
        let cv = if stddev == 0.0 {
            0.0
        } else {
            stddev / mean.abs()
        };
        let summary = Summary {
            median,
            min,
            max,
            mean,
            stddev,
            cv,
        };
        let figures = [median, min, max, mean, stddev, cv];
        figures.iter().all(|f| f.is_finite()).then_some(summary)
    }
}

/// The median of `values`: the middle value, or the mean of the two middle values for an even
/// count. `None` when `values` is empty or holds a NaN.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| v.is_nan()) {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted.get(mid).copied()
    } else {
        let low = sorted.get(mid - 1)?;
        let high = sorted.get(mid)?;
        // Halve first so two huge values do not overflow.
        Some(low / 2.0 + high / 2.0)
    }
}

/// The confidence of [`median_interval`]: 95%.
pub const INTERVAL_CONFIDENCE: f64 = 0.95;

/// Where the true median of the distribution the samples come from lies, with at least
/// [`INTERVAL_CONFIDENCE`]: a low and a high bound.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Interval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

impl Interval {
    /// The bounds multiplied by `factor` (e.g. from ns per dispatch to ns per workgroup).
    pub fn scaled(self, factor: f64) -> Interval {
        Interval {
            low: self.low * factor,
            high: self.high * factor,
        }
    }

    /// How far the interval reaches from `figure`, as a share of it (0.001 = 0.1%): the distance
    /// to the farther bound, so that `figure` ± this share holds the whole interval. `None`
    /// unless both are finite and `figure` is positive.
    pub fn reach_share(self, figure: f64) -> Option<f64> {
        let reach = (figure - self.low).max(self.high - figure) / figure;
        (figure > 0.0 && reach.is_finite()).then_some(reach)
    }

    /// True when the two intervals share no value: the medians they bound differ by more than
    /// either set of samples can tell.
    pub fn apart(self, other: Interval) -> bool {
        self.high < other.low || other.high < self.low
    }
}

/// The distribution-free confidence interval of the median of `samples`: from the k-th smallest
/// to the k-th largest sample, for the largest k whose chance of enclosing the true median is
/// at least [`INTERVAL_CONFIDENCE`]. With independent samples that chance is
/// `1 - 2 P(X < k)` for `X ~ Binomial(n, 1/2)`, whatever their distribution: six samples give
/// the smallest to the largest (96.9%), 36 the 12th smallest to the 12th largest (97.1%).
/// `None` with fewer than six samples (no pair of order statistics is sure enough) or with a
/// sample that is not finite.
pub fn median_interval(samples: &[f64]) -> Option<Interval> {
    if samples.iter().any(|s| !s.is_finite()) {
        return None;
    }
    let k = interval_rank(samples.len())?;
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    Some(Interval {
        low: sorted[k - 1],
        high: sorted[sorted.len() - k],
    })
}

/// The rank k (from 1) of [`median_interval`]'s bounds among `n` sorted samples.
fn interval_rank(n: usize) -> Option<usize> {
    // P(X = i) for X ~ Binomial(n, 1/2), in logarithms so that large n do not underflow.
    let mut log_p = -(n as f64) * std::f64::consts::LN_2;
    let mut below = 0.0; // P(X < k)
    let mut rank = None;
    for k in 1..=n / 2 {
        below += log_p.exp();
        if 1.0 - 2.0 * below < INTERVAL_CONFIDENCE {
            break;
        }
        rank = Some(k);
        let i = (k - 1) as f64;
        log_p += ((n as f64 - i) / (i + 1.0)).ln();
    }
    rank
}

/// True when `a` and `b` differ by at most `tolerance` relative to the larger magnitude:
/// `|a - b| / max(|a|, |b|) <= tolerance`.
///
/// The warm-up loop uses it to decide that GPU clocks have settled (two consecutive dispatch
/// times agree). Two zeros are steady; a NaN or infinite input never is.
pub fn steady(a: f64, b: f64, tolerance: f64) -> bool {
    if !(a.is_finite() && b.is_finite()) || tolerance.is_nan() {
        return false;
    }
    let scale = a.abs().max(b.abs());
    if scale == 0.0 {
        return true;
    }
    (a - b).abs() / scale <= tolerance
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
    }

    #[test]
    fn known_vector() {
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!(s.median, 4.5);
        assert_eq!(s.min, 2.0);
        assert_eq!(s.max, 9.0);
        assert_eq!(s.mean, 5.0);
        // Sum of squared deviations 32, n - 1 = 7.
        assert!(close(s.stddev, (32.0f64 / 7.0).sqrt()), "{}", s.stddev);
        assert!(close(s.cv, (32.0f64 / 7.0).sqrt() / 5.0), "{}", s.cv);
    }

    #[test]
    fn odd_count_unsorted() {
        let s = Summary::of(&[30.0, 10.0, 20.0]).unwrap();
        assert_eq!(s.median, 20.0);
        assert_eq!(s.mean, 20.0);
        assert_eq!(s.stddev, 10.0);
        assert_eq!(s.cv, 0.5);
        assert_eq!((s.min, s.max), (10.0, 30.0));
    }

    #[test]
    fn single_and_equal_samples() {
        let one = Summary::of(&[1234.5]).unwrap();
        assert_eq!(
            (one.median, one.min, one.max, one.mean),
            (1234.5, 1234.5, 1234.5, 1234.5)
        );
        assert_eq!((one.stddev, one.cv), (0.0, 0.0));
        let zeros = Summary::of(&[0.0, 0.0]).unwrap();
        assert_eq!((zeros.mean, zeros.cv), (0.0, 0.0));
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(Summary::of(&[]), None);
        assert_eq!(Summary::of(&[1.0, f64::NAN]), None);
        assert_eq!(Summary::of(&[1.0, f64::INFINITY]), None);
        assert_eq!(Summary::of(&[f64::MAX, f64::MAX]), None); // the sum overflows
        assert_eq!(Summary::of(&[-1.0, 1.0]), None); // spread around a zero mean
    }

    #[test]
    fn median_helper() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, f64::NAN]), None);
        assert_eq!(median(&[5.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[f64::MAX, f64::MAX]), Some(f64::MAX));
        assert_eq!(median(&[-4.0]), Some(-4.0));
    }

    #[test]
    fn steadiness() {
        assert!(steady(100.0, 100.0, 0.0));
        assert!(steady(100.0, 95.0, 0.05));
        assert!(steady(95.0, 100.0, 0.05));
        assert!(!steady(100.0, 94.0, 0.05));
        assert!(!steady(94.0, 100.0, 0.05));
        assert!(steady(0.0, 0.0, 0.0));
        assert!(!steady(0.0, 1.0, 0.5));
        assert!(!steady(f64::NAN, 1.0, 1.0));
        assert!(!steady(1.0, f64::INFINITY, 1.0));
        assert!(!steady(1.0, 1.0, f64::NAN));
    }

    #[test]
    fn median_interval_ranks() {
        // The ranks, against the binomial sums worked by hand (coverage in parentheses).
        assert_eq!(interval_rank(5), None); // [x1, x5] covers 93.75%
        assert_eq!(interval_rank(6), Some(1)); // 96.9%
        assert_eq!(interval_rank(9), Some(2)); // 96.1%; k = 3 would be 82.0%
        assert_eq!(interval_rank(12), Some(3)); // 96.1%; k = 4 would be 85.4%
        assert_eq!(interval_rank(36), Some(12)); // 97.1%; k = 13 would be 93.5%
        assert_eq!(interval_rank(0), None);
        // Large counts do not underflow: about n/2 - 0.98 sqrt(n).
        let k = interval_rank(10_000).unwrap();
        assert!((4900..=4902).contains(&k), "{k}");
    }

    #[test]
    fn median_interval_bounds() {
        assert_eq!(median_interval(&[3.0, 1.0, 2.0, 5.0, 4.0]), None);
        let six = median_interval(&[3.0, 1.0, 2.0, 6.0, 5.0, 4.0]).unwrap();
        assert_eq!((six.low, six.high), (1.0, 6.0));
        let twelve: Vec<f64> = (1..=12).rev().map(f64::from).collect();
        let i = median_interval(&twelve).unwrap();
        assert_eq!((i.low, i.high), (3.0, 10.0));
        assert_eq!(median_interval(&[1.0, 2.0, 3.0, 4.0, 5.0, f64::NAN]), None);
        // From a figure of 6.5: 3.5 down to the low bound, 3.5 up; from 4.0, 6.0 up.
        assert_eq!(i.reach_share(6.5), Some(3.5 / 6.5));
        assert_eq!(i.reach_share(4.0), Some(6.0 / 4.0));
        assert_eq!(i.reach_share(0.0), None);
        assert_eq!(
            i.scaled(2.0),
            Interval {
                low: 6.0,
                high: 20.0
            }
        );
    }

    #[test]
    fn intervals_apart_only_without_a_common_value() {
        let a = Interval {
            low: 1.0,
            high: 2.0,
        };
        assert!(a.apart(Interval {
            low: 2.5,
            high: 3.0
        }));
        assert!(Interval {
            low: 2.5,
            high: 3.0
        }
        .apart(a));
        assert!(!a.apart(Interval {
            low: 2.0,
            high: 3.0
        }));
        assert!(!a.apart(Interval {
            low: 0.0,
            high: 9.0
        }));
    }

    /// Uniform draws in [0, 1) from a fixed linear congruential sequence.
    fn uniform_draws(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Two sets of six samples from one distribution have intervals apart only when one set lies
    /// wholly below the other: 2 in C(12, 6) = 924, whatever the distribution.
    #[test]
    fn intervals_of_one_distribution_are_seldom_apart() {
        let mut draw = uniform_draws(0x9e37_79b9_7f4a_7c15);
        let trials = 40_000;
        let mut six = || median_interval(&[(); 6].map(|()| draw())).unwrap();
        let apart = (0..trials).filter(|_| six().apart(six())).count();
        let expected = trials as f64 * 2.0 / 924.0; // 86.6
        assert!((apart as f64 - expected).abs() < 30.0, "{apart}");
    }

    /// The interval's promise, on draws from a skewed distribution: it holds the true median
    /// in at least 95% of sets of six and of 36 samples.
    #[test]
    fn median_interval_covers_the_median() {
        // An exponential distribution (median ln 2).
        let mut uniform = uniform_draws(0x2545_f491_4f6c_dd1d);
        let mut draw = || -(1.0 - uniform()).ln();
        for n in [6, 36] {
            let trials = 4000;
            let held = (0..trials)
                .filter(|_| {
                    let samples: Vec<f64> = (0..n).map(|_| draw()).collect();
                    let i = median_interval(&samples).unwrap();
                    i.low <= std::f64::consts::LN_2 && std::f64::consts::LN_2 <= i.high
                })
                .count();
            let share = held as f64 / trials as f64;
            assert!((0.95..0.99).contains(&share), "n = {n}: {share}");
        }
    }
}
