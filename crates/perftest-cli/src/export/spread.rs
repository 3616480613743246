//! The throughput of a case with the spread of its samples, shared by the dashboard exports.

use crate::report::{CaseResult, Derived};

/// A case's Gload/s: from the median sample, and from the slowest and fastest samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ThroughputSpread {
    /// Gload/s at the median time.
    pub(crate) median: f64,
    /// Gload/s of the slowest sample (the longest time).
    pub(crate) lowest: f64,
    /// Gload/s of the fastest sample (the shortest time).
    pub(crate) highest: f64,
}

/// The spread of a measured case; `None` when a figure would not be finite and positive. The
/// median is the case's own figure ([`Derived::loads_per_s`]); the slowest and fastest samples
/// scale it by their time against the median's.
pub(crate) fn throughput_spread(_case: &CaseResult, derived: &Derived) -> Option<ThroughputSpread> {
    let median = derived.loads_per_s? / 1e9;
    let s = &derived.summary;
    let scaled = |ns: f64| {
        let value = median * s.median / ns;
        (value.is_finite() && value > 0.0).then_some(value)
    };
    Some(ThroughputSpread {
        median: scaled(s.median)?,
        lowest: scaled(s.max)?,
        highest: scaled(s.min)?,
    })
}
