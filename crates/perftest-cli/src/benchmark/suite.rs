//! Drives a [`Bench`] through a list of cases: build every pipeline, check results against
//! the CPU model, warm the clocks up, then measure case after case.

use std::sync::atomic::AtomicBool;

use perftest_cases::{Case, Support, Tolerance};
use perftest_core::{check, Bench, ComputeTarget, Error, KernelId};

use crate::benchmark::measure::{measure_case, warm_up_clocks, DispatchTimer, LoopError};
use crate::benchmark::verify::describe_failure;
use crate::options::Options;
use crate::report::{CaseResult, DeviceInfo, Report, Settings};
use crate::sizing::group_total;

/// Most measurements spent warming the clocks up before the first case (about 1 s at 20 ms).
pub const CLOCK_WARMUP_MAX: u32 = 50;

/// Tolerance of the initial clock warm-up: two consecutive measurements within 1%.
pub const CLOCK_WARMUP_TOLERANCE: f64 = 0.01;

/// A [`DispatchTimer`] over one prepared case of a [`Bench`].
pub struct BenchTimer<'a> {
    /// The bench.
    pub bench: &'a mut Bench,
    /// The case's kernel.
    pub kernel: KernelId,
}

impl DispatchTimer for BenchTimer<'_> {
    type Error = Error;
    fn time(&mut self, dims: [u32; 3], dispatches: u32) -> Result<Vec<f64>, Error> {
        let times = self.bench.time(self.kernel, dims, dispatches)?;
        Ok(times.iter().map(|d| d.as_secs_f64() * 1e9).collect())
    }
}

/// The report's description of a compute target.
pub fn device_info(target: &ComputeTarget) -> DeviceInfo {
    DeviceInfo {
        name: target.summary.name.clone(),
        device_type: target.summary.device_type.to_string(),
        vendor_id: target.vendor_id,
        device_id: target.device_id,
        driver_name: target.driver_name.clone(),
        driver_info: target.driver_info.clone(),
        driver_version: target.driver_version,
        api_version: target.api_version_string(),
        queue_family: target.summary.queue_family,
        timestamp_period_ns: target.timestamp_period,
        timestamp_valid_bits: target.timestamp_valid_bits,
        subgroup_size: target.subgroup_size,
    }
}

/// How a timing run ended.
#[derive(Debug)]
pub enum RunEnd {
    /// Every case ran (some may be skipped or failed).
    Complete,
    /// Ctrl-C: the report holds the cases measured so far.
    Interrupted,
    /// A fatal device error (lost device, hung submission) stopped the run.
    Fatal(Error),
}

/// True for errors after which the device cannot be trusted for further cases.
fn is_fatal(e: &Error) -> bool {
    matches!(e, Error::DeviceLost { .. } | Error::Timeout { .. })
}

/// Runs the timing suite; `progress(i, n, case)` is called before each case.
pub fn run_timing(
    bench: &mut Bench,
    cases: &[Case],
    options: &Options,
    verify_first: bool,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize, &Case),
) -> (Report, RunEnd) {
    let target = bench.context().target().clone();
    let settings = Settings {
        target_ms: options.target_ms,
        samples: options.samples,
        warmup_max: options.warmup_max,
        validation: options.validation,
        verify: verify_first,
    };
    let mut report = Report::begin(device_info(&target), settings);
    report.baseline_id = options.baseline.clone();
    let loop_settings = options.loop_settings(target.max_compute_work_group_count);

    // Build every pipeline first, so no compilation happens between measurements.
    let mut prepared: Vec<(Case, Result<KernelId, CaseResult>)> = Vec::with_capacity(cases.len());
    for case in cases {
        let kernel = match bench.support(case) {
            Support::Skipped(reason) => Err(CaseResult::skipped(case, reason)),
            Support::Supported => match bench.prepare(case) {
                Ok(k) => Ok(k),
                Err(Error::Unsupported { reason, .. }) => Err(CaseResult::skipped(case, reason)),
                Err(e) if is_fatal(&e) => {
                    report.cases.push(CaseResult::failed(case, e.to_string()));
                    report.finish(false);
                    return (report, RunEnd::Fatal(e));
                }
                Err(e) => Err(CaseResult::failed(case, e.to_string())),
            },
        };
        prepared.push((case.clone(), kernel));
    }

    let mut groups = 1u64;
    let mut warmed = false;
    let total = prepared.len();
    for (i, (case, kernel)) in prepared.into_iter().enumerate() {
        progress(i, total, &case);
        let kernel = match kernel {
            Ok(k) => k,
            Err(result) => {
                report.cases.push(result);
                continue;
            }
        };
        let outcome = (|| -> Result<Result<_, String>, LoopError<Error>> {
            if verify_first {
                let sums = bench.verify(kernel).map_err(LoopError::Timer)?;
                let outcome = check(&case, &sums, Tolerance::DEFAULT);
                if !outcome.passed() {
                    return Ok(Err(describe_failure(&outcome)));
                }
            }
            let mut timer = BenchTimer { bench, kernel };
            if !warmed {
                // Size the first case, then keep the GPU busy until its clocks are steady.
                let first = measure_case(&mut timer, &loop_settings, groups, stop)?;
                warm_up_clocks(
                    &mut timer,
                    first.measurement.dims,
                    options.samples,
                    CLOCK_WARMUP_TOLERANCE,
                    CLOCK_WARMUP_MAX,
                    stop,
                )?;
                warmed = true;
                groups = first.measurement.groups;
            }
            Ok(Ok(measure_case(&mut timer, &loop_settings, groups, stop)?))
        })();
        match outcome {
            Ok(Ok(m)) => {
                groups = group_total(m.measurement.dims);
                report
                    .cases
                    .push(CaseResult::measured(&case, m.measurement));
            }
            Ok(Err(mismatch)) => report.cases.push(CaseResult::failed(&case, mismatch)),
            Err(LoopError::Interrupted) => {
                report.finish(false);
                return (report, RunEnd::Interrupted);
            }
            Err(LoopError::Timer(e)) if is_fatal(&e) => {
                report.cases.push(CaseResult::failed(&case, e.to_string()));
                report.finish(false);
                return (report, RunEnd::Fatal(e));
            }
            Err(LoopError::Timer(e)) => report.cases.push(CaseResult::failed(&case, e.to_string())),
        }
    }
    report.finish(true);
    (report, RunEnd::Complete)
}
