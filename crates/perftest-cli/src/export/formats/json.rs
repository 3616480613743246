//! The full report as JSON.

use serde::Serialize;

use crate::export::exporter::{ExportError, Exporter};
use crate::report::{ClockSamples, ReportSource};
use perftest_report::findings::{findings, Advice, Finding, Missing};

use crate::report::{CaseResult, Derived, DeviceInfo, Report, ReportFigures, Settings};

/// Writes the report as pretty-printed JSON, each measured case with a `derived` object
/// (summary statistics, throughput, the original's columns).
///
/// The output reads back into a [`Report`] with `serde_json`: readers ignore `derived`, which
/// is recomputed from the samples, so it can never disagree with them.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonExporter;

/// [`Report`] with derived figures added to each case; field for field the same layout.
#[derive(Serialize)]
struct JsonReport<'a> {
    schema: &'a str,
    perftest_version: &'a str,
    started_at: &'a str,
    finished_at: &'a str,
    complete: bool,
    device: &'a DeviceInfo,
    settings: &'a Settings,
    baseline_id: &'a str,
    cases: Vec<JsonCase<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<&'a ClockSamples>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a ReportSource>,
    /// The clock figures derived from `clock` (or from the memory suite's clock case, or
    /// `--clock-mhz`).
    #[serde(skip_serializing_if = "Option::is_none")]
    clock_derived: Option<ClockDerived>,
    /// What the report says about the GPU (perftest-report's findings).
    findings: Vec<Finding>,
    /// What to do, most important first.
    advice: Vec<Advice>,
    /// The original suite's findings the report lacks cases for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    findings_missing: Vec<Missing>,
}

/// The run's clock in JSON: the figure latencies use, where it comes from, and the spread of
/// the readings taken during the run.
#[derive(Serialize)]
struct ClockDerived {
    mhz: f64,
    source: perftest_report::clock::ClockSource,
    /// The clock the run measured (beside a given one, where they differ).
    #[serde(skip_serializing_if = "Option::is_none")]
    measured_mhz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min_mhz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    median_mhz: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_mhz: Option<f64>,
}

/// Per case, what the clock and the shader units make of its rate.
#[derive(Serialize)]
struct PerClock {
    /// The clock while the case was measured, MHz (cases of the interleaved rounds).
    #[serde(skip_serializing_if = "Option::is_none")]
    clock_mhz: Option<f64>,
    /// Measured on a clock more than 2% below the run's median.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    throttled: bool,
    /// Units (loads, ...) per clock cycle of the whole device.
    #[serde(skip_serializing_if = "Option::is_none")]
    loads_per_clock: Option<f64>,
    /// Units per clock cycle per shader unit (SM, CU), where the driver tells the units.
    #[serde(skip_serializing_if = "Option::is_none")]
    loads_per_clock_per_unit: Option<f64>,
    /// Bytes per clock cycle per shader unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes_per_clock_per_unit: Option<f64>,
}

/// A [`CaseResult`] followed by its derived figures.
#[derive(Serialize)]
struct JsonCase<'a> {
    #[serde(flatten)]
    result: &'a CaseResult,
    #[serde(skip_serializing_if = "Option::is_none")]
    derived: Option<Derived>,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_clock: Option<PerClock>,
}

