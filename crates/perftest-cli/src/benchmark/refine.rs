//! Refining the latency curves: once the doubling sweep (and each carve-out curve) is measured,
//! the working sets that the pure rule [`crate::hierarchy::refine()`] asks for are measured too,
//! round after round, until every transition between two levels is bracketed to 1/16 of an
//! octave or [`MAX_ROUNDS`] rounds are done. The refined cases are ordinary cases of their
//! curve at other sizes (made by the curve's family, `Family::on_curve_at`), verified and
//! measured like the curve's own.

use std::collections::HashSet;

use perftest_cases::{case_index, Case, CaseIndex, Curve};

use crate::hierarchy::{carveouts, curves, levels, refine, refine_edge, RefineLimits};
use crate::report::Report;

/// The most refinement rounds one run makes (six; a noisy cache edge may need them all).
pub const MAX_ROUNDS: usize = 6;

/// How many granules (4 KB) from a size the rules ask for a replacement may lie, when that
/// size was measured already and left out of the curve as unsteady.
pub const NUDGE_GRANULES: u64 = 3;

/// The cases to measure next, for the latency sweep in `report` and for each of its carve-out
/// curves (working sets of at most `max_working_set`): empty when there is nothing to refine
/// or every transition is bracketed. A size that was measured but left out of its curve as
/// unsteady is replaced by the nearest size within [`NUDGE_GRANULES`] granules not measured
/// yet, so a gap that an unsteady point left open still closes.
pub fn next_cases(report: &Report, max_working_set: Option<u64>) -> Vec<Case> {
    let measured: HashSet<&str> = report.cases.iter().map(|c| c.id.as_str()).collect();
    let granule = RefineLimits::default().granule;
    let mut wanted: Vec<Case> = Vec::new();
    let index = case_index();
    // A case of each latency curve the report holds: its family makes the curve's other sizes.
    let on_curve = |shared: u64, bytes: u64| {
        let template = report.cases.iter().find_map(|c| {
            let (case, point) = index.curve_point(&c.id)?;
            (point.curve == Curve::Latency { shared }).then_some(case)
        })?;
        template.family.on_curve_at(&template, bytes)
    };
    let mut add = |sizes: Vec<u64>, case: &dyn Fn(u64) -> Option<Case>| {
        for bytes in sizes {
            let nudged = (0..=NUDGE_GRANULES)
                .flat_map(|k| [bytes + k * granule, bytes.saturating_sub(k * granule)])
                .filter(|&b| b >= granule)
                .filter(|&b| max_working_set.is_none_or(|max| b <= max))
                .filter_map(case)
                .find(|c| {
                    !measured.contains(c.id.as_str()) && !wanted.iter().any(|w| w.id == c.id)
                });
            wanted.extend(nudged);
        }
    };
    let (latency, _) = curves(report);
    if latency.len() >= 4 {
        add(
            refine(&latency, &levels(&latency), RefineLimits::default()),
            &|bytes| on_curve(0, bytes),
        );
    }
    // A carve-out curve needs its L1's edge only.
    for curve in carveouts(report, &[]) {
        if let Some(l1) = curve.l1.filter(|_| curve.points.len() >= 4) {
            add(
                refine_edge(&curve.points, &l1, RefineLimits::default()),
                &|bytes| on_curve(curve.shared, bytes),
            );
        }
    }
    wanted
}

/// The latency curve (a chase's) the case `id` names is a point of, with its working set;
/// `None` for other cases.
fn chase_point(index: &CaseIndex, id: &str) -> Option<(Curve, u64)> {
    let (_, point) = index.curve_point(id)?;
    matches!(point.curve, Curve::Latency { .. }).then_some((point.curve, point.working_set))
}

