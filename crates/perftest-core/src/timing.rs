//! Turning raw timestamp pairs into durations (pure arithmetic).

use std::time::Duration;

use crate::error::{Error, Result};

/// Converts a (start, end) pair of raw timestamps into elapsed time.
///
/// Only the low `valid_bits` bits are meaningful; the difference is taken modulo that width so
/// a counter that wrapped once still gives the right answer. Zero elapsed ticks is rejected, as
/// is an elapsed count in the upper half of the range (an end before its start).
pub fn elapsed(start: u64, end: u64, valid_bits: u32, period_ns: f32) -> Result<Duration> {
    let mask = if valid_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << valid_bits) - 1
    };
    let ticks = end.wrapping_sub(start) & mask;
    let half = mask / 2 + 1;
    if ticks == 0 || ticks >= half || !(period_ns.is_finite() && period_ns > 0.0) {
        return Err(Error::InvalidTimestamp { start, end });
    }
    // Whole nanoseconds: finer than any timestamp period, and exact in reports.
    let ns = (ticks as f64 * f64::from(period_ns)).round();
    Ok(Duration::from_nanos(ns as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_period() {
        assert_eq!(
            elapsed(100, 1100, 64, 1.0).ok(),
            Some(Duration::from_nanos(1000))
        );
        let d = elapsed(0, 1000, 64, 52.08).ok().map(|d| d.as_nanos());
        assert_eq!(d, Some(52_080));
    }

    #[test]
    fn masks_to_valid_bits_and_handles_wrap() {
        // 36 valid bits: the counter wrapped between start and end.
        let start = (1u64 << 36) - 10;
        let end = 5;
        assert_eq!(
            elapsed(start, end, 36, 1.0).ok(),
            Some(Duration::from_nanos(15))
        );
        // Garbage above the valid bits is ignored.
        assert_eq!(
            elapsed(0xdead_0000_0000_0010, 0xbeef_0000_0000_0020, 32, 1.0).ok(),
            Some(Duration::from_nanos(16))
        );
    }

    #[test]
    fn rejects_zero_and_negative() {
        assert!(matches!(
            elapsed(5, 5, 64, 1.0),
            Err(Error::InvalidTimestamp { .. })
        ));
        assert!(matches!(
            elapsed(10, 5, 64, 1.0),
            Err(Error::InvalidTimestamp { .. })
        ));
        assert!(elapsed(1, 2, 64, 0.0).is_err());
        assert!(elapsed(1, 2, 64, f32::NAN).is_err());
    }
}
