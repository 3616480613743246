//! What the probe hands back: measured throughputs, rankings and the simple answers engines
//! branch on, what was left out and why, warnings, and where the time went.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use perftest_cases::{Case, Pattern};

use perftest_report::findings::{findings, Advice, Finding, Findings};

use crate::report::{CaseResult, DataPlaces, DeviceInfo, Measurement, Report, Settings};

use super::timeline::ProbeTimeline;

/// The throughput of one measured case.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseThroughput {
    /// The case.
    pub case: Case,
    /// Workgroups per dispatch.
    pub groups: u64,
    /// Workgroups per dispatch, X/Y/Z.
    pub dims: [u32; 3],
    /// Median GPU time of the timed dispatches.
    pub median: Duration,
    /// GPU time of each timed dispatch.
    pub samples: Vec<Duration>,
    /// Loads per second (`groups x 65536 / median`).
    pub loads_per_second: f64,
    /// Bytes per second (`loads_per_second x bytes per load`).
    pub bytes_per_second: f64,
    /// Where its data lay, for a case whose data has several places
    /// (`perftest_report::places`): the probe measures at the fastest, as `perftest` does.
    pub data_places: Option<DataPlaces>,
}

/// The cases of one (access pattern, load width) pair, fastest first.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking {
    /// Access pattern.
    pub pattern: Pattern,
    /// Bytes per load.
    pub bytes_per_load: u32,
    /// The measured cases, fastest first.
    pub cases: Vec<CaseThroughput>,
}

/// Why a case has no measurement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeftOutReason {
    /// The device cannot run the case (a format or feature is missing).
    Unsupported(String),
    /// Its pipeline was not compiled before the budget ran out.
    NotCompiledInTime,
    /// Its pipeline was ready, but no time was left to measure it.
    OutOfTime,
    /// Building its pipeline failed (the Vulkan error).
    PipelineFailed(String),
}

impl fmt::Display for LeftOutReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeftOutReason::Unsupported(why) => write!(f, "unsupported: {why}"),
            LeftOutReason::NotCompiledInTime => f.write_str("pipeline not compiled in time"),
            LeftOutReason::OutOfTime => f.write_str("compiled, but out of time to measure"),
            LeftOutReason::PipelineFailed(why) => write!(f, "pipeline creation failed: {why}"),
        }
    }
}

/// A case without a measurement, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct LeftOut {
    /// The case.
    pub case: Case,
    /// Why it was not measured.
    pub reason: LeftOutReason,
}

/// What [`crate::Bench::probe`] measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbeReport {
    /// Measured cases, in the order given.
    pub measured: Vec<CaseThroughput>,
    /// Cases without a measurement, in the order given, with the reason.
    pub left_out: Vec<LeftOut>,
    /// True when the warm-up saw two consecutive dispatches agree within 2%.
    pub steady_clocks: bool,
    /// Wall time the probe took.
    pub elapsed: Duration,
    /// Where the time went (pipeline builds, warm-up, measurements, waiting).
    pub timeline: ProbeTimeline,
    /// Problems that did not stop the probe (e.g. an unusable pipeline-cache file).
    pub warnings: Vec<String>,
    /// The device the probe ran on.
    pub device: Option<DeviceInfo>,
    /// The GPU time each timed dispatch was sized to.
    pub dispatch_target: Duration,
}

