//! The full report as JSON.

use serde::Serialize;

use crate::export::exporter::{ExportError, Exporter};
use perftest_report::analysis::Analysis;
use perftest_report::analysis::{PerClock, RunClockFigures};
use perftest_report::findings::{Advice, Finding, Missing};
use perftest_report::guidance::Verdict;

use crate::report::{CaseResult, Derived, Report};

/// Writes the report as pretty-printed JSON, each measured case with a `derived` object
/// (summary statistics, throughput, the original's columns).
///
/// The output reads back into a [`Report`] with `serde_json`: readers ignore `derived`, which
/// is recomputed from the samples, so it can never disagree with them.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonExporter;

/// [`Report`] with derived figures added to each case ([`Report::with_cases`]: the report's
/// own layout, declared once in perftest-report), followed by the analysis.
#[derive(Serialize)]
struct JsonReport<'a> {
    /// The report, each case with its derived figures.
    #[serde(flatten)]
    report: Report<JsonCase<'a>>,
    /// The clock figures derived from `clock` (or from the memory suite's clock case, or
    /// `--clock-mhz`).
    #[serde(skip_serializing_if = "Option::is_none")]
    clock_derived: Option<RunClockFigures>,
    /// What the report says about the GPU (perftest-report's findings).
    findings: &'a [Finding],
    /// What to do, most important first.
    advice: &'a [Advice],
    /// A verdict for every vendor claim the guidance judges (perftest-report's guidance).
    guidance: &'a [Verdict],
    /// The original suite's findings the report lacks cases for.
    #[serde(skip_serializing_if = "<[Missing]>::is_empty")]
    findings_missing: &'a [Missing],
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
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError> {
        let published = report.source.is_some();
        let cases = report
            .cases
            .iter()
            .zip(&analysis.derived)
            .zip(&analysis.per_clock)
            .map(|((result, derived), per_clock)| JsonCase {
                result,
                derived: derived.map(|d| source_spread(d, result, published)),
                per_clock: *per_clock,
            })
            .collect();
        let found = &analysis.findings;
        let json = JsonReport {
            report: report.with_cases(cases),
            clock_derived: analysis.clock,
            findings: &found.findings,
            advice: &found.advice,
            findings_missing: &found.missing,
            guidance: &analysis.guidance,
        };
        let mut bytes = serde_json::to_vec_pretty(&json)?;
        bytes.push(b'\n');
        Ok(bytes)
    }
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
