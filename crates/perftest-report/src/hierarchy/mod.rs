//! The cache hierarchy read from the memory suite's sweep (`mem.sweep.*`): the latency and
//! bandwidth curves over working sets from 4 KB to 512 MB, the levels they step through
//! (L1, L2 near, L2 far, memory, or whatever the device has), each level's latency, capacity
//! and bandwidth. Vulkan reports no cache sizes; this is how to learn them.
//!
//! Everything here is a pure function of the curves:
//! - [`levels()`]: the plateau rule that cuts a curve into levels (and [`outliers`]),
//! - [`names`]: what each latency level is called,
//! - [`refine()`]: which working sets to measure next to bracket every transition to 1/16 octave,
//! - [`carveout`]: the L1 each declared shared-memory size leaves (the carve-out family).
//!
//! The `perftest` command prints the hierarchy's section from [`Hierarchy`]; the findings
//! (`cache.*`) read it too.

pub mod carveout;
#[cfg(any(test, feature = "samples"))]
pub mod curves;
pub mod levels;
pub mod names;
pub mod refine;

use perftest_cases::{case_index, Curve};

pub use self::carveout::{carveouts, Carveout};
pub use self::levels::{levels, outliers, Level, Point};
pub use self::names::level_names;
pub use self::refine::{refine, refine_edge, RefineLimits};

use crate::derived::Deriver;
use crate::schema::{CaseResult, CaseStatus, Report};

/// A level of a curve with its name (`L1`, `L2 near`, `memory`).
#[derive(Clone, Debug, PartialEq)]
pub struct NamedLevel {
    /// The level's name.
    pub name: String,
    /// The plateau.
    pub level: Level,
}

/// The cache hierarchy of a report: both curves (cleaned and sorted) and their levels.
#[derive(Clone, Debug, PartialEq)]
pub struct Hierarchy {
    /// Latency: ns per dependent load by working set (one SM's pointer chase).
    pub latency: Vec<Point>,
    /// Bandwidth as its cost: ns per byte by working set (all SMs at once).
    pub bandwidth: Vec<Point>,
    /// The latency curve's levels, named by [`level_names`].
    pub latency_levels: Vec<NamedLevel>,
    /// The bandwidth curve's levels, each named after the latency level nearest its middle (in
    /// octaves of working set); by [`level_names`] when there is no latency curve.
    pub bandwidth_levels: Vec<NamedLevel>,
    /// Latency points left out as outliers.
    pub latency_outliers: Vec<Point>,
    /// Bandwidth points left out as outliers.
    pub bandwidth_outliers: Vec<Point>,
    /// The L1 beside each declared shared-memory size (empty without carve-out cases).
    pub carveout: Vec<Carveout>,
    /// Names of the cases left out as unsteady measurements ([`unsteady`]).
    pub unsteady: Vec<String>,
    /// The latency curve's unsteady points (in the table, on no level).
    pub latency_unsteady: Vec<Point>,
    /// The bandwidth curve's unsteady points.
    pub bandwidth_unsteady: Vec<Point>,
}

impl Hierarchy {
    /// The hierarchy of two curves; `top` is the largest working set of a complete sweep: a
    /// curve that reaches it has memory as its last level.
    pub fn from_curves(latency: &[Point], bandwidth: &[Point], top: u64) -> Hierarchy {
        let latency = levels::clean(latency);
        let bandwidth = levels::clean(bandwidth);
        let reaches = |curve: &[Point]| curve.last().is_some_and(|p| p.bytes >= top);
        let name = |curve: &[Point]| -> Vec<NamedLevel> {
            let found = levels(curve);
            level_names(&found, reaches(curve))
                .into_iter()
                .zip(found)
                .map(|(name, level)| NamedLevel { name, level })
                .collect()
        };
        let latency_levels = name(&latency);
        let bandwidth_levels = if latency_levels.is_empty() {
            name(&bandwidth)
        } else {
            levels(&bandwidth)
                .into_iter()
                .map(|level| NamedLevel {
                    name: nearest(&latency_levels, &level),
                    level,
                })
                .collect()
        };
        Hierarchy {
            latency_outliers: outliers(&latency),
            bandwidth_outliers: outliers(&bandwidth),
            latency,
            bandwidth,
            latency_levels,
            bandwidth_levels,
            carveout: Vec::new(),
            unsteady: Vec::new(),
            latency_unsteady: Vec::new(),
            bandwidth_unsteady: Vec::new(),
        }
    }

