//! A report's analysis: everything the output formats print beyond the samples, computed once
//! from the report and rendered by every format (text, Markdown, HTML, SVG, JSON, CSV).
//!
//! The analysis holds each case's derived figures and what the clock makes of them, the run's
//! clock, the findings and advice, the cache hierarchy, and the vendors' guidance judged on
//! the report. A format reads these and never
//! derives them itself, so two formats of one report cannot disagree.

use crate::clock::{self, Clock, ClockSource, RunClock};
use crate::derived::{shader_units, Derived, ReportFigures};
use crate::findings::{findings_with, Findings, Rates};
use crate::guidance::{guidance_with, Verdict};
use crate::hierarchy::{hierarchy, Hierarchy};
use crate::schema::{CaseResult, Report};

/// What a report says, computed once by [`Analysis::of`].
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Each case's derived figures, in the report's case order (`None` where a case has none).
    pub derived: Vec<Option<Derived>>,
    /// Each case's rates per clock cycle, in the report's case order (`None` without a clock or
    /// without figures).
    pub per_clock: Vec<Option<PerClock>>,
    /// The run's clock: the figure latencies use and the readings of the rounds.
    pub clock: Option<RunClockFigures>,
    /// The findings, the advice drawn from them, and the findings the report lacks cases for.
    pub findings: Findings,
    /// The cache hierarchy of the memory suite's sweep, where the report has sweep cases.
    pub hierarchy: Option<Hierarchy>,
    /// A verdict for every vendor claim the guidance judges, in its stable order.
    pub guidance: Vec<Verdict>,
}

/// The run's clock as the reports give it: the figure latencies use, where it comes from, and
/// the spread of the readings taken during the run.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RunClockFigures {
    /// The clock rates and latencies use, MHz (`--clock-mhz` where given).
    pub mhz: f64,
    /// Given or measured.
    pub source: ClockSource,
    /// The clock the run measured (beside a given one, where they differ).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub measured_mhz: Option<f64>,
    /// The lowest reading of the rounds, MHz.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub min_mhz: Option<f64>,
    /// The median reading of the rounds, MHz.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub median_mhz: Option<f64>,
    /// The highest reading of the rounds, MHz.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub max_mhz: Option<f64>,
}

impl RunClockFigures {
    /// The clock as [`Clock`] (its rate and source).
    pub fn clock(&self) -> Clock {
        Clock {
            mhz: self.mhz,
            source: self.source,
        }
    }
}

/// Per case, what the clock and the shader units make of its rate.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PerClock {
    /// The clock while the case was measured, MHz (cases of the interleaved rounds).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub clock_mhz: Option<f64>,
    /// Measured on a clock more than 2% below the run's median.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub throttled: bool,
    /// Units (loads, ...) per clock cycle of the whole device.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub loads_per_clock: Option<f64>,
    /// Units per clock cycle per shader unit (SM, CU), where the driver tells the units.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub loads_per_clock_per_unit: Option<f64>,
    /// Bytes per clock cycle per shader unit.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub bytes_per_clock_per_unit: Option<f64>,
}

impl Analysis {
    /// The analysis of `report`.
    pub fn of(report: &Report) -> Analysis {
        let run = report.clock.as_ref().and_then(clock::run_clock);
        let measured_mhz = clock::measured_with(report, run.as_ref());
        let rate_clock = clock::clock_with(report, measured_mhz);
        let units = shader_units(report).map(f64::from);
        let derived = report.derived_all();
        let rates = Rates::with(report, &derived);
        let found = findings_with(report, &rates);
        let per_clock = report
            .cases
            .iter()
            .zip(&derived)
            .map(|(case, d)| per_clock(case, d.as_ref(), run.as_ref(), rate_clock, units))
            .collect();
        Analysis {
            derived,
            per_clock,
            clock: rate_clock.map(|c| RunClockFigures {
                mhz: c.mhz,
                source: c.source,
                measured_mhz,
                min_mhz: run.as_ref().map(|r| r.min_mhz),
                median_mhz: run.as_ref().map(|r| r.median_mhz),
                max_mhz: run.as_ref().map(|r| r.max_mhz),
            }),
            guidance: guidance_with(report, &rates, &found),
            findings: found,
            hierarchy: hierarchy(report),
        }
    }

    /// The clock rates and latencies use, MHz.
    pub fn clock_mhz(&self) -> Option<f64> {
        self.clock.map(|c| c.mhz)
    }
}

/// What the clock and the shader units make of a measured case's rate: the case's own clock
/// where the rounds read one, the rate clock ([`clock::rate_clock`]) for the rates; `None`
/// without a clock or without figures.
fn per_clock(
    case: &CaseResult,
    derived: Option<&Derived>,
    run: Option<&RunClock>,
    rate_clock: Option<Clock>,
    units: Option<f64>,
) -> Option<PerClock> {
    let derived = derived?;
    let case_mhz = run.and_then(|r| clock::case_clock(r, case));
    let mhz = clock::rate_clock(rate_clock, case_mhz)?;
    let per_cycle = |per_s: Option<f64>| per_s.map(|v| v / (mhz * 1e6));
    let loads = per_cycle(derived.loads_per_s);
    let bytes = per_cycle(derived.bytes_per_s);
    Some(PerClock {
        clock_mhz: case_mhz,
        throttled: run
            .zip(case_mhz)
            .is_some_and(|(r, m)| clock::throttled(r, m)),
        loads_per_clock: loads,
        loads_per_clock_per_unit: loads.zip(units).map(|(l, u)| l / u),
        bytes_per_clock_per_unit: bytes.zip(units).map(|(b, u)| b / u),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::findings;
    use crate::guidance::guidance;
    use crate::samples::sample_report;

    #[test]
    fn the_analysis_holds_what_each_part_computes() {
        let report = sample_report();
        let analysis = Analysis::of(&report);
        assert_eq!(analysis.derived.len(), report.cases.len());
        assert_eq!(analysis.per_clock.len(), report.cases.len());
        assert_eq!(analysis.derived, report.derived_all());
        assert_eq!(analysis.findings, findings(&report));
        assert_eq!(analysis.hierarchy.is_some(), hierarchy(&report).is_some());
        assert_eq!(analysis.clock.map(|c| c.clock()), clock::clock(&report));
        assert_eq!(analysis.guidance, guidance(&report, &analysis.findings));
        assert_eq!(analysis.guidance.len(), crate::guidance::claims().count());
    }
}
