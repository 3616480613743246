//! The throughput of a case with the spread of its samples, shared by the dashboard exports.

use crate::report::{CaseResult, Derived, LOADS_PER_GROUP};

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

/// The spread of a measured case; `None` when a figure would not be finite and positive.
pub(crate) fn throughput_spread(case: &CaseResult, derived: &Derived) -> Option<ThroughputSpread> {
    let groups = case.measurement.as_ref()?.groups as f64;
    let gload = |ns: f64| {
        let value = groups * LOADS_PER_GROUP as f64 / ns;
        (value.is_finite() && value > 0.0).then_some(value)
    };
    let s = &derived.summary;
    Some(ThroughputSpread {
        median: gload(s.median)?,
        lowest: gload(s.max)?,
        highest: gload(s.min)?,
    })
}
