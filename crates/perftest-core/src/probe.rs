//! A time-budgeted probe for engines: measure a set of cases within a wall-time budget and
//! summarise which resource type is fastest per access pattern and load width.
//!
//! This is a deliberately small policy (a few short dispatches per case, median of them) for
//! start-up diagnostics; the `perftest` command's full measurement loop lives in perftest-cli.
//! Both size dispatches with the same rule, [`crate::sizing`].

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

use perftest_cases::{Case, Pattern, LOADS_PER_THREAD, THREADS_PER_GROUP};

use crate::bench::{Bench, KernelId};
use crate::error::{Error, Result};
use crate::sizing::{
    group_total, max_total, next_group_count, round_to_waves, split_waves, DEFAULT_FIRST_DIM_CAP,
};

/// Settings of [`Bench::probe`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeSettings {
    /// Wall time allowed for everything: pipeline creation, sizing, warm-up and measurement.
    /// Cases that no longer fit are reported in [`ProbeReport::out_of_time`].
    pub budget: Duration,
    /// GPU time one timed dispatch should take.
    pub dispatch_target: Duration,
    /// Timed dispatches per case; the median is reported.
    pub dispatches: u32,
    /// Share of the budget the first case may spend waiting for steady clocks.
    pub warmup_share: f64,
}

impl Default for ProbeSettings {
    /// 250 ms budget, 0.5 ms dispatches, 3 per case, up to 25% of the budget for warm-up.
    fn default() -> Self {
        ProbeSettings {
            budget: Duration::from_millis(250),
            dispatch_target: Duration::from_micros(500),
            dispatches: 3,
            warmup_share: 0.25,
        }
    }
}

/// The throughput of one measured case.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseThroughput {
    /// The case.
    pub case: Case,
    /// Workgroups per dispatch.
    pub groups: u64,
    /// Median GPU time of the timed dispatches.
    pub median: Duration,
    /// Loads per second (`groups x 65536 / median`).
    pub loads_per_second: f64,
    /// Bytes per second (`loads_per_second x bytes per load`).
    pub bytes_per_second: f64,
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

/// What [`Bench::probe`] measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbeReport {
    /// Measured cases, in the order given.
    pub measured: Vec<CaseThroughput>,
    /// Cases the device cannot run, with the reason.
    pub skipped: Vec<(Case, String)>,
    /// Cases left out because the budget was spent.
    pub out_of_time: Vec<Case>,
    /// True when the warm-up saw two consecutive dispatches agree within 2%.
    pub steady_clocks: bool,
    /// Wall time the probe took.
    pub elapsed: Duration,
}