    /// The bandwidth level named like `name` (a latency level), in bytes per ns (GB/s).
    pub fn bandwidth_of(&self, name: &str) -> Option<f64> {
        self.bandwidth_levels
            .iter()
            .find(|b| !b.name.is_empty() && b.name == name)
            .map(|b| 1.0 / b.level.cost)
    }
}

/// The name of the level of `named` nearest to `level`'s middle (its geometric mean size), in
/// octaves from that level's sizes (0 inside them); empty when `named` is.
fn nearest(named: &[NamedLevel], level: &Level) -> String {
    let middle = ((level.first.max(1) as f64).log2() + (level.last.max(1) as f64).log2()) / 2.0;
    let distance = |other: &Level| {
        let (from, to) = (
            (other.first.max(1) as f64).log2(),
            (other.last.max(1) as f64).log2(),
        );
        (from - middle).max(middle - to).max(0.0)
    };
    named
        .iter()
        .map(|n| (distance(&n.level), n))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or_else(String::new, |(_, n)| n.name.clone())
}

/// The hierarchy of a report's measured sweep and carve-out cases, or `None` when it has none.
pub fn hierarchy(report: &Report) -> Option<Hierarchy> {
    let (latency_points, bandwidth_points) = curve_points(report);
    let (latency, latency_unsteady) = split_unsteady(&latency_points);
    let (bandwidth, bandwidth_unsteady) = split_unsteady(&bandwidth_points);
    let carveout = carveouts(report, &latency);
    if latency.is_empty() && bandwidth.is_empty() && carveout.is_empty() {
        return None;
    }
    let top = case_index().curve_top().unwrap_or(u64::MAX);
    let mut h = Hierarchy {
        carveout,
        latency_unsteady,
        bandwidth_unsteady,
        ..Hierarchy::from_curves(&latency, &bandwidth, top)
    };
    h.unsteady = unsteady_names(report, &h);
    Some(h)
}

/// A bandwidth for people, from GB/s: `950 GB/s`, `95.3 GB/s`, `4.71 TB/s`, `32.3 TB/s`
/// (about three significant digits; TB/s from 1000 GB/s).
pub fn bandwidth_text(gb_per_s: f64) -> String {
    let (value, unit) = if gb_per_s >= 1000.0 {
        (gb_per_s / 1000.0, "TB/s")
    } else {
        (gb_per_s, "GB/s")
    };
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$} {unit}")
}

/// A capacity's resolution for people: `±4.4%`, `±19%`, `±100%`.
pub fn resolution_text(fraction: f64) -> String {
    let percent = fraction * 100.0;
    if percent < 10.0 {
        format!("±{percent:.1}%")
    } else {
        format!("±{percent:.0}%")
    }
}

/// A size for people, in binary units: `256 KB`, `60 MB`, `1.5 GB`, `4.2 MB` (one decimal
/// under 10, whole numbers above).
pub fn size_text(bytes: f64) -> String {
    const KB: f64 = 1024.0;
    let (value, unit) = if bytes >= KB * KB * KB {
        (bytes / (KB * KB * KB), "GB")
    } else if bytes >= KB * KB {
        (bytes / (KB * KB), "MB")
    } else {
        (bytes / KB, "KB")
    };
    if value < 10.0 && (value - value.round()).abs() > 0.05 {
        format!("{value:.1} {unit}")
    } else {
        format!("{value:.0} {unit}")
    }
}