impl ProbeReport {
    /// The probe's results as a run report of the `perftest` command's schema
    /// (`perftest-report/1`): measured cases with their dispatch times, cases left out as
    /// skipped (with the reason), settings from the probe. `perftest render` and `perftest
    /// compare` read its JSON (`Report::to_json`, with the `serde` feature) like any other report, so an engine can log
    /// it and compare launches, drivers or GPUs with the command-line tool.
    pub fn to_report(&self) -> Report {
        let settings = Settings {
            target_ms: self.dispatch_target.as_secs_f64()
                * 1e3
                * self
                    .measured
                    .first()
                    .map_or(1.0, |m| m.samples.len() as f64),
            samples: self
                .measured
                .first()
                .map_or(0, |m| u32::try_from(m.samples.len()).unwrap_or(u32::MAX)),
            dispatch_ms: Some(self.dispatch_target.as_secs_f64() * 1e3),
            warmup_max: 0,
            validation: false,
            verify: false,
            suites: Vec::new(),
            clock_mhz: None,
            shader_units: None,
            placements: None,
        };
        let device = self.device.clone().unwrap_or_else(DeviceInfo::unknown);
        let mut report = Report::begin(device, settings);
        let measured = self.measured.iter().map(|m| {
            let samples_ns = m.samples.iter().map(|d| d.as_nanos() as f64).collect();
            let measurement = Measurement {
                groups: m.groups,
                dims: m.dims,
                samples_ns,
                sample_placements: Vec::new(),
                warmup_dispatches: 0,
                steady: self.steady_clocks,
                short: None,
                seqs: Vec::new(),
                data_places: m.data_places.clone(),
            };
            CaseResult::measured(&m.case, measurement)
        });
        let left_out = self
            .left_out
            .iter()
            .map(|l| CaseResult::skipped(&l.case, l.reason.to_string()));
        report.cases = measured.chain(left_out).collect();
        let mut suites: Vec<perftest_cases::Suite> = self
            .measured
            .iter()
            .map(|m| m.case.suite)
            .chain(self.left_out.iter().map(|l| l.case.suite))
            .collect();
        suites.sort();
        suites.dedup();
        report.settings.suites = suites.iter().map(|s| s.name().to_string()).collect();
        report.finish(self.left_out.is_empty());
        report
    }

    /// The measured result of the case with `id`.
    pub fn get(&self, id: &str) -> Option<&CaseThroughput> {
        self.measured.iter().find(|m| m.case.id == id)
    }

    /// The cases left out for reasons matching `pick`.
    pub fn left_out_where(&self, pick: impl Fn(&LeftOutReason) -> bool) -> Vec<&Case> {
        self.left_out
            .iter()
            .filter(|l| pick(&l.reason))
            .map(|l| &l.case)
            .collect()
    }

    /// The fastest measured case for `pattern` and `bytes_per_load`, with how many times faster
    /// it is than the next best: advice only where at least two candidates were measured. One
    /// candidate is no ranking (on a first launch, the others may just not have been compiled
    /// in time), and a next best of zero throughput gives no ratio; both are `None`.
    pub fn fastest(&self, pattern: Pattern, bytes_per_load: u32) -> Option<(&CaseThroughput, f64)> {
        let mut cases: Vec<&CaseThroughput> = self
            .measured
            .iter()
            .filter(|m| m.case.pattern == pattern && m.case.bytes_per_load() == bytes_per_load)
            .collect();
        cases.sort_by(|a, b| b.loads_per_second.total_cmp(&a.loads_per_second));
        let best = *cases.first()?;
        let next = cases.get(1).filter(|next| next.loads_per_second > 0.0)?;
        Some((best, best.loads_per_second / next.loads_per_second))
    }

    /// Rankings per (pattern, width): which resource type is fastest for each.
    pub fn rankings(&self) -> Vec<Ranking> {
        let mut groups: BTreeMap<(u32, u32), Vec<CaseThroughput>> = BTreeMap::new();
        for m in &self.measured {
            let key = (m.case.bytes_per_load(), m.case.pattern.spec_value());
            groups.entry(key).or_default().push(m.clone());
        }
        groups
            .into_values()
            .filter_map(|mut cases| {
                cases.sort_by(|a, b| b.loads_per_second.total_cmp(&a.loads_per_second));
                let first = cases.first()?;
                Some(Ranking {
                    pattern: first.case.pattern,
                    bytes_per_load: first.case.bytes_per_load(),
                    cases,
                })
            })
            .collect()
    }
}

impl ProbeReport {
    /// What the probe says about the GPU, as the `perftest` command says it: the findings and
    /// advice of perftest-report's rules over [`ProbeReport::to_report`], and each ranking as a
    /// finding (`rank.<bytes>byte.<pattern>`: `value` the fastest's throughput over the next
    /// best's, `cases` the ranking fastest first) with its advice where the fastest leads by
    /// more than 10%. The probe takes a few dispatches per case, so no finding has a noise
    /// estimate.
    pub fn findings(&self) -> Findings {
        let mut found = findings(&self.to_report());
        let mut advice = Vec::new();
        for ranking in self.rankings() {
            let Some(finding) = ranking_finding(&ranking) else {
                continue;
            };
            if finding.value > RANKING_LEAD {
                let best = &ranking.cases[0].case;
                advice.push(Advice {
                    text: format!(
                        "For {}-byte {} loads, use {}: {:.2}x the next best.",
                        ranking.bytes_per_load,
                        ranking.pattern.name(),
                        resource_name(&best.name),
                        finding.value
                    ),
                    findings: vec![finding.id.clone()],
                });
            }
            found.findings.push(finding);
        }
        found.advice.extend(advice);
        found
    }
}

