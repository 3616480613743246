//! Turning parsed arguments into validated settings (pure; every rule unit-tested).

use std::path::PathBuf;
use std::time::Duration;

use perftest_cases::{parse_suites, Suite};
use perftest_core::DeviceChoice;

use crate::benchmark::measure::LoopSettings;
use crate::cli::RunArgs;
use crate::export::ExportFormat;
use crate::sizing::DEFAULT_FIRST_DIM_CAP;

/// Bounds of `--target-ms`.
pub const TARGET_MS_RANGE: (f64, f64) = (0.5, 1000.0);

/// `--dispatch-ms`'s accepted range (ms).
pub const DISPATCH_MS_RANGE: (f64, f64) = (0.05, 100.0);

/// Agreement that counts as steady clocks: 2%.
pub const STEADY_TOLERANCE: f64 = 0.02;

/// What the run should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
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
    pub mode: Mode,
    /// Which device.
    pub device: DeviceChoice,
    /// The suites to run, in run order (`[Suite::Original]` by default).
    pub suites: Vec<Suite>,
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
}

/// Bounds of `--clock-mhz`.
pub const CLOCK_MHZ_RANGE: (f64, f64) = (1.0, 100_000.0);

/// Parses a size: a whole number of bytes, or a number with `KB`, `MB` or `GB` (binary units,
/// case-insensitive, `K`/`M`/`G` and a space allowed): `4096`, `64MB`, `1.5 GB`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim().to_ascii_lowercase();
    let t = t.strip_suffix('b').unwrap_or(&t);
    let (number, scale) = match t.char_indices().last() {
        Some((i, 'k')) => (&t[..i], 1u64 << 10),
        Some((i, 'm')) => (&t[..i], 1 << 20),
        Some((i, 'g')) => (&t[..i], 1 << 30),
        _ => (t, 1),
    };
    let number = number.trim();
    let value: f64 = number
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v > 0.0 && !number.starts_with('+'))
        .ok_or_else(|| format!("{text:?} is not a size (say 4096, 512KB, 64MB or 1GB)"))?;
    let bytes = value * scale as f64;
    if bytes < 1.0 || bytes > (1u64 << 50) as f64 {
        return Err(format!("{text:?} is outside 1 byte..=1 PB"));
    }
    Ok(bytes as u64)
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

fn in_range(option: &'static str, value: i64, lo: i64, hi: i64) -> Result<u32, OptionError> {
    if (lo..=hi).contains(&value) {
        u32::try_from(value).map_err(|_| bad(option, format!("{value} is out of range")))
    } else {
        Err(bad(option, format!("{value} is outside {lo}..={hi}")))
    }
}