/// Whether a measured case's measurement is unsteady (its dispatch missed the size it was
/// given, or the halves of its samples disagree): such a point is left out of the curves'
/// levels and named by the section, since it need not show the level it lies on.
pub fn unsteady(case: &CaseResult) -> bool {
    case.measurement.as_ref().is_some_and(|m| !m.steady)
}

/// Splits a curve's points, each with whether its measurement was steady, into the points its
/// levels are found on and those left out as unsteady. Unsteady points are left out while at
/// least half of the curve is steady; on a device where most points are unsteady (a CPU
/// driver sharing its cores with other work), the levels are found on every point, since
/// leaving most of a curve out would leave nothing to read.
pub fn split_unsteady(points: &[(Point, bool)]) -> (Vec<Point>, Vec<Point>) {
    let steady = points.iter().filter(|(_, s)| *s).count();
    if steady * 2 < points.len() {
        return (points.iter().map(|(p, _)| *p).collect(), Vec::new());
    }
    let (kept, left): (Vec<_>, Vec<_>) = points.iter().partition(|(_, s)| *s);
    (
        kept.into_iter().map(|(p, _)| p).collect(),
        left.into_iter().map(|(p, _)| p).collect(),
    )
}

/// The sweep's two curves from a report: `(latency ns per load, ns per byte)` points of the
/// measured `mem.sweep.latency.*` and `mem.sweep.bandwidth.*` cases that the levels are found
/// on ([`split_unsteady`]).
pub fn curves(report: &Report) -> (Vec<Point>, Vec<Point>) {
    let (latency, bandwidth) = curve_points(report);
    (split_unsteady(&latency).0, split_unsteady(&bandwidth).0)
}

/// The names of the measured sweep and carve-out cases left out of the levels as unsteady.
fn unsteady_names(report: &Report, hierarchy: &Hierarchy) -> Vec<String> {
    let left_out = |curve: &[Point], bytes: u64| curve.iter().any(|p| p.bytes == bytes);
    let index = case_index();
    report
        .cases
        .iter()
        .filter(|c| c.status == CaseStatus::Measured && unsteady(c))
        .filter(|c| {
            let Some((_, point)) = index.curve_point(&c.id) else {
                return false;
            };
            let bytes = point.working_set;
            match point.curve {
                Curve::Latency { shared: 0 } => left_out(&hierarchy.latency_unsteady, bytes),
                Curve::Latency { shared } => hierarchy
                    .carveout
                    .iter()
                    .filter(|row| row.shared == shared)
                    .any(|row| left_out(&row.unsteady, bytes)),
                Curve::Bandwidth => left_out(&hierarchy.bandwidth_unsteady, bytes),
            }
        })
        .map(|c| c.name.clone())
        .collect()
}

/// The sweep's measured points with whether each is steady: `(latency, bandwidth)`.
type SteadyPoints = (Vec<(Point, bool)>, Vec<(Point, bool)>);

/// Every measured point of the latency sweep (no shared memory declared) and of the bandwidth
/// sweep, with whether its measurement was steady; the families say which curve a case is on
/// ([`perftest_cases::Family::curve_point`]), including the sizes a refined sweep adds.
fn curve_points(report: &Report) -> SteadyPoints {
    let index = case_index();
    let mut latency = Vec::new();
    let mut bandwidth = Vec::new();
    // The baseline looked up once (a lookup per case made this quadratic in the cases), and
    // only the sweep's cases derived.
    let deriver = Deriver::of(report);
    for case in &report.cases {
        if case.status != CaseStatus::Measured {
            continue;
        }
        let Some((_, point)) = index.curve_point(&case.id) else {
            continue;
        };
        let Some(derived) = deriver.derive(case) else {
            continue;
        };
        let bytes = point.working_set;
        let steady = !unsteady(case);
        match point.curve {
            Curve::Latency { shared: 0 } => {
                if let Some(per_s) = derived.loads_per_s {
                    latency.push((
                        Point {
                            bytes,
                            cost: 1e9 / per_s,
                        },
                        steady,
                    ));
                }
            }
            Curve::Bandwidth => {
                if let Some(per_s) = derived.bytes_per_s {
                    bandwidth.push((
                        Point {
                            bytes,
                            cost: 1e9 / per_s,
                        },
                        steady,
                    ));
                }
            }
            Curve::Latency { .. } => {}
        }
    }
    (latency, bandwidth)
}

