//! Summaries of per-dispatch GPU times, and the test that GPU clocks have settled.

use serde::{Deserialize, Serialize};

/// The usual figures of a set of samples (here: GPU nanoseconds per dispatch).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
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
}
