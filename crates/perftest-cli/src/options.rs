//! Turning parsed arguments into validated settings (pure; every rule unit-tested).

use std::path::PathBuf;
use std::time::Duration;

use perftest_cases::{parse_suites, Suite};
use perftest_core::DeviceChoice;

use crate::cli::{RunArgs, SuiteChoice};
use crate::export::ExportFormat;

pub use perftest_report::policy::STEADY_TOLERANCE;

/// What the run should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Print the device list.
    ListDevices,
    /// Print the case list.
    ListCases,
    /// Verify the selected cases only.
    Verify,
    /// Verify (unless disabled), then time the selected cases.
    Time {
        /// Check results against the CPU model before timing.
        verify_first: bool,
    },
}

/// Validated settings of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// What to do.
    pub action: Action,
    /// Which device.
    pub device: DeviceChoice,
    /// The suites to run whole, in run order (`[Suite::Original]` by default; none for a bare
    /// `--suite answers`).
    pub suites: Vec<Suite>,
    /// `--suite answers`: also the cases the findings and the guidance read, from every suite.
    pub answers: bool,
    /// Case filters (applied within the suites).
    pub filters: Vec<String>,
    /// Target GPU time of one measurement, ms (as given).
    pub target_ms: f64,
    /// GPU time one dispatch is sized for, ms.
    pub dispatch_ms: f64,
    /// Dispatches per measurement: `--samples`, or more to fill `--target-ms` with
    /// `--dispatch-ms` dispatches (at most 256).
    pub samples: u32,
    /// Measurements a case may discard while clocks settle.
    pub warmup_max: u32,
    /// Places in memory the resources of the cases in the rounds take turns at.
    pub placements: u32,
    /// Baseline case id.
    pub baseline: String,
    /// Output format.
    pub format: ExportFormat,
    /// Output file.
    pub output: Option<PathBuf>,
    /// Validation layer on.
    pub validation: bool,
    /// Fence timeout.
    pub fence_timeout: Duration,
    /// Print phase timings.
    pub verbose: bool,
    /// Refine the latency sweep between its levels (not `--no-refine`).
    pub refine: bool,
    /// Run on every physical device at once.
    pub all_devices: bool,
    /// File the pipeline cache is loaded from and saved to.
    pub pipeline_cache: Option<PathBuf>,
    /// Print the driver's shader statistics below the table.
    pub shader_stats: bool,
    /// Directory for the driver's internal shader representations.
    pub dump_shaders: Option<PathBuf>,
    /// Largest working set a selected case may have, in bytes.
    pub max_working_set: Option<u64>,
    /// The SM clock the user gave, in MHz.
    pub clock_mhz: Option<f64>,
    /// `--shader-units`: the shader units given, for rates per clock and unit.
    pub shader_units: Option<u32>,
}

/// A value outside its documented range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("invalid value for {option}: {message}")]
pub struct OptionError {
    /// The option, e.g. `--samples`.
    pub option: &'static str,
    /// What is wrong.
    pub message: String,
}

fn bad(option: &'static str, message: String) -> OptionError {
    OptionError { option, message }
}

/// The dispatches of one measurement: at least `samples`, and enough `dispatch_ms` dispatches
/// to fill `target_ms`, at most [`perftest_core::MAX_DISPATCHES_PER_SUBMIT`] (one submission).
pub fn measurement_samples(samples: u32, target_ms: f64, dispatch_ms: f64) -> u32 {
    let to_fill = (target_ms / dispatch_ms).round();
    let to_fill = if to_fill.is_finite() && to_fill > 0.0 {
        to_fill.min(f64::from(u32::MAX)) as u32
    } else {
        0
    };
    samples
        .max(to_fill)
        .clamp(1, perftest_core::MAX_DISPATCHES_PER_SUBMIT)
}

