//! Refining the latency sweep: once the doubling sweep is measured, the working sets that the
//! pure rule [`crate::sweep::refine()`] asks for are measured too, round after round, until every
//! transition between two levels is bracketed to 1/16 of an octave or [`MAX_ROUNDS`] rounds
//! are done. The refined cases are ordinary latency cases of other sizes
//! ([`latency_case`]), verified and measured like the sweep's own.

use std::collections::HashSet;

use perftest_cases::families::pointer_chase::{
    latency_case, latency_case_for_id, LATENCY_ID_PREFIX,
};

use crate::report::Report;
use crate::sweep::{curves, levels, refine, RefineLimits};

/// The most refinement rounds one run makes (a synthetic H200 needs at most four).
pub const MAX_ROUNDS: usize = 4;

/// The working sets to measure next for the latency sweep in `report` (at most
/// `max_working_set`): empty when it has no sweep to refine or every transition is bracketed.
pub fn next_sizes(report: &Report, max_working_set: Option<u64>) -> Vec<u64> {
    let (latency, _) = curves(report);
    if latency.len() < 4 {
        return Vec::new();
    }
    let found = levels(&latency);
    let measured: HashSet<&str> = report.cases.iter().map(|c| c.id.as_str()).collect();
    refine(&latency, &found, RefineLimits::default())
        .into_iter()
        .filter(|&bytes| max_working_set.is_none_or(|max| bytes <= max))
        .filter(|&bytes| !measured.contains(latency_case(bytes).id.as_str()))
        .collect()
}

/// Puts the latency sweep's cases in order of working set, from where the first of them stands
/// (refined sizes are measured after the sweep, and read best among their neighbours).
pub fn order_latency_cases(report: &mut Report) {
    let Some(first) = report
        .cases
        .iter()
        .position(|c| c.id.starts_with(LATENCY_ID_PREFIX))
    else {
        return;
    };
    let mut latency = Vec::new();
    let mut rest = Vec::new();
    for case in std::mem::take(&mut report.cases) {
        if case.id.starts_with(LATENCY_ID_PREFIX) {
            latency.push(case);
        } else {
            rest.push(case);
        }
    }
    latency.sort_by_key(|c| latency_case_for_id(&c.id).map_or(u64::MAX, |k| k.params.working_set));
    rest.splice(first..first, latency);
    report.cases = rest;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample_report;

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
        ];
        order_latency_cases(&mut report);
        let ids: Vec<&str> = report.cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "a.first",
                "mem.sweep.latency.4kb",
                "mem.sweep.latency.192kb",
                "mem.sweep.latency.1mb",
                "mem.sweep.latency.20992kb",
                "b.middle"
            ]
        );
    }

    #[test]
    fn a_report_without_a_sweep_needs_nothing() {
        assert!(next_sizes(&sample_report(), None).is_empty());
    }
}
