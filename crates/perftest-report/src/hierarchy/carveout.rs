//! What shared memory costs the L1: the carve-out family's latency curves (one per declared
//! shared-memory size, `mem.carveout.shared*`) beside the latency sweep's (no shared memory
//! declared), each cut into levels by the same rule as the sweep ([`levels()`]); the first
//! level's capacity is the L1 that declaration leaves one SM.

use perftest_cases::{case_index, Curve};

use super::levels::{clean, levels, Level, Point};
use crate::derived::Deriver;
use crate::schema::{CaseStatus, Report};

/// One declaration's curve and the L1 it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Carveout {
    /// Bytes of shared memory the kernel declares (0: the latency sweep's kernel).
    pub shared: u64,
    /// The measured points (ns per dependent load by working set), cleaned and sorted.
    pub points: Vec<Point>,
    /// Points left out of the levels as unsteady ([`super::split_unsteady`]).
    pub unsteady: Vec<Point>,
    /// The curve's first level, when the curve starts on one (its capacity is the L1's).
    pub l1: Option<Level>,
    /// Why the declaration was not measured (skipped or failed), when none of its cases was.
    pub not_measured: Option<String>,
}

impl Carveout {
    /// A declaration's row from its points.
    fn from_points(shared: u64, measured: &[(Point, bool)]) -> Carveout {
        let (points, unsteady) = super::split_unsteady(measured);
        let points = clean(&points);
        let l1 = levels(&points)
            .into_iter()
            .next()
            .filter(|l| points.first().is_some_and(|p| p.bytes == l.first));
        Carveout {
            shared,
            points,
            unsteady,
            l1,
            not_measured: None,
        }
    }
}

/// One declaration while its cases are gathered: shared bytes, measured points with whether
/// each is steady, and why it was not measured.
type Declaration = (u64, Vec<(Point, bool)>, Option<String>);

/// The carve-out rows of `report`: the latency sweep's L1 as the 0 KB row (its points up to the
/// largest carve-out working set), then one row per declaration the report holds, in order of
/// size; empty when the report has no carve-out case.
pub fn carveouts(report: &Report, sweep_latency: &[Point]) -> Vec<Carveout> {
    let mut by_shared: Vec<Declaration> = Vec::new();
    let mut largest = 0u64;
    let index = case_index();
    // The baseline looked up once, not once per case (linear in the cases).
    let deriver = Deriver::of(report);
    for case in &report.cases {
        // A latency curve beside declared shared memory (the sweep's, with none, is not one).
        let Some((_, point)) = index.curve_point(&case.id) else {
            continue;
        };
        let Curve::Latency { shared } = point.curve else {
            continue;
        };
        if shared == 0 {
            continue;
        }
        let at = match by_shared.iter().position(|(s, _, _)| *s == shared) {
            Some(at) => at,
            None => {
                by_shared.push((shared, Vec::new(), None));
                by_shared.len() - 1
            }
        };
        let entry = &mut by_shared[at];
        match (
            &case.status,
            deriver.derive(case).and_then(|d| d.loads_per_s),
        ) {
            (CaseStatus::Measured, Some(per_s)) if per_s > 0.0 => {
                largest = largest.max(point.working_set);
                let point = Point {
                    bytes: point.working_set,
                    cost: 1e9 / per_s,
                };
                entry.1.push((point, !super::unsteady(case)));
            }
            (status, _) => {
                if entry.2.is_none() {
                    entry.2 = status.reason().map(str::to_string);
                }
            }
        }
    }
    if by_shared.is_empty() {
        return Vec::new();
    }
    by_shared.sort_by_key(|(s, _, _)| *s);
    let mut rows = Vec::new();
    let sweep: Vec<(Point, bool)> = sweep_latency
        .iter()
        .filter(|p| p.bytes <= largest.max(1))
        .map(|p| (*p, true))
        .collect();
    if !sweep.is_empty() {
        rows.push(Carveout::from_points(0, &sweep));
    }
    for (shared, points, reason) in by_shared {
        let mut row = Carveout::from_points(shared, &points);
        if row.points.is_empty() {
            row.not_measured = Some(reason.unwrap_or_else(|| "not measured".to_string()));
        }
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::super::levels::tests::KB;
    use super::*;
    use crate::samples::{measurement, sample_report};
    use crate::schema::CaseResult;
    use perftest_cases::families::cache_carveout::carveout_case;

    /// An L1 of `l1` bytes at 18 ns, then L2 at 130 ns, on a grid from 16 KB to 512 KB in
    /// steps of 1/16 octave around the step.
    fn curve(l1: f64) -> Vec<Point> {
        let mut sizes: Vec<u64> = (14..=19).map(|s| 1u64 << s).collect();
        for k in 1..16 {
            sizes.push(
                ((128.0 * KB * 2f64.powf(f64::from(k) / 16.0)) / 4096.0).round() as u64 * 4096,
            );
        }
        sizes
            .into_iter()
            .map(|bytes| Point {
                bytes,
                cost: if (bytes as f64) <= l1 { 18.0 } else { 130.0 },
            })
            .collect()
    }

    #[test]
    fn each_declaration_reports_the_l1_it_leaves() {
        let mut report = sample_report();
        report.cases.clear();
        // 1000 groups of 256 steps: ns per sample from ns per load.
        let mut push = |shared: u64, p: &Point, steady: bool| {
            let mut case = CaseResult::measured(
                &carveout_case(shared, p.bytes),
                measurement(1000, &[p.cost * 256e3; 3]),
            );
            if let Some(m) = case.measurement.as_mut() {
                m.steady = steady;
            }
            report.cases.push(case);
        };
        for p in curve(200.0 * KB) {
            // An unsteady point 10% above its plateau (as the H200 showed at 152 KB) would cut
            // the L1 plateau there: it is left out, and named.
            if p.bytes == 152 << 10 {
                let bumped = Point {
                    cost: p.cost * 1.1,
                    ..p
                };
                push(16 << 10, &bumped, false);
                continue;
            }
            push(16 << 10, &p, true);
        }
        for p in curve(160.0 * KB) {
            push(48 << 10, &p, true);
        }
        report.cases.push(CaseResult::skipped(
            &carveout_case(64 << 10, 16 << 10),
            "maxComputeSharedMemorySize is 49152 bytes",
        ));
        let sweep = curve(224.0 * KB);
        let rows = carveouts(&report, &sweep);
        let shared: Vec<u64> = rows.iter().map(|r| r.shared).collect();
        assert_eq!(shared, [0, 16 << 10, 48 << 10, 64 << 10]);
        let capacity = |i: usize| rows[i].l1.and_then(|l| l.capacity()).unwrap() as f64;
        for (i, l1) in [(0, 224.0), (1, 200.0), (2, 160.0)] {
            let got = capacity(i) / KB;
            assert!(got <= l1 && got > l1 / 1.062, "row {i}: {got} KB for {l1}");
            assert!(rows[i].l1.unwrap().resolution().unwrap() < 0.062);
            assert!((rows[i].l1.unwrap().cost - 18.0).abs() < 0.5);
        }
        assert!(rows[3].points.is_empty());
        assert!(rows[3]
            .not_measured
            .as_deref()
            .unwrap()
            .contains("maxComputeSharedMemorySize"));
        assert_eq!(
            super::super::hierarchy(&report).unwrap().unsteady,
            ["Latency 152KB beside 16KB shared (pointer chase)"]
        );
        // No carve-out case: no rows, whatever the sweep holds.
        assert!(carveouts(&sample_report(), &sweep).is_empty());
    }
}