/// A ranking's fastest leads by more than this factor before the probe advises it (10%).
const RANKING_LEAD: f64 = 1.1;

/// A case name without its access pattern (`StructuredBuffer<float4>.Load`).
fn resource_name(name: &str) -> &str {
    name.rsplit_once(' ').map_or(name, |(n, _)| n)
}

/// One ranking as a finding; `None` below two measured cases (no ranking).
fn ranking_finding(ranking: &Ranking) -> Option<Finding> {
    let [best, next, ..] = ranking.cases.as_slice() else {
        return None;
    };
    let value = best.loads_per_second / next.loads_per_second;
    let order: Vec<String> = ranking
        .cases
        .iter()
        .map(|c| {
            format!(
                "{} ({:.1} G/s)",
                resource_name(&c.case.name),
                c.loads_per_second / 1e9
            )
        })
        .collect();
    Some(Finding {
        id: format!(
            "rank.{}byte.{}",
            ranking.bytes_per_load,
            ranking.pattern.name()
        ),
        statement: format!(
            "{}-byte {} loads, fastest first: {}.",
            ranking.bytes_per_load,
            ranking.pattern.name(),
            order.join(" > ")
        ),
        value: value.is_finite().then_some(value)?,
        cases: ranking.cases.iter().map(|c| c.case.id.clone()).collect(),
        beyond_noise: None,
    })
}

impl fmt::Display for ProbeReport {
    /// One line per (width, pattern): the resource types from fastest to slowest, with Gload/s;
    /// then what was left out, the warnings and the totals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in self.rankings() {
            write!(
                f,
                "{:>2}-byte loads, {:<7}:",
                r.bytes_per_load,
                r.pattern.name()
            )?;
            for (i, c) in r.cases.iter().enumerate() {
                let name = c
                    .case
                    .name
                    .rsplit_once(' ')
                    .map_or(c.case.name.as_str(), |(n, _)| n);
                let sep = if i == 0 { " " } else { " > " };
                write!(f, "{sep}{name} {}", three_digits(c.loads_per_second / 1e9))?;
            }
            if r.cases.len() < 2 {
                writeln!(f, " (Gload/s; only one measured: no ranking)")?;
            } else {
                writeln!(f, " (Gload/s)")?;
            }
        }
        if !self.left_out.is_empty() {
            let count = |pick: fn(&LeftOutReason) -> bool| self.left_out_where(pick).len();
            writeln!(
                f,
                "left out: {} unsupported, {} not compiled in time, {} out of time to measure, \
                 {} failed to build",
                count(|r| matches!(r, LeftOutReason::Unsupported(_))),
                count(|r| *r == LeftOutReason::NotCompiledInTime),
                count(|r| *r == LeftOutReason::OutOfTime),
                count(|r| matches!(r, LeftOutReason::PipelineFailed(_))),
            )?;
        }
        for w in &self.warnings {
            writeln!(f, "warning: {w}")?;
        }
        write!(
            f,
            "{} case(s) measured in {:.1} ms{}",
            self.measured.len(),
            self.elapsed.as_secs_f64() * 1e3,
            if self.steady_clocks {
                ""
            } else {
                " (clocks were still changing)"
            }
        )
    }
}

