//! What a timing run needs to know, and whom it tells how it goes: the run's own settings,
//! made from the command line's options or by a program that embeds the run, and an observer
//! for its progress.

use std::path::PathBuf;

use perftest_cases::Case;
use perftest_report::policy::{LoopSettings, STEADY_TOLERANCE};
use perftest_report::schema::Settings;
use perftest_report::sizing::DEFAULT_FIRST_DIM_CAP;

use crate::options::Options;

/// The settings of one timing run of [`crate::benchmark::suite::run_timing`].
#[derive(Clone, Debug, PartialEq)]
pub struct RunSettings {
    /// The settings the report records (target, samples, dispatch time, warm-up, suites, the
    /// given clock and units, placements); `verify` says whether every case is checked
    /// against its CPU model before it is timed.
    pub recorded: Settings,
    /// GPU time one dispatch is sized for, ms.
    pub dispatch_ms: f64,
    /// The case every other is compared with (`x`).
    pub baseline: String,
    /// Whether the latency sweep is refined between its levels.
    pub refine: bool,
    /// The largest working set a refined sweep may add, in bytes.
    pub max_working_set: Option<u64>,
    /// Whether pipelines keep the driver's internal representations (for a shader dump).
    pub keep_representations: bool,
    /// The file the pipeline cache is loaded from and saved to.
    pub pipeline_cache: Option<PathBuf>,
}

impl RunSettings {
    /// The run the command line asks for; `verify` as the run's mode decides.
    pub fn from_options(options: &Options, verify: bool) -> RunSettings {
        RunSettings {
            recorded: Settings {
                target_ms: options.target_ms,
                samples: options.samples,
                dispatch_ms: Some(options.dispatch_ms),
                warmup_max: options.warmup_max,
                validation: options.validation,
                verify,
                suites: options
                    .suites
                    .iter()
                    .map(|s| s.name())
                    .chain(options.answers.then_some("answers"))
                    .map(str::to_string)
                    .collect(),
                clock_mhz: options.clock_mhz,
                shader_units: options.shader_units,
                placements: (options.placements > 1).then_some(options.placements),
            },
            dispatch_ms: options.dispatch_ms,
            baseline: options.baseline.clone(),
            refine: options.refine,
            max_working_set: options.max_working_set,
            keep_representations: options.dump_shaders.is_some(),
            pipeline_cache: options.pipeline_cache.clone(),
        }
    }

    /// Dispatches per measurement.
    pub fn samples(&self) -> u32 {
        self.recorded.samples
    }

    /// Whether every case is checked against its CPU model before it is timed.
    pub fn verify(&self) -> bool {
        self.recorded.verify
    }

    /// Places in memory the cases' resources take turns at (1: one place, chosen per case).
    pub fn placements(&self) -> u32 {
        self.recorded.placements.unwrap_or(1)
    }

    /// The measurement loop's settings for a device with `max_count` workgroups per dimension
    /// that runs `wave` workgroups at once (0 when unknown).
    pub fn loop_settings(&self, max_count: [u32; 3], wave: u64) -> LoopSettings {
        let samples = self.samples();
        LoopSettings {
            // target / samples is the dispatch time, whatever the target was.
            target_ns: self.dispatch_ms * 1e6 * f64::from(samples),
            samples,
            warmup_max: self.recorded.warmup_max,
            steady_tolerance: STEADY_TOLERANCE,
            max_count,
            first_dim_cap: DEFAULT_FIRST_DIM_CAP,
            wave,
        }
    }
}

/// Whom a timing run tells how it goes. Every method does nothing by default.
pub trait RunObserver {
    /// Case `index` of `count` (`case`) is about to be sized.
    fn sizing(&mut self, _index: usize, _count: usize, _case: &Case) {}

    /// Measurement round `round` (from 1) is done: from the first on, a partial report holds
    /// measured cases.
    fn round_done(&mut self, _round: usize) {}

    /// A warning about the run that is not about one case (a pipeline cache that could not be
    /// read, say).
    fn warning(&mut self, _message: &str) {}
}

/// An observer that is told nothing.
pub struct Quiet;

impl RunObserver for Quiet {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loop_targets_the_dispatch_time_of_every_sample() {
        let settings = RunSettings {
            recorded: Settings {
                target_ms: 20.0,
                samples: 6,
                dispatch_ms: Some(2.0),
                warmup_max: 50,
                validation: false,
                verify: true,
                suites: Vec::new(),
                clock_mhz: None,
                shader_units: None,
                placements: None,
            },
            dispatch_ms: 2.0,
            baseline: String::new(),
            refine: false,
            max_working_set: None,
            keep_representations: false,
            pipeline_cache: None,
        };
        let l = settings.loop_settings([65535; 3], 132);
        assert_eq!(l.target_ns, 12e6);
        assert_eq!((l.samples, l.warmup_max, l.wave), (6, 50, 132));
        assert_eq!(settings.placements(), 1);
        assert!(settings.verify());
    }
}
