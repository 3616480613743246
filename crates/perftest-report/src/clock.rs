//! The shader clock: what a run measured of it (`Report::clock`: a dispatch spinning on the
//! subgroup clock, timed in every round between the cases' dispatches and once alone at two
//! sizes), each case's clock while it was measured, the cases measured on a throttled clock,
//! and the clock latencies are turned into cycles with (`--clock-mhz` when given, else the
//! measured one).

use perftest_cases::Unit;

use crate::derived::{fixed_ns_per_dispatch, marginal_ns_per_group, ReportFigures};
use crate::schema::{CaseResult, CaseStatus, ClockSamples, Report};
use crate::statistics::median;

/// A case is flagged throttled when its clock is more than this fraction below the run's
/// median clock.
pub const THROTTLE_FRACTION: f64 = 0.02;

/// Where a clock figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ClockSource {
    /// `--clock-mhz`.
    Given,
    /// The run's own measurement of the subgroup clock.
    Measured,
}

/// A shader clock and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Megahertz.
    pub mhz: f64,
    /// Given or measured.
    pub source: ClockSource,
}

/// The clock a run measured: its best figure and its readings during the rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct RunClock {
    /// The clock in MHz from the dispatch measured alone at two sizes (what a dispatch pays
    /// once cancels); the rounds' median where that is missing.
    pub mhz: f64,
    /// The lowest reading of the rounds, MHz.
    pub min_mhz: f64,
    /// The median reading of the rounds, MHz.
    pub median_mhz: f64,
    /// The highest reading of the rounds, MHz.
    pub max_mhz: f64,
    /// Each reading of the rounds: its place in the run (dispatches before it) and MHz.
    pub readings: Vec<(usize, f64)>,
}

/// The clock of a run's raw clock data.
pub fn run_clock(samples: &ClockSamples) -> Option<RunClock> {
    let alone = samples.alone.as_ref();
    let fixed = alone.and_then(fixed_ns_per_dispatch).unwrap_or(0.0);
    let ticks = samples.ticks_per_dispatch as f64;
    let readings: Vec<(usize, f64)> = samples
        .seqs
        .iter()
        .zip(&samples.samples_ns)
        .filter_map(|(&seq, &ns)| {
            let spin = ns - fixed;
            (spin.is_finite() && spin > 0.0).then(|| (seq, ticks / spin * 1e3))
        })
        .collect();
    let values: Vec<f64> = readings.iter().map(|r| r.1).collect();
    let median_mhz = median(&values);
    let best = alone
        .and_then(|m| {
            let median_ns = median(&m.samples_ns)?;
            marginal_ns_per_group(m, median_ns)
        })
        .filter(|ns| ns.is_finite() && *ns > 0.0)
        .map(|ns| samples.ticks_per_group as f64 / ns * 1e3);
    let mhz = best.or(median_mhz)?;
    let min_mhz = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max_mhz = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some(RunClock {
        mhz,
        min_mhz: if values.is_empty() { mhz } else { min_mhz },
        median_mhz: median_mhz.unwrap_or(mhz),
        max_mhz: if values.is_empty() { mhz } else { max_mhz },
        readings,
    })
}

/// The clock while `case` was measured: the median, over its samples, of the reading nearest
/// each (by place in the run); `None` for a case measured alone or a run without readings.
pub fn case_clock(run: &RunClock, case: &CaseResult) -> Option<f64> {
    let seqs = &case.measurement.as_ref()?.seqs;
    if run.readings.is_empty() {
        return None;
    }
    let near: Vec<f64> = seqs
        .iter()
        .filter_map(|&seq| {
            run.readings
                .iter()
                .min_by_key(|(at, _)| at.abs_diff(seq))
                .map(|r| r.1)
        })
        .collect();
    median(&near)
}

/// The clock a case's rates per cycle are counted in, MHz: the given clock (`--clock-mhz`
/// wins), else `case_mhz`, the run's readings nearest the case's samples ([`case_clock`]),
/// else the run's clock. `None` without any clock. One rule for the JSON's `per_clock`, the
/// notes and the findings, so that they give one figure.
pub fn rate_clock(clock: Option<Clock>, case_mhz: Option<f64>) -> Option<f64> {
    match clock {
        Some(Clock {
            mhz,
            source: ClockSource::Given,
        }) => Some(mhz),
        _ => case_mhz.or(clock.map(|c| c.mhz)),
    }
}

/// [`rate_clock`] of a case of `report`, deriving the report's clocks.
pub fn rate_clock_of(report: &Report, case: &CaseResult) -> Option<f64> {
    let run = report.clock.as_ref().and_then(run_clock);
    rate_clock(clock(report), run.and_then(|r| case_clock(&r, case)))
}

/// Whether a case measured at `case_mhz` ran on a throttled clock: more than
/// [`THROTTLE_FRACTION`] below the run's median reading.
pub fn throttled(run: &RunClock, case_mhz: f64) -> bool {
    case_mhz < run.median_mhz * (1.0 - THROTTLE_FRACTION)
}