/// Puts each latency curve's cases (the sweep's and each carve-out declaration's) in order of
/// working set, from where the curve's first case stands (refined sizes are measured after
/// the sweep, and read best among their neighbours).
pub fn order_chase_cases(report: &mut Report) {
    let index = case_index();
    let mut curves: Vec<Curve> = Vec::new();
    for case in &report.cases {
        if let Some((curve, _)) = chase_point(index, &case.id) {
            if !curves.contains(&curve) {
                curves.push(curve);
            }
        }
    }
    for curve in curves {
        let in_curve = |id: &str| chase_point(index, id).is_some_and(|(c, _)| c == curve);
        let Some(first) = report.cases.iter().position(|c| in_curve(&c.id)) else {
            continue;
        };
        let (mut chase, mut rest): (Vec<_>, Vec<_>) = std::mem::take(&mut report.cases)
            .into_iter()
            .partition(|c| in_curve(&c.id));
        chase.sort_by_key(|c| chase_point(index, &c.id).map_or(u64::MAX, |(_, bytes)| bytes));
        rest.splice(first..first, chase);
        report.cases = rest;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_cases::families::cache_carveout::carveout_case;
    use perftest_report::samples::sample_report;

    #[test]
    fn latency_cases_are_ordered_by_size_in_place() {
        let mut report = sample_report();
        let template = report.cases[0].clone();
        let named = |id: &str| {
            let mut c = template.clone();
            c.id = id.to_string();
            c
        };
        report.cases = vec![
            named("a.first"),
            named("mem.sweep.latency.4kb"),
            named("mem.sweep.latency.1mb"),
            named("b.middle"),
            named("mem.sweep.latency.20992kb"),
            named("mem.sweep.latency.192kb"),
            named("mem.carveout.shared16kb.512kb"),
            named("c.last"),
            named("mem.carveout.shared48kb.16kb"),
            named("mem.carveout.shared16kb.16kb"),
            named("mem.carveout.shared16kb.200kb"),
        ];
        order_chase_cases(&mut report);
        let ids: Vec<&str> = report.cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "a.first",
                "mem.sweep.latency.4kb",
                "mem.sweep.latency.192kb",
                "mem.sweep.latency.1mb",
                "mem.sweep.latency.20992kb",
                "b.middle",
                "mem.carveout.shared16kb.16kb",
                "mem.carveout.shared16kb.200kb",
                "mem.carveout.shared16kb.512kb",
                "c.last",
                "mem.carveout.shared48kb.16kb",
            ]
        );
    }

    #[test]
    fn a_carveout_curve_is_refined_with_its_own_cases() {
        use crate::report::CaseResult;
        use perftest_report::samples::measurement;
        let mut report = sample_report();
        // The doubling curve of 16 KB declared: L1 up to 128 KB, L2 from 256 KB.
        for bytes in perftest_cases::families::cache_carveout::curve_sizes() {
            let ns = if bytes <= 128 << 10 { 18.0 } else { 130.0 };
            report.cases.push(CaseResult::measured(
                &carveout_case(16 << 10, bytes),
                measurement(1000, &[ns * 256e3; 3]),
            ));
        }
        let next = next_cases(&report, None);
        assert!(!next.is_empty());
        for case in &next {
            assert!(
                case.id.starts_with("mem.carveout.shared16kb."),
                "{}",
                case.id
            );
            let bytes = case.params.working_set;
            assert!(bytes > 128 << 10 && bytes < 256 << 10, "{}", case.id);
        }
        // Limited to working sets of at most 128 KB, nothing is left to refine.
        assert!(next_cases(&report, Some(128 << 10)).is_empty());
        // Sizes measured but unsteady (left out of the curve) are replaced by their neighbours.
        for case in &next {
            let mut unsteady = CaseResult::measured(case, measurement(1000, &[130.0 * 256e3; 3]));
            if let Some(m) = unsteady.measurement.as_mut() {
                m.steady = false;
            }
            report.cases.push(unsteady);
        }
        let again = next_cases(&report, None);
        assert_eq!(again.len(), next.len());
        for (a, b) in again.iter().zip(&next) {
            let step = a.params.working_set.abs_diff(b.params.working_set);
            assert!(step > 0 && step <= 3 * 4096, "{} for {}", a.id, b.id);
        }
    }

    #[test]
    fn a_report_without_a_sweep_needs_nothing() {
        assert!(next_cases(&sample_report(), None).is_empty());
    }
}
