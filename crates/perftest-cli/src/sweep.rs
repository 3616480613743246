//! The cache hierarchy read from the memory suite's sweep (`mem.sweep.*`): the latency and
//! bandwidth curves over working sets from 4 KB to 512 MB, the levels they step through, and
//! the cache sizes those steps imply. Vulkan reports no cache sizes; this is how to learn them.
//!
//! The rules are pure functions of the curve:
//! - [`levels`]: a curve of costs (latency, or time per byte for bandwidth) that rises with the
//!   working set is cut into levels. A level starts at a point and holds every following point
//!   within [`LEVEL_RISE`] (50%) of that first point; the first point beyond ends it, and its
//!   last size is the level's *knee* (the largest working set that still fits). A transition
//!   follows while each point rises by more than [`STEP_RISE`] (25%) over the one before; the
//!   next level starts where the rise flattens.
//! - [`caches`]: each level but the last is a cache, of about its knee's size. The latency
//!   chase walks one cycle through the whole set, so a cache smaller than the set keeps little
//!   of it (an LRU cache none): the latency steps up within a doubling or two past the cache's
//!   size, and the knee is the cache's size to within a factor of two.

use std::fmt::Write;

use perftest_cases::{cases_in, find_case, Suite, Unit};

use crate::report::{CaseStatus, Report, ReportFigures};

/// How far above a level's first point a point may lie and still belong to the level (50%).
pub const LEVEL_RISE: f64 = 0.5;

/// The rise from one point to the next that keeps a transition going (25%).
pub const STEP_RISE: f64 = 0.25;

/// One point of a curve: a working set and its cost (ns per load, or ns per byte).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Working-set bytes.
    pub bytes: u64,
    /// The cost at that working set; larger is slower.
    pub cost: f64,
}

/// A level of a curve: a run of working sets of about the same cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// The smallest working set of the level.
    pub first: u64,
    /// The largest working set of the level: the knee, for every level but the last.
    pub last: u64,
    /// The median cost of the level's points.
    pub cost: f64,
}

/// A cache found on a latency curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cache {
    /// The largest working set still on the cache's level (the knee).
    pub knee: u64,
    /// The cache's latency: the median of its level.
    pub latency: f64,
}

/// The levels of `points` (sorted by size here; points with a cost that is not a positive
/// finite number are ignored), smallest working sets first.
pub fn levels(points: &[Point]) -> Vec<Level> {
    let points = clean(points);
    let n = points.len();
    let mut levels = Vec::new();
    let mut start = 0;
    while start < n {
        let mut end = start;
        while end + 1 < n {
            let so_far = median(points[start..=end].iter().map(|p| p.cost).collect());
            if points[end + 1].cost > so_far * (1.0 + LEVEL_RISE) {
                break;
            }
            end += 1;
        }
        levels.push(Level {
            first: points[start].bytes,
            last: points[end].bytes,
            cost: median(points[start..=end].iter().map(|p| p.cost).collect()),
        });
        // The transition: points that keep rising steeply belong to no level.
        let mut next = end + 1;
        while next + 1 < n && points[next + 1].cost > points[next].cost * (1.0 + STEP_RISE) {
            next += 1;
        }
        start = next;
    }
    levels
}

/// The caches a latency curve shows: one per level but the last (which is memory).
pub fn caches(points: &[Point]) -> Vec<Cache> {
    let levels = levels(points);
    levels
        .iter()
        .take(levels.len().saturating_sub(1))
        .map(|l| Cache {
            knee: l.last,
            latency: l.cost,
        })
        .collect()
}