#[cfg(test)]
mod tests {
    use super::levels::tests::{grid, h200, sample, KB, MB};
    use super::*;

    #[test]
    fn unsteady_points_are_left_out_while_most_are_steady() {
        let p = |kb: u64| Point {
            bytes: kb << 10,
            cost: kb as f64,
        };
        let mostly = [(p(4), true), (p(8), false), (p(16), true), (p(32), true)];
        let (kept, left) = split_unsteady(&mostly);
        assert_eq!(kept, [p(4), p(16), p(32)]);
        assert_eq!(left, [p(8)]);
        // Half steady still leaves the others out; fewer keeps every point.
        let half = [(p(4), true), (p(8), false)];
        assert_eq!(split_unsteady(&half), (vec![p(4)], vec![p(8)]));
        let noisy = [(p(4), false), (p(8), false), (p(16), true)];
        assert_eq!(split_unsteady(&noisy), (vec![p(4), p(8), p(16)], vec![]));
        assert_eq!(split_unsteady(&[]), (vec![], vec![]));
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(size_text(4096.0), "4 KB");
        assert_eq!(size_text(192.4 * 1024.0), "192 KB");
        assert_eq!(size_text(4.2 * 1048576.0), "4.2 MB");
        assert_eq!(size_text(64.0 * 1048576.0), "64 MB");
        assert_eq!(size_text(1.5 * 1073741824.0), "1.5 GB");
    }

    #[test]
    fn bandwidths_and_resolutions_read_well() {
        assert_eq!(bandwidth_text(32286.2), "32.3 TB/s");
        assert_eq!(bandwidth_text(4709.2), "4.71 TB/s");
        assert_eq!(bandwidth_text(999.4), "999 GB/s");
        assert_eq!(bandwidth_text(95.31), "95.3 GB/s");
        assert_eq!(bandwidth_text(9.531), "9.53 GB/s");
        assert_eq!(resolution_text(2f64.powf(1.0 / 16.0) - 1.0), "±4.4%");
        assert_eq!(resolution_text(1.0), "±100%");
    }

    #[test]
    fn bandwidth_levels_take_the_name_of_the_nearest_latency_level() {
        let latency = sample(&grid(16), h200);
        // All SMs at once: the L1 rate lasts past the L1 (lines shared between workgroups).
        let bandwidth = sample(&grid(16), |w| {
            if w <= 1.0 * MB {
                1.0 / 32000.0
            } else if w <= 40.0 * MB {
                1.0 / 11000.0
            } else {
                1.0 / 4700.0
            }
        });
        let h = Hierarchy::from_curves(&latency, &bandwidth, 512 << 20);
        let names: Vec<&str> = h.latency_levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["L1", "L2 near", "L2 far", "memory"]);
        let names: Vec<&str> = h.bandwidth_levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["L1", "L2 near", "memory"]);
        assert!((h.bandwidth_of("L1").unwrap() - 32000.0).abs() < 1e-6);
        assert_eq!(h.bandwidth_of("L2 far"), None);
        // Without a latency curve the bandwidth levels are named on their own.
        let alone = Hierarchy::from_curves(&[], &bandwidth, 512 << 20);
        let names: Vec<&str> = alone
            .bandwidth_levels
            .iter()
            .map(|l| l.name.as_str())
            .collect();
        assert_eq!(names, ["L1", "L2", "memory"]);
        // A curve that stops early has no memory level.
        let short: Vec<Point> = latency
            .iter()
            .copied()
            .filter(|p| p.bytes as f64 <= 1.0 * MB)
            .collect();
        let h = Hierarchy::from_curves(&short, &[], 512 << 20);
        let names: Vec<&str> = h.latency_levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["L1", "L2"]);
        assert!(h.latency_levels[0].level.last as f64 <= 200.0 * KB);
    }
}