/// A number with about three significant digits (`2083`, `38.5`, `1.41`).
pub(crate) fn three_digits(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_cases::quick_cases;

    fn throughput(case: &Case, gloads: f64) -> CaseThroughput {
        CaseThroughput {
            case: case.clone(),
            groups: 1,
            dims: [1, 1, 1],
            median: Duration::from_millis(1),
            samples: vec![Duration::from_millis(1); 3],
            loads_per_second: gloads * 1e9,
            bytes_per_second: gloads * 1e9 * f64::from(case.bytes_per_load()),
            data_places: None,
        }
    }

    #[test]
    fn rankings_group_by_width_and_pattern_fastest_first() {
        let quick = quick_cases();
        let report = ProbeReport {
            measured: quick
                .iter()
                .enumerate()
                .map(|(i, c)| throughput(c, 100.0 + i as f64))
                .collect(),
            ..Default::default()
        };
        let rankings = report.rankings();
        // Widths 4 and 16 bytes x 3 patterns.
        assert_eq!(rankings.len(), 6);
        for r in &rankings {
            assert!(r.cases.iter().all(|c| c.case.pattern == r.pattern));
            assert!(r
                .cases
                .iter()
                .all(|c| c.case.bytes_per_load() == r.bytes_per_load));
            assert!(r
                .cases
                .windows(2)
                .all(|w| w[0].loads_per_second >= w[1].loads_per_second));
        }
        let four_uniform = &rankings[0];
        assert_eq!(
            (four_uniform.bytes_per_load, four_uniform.pattern),
            (4, Pattern::Uniform)
        );
        // 4-byte cases: typed R32F, raw Load, structured float, texture load R32F.
        assert_eq!(four_uniform.cases.len(), 4);
        assert_eq!(four_uniform.cases[0].case.id, "tex.load.r32f.uniform");
        let text = report.to_string();
        assert!(
            text.starts_with(" 4-byte loads, uniform: Texture2D<R32F>.Load "),
            "{text}"
        );
        assert!(text.contains("30 case(s) measured"));
    }

    #[test]
    fn fastest_picks_the_best_and_its_lead_over_the_next() {
        let quick = quick_cases();
        let case = |id: &str| quick.iter().find(|c| c.id == id).unwrap();
        let report = ProbeReport {
            measured: vec![
                throughput(case("typed.rgba32f.linear"), 300.0),
                throughput(case("raw.load4.linear"), 75.0),
                throughput(case("structured.float4.linear"), 400.0),
                throughput(case("typed.r32f.linear"), 999.0), // 4 bytes: another ranking
                throughput(case("raw.load4.random"), 50.0),
            ],
            ..Default::default()
        };
        let (best, ratio) = report.fastest(Pattern::Linear, 16).unwrap();
        assert_eq!(best.case.id, "structured.float4.linear");
        assert!((ratio - 400.0 / 300.0).abs() < 1e-12);
        // Only one 16-byte random case, one 4-byte linear case: no ranking, no advice.
        assert!(report.fastest(Pattern::Random, 16).is_none());
        assert!(report.fastest(Pattern::Linear, 4).is_none());
        assert!(report.fastest(Pattern::Uniform, 16).is_none());
        assert!(report.fastest(Pattern::Linear, 8).is_none());
        // A zero throughput next best gives no (infinite) ratio.
        let zero = ProbeReport {
            measured: vec![
                throughput(case("typed.rgba32f.linear"), 1.0),
                throughput(case("raw.load4.linear"), 0.0),
            ],
            ..Default::default()
        };
        assert!(zero.fastest(Pattern::Linear, 16).is_none());
        // The printed rankings mark a line of one candidate as no ranking.
        let text = report.to_string();
        let line = |start: &str| text.lines().find(|l| l.starts_with(start)).unwrap();
        assert!(line("16-byte loads, random").ends_with("(Gload/s; only one measured: no ranking)"));
        assert!(line("16-byte loads, linear").ends_with(" (Gload/s)"));
    }

    #[test]
    fn left_out_cases_are_counted_by_reason() {
        let quick = quick_cases();
        let left = |i: usize, reason| LeftOut {
            case: quick[i].clone(),
            reason,
        };
        let report = ProbeReport {
            measured: vec![throughput(&quick[0], 1.0)],
            left_out: vec![
                left(1, LeftOutReason::OutOfTime),
                left(2, LeftOutReason::NotCompiledInTime),
                left(3, LeftOutReason::NotCompiledInTime),
                left(4, LeftOutReason::Unsupported("no R8".into())),
            ],
            warnings: vec!["pipeline cache ignored".into()],
            ..Default::default()
        };
        let text = report.to_string();
        assert!(
            text.contains(
                "left out: 1 unsupported, 2 not compiled in time, 1 out of time to measure, \
                 0 failed to build"
            ),
            "{text}"
        );
        assert!(text.contains("warning: pipeline cache ignored"));
        assert_eq!(
            report
                .left_out_where(|r| *r == LeftOutReason::NotCompiledInTime)
                .len(),
            2
        );
    }
}
