//! The cases the answers read: what `--suite answers` runs.
//!
//! The findings and the guidance read cases by id, by rule tables and by predicates over a
//! report (the fastest case of a width, every sampling case). The cases they read are found by
//! judging reports in which every case is measured, with every case id looked up recorded
//! ([`crate::findings::Rates::get`]); the cache hierarchy and the run's clock read their cases
//! by kind (a point of a curve, a clock tick), so those are added by kind. A lookup counts
//! whatever its figure: a case that could decide an answer on some GPU is run.

use std::collections::BTreeSet;

use perftest_cases::{Case, Unit, BASELINE_CASE_ID};

use crate::findings::{findings, recording};
use crate::guidance::guidance;
use crate::schema::{CaseResult, DeviceInfo, Measurement, PeakRates, Report, Settings, SCHEMA};

/// The cases of `cases` that the findings, the guidance, the cache hierarchy or the run's
/// clock read, in their order.
pub fn answer_cases(cases: &[Case]) -> Vec<Case> {
    let mut read: BTreeSet<String> = BTreeSet::new();
    // Two reports whose cases rank in opposite orders: a rule that looks at the runner-up
    // only when the leader ties (or the other way) reads its cases in one of them.
    let n = cases.len().max(1) as f64;
    let rising = |i: usize| 1.0 + i as f64 / n;
    let falling = |i: usize| 2.0 - i as f64 / n;
    for ns_per_group in [&rising as &dyn Fn(usize) -> f64, &falling] {
        let report = every_case_measured(cases, |i| 1e3 * ns_per_group(i));
        let ((), ids) = recording(|| {
            let found = findings(&report);
            drop(guidance(&report, &found));
        });
        read.extend(ids);
    }
    cases
        .iter()
        .filter(|c| read.contains(&c.id) || by_kind(c))
        .cloned()
        .collect()
}

/// Cases the analysis reads by kind, not by id: the points of the cache hierarchy's curves,
/// and the clock ticks that give the run's clock.
fn by_kind(case: &Case) -> bool {
    case.family.curve_point(case).is_some() || case.work().unit == Unit::ClockTick
}

/// A report in which every case of `cases` is measured, case `i` at `ns_per_group(i)`
/// nanoseconds per workgroup, on a device that publishes everything the analysis uses (shader
/// units, peak rates, a clock).
fn every_case_measured(cases: &[Case], ns_per_group: impl Fn(usize) -> f64) -> Report {
    let results = cases
        .iter()
        .enumerate()
        .map(|(i, case)| CaseResult::measured(case, measurement(ns_per_group(i))))
        .collect();
    Report {
        schema: SCHEMA.to_string(),
        perftest_version: env!("CARGO_PKG_VERSION").to_string(),
        started_at: String::new(),
        finished_at: String::new(),
        complete: true,
        device: device(),
        settings: settings(),
        baseline_id: BASELINE_CASE_ID.to_string(),
        cases: results,
        clock: None,
        source: None,
    }
}

/// Six steady samples of 1,000 workgroups around `ns_per_group`, 1% apart, so every case has
/// an interval.
fn measurement(ns_per_group: f64) -> Measurement {
    Measurement {
        groups: 1000,
        dims: [1000, 1, 1],
        samples_ns: (0..6)
            .map(|i| 1e3 * ns_per_group * (1.0 + 0.01 * f64::from(i)))
            .collect(),
        sample_placements: Vec::new(),
        warmup_dispatches: 1,
        steady: true,
        short: None,
        seqs: Vec::new(),
        data_places: None,
    }
}

/// A device that reports everything the analysis can use.
fn device() -> DeviceInfo {
    DeviceInfo {
        name: "every case".to_string(),
        device_type: "discrete".to_string(),
        vendor_id: 0x10de,
        device_id: 0,
        driver_name: String::new(),
        driver_info: String::new(),
        driver_version: 0,
        api_version: "1.3.0".to_string(),
        queue_family: 0,
        timestamp_period_ns: 1.0,
        timestamp_valid_bits: 64,
        subgroup_size: 32,
        resident_workgroups: Some(1024),
        shader_units: Some(128),
        peak_per_unit: Some(PeakRates {
            texels_per_clock: 4,
            fma_per_clock: 128,
            pixels_per_clock: 4,
        }),
        pci_bus: None,
        device_uuid: None,
        memory_types: Vec::new(),
    }
}

/// Settings with a given clock, so the per-clock answers are judged.
fn settings() -> Settings {
    Settings {
        target_ms: 20.0,
        samples: 6,
        dispatch_ms: None,
        warmup_max: 1,
        validation: false,
        verify: false,
        suites: Vec::new(),
        clock_mhz: Some(1000.0),
        shader_units: None,
        placements: None,
    }
}

#[cfg(test)]
mod tests;