impl Exporter for JsonExporter {
    fn serialize(&self, report: &Report) -> Result<Vec<u8>, ExportError> {
        // Destructured so that a field added to `Report` fails to compile here until it is
        // written out too.
        let Report {
            schema,
            perftest_version,
            started_at,
            finished_at,
            complete,
            device,
            settings,
            baseline_id,
            cases,
            clock,
            source,
        } = report;
        let run = clock.as_ref().and_then(perftest_report::clock::run_clock);
        let clock_figure = perftest_report::clock::clock(report);
        let units = perftest_report::derived::shader_units(report).map(f64::from);
        let found = findings(report);
        let json = JsonReport {
            schema,
            perftest_version,
            started_at,
            finished_at,
            complete: *complete,
            device,
            settings,
            baseline_id,
            cases: cases
                .iter()
                .zip(report.derived_all())
                .map(|(result, derived)| JsonCase {
                    result,
                    derived: derived.map(|d| source_spread(d, result, source.is_some())),
                    per_clock: per_clock(
                        result,
                        derived.as_ref(),
                        run.as_ref(),
                        clock_figure,
                        units,
                    ),
                })
                .collect(),
            clock: clock.as_ref(),
            source: source.as_ref(),
            clock_derived: clock_figure.map(|c| ClockDerived {
                mhz: c.mhz,
                source: c.source,
                measured_mhz: perftest_report::clock::measured_mhz(report),
                min_mhz: run.as_ref().map(|r| r.min_mhz),
                median_mhz: run.as_ref().map(|r| r.median_mhz),
                max_mhz: run.as_ref().map(|r| r.max_mhz),
            }),
            findings: found.findings,
            advice: found.advice,
            findings_missing: found.missing,
        };
        let mut bytes = serde_json::to_vec_pretty(&json)?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}

/// What the clock and the shader units make of a measured case's rate; `None` without a
/// clock or without figures.
fn per_clock(
    result: &CaseResult,
    derived: Option<&Derived>,
    run: Option<&perftest_report::clock::RunClock>,
    clock: Option<perftest_report::clock::Clock>,
    units: Option<f64>,
) -> Option<PerClock> {
    let derived = derived?;
    let case_mhz = run.and_then(|r| perftest_report::clock::case_clock(r, result));
    let mhz = perftest_report::clock::rate_clock(clock, case_mhz)?;
    let per_cycle = |per_s: Option<f64>| per_s.map(|v| v / (mhz * 1e6));
    let loads = per_cycle(derived.loads_per_s);
    let bytes = per_cycle(derived.bytes_per_s);
    Some(PerClock {
        clock_mhz: case_mhz,
        throttled: run
            .zip(case_mhz)
            .is_some_and(|(r, m)| perftest_report::clock::throttled(r, m)),
        loads_per_clock: loads,
        loads_per_clock_per_unit: loads.zip(units).map(|(l, u)| l / u),
        bytes_per_clock_per_unit: bytes.zip(units).map(|(b, u)| b / u),
    })
}

/// A case of a table read from another tool has one figure: its spread is the one the source
/// reported (`source_cv`), or unknown (`null`), never the zero of a single figure.
fn source_spread(mut derived: Derived, case: &CaseResult, published: bool) -> Derived {
    if published {
        // serde_json writes a NaN as `null`.
        let cv = case.source_cv.unwrap_or(f64::NAN);
        derived.summary.cv = cv;
        derived.summary.stddev = cv * derived.summary.mean;
    }
    derived
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::samples::sample_report;

    #[test]
    fn round_trips_and_carries_derived_figures() {
        let report = sample_report();
        let bytes = JsonExporter.serialize(&report).unwrap();
        let back: Report = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, report);

        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let cases = value["cases"].as_array().unwrap();
        assert_eq!(cases.len(), 5);
        assert_eq!(cases[0]["id"], "typed.r8.uniform");
        assert_eq!(cases[0]["status"], "measured");
        assert_eq!(cases[0]["derived"]["relative"], 4.0);
        assert_eq!(cases[0]["derived"]["ns_per_group"], 5000.0);
        assert_eq!(cases[0]["derived"]["summary"]["median"], 20e6);
        assert_eq!(cases[2]["derived"]["noisy"], true);
        assert_eq!(cases[3]["status"], "skipped");
        assert!(cases[3].get("derived").is_none());
        assert!(cases[3]["measurement"].is_null());
    }

    #[test]
    fn missing_baseline_is_null_not_nan() {
        let mut report = sample_report();
        report.cases.remove(1);
        let bytes = JsonExporter.serialize(&report).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert!(value["cases"][0]["derived"]["relative"].is_null());
        let back: Report = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, report);
    }
}