impl ProbeReport {
    /// The measured result of the case with `id`.
    pub fn get(&self, id: &str) -> Option<&CaseThroughput> {
        self.measured.iter().find(|m| m.case.id == id)
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

impl fmt::Display for ProbeReport {
    /// One line per (width, pattern): the resource types from fastest to slowest, with Gload/s.
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
            writeln!(f, " (Gload/s)")?;
        }
        if !self.skipped.is_empty() || !self.out_of_time.is_empty() {
            writeln!(
                f,
                "{} case(s) skipped as unsupported, {} left out of the time budget",
                self.skipped.len(),
                self.out_of_time.len()
            )?;
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
fn three_digits(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Median of durations (the upper middle for even counts).
fn median(mut times: Vec<Duration>) -> Option<Duration> {
    times.sort();
    times.get(times.len() / 2).copied()
}

impl Bench {
    /// Times `dispatches` dispatches of `kernel`, re-sizing until their median lands within a
    /// factor of 4 of `target` (so a case as fast as the previous one costs one submission).
    /// Returns the dispatch size and the median time.
    fn measure_sized(
        &mut self,
        kernel: KernelId,
        groups: u64,
        target: Duration,
        dispatches: u32,
    ) -> Result<([u32; 3], Duration)> {
        let device = self.context().target();
        let max = device.max_compute_work_group_count;
        let wave = device.resident_workgroups.map_or(0, u64::from);
        let limit = max_total(max, DEFAULT_FIRST_DIM_CAP);
        let target_ns = target.as_secs_f64() * 1e9;
        let layout = |g: u64| {
            split_waves(
                round_to_waves(g, wave, limit),
                wave,
                max,
                DEFAULT_FIRST_DIM_CAP,
            )
        };
        let mut dims = layout(groups.max(1));
        let mut result = Duration::ZERO;
        for _ in 0..12 {
            result = median(self.time(kernel, dims, dispatches)?).unwrap_or_default();
            let t = result.as_secs_f64() * 1e9;
            if (target_ns / 4.0..=target_ns * 4.0).contains(&t) {
                break;
            }
            let next = layout(next_group_count(group_total(dims), t, target_ns, limit));
            if next == dims {
                break; // at a limit: one group, or the device maximum
            }
            dims = next;
        }
        Ok((dims, result))
    }

    /// Measures `cases` within `settings.budget` of wall time, pipeline creation included.
    ///
    /// Unsupported cases are listed in [`ProbeReport::skipped`]; cases that would overrun the
    /// budget are not started and are listed in [`ProbeReport::out_of_time`]. Vulkan errors
    /// (lost device, timeouts) end the probe with an error.
    pub fn probe(&mut self, cases: &[Case], settings: &ProbeSettings) -> Result<ProbeReport> {
        let start = Instant::now();
        let mut report = ProbeReport::default();
        let mut kernels = Vec::new();
        for (case, kernel) in cases.iter().zip(self.prepare_all(cases)) {
            match kernel {
                Ok(k) => kernels.push((case.clone(), k)),
                Err(Error::Unsupported { reason, .. }) => {
                    report.skipped.push((case.clone(), reason))
                }
                Err(e) => return Err(e),
            }
        }
        let dispatches = settings
            .dispatches
            .clamp(1, crate::bench::MAX_DISPATCHES_PER_SUBMIT);
        let mut groups = 1u64;
        let mut first = true;
        let mut per_case: Option<Duration> = None;
        for (case, kernel) in kernels {
            let mut case_start = Instant::now();
            let needed = per_case.unwrap_or_default();
            if start.elapsed() + needed > settings.budget {
                report.out_of_time.push(case);
                continue;
            }
            if first {
                // Keep the first case running until two dispatches agree within 2%.
                let (dims, _) = self.measure_sized(kernel, groups, settings.dispatch_target, 1)?;
                let limit = settings
                    .budget
                    .mul_f64(settings.warmup_share.clamp(0.0, 1.0));
                let mut previous: Option<f64> = None;
                while case_start.elapsed() < limit {
                    let t = median(self.time(kernel, dims, 1)?)
                        .unwrap_or_default()
                        .as_secs_f64();
                    if previous.is_some_and(|p| (p - t).abs() <= 0.02 * p.max(t)) {
                        report.steady_clocks = true;
                        break;
                    }
                    previous = Some(t);
                }
                groups = group_total(dims);
                first = false;
                // The warm-up is a one-off: per-case estimates start after it.
                case_start = Instant::now();
            }
            let (dims, median) =
                self.measure_sized(kernel, groups, settings.dispatch_target, dispatches)?;
            groups = group_total(dims);
            let seconds = median.as_secs_f64();
            if seconds > 0.0 {
                let loads =
                    groups as f64 * f64::from(THREADS_PER_GROUP * LOADS_PER_THREAD) / seconds;
                report.measured.push(CaseThroughput {
                    bytes_per_second: loads * f64::from(case.bytes_per_load()),
                    loads_per_second: loads,
                    case,
                    groups,
                    median,
                });
            }
            let took = case_start.elapsed();
            per_case = Some(per_case.map_or(took, |p| p.max(took)));
        }
        report.elapsed = start.elapsed();
        Ok(report)
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
            median: Duration::from_millis(1),
            loads_per_second: gloads * 1e9,
            bytes_per_second: gloads * 1e9 * f64::from(case.bytes_per_load()),
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
}