impl Options {
    /// Validates the arguments of a run.
    pub fn from_args(args: &RunArgs) -> Result<Options, OptionError> {
        let mode = if args.list {
            Mode::ListDevices
        } else if args.list_cases {
            Mode::ListCases
        } else if args.verify {
            Mode::Verify
        } else {
            Mode::Time {
                verify_first: !args.no_verify,
            }
        };
        let list = matches!(mode, Mode::ListDevices | Mode::ListCases);
        if mode == Mode::ListDevices && (args.device_index.is_some() || args.device_name.is_some())
        {
            return Err(bad(
                "--list",
                "it lists every device; drop the device index or name".into(),
            ));
        }
        if list && args.output.is_some() {
            return Err(bad(
                if mode == Mode::ListDevices {
                    "--list"
                } else {
                    "--list-cases"
                },
                "it prints a list on stdout; --output applies to timing runs".into(),
            ));
        }
        if let Some(empty) = args.filter.iter().find(|f| f.trim().is_empty()) {
            return Err(bad(
                "--filter",
                format!("{empty:?} is empty and would select every case; leave --filter out to run them all"),
            ));
        }
        if args.all_devices && args.output.is_none() && args.format != ExportFormat::Text {
            return Err(bad(
                "--all-devices",
                "it prints one text table per device and a node summary; give --output with \
                 {device} for reports in another --format"
                    .into(),
            ));
        }
        if mode == Mode::Verify && (args.output.is_some() || args.format != ExportFormat::Text) {
            return Err(bad(
                "--verify",
                "it prints one pass/FAIL line per case; --output and --format apply to timing runs"
                    .into(),
            ));
        }
        if mode == Mode::Verify && (args.shader_stats || args.dump_shaders.is_some()) {
            return Err(bad(
                "--verify",
                "--shader-stats and --dump-shaders apply to timing runs".into(),
            ));
        }
        let suites = parse_suites(&args.suite).map_err(|e| bad("--suite", e.to_string()))?;
        let index = match args.device_index {
            None => None,
            Some(i) if i >= 0 => Some(usize::try_from(i).unwrap_or(usize::MAX)),
            Some(i) => {
                return Err(bad(
                    "the device index",
                    format!("{i} (devices are numbered from 1)"),
                ))
            }
        };
        let (lo, hi) = TARGET_MS_RANGE;
        if !(args.target_ms.is_finite() && (lo..=hi).contains(&args.target_ms)) {
            return Err(bad(
                "--target-ms",
                format!("{} is outside {lo}..={hi} ms", args.target_ms),
            ));
        }
        let samples = in_range(
            "--samples",
            args.samples,
            1,
            i64::from(perftest_core::MAX_DISPATCHES_PER_SUBMIT),
        )?;
        let (lo, hi) = DISPATCH_MS_RANGE;
        if !(args.dispatch_ms.is_finite() && (lo..=hi).contains(&args.dispatch_ms)) {
            return Err(bad(
                "--dispatch-ms",
                format!("{} is outside {lo}..={hi} ms", args.dispatch_ms),
            ));
        }
        let samples = measurement_samples(samples, args.target_ms, args.dispatch_ms);
        let warmup_max = in_range("--warmup-max", args.warmup_max, 0, 100)?;
        let timeout_ms = in_range("--fence-timeout-ms", args.fence_timeout_ms, 1, 600_000)?;
        // One submission holds a whole measurement: `samples` dispatches of --dispatch-ms.
        let measurement_ms = args.dispatch_ms * f64::from(samples);
        if f64::from(timeout_ms) < measurement_ms {
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
        let max_working_set = args
            .max_working_set
            .as_deref()
            .map(parse_size)
            .transpose()
            .map_err(|e| bad("--max-working-set", e))?;
        let (clock_lo, clock_hi) = CLOCK_MHZ_RANGE;
        if let Some(mhz) = args.clock_mhz {
            if !(mhz.is_finite() && (clock_lo..=clock_hi).contains(&mhz)) {
                return Err(bad(
                    "--clock-mhz",
                    format!("{mhz} is outside {clock_lo}..={clock_hi} MHz"),
                ));
            }
        }
        if args.baseline.trim().is_empty() {
            return Err(bad("--baseline", "an empty case id".into()));
        }
        Ok(Options {
            mode,
            device: DeviceChoice {
                index,
                name: args.device_name.clone(),
            },
            suites,
            filters: args.filter.clone(),
            target_ms: args.target_ms,
            dispatch_ms: args.dispatch_ms,
            samples,
            warmup_max,
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
            max_working_set,
            clock_mhz: args.clock_mhz,
        })
    }

    /// The measurement loop's settings for a device with `max_count` workgroups per dimension
    /// that runs `wave` workgroups at once (0 when unknown).
    pub fn loop_settings(&self, max_count: [u32; 3], wave: u64) -> LoopSettings {
        LoopSettings {
            // target / samples is the dispatch time, whatever --target-ms was.
            target_ns: self.dispatch_ms * 1e6 * f64::from(self.samples),
            samples: self.samples,
            warmup_max: self.warmup_max,
            steady_tolerance: STEADY_TOLERANCE,
            max_count,
            first_dim_cap: DEFAULT_FIRST_DIM_CAP,
            wave,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> RunArgs {
        RunArgs {
            target_ms: 20.0,
            samples: 10,
            warmup_max: 5,
            baseline: "typed.rgba8.random".into(),
            fence_timeout_ms: 10_000,
            dispatch_ms: 2.0,
            ..RunArgs::default()
        }
    }

    #[test]
    fn sizes_parse_in_binary_units() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("512KB"), Ok(512 << 10));
        assert_eq!(parse_size("64mb"), Ok(64 << 20));
        assert_eq!(parse_size(" 1.5 GB "), Ok(3 << 29));
        assert_eq!(parse_size("2M"), Ok(2 << 20));
        assert_eq!(parse_size("8k"), Ok(8 << 10));
        for bad in [
            "", "MB", "-4KB", "0", "+4KB", "four", "1e20GB", "NaN", "inf", "4 TB",
        ] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn max_working_set_and_clock_are_checked() {
        let mut a = args();
        a.max_working_set = Some("64MB".into());
        a.clock_mhz = Some(1980.0);
        let o = Options::from_args(&a).unwrap();
        assert_eq!(o.max_working_set, Some(64 << 20));
        assert_eq!(o.clock_mhz, Some(1980.0));
        a.max_working_set = Some("lots".into());
        assert_eq!(
            Options::from_args(&a).unwrap_err().option,
            "--max-working-set"
        );
        a.max_working_set = None;
        for mhz in [0.0, -5.0, f64::NAN, 1e9] {
            a.clock_mhz = Some(mhz);
            assert_eq!(Options::from_args(&a).unwrap_err().option, "--clock-mhz");
        }
    }

    #[test]
    fn defaults_are_valid() {
        let o = Options::from_args(&args()).unwrap();
        assert_eq!(o.mode, Mode::Time { verify_first: true });
        assert_eq!(o.samples, 10);
        assert_eq!(o.loop_settings([65535; 3], 0).target_ns, 20e6);
    }

    #[test]
    fn out_of_range_values_are_refused() {
        for (target, samples, warmup, timeout, what) in [
            (0.0, 10, 5, 10_000, "--target-ms"),
            (-5.0, 10, 5, 10_000, "--target-ms"),
            (1e9, 10, 5, 10_000, "--target-ms"),
            (f64::NAN, 10, 5, 10_000, "--target-ms"),
            (20.0, 0, 5, 10_000, "--samples"),
            (20.0, 257, 5, 10_000, "--samples"),
            (20.0, 10, -1, 10_000, "--warmup-max"),
            (20.0, 10, 5, 0, "--fence-timeout-ms"),
            (20.0, 10, 5, 19, "--fence-timeout-ms"),
            // 256 dispatches of 2 ms.
            (1000.0, 10, 5, 511, "--fence-timeout-ms"),
        ] {
            let a = RunArgs {
                target_ms: target,
                samples,
                warmup_max: warmup,
                fence_timeout_ms: timeout,
                ..args()
            };
            let e = Options::from_args(&a).unwrap_err();
            assert_eq!(e.option, what);
            assert!(e
                .to_string()
                .starts_with(&format!("invalid value for {what}")));
        }
        for dispatch in [0.0, 0.04, 101.0, f64::NAN, f64::INFINITY, -1.0] {
            let e = Options::from_args(&RunArgs {
                dispatch_ms: dispatch,
                ..args()
            })
            .unwrap_err();
            assert_eq!(e.option, "--dispatch-ms", "{dispatch}");
        }
        assert!(Options::from_args(&RunArgs {
            target_ms: 1000.0,
            fence_timeout_ms: 512,
            ..args()
        })
        .is_ok());
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
        for (samples, target) in [(6, 12.0), (60, 12.0), (6, 5.0), (10, 80.0)] {
            let o = Options::from_args(&RunArgs {
                samples,
                target_ms: target,
                ..args()
            })
            .unwrap();
            let s = o.loop_settings([65535; 3], 0);
            assert!((s.dispatch_ns() - 2e6).abs() < 1e-6, "{samples} {target}");
        }
    }

    #[test]
    fn device_choice_and_modes() {
        let a = RunArgs {
            device_index: Some(2),
            device_name: Some("RTX".into()),
            ..args()
        };
        let o = Options::from_args(&a).unwrap();
        assert_eq!(
            o.device,
            DeviceChoice {
                index: Some(2),
                name: Some("RTX".into())
            }
        );
        assert!(Options::from_args(&RunArgs {
            device_index: Some(-1),
            ..args()
        })
        .is_err());
        let zero = Options::from_args(&RunArgs {
            device_index: Some(0),
            ..args()
        })
        .unwrap();
        assert_eq!(zero.device.index, Some(0)); // refused later, with the device list
        assert_eq!(
            Options::from_args(&RunArgs {
                verify: true,
                ..args()
            })
            .unwrap()
            .mode,
            Mode::Verify
        );
        assert_eq!(
            Options::from_args(&RunArgs {
                no_verify: true,
                ..args()
            })
            .unwrap()
            .mode,
            Mode::Time {
                verify_first: false
            }
        );
        assert_eq!(
            Options::from_args(&RunArgs {
                list: true,
                ..args()
            })
            .unwrap()
            .mode,
            Mode::ListDevices
        );
    }

    #[test]
    fn list_and_filter_rules() {
        let refused = |a: RunArgs| Options::from_args(&a).unwrap_err().option;
        assert_eq!(
            refused(RunArgs {
                list: true,
                device_index: Some(99),
                ..args()
            }),
            "--list"
        );
        assert_eq!(
            refused(RunArgs {
                list: true,
                device_name: Some("llvm".into()),
                ..args()
            }),
            "--list"
        );
        assert_eq!(
            refused(RunArgs {
                list_cases: true,
                output: Some("cases.txt".into()),
                ..args()
            }),
            "--list-cases"
        );
        for empty in ["", "  "] {
            assert_eq!(
                refused(RunArgs {
                    filter: vec!["raw".into(), empty.into()],
                    ..args()
                }),
                "--filter"
            );
        }
        // The fence timeout may equal the target; below it nothing could ever finish.
        let equal = RunArgs {
            target_ms: 50.0,
            fence_timeout_ms: 50,
            ..args()
        };
        assert!(Options::from_args(&equal).is_ok());
    }

    #[test]
    fn suites_default_to_original_and_unknown_names_are_refused() {
        let parsed = |suite: &[&str]| {
            Options::from_args(&RunArgs {
                suite: suite.iter().map(|s| s.to_string()).collect(),
                ..args()
            })
        };
        assert_eq!(parsed(&[]).unwrap().suites, [Suite::Original]);
        assert_eq!(
            parsed(&["memory", "original"]).unwrap().suites,
            [Suite::Original, Suite::Memory]
        );
        assert_eq!(parsed(&["all"]).unwrap().suites, Suite::ALL);
        let error = parsed(&["original,bogus"]).unwrap_err();
        assert_eq!(error.option, "--suite");
        assert!(error.message.contains("'bogus'"), "{error}");
        assert!(
            error
                .message
                .contains("original, modern, texture, memory, graphics, all"),
            "{error}"
        );
    }

    #[test]
    fn verify_refuses_report_options() {
        let verify_json = RunArgs {
            verify: true,
            format: ExportFormat::Json,
            ..args()
        };
        assert_eq!(
            Options::from_args(&verify_json).unwrap_err().option,
            "--verify"
        );
        let verify_output = RunArgs {
            verify: true,
            output: Some("v.json".into()),
            ..args()
        };
        assert_eq!(
            Options::from_args(&verify_output).unwrap_err().option,
            "--verify"
        );
    }
}