impl Options {
    /// Turns the arguments of a run into its settings. clap has checked each value and refused
    /// contradicting options; what is left are the rules that tie several values together.
    pub fn from_args(args: &RunArgs) -> Result<Options, OptionError> {
        let action = if args.list {
            Action::ListDevices
        } else if args.list_cases {
            Action::ListCases
        } else if args.verify {
            Action::Verify
        } else {
            Action::Time {
                verify_first: !args.no_verify,
            }
        };
        if args.all_devices && args.output.is_none() && args.format != ExportFormat::Text {
            return Err(bad(
                "--all-devices",
                "it prints one text table per device and a node summary; give --output with \
                 {device} for reports in another --format"
                    .into(),
            ));
        }
        // Every name contains the empty text: it would pick a device without saying so.
        if args
            .device_name
            .as_deref()
            .is_some_and(|n| n.trim().is_empty())
        {
            return Err(bad(
                "NAME",
                "an empty device name matches every device; give part of a device's name \
                 (see --list), or leave it out"
                    .into(),
            ));
        }
        let answers = args.suite.contains(&SuiteChoice::Answers);
        let words: Vec<&str> = args
            .suite
            .iter()
            .filter(|s| **s != SuiteChoice::Answers)
            .map(|s| s.name())
            .collect();
        let suites = match answers && words.is_empty() {
            true => Vec::new(),
            false => parse_suites(&words).map_err(|e| bad("--suite", e.to_string()))?,
        };
        let samples = measurement_samples(args.samples, args.target_ms, args.dispatch_ms);
        // One submission holds a whole measurement: `samples` dispatches of --dispatch-ms. Only
        // a timing run measures (--verify's submissions are single check dispatches).
        let measurement_ms = args.dispatch_ms * f64::from(samples);
        let timeout_ms = args.fence_timeout_ms;
        if matches!(action, Action::Time { .. }) && f64::from(timeout_ms) < measurement_ms {
            return Err(bad(
                "--fence-timeout-ms",
                format!(
                    "{timeout_ms} ms is shorter than one measurement ({measurement_ms} ms: \
                     {samples} dispatches of --dispatch-ms {}), so every measurement would time \
                     out",
                    args.dispatch_ms
                ),
            ));
        }
        Ok(Options {
            action,
            device: DeviceChoice {
                index: args.device_index,
                name: args.device_name.clone(),
            },
            suites,
            answers,
            filters: args.filter.clone(),
            target_ms: args.target_ms,
            dispatch_ms: args.dispatch_ms,
            samples,
            warmup_max: args.warmup_max,
            placements: args.placements,
            baseline: args.baseline.clone(),
            format: args.format,
            output: args.output.clone(),
            validation: args.validation,
            fence_timeout: Duration::from_millis(u64::from(timeout_ms)),
            verbose: args.verbose,
            refine: !args.no_refine,
            all_devices: args.all_devices,
            pipeline_cache: args.pipeline_cache.clone(),
            shader_stats: args.shader_stats,
            dump_shaders: args.dump_shaders.clone(),
            max_working_set: args.max_working_set,
            clock_mhz: args.clock_mhz,
            shader_units: args.shader_units,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{normalize_args, Cli};
    use clap::Parser;

    /// The options of `perftest ARGS`, parsed as the binary parses them.
    fn options(args: &[&str]) -> Result<Options, OptionError> {
        let args = std::iter::once("perftest")
            .chain(args.iter().copied())
            .map(std::ffi::OsString::from);
        let cli = Cli::try_parse_from(normalize_args(args)).expect("arguments clap accepts");
        Options::from_args(&cli.run)
    }

    #[test]
    fn defaults_are_valid() {
        let o = options(&["--target-ms", "20", "--samples", "10"]).unwrap();
        assert_eq!(o.action, Action::Time { verify_first: true });
        assert_eq!(o.samples, 10);
        let run = crate::benchmark::settings::RunSettings::from_options(&o, true);
        assert_eq!(run.loop_settings([65535; 3], 0).target_ns, 20e6);
        assert_eq!(o.suites, [Suite::Original]);
        assert_eq!(o.fence_timeout, Duration::from_secs(10));
        assert_eq!((o.max_working_set, o.clock_mhz), (None, None));
        let o = options(&["--max-working-set", "64MB", "--clock-mhz", "1980"]).unwrap();
        assert_eq!(
            (o.max_working_set, o.clock_mhz),
            (Some(64 << 20), Some(1980.0))
        );
    }

    /// The fence timeout must cover one measurement: its dispatches times --dispatch-ms.
    #[test]
    fn a_timeout_shorter_than_a_measurement_is_refused() {
        for args in [
            &["--fence-timeout-ms", "19", "--target-ms", "20"][..],
            // 256 dispatches of 2 ms.
            &["--fence-timeout-ms", "511", "--target-ms", "1000"][..],
            &["--fence-timeout-ms", "100", "--samples", "60"][..],
            &["--fence-timeout-ms", "10", "--dispatch-ms", "11"][..],
        ] {
            let e = options(args).unwrap_err();
            assert_eq!(e.option, "--fence-timeout-ms", "{args:?}");
            assert!(
                e.to_string()
                    .starts_with("invalid value for --fence-timeout-ms"),
                "{e}"
            );
        }
        // It may equal the measurement; below it nothing could ever finish.
        assert!(options(&["--fence-timeout-ms", "512", "--target-ms", "1000"]).is_ok());
        assert!(options(&["--fence-timeout-ms", "50", "--target-ms", "50"]).is_ok());
        // --verify measures nothing: its single check dispatches are not held to it.
        let verify = options(&["--verify", "--fence-timeout-ms", "1"]).unwrap();
        assert_eq!(verify.action, Action::Verify);
        assert_eq!(verify.fence_timeout, Duration::from_millis(1));
    }

    #[test]
    fn the_dispatch_time_is_fixed_and_the_options_set_the_count() {
        // Default: 12 ms of 2 ms dispatches, 6 samples.
        assert_eq!(measurement_samples(6, 12.0, 2.0), 6);
        // More samples: more dispatches of the same time.
        assert_eq!(measurement_samples(60, 12.0, 2.0), 60);
        // A shorter target cannot shrink the dispatches or drop below --samples.
        assert_eq!(measurement_samples(6, 5.0, 2.0), 6);
        // A longer one takes more of them, at most one submission's worth.
        assert_eq!(measurement_samples(6, 40.0, 2.0), 20);
        assert_eq!(measurement_samples(6, 1000.0, 2.0), 256);
        assert_eq!(measurement_samples(0, 0.0, 2.0), 1);
        assert_eq!(measurement_samples(3, f64::NAN, 2.0), 3);
        for (samples, target) in [("6", "12"), ("60", "12"), ("6", "5"), ("10", "80")] {
            let o = options(&["--samples", samples, "--target-ms", target]).unwrap();
            let run = crate::benchmark::settings::RunSettings::from_options(&o, true);
            let s = run.loop_settings([65535; 3], 0);
            assert!((s.dispatch_ns() - 2e6).abs() < 1e-6, "{samples} {target}");
        }
    }

    #[test]
    fn device_choice_and_actions() {
        let o = options(&["RTX", "-2"]).unwrap();
        assert_eq!(
            o.device,
            DeviceChoice {
                index: Some(2),
                name: Some("RTX".into())
            }
        );
        // Refused later, with the device list.
        assert_eq!(options(&["-0"]).unwrap().device.index, Some(0));
        for (args, action) in [
            (&["--verify"][..], Action::Verify),
            (&["--list"][..], Action::ListDevices),
            (&["--list-cases"][..], Action::ListCases),
            (
                &["--no-verify"][..],
                Action::Time {
                    verify_first: false,
                },
            ),
            (&["--all-devices"][..], Action::Time { verify_first: true }),
        ] {
            assert_eq!(options(args).unwrap().action, action, "{args:?}");
        }
        assert!(options(&["--all-devices"]).unwrap().all_devices);
    }

    /// Several reports in one stream would be unreadable: --all-devices writes non-text
    /// formats to files only.
    #[test]
    fn all_devices_needs_output_for_other_formats() {
        let e = options(&["--all-devices", "--format", "json"]).unwrap_err();
        assert_eq!(e.option, "--all-devices");
        assert!(options(&["--all-devices", "--format", "json", "-o", "{pci}.json"]).is_ok());
        assert!(options(&["--all-devices", "--format", "text"]).is_ok());
    }

    #[test]
    fn suites_default_to_original_in_run_order() {
        let suites = |args: &[&str]| options(args).unwrap().suites;
        assert_eq!(suites(&[]), [Suite::Original]);
        assert_eq!(
            suites(&["--suite", "memory", "--suite", "original"]),
            [Suite::Original, Suite::Memory]
        );
        assert_eq!(
            suites(&["--suite", "memory,original,memory"]),
            [Suite::Original, Suite::Memory]
        );
        assert_eq!(suites(&["--suite", "all"]), Suite::ALL);
    }
}