/// The clock the run measured, in MHz: the run's own readings, else the memory suite's clock
/// case (ticks per second).
pub fn measured_mhz(report: &Report) -> Option<f64> {
    measured_with(report, report.clock.as_ref().and_then(run_clock).as_ref())
}

/// [`measured_mhz`] with the run's clock already derived.
pub fn measured_with(report: &Report, run: Option<&RunClock>) -> Option<f64> {
    if let Some(run) = run {
        return Some(run.mhz);
    }
    let case = report
        .cases
        .iter()
        .find(|c| c.unit == Unit::ClockTick.name() && c.status == CaseStatus::Measured)?;
    report
        .derived(case)?
        .loads_per_s
        .filter(|t| t.is_finite() && *t > 0.0)
        .map(|ticks_per_s| ticks_per_s / 1e6)
}

/// The clock to turn latencies into cycles with: `--clock-mhz` when given, else the measured.
pub fn clock(report: &Report) -> Option<Clock> {
    clock_with(report, measured_mhz(report))
}

/// [`clock`] with the measured clock already derived.
pub fn clock_with(report: &Report, measured: Option<f64>) -> Option<Clock> {
    match report.settings.clock_mhz {
        Some(mhz) => Some(Clock {
            mhz,
            source: ClockSource::Given,
        }),
        None => measured.map(|mhz| Clock {
            mhz,
            source: ClockSource::Measured,
        }),
    }
}

/// The names of the cases measured on a throttled clock.
pub fn throttled_cases(report: &Report) -> Vec<&str> {
    match report.clock.as_ref().and_then(run_clock) {
        Some(run) => throttled_in(report, &run),
        None => Vec::new(),
    }
}

/// The cases of `report` measured more than [`THROTTLE_FRACTION`] below `run`'s median.
pub fn throttled_in<'a>(report: &'a Report, run: &RunClock) -> Vec<&'a str> {
    report
        .cases
        .iter()
        .filter(|c| case_clock(run, c).is_some_and(|mhz| throttled(run, mhz)))
        .map(|c| c.name.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Measurement, ShortDispatches};

    fn measurement(groups: u64, samples_ns: &[f64], seqs: &[usize]) -> Measurement {
        Measurement {
            groups,
            dims: [1, 1, 1],
            samples_ns: samples_ns.to_vec(),
            sample_placements: Vec::new(),
            warmup_dispatches: 0,
            steady: true,
            short: None,
            seqs: seqs.to_vec(),
            data_places: None,
        }
    }

    /// A 2000 MHz clock: 4096 ticks a block, 2048 ns a block, 5 us paid once per dispatch.
    fn samples(round_ns: &[f64]) -> ClockSamples {
        let mut alone = measurement(1000, &[2048.0 * 1000.0 + 5000.0; 6], &[]);
        alone.short = Some(ShortDispatches {
            groups: 500,
            dims: [500, 1, 1],
            samples_ns: vec![2048.0 * 500.0 + 5000.0; 6],
        });
        ClockSamples {
            ticks_per_dispatch: 4096 * 1000,
            samples_ns: round_ns.to_vec(),
            seqs: (0..round_ns.len()).map(|i| i * 10).collect(),
            ticks_per_group: 4096,
            alone: Some(alone),
        }
    }

    #[test]
    fn the_clock_is_the_ticks_over_the_time_without_the_fixed_cost() {
        let full = 2048.0 * 1000.0 + 5000.0;
        let run = run_clock(&samples(&[full, full, full * 1.05 - 250.0])).unwrap();
        assert!((run.mhz - 2000.0).abs() < 1e-6, "{}", run.mhz);
        assert!((run.max_mhz - 2000.0).abs() < 1e-6);
        assert!(
            run.min_mhz < 1910.0 && run.min_mhz > 1900.0,
            "{}",
            run.min_mhz
        );
        assert_eq!(run.readings.len(), 3);
    }

    #[test]
    fn a_case_takes_the_readings_nearest_its_samples() {
        let full = 2048.0 * 1000.0 + 5000.0;
        // Readings at 0, 10, 20 and 30; the last two on a clock 10% slower.
        let slow = 2048.0 * 1000.0 / 0.9 + 5000.0;
        let run = run_clock(&samples(&[full, full, slow, slow])).unwrap();
        let case = |seqs: &[usize]| CaseResult {
            measurement: Some(measurement(1, &vec![1.0; seqs.len()], seqs)),
            ..crate::samples::sample_report().cases[0].clone()
        };
        let early = case_clock(&run, &case(&[1, 9, 11])).unwrap();
        assert!((early - 2000.0).abs() < 1e-6, "{early}");
        assert!(!throttled(&run, early));
        let late = case_clock(&run, &case(&[19, 28, 31])).unwrap();
        assert!((late - 1800.0).abs() < 1e-6, "{late}");
        // The median reading is between the two clocks: 10% below it is throttled.
        assert!(throttled(&run, late));
        assert!(case_clock(&run, &case(&[])).is_none());
    }
}