fn clean(points: &[Point]) -> Vec<Point> {
    let mut points: Vec<Point> = points
        .iter()
        .copied()
        .filter(|p| p.cost.is_finite() && p.cost > 0.0 && p.bytes > 0)
        .collect();
    points.sort_by_key(|p| p.bytes);
    points
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
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

/// The sweep's two curves from a report: `(latency ns per load, ns per byte)` points of the
/// measured `mem.sweep.latency.*` and `mem.sweep.bandwidth.*` cases.
pub fn curves(report: &Report) -> (Vec<Point>, Vec<Point>) {
    let known_cases = cases_in(&[Suite::Memory]);
    let mut latency = Vec::new();
    let mut bandwidth = Vec::new();
    for case in &report.cases {
        if case.status != CaseStatus::Measured || !case.id.starts_with("mem.sweep.") {
            continue;
        }
        let (Some(known), Some(derived)) =
            (find_case(&known_cases, &case.id), report.derived(case))
        else {
            continue;
        };
        let bytes = known.params.working_set;
        if known.work().unit == Unit::DependentLoad {
            if let Some(per_s) = derived.loads_per_s {
                latency.push(Point {
                    bytes,
                    cost: 1e9 / per_s,
                });
            }
        } else if let Some(per_s) = derived.bytes_per_s {
            bandwidth.push(Point {
                bytes,
                cost: 1e9 / per_s,
            });
        }
    }
    (latency, bandwidth)
}

/// The cache-hierarchy section of the text and Markdown reports, or `None` when the report has
/// no measured sweep case. `clock_mhz` adds latencies in cycles.
pub fn section(report: &Report, clock_mhz: Option<f64>) -> Option<String> {
    let (latency, bandwidth) = curves(report);
    if latency.is_empty() && bandwidth.is_empty() {
        return None;
    }
    let cycles = |ns: f64| clock_mhz.map(|mhz| ns * mhz / 1e3);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Cache hierarchy (the memory suite's sweep; Vulkan reports no cache sizes):"
    );
    let mut sizes: Vec<u64> = latency.iter().chain(&bandwidth).map(|p| p.bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let cycle_title = clock_mhz.map_or(String::new(), |mhz| format!("  cycles@{mhz:.0}MHz"));
    let _ = writeln!(
        out,
        "  {:>12}  {:>12}{cycle_title}  {:>14}",
        "working set", "latency ns", "bandwidth GB/s"
    );
    let find =
        |curve: &[Point], bytes: u64| curve.iter().find(|p| p.bytes == bytes).map(|p| p.cost);
    for bytes in sizes {
        let ns = find(&latency, bytes);
        let gbs = find(&bandwidth, bytes).map(|ns_per_byte| 1.0 / ns_per_byte);
        let cell = |v: Option<f64>, digits: usize| {
            v.map_or_else(|| "-".to_string(), |v| format!("{v:.digits$}"))
        };
        let cycle_cell = match clock_mhz {
            Some(mhz) => format!(
                "  {:>width$}",
                cell(ns.and_then(cycles), 0),
                width = format!("cycles@{mhz:.0}MHz").len()
            ),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "  {:>12}  {:>12}{cycle_cell}  {:>14}",
            size_text(bytes as f64),
            cell(ns, 1),
            cell(gbs, 1)
        );
    }
    if !latency.is_empty() {
        let found = caches(&latency);
        let levels = levels(&latency);
        let _ = writeln!(
            out,
            "  Latency levels: {}.",
            describe(&levels, |c| {
                match cycles(c) {
                    Some(cy) => format!("{c:.1} ns ({cy:.0} cycles)"),
                    None => format!("{c:.1} ns"),
                }
            })
        );
        if found.is_empty() {
            let _ = writeln!(out, "  No cache knee on the latency curve.");
        } else {
            let named: Vec<String> = found
                .iter()
                .enumerate()
                .map(|(i, c)| format!("L{} ~ {}", i + 1, size_text(c.knee as f64)))
                .collect();
            let _ = writeln!(out, "  {}.", named.join(", "));
        }
    }
    if !bandwidth.is_empty() {
        let levels = levels(&bandwidth);
        let _ = writeln!(
            out,
            "  Bandwidth levels: {}.",
            describe(&levels, |c| format!("{:.0} GB/s", 1.0 / c))
        );
    }
    Some(out)
}

/// `A up to X; B up to Y; C beyond` (the last level runs to the largest size measured).
fn describe(levels: &[Level], value: impl Fn(f64) -> String) -> String {
    let n = levels.len();
    levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == n && n > 1 {
                format!("{} from {}", value(l.cost), size_text(l.first as f64))
            } else {
                format!("{} up to {}", value(l.cost), size_text(l.last as f64))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(costs: impl Fn(f64) -> f64) -> Vec<Point> {
        (12..=29)
            .map(|shift| Point {
                bytes: 1 << shift,
                cost: costs((1u64 << shift) as f64),
            })
            .collect()
    }

    const KB: f64 = 1024.0;
    const MB: f64 = 1024.0 * 1024.0;

    #[test]
    fn a_synthetic_lru_curve_gives_its_knees_back() {
        // A cyclic walk over LRU caches of 256 KB and 32 MB: every load hits the smallest
        // cache that holds the whole set, with 1% of noise.
        let found = caches(&curve(|w| {
            let noise = 1.0 + 0.01 * f64::from(w.log2() as i32 % 3 - 1);
            noise
                * if w <= 256.0 * KB {
                    30.0
                } else if w <= 32.0 * MB {
                    260.0
                } else {
                    700.0
                }
        }));
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].knee, 256 << 10);
        assert_eq!(found[1].knee, 32 << 20);
        assert!((found[0].latency - 30.0).abs() < 1.0);
        assert!((found[1].latency - 260.0).abs() < 5.0);
    }

    #[test]
    fn gradual_steps_still_give_knees() {
        // Random-replacement caches of 192 KB and 60 MB under uniformly random loads: a
        // fraction min(1, C / W) hits, so the steps spread over a doubling or two; the knees
        // are the largest powers of two still on each level.
        let model = |w: f64| {
            let h1 = (192.0 * KB / w).min(1.0);
            let h2 = (60.0 * MB / w).min(1.0);
            h1 * 30.0 + (1.0 - h1) * (h2 * 260.0 + (1.0 - h2) * 700.0)
        };
        let found = caches(&curve(model));
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].knee, 128 << 10);
        assert_eq!(found[1].knee, 64 << 20);
    }

    #[test]
    fn a_flat_curve_has_one_level_and_no_cache() {
        let flat: Vec<Point> = (12..=20)
            .map(|s| Point {
                bytes: 1 << s,
                cost: 100.0 + f64::from(s % 3),
            })
            .collect();
        assert_eq!(levels(&flat).len(), 1);
        assert!(caches(&flat).is_empty());
        assert!(caches(&[]).is_empty());
    }

    #[test]
    fn sharp_steps_make_levels_and_bad_points_are_ignored() {
        let mut curve: Vec<Point> = [(12, 1.0), (13, 1.1), (14, 3.0), (15, 3.2), (16, 9.0)]
            .iter()
            .map(|&(s, c)| Point {
                bytes: 1 << s,
                cost: c,
            })
            .collect();
        curve.push(Point {
            bytes: 1 << 17,
            cost: f64::NAN,
        });
        curve.reverse(); // order does not matter
        let found = levels(&curve);
        assert_eq!(
            found.iter().map(|l| (l.first, l.last)).collect::<Vec<_>>(),
            vec![(1 << 12, 1 << 13), (1 << 14, 1 << 15), (1 << 16, 1 << 16)]
        );
        assert!((found[0].cost - 1.05).abs() < 1e-9);
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(size_text(4096.0), "4 KB");
        assert_eq!(size_text(192.4 * 1024.0), "192 KB");
        assert_eq!(size_text(4.2 * 1048576.0), "4.2 MB");
        assert_eq!(size_text(64.0 * 1048576.0), "64 MB");
        assert_eq!(size_text(1.5 * 1073741824.0), "1.5 GB");
    }
}
