//! The measurement loop of one case: size the dispatch, wait for steady clocks, record.
//!
//! Vocabulary (the README uses the same words):
//! - a **sample** is the GPU time of one timestamped dispatch;
//! - a **measurement** is one submission of `samples` back-to-back dispatches of the same size,
//!   sized so that the whole measurement takes about `target` (20 ms) of GPU time.
//!
//! Per case: single-dispatch *probes* size the dispatch with the seed article's rule, applied to
//! the predicted measurement time (`samples x probe time`): grow x10 while under 2 ms, then
//! scale by target/time. The first probe runs a quarter of the previous case's size; once a
//! probe predicts at least a fifth of the target, one scaling step sizes the measurement. Then measurements
//! are taken (re-sized when one lands outside ±25% of the target) until one is **steady** — the median of its first half of samples and of its
//! second half agree within `steady_tolerance` (2%), and its median time per workgroup agrees
//! with the previous probe or measurement within the same tolerance — or until `warmup_max`
//! measurements were discarded. The last measurement is the one recorded; when its samples vary
//! by more than [`POOL_CV`], up to [`POOL_MAX`] more measurements of the same size are pooled
//! into it.
//!
//! The loop is generic over [`DispatchTimer`] so that it is unit-tested with a simulated GPU.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::report::Measurement;
use crate::sizing::{
    group_total, max_total, next_group_count, round_to_waves, split_waves, GROWTH_THRESHOLD_NS,
};
use crate::statistics::{median, steady, Summary};

/// Something that runs `dispatches` timed dispatches of `dims` workgroups and returns each
/// one's GPU time in nanoseconds (perftest-core's `Bench::time` in the real program).
pub trait DispatchTimer {
    /// The error a failed dispatch reports.
    type Error;
    /// Runs the dispatches and returns their times.
    fn time(&mut self, dims: [u32; 3], dispatches: u32) -> Result<Vec<f64>, Self::Error>;
}

/// Settings of the loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoopSettings {
    /// GPU time one measurement should take, ns.
    pub target_ns: f64,
    /// Dispatches (samples) per measurement.
    pub samples: u32,
    /// Measurements that may be discarded while waiting for steady clocks.
    pub warmup_max: u32,
    /// Relative agreement that counts as steady (0.02 = 2%).
    pub steady_tolerance: f64,
    /// The device's `maxComputeWorkGroupCount`.
    pub max_count: [u32; 3],
    /// Extra cap on the X dimension.
    pub first_dim_cap: u32,
    /// Workgroups the device runs at once (0 when unknown): counts are rounded to whole waves.
    pub wave: u64,
}

/// Upper bound on sizing probes per case (x10 growth from 1 group reaches 10^12 in 12 steps).
pub const MAX_PROBES: u32 = 16;

/// The first probe of a case uses the previous case's size divided by this.
pub const PROBE_DIVISOR: u64 = 4;

/// A probe predicting at least this fraction of the target is scaled from directly.
pub const MIN_PROBE_FRACTION: f64 = 0.2;

/// Above this coefficient of variation (0.5%) a case pools more measurements.
pub const POOL_CV: f64 = 0.005;

/// At most this many extra measurements are pooled into a noisy case's samples.
pub const POOL_MAX: u32 = 3;

/// How far a measurement may be from the target before it is sized again.
pub const SIZE_TOLERANCE: f64 = 0.25;

/// Why the loop stopped without a measurement.
#[derive(Debug)]
pub enum LoopError<E> {
    /// The timer failed.
    Timer(E),
    /// The stop flag was raised (Ctrl-C).
    Interrupted,
}

/// Result of measuring one case.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseMeasurement {
    /// The recorded measurement.
    pub measurement: Measurement,
    /// Sizing probes used.
    pub probes: u32,
}

fn check_stop<E>(stop: &AtomicBool) -> Result<(), LoopError<E>> {
    if stop.load(Ordering::Relaxed) {
        Err(LoopError::Interrupted)
    } else {
        Ok(())
    }
}

/// The medians of the first and second half of `samples` agree (always true below 2 samples).
fn halves_agree(samples: &[f64], tolerance: f64) -> bool {
    if samples.len() < 2 {
        return true;
    }
    let (a, b) = samples.split_at(samples.len() / 2);
    match (median(a), median(b)) {
        (Some(a), Some(b)) => steady(a, b, tolerance),
        _ => false,
    }
}

/// Measures one case, starting from `start_groups` workgroups (the previous case's size).
pub fn measure_case<T: DispatchTimer>(
    timer: &mut T,
    settings: &LoopSettings,
    start_groups: u64,
    stop: &AtomicBool,
) -> Result<CaseMeasurement, LoopError<T::Error>> {
    let limit = max_total(settings.max_count, settings.first_dim_cap);
    let samples = settings.samples.max(1);
    // Whole waves when the device says how many groups it runs at once (see round_to_waves).
    let split = |g: u64| {
        let g = round_to_waves(g, settings.wave, limit);
        split_waves(g, settings.wave, settings.max_count, settings.first_dim_cap)
    };
    // Probe with a quarter of the expected size: cheap, and still large enough to scale from.
    let mut dims = split((start_groups / PROBE_DIVISOR).max(1));
    let mut probes = 0;
    let mut reference_per_group = None;
    while probes < MAX_PROBES {
        check_stop(stop)?;
        let groups = group_total(dims);
        let times = timer.time(dims, 1).map_err(LoopError::Timer)?;
        probes += 1;
        let Some(&t) = times.first() else { break };
        let predicted = t * f64::from(samples);
        let next = next_group_count(groups, predicted, settings.target_ns, limit);
        // A probe of at least a fifth of the final size predicts it well enough to scale once.
        let sized = predicted >= GROWTH_THRESHOLD_NS.min(settings.target_ns)
            && predicted >= settings.target_ns * MIN_PROBE_FRACTION;
        reference_per_group = Some(t / groups as f64);
        let next_dims = split(next);
        if next_dims == dims {
            break; // at a limit (one group, or the device maximum)
        }
        dims = next_dims;
        if sized {
            break; // scaled once more from an accurate probe: lands near the target
        }
    }

    let mut discarded = 0;
    loop {
        check_stop(stop)?;
        let groups = group_total(dims);
        let times = timer.time(dims, samples).map_err(LoopError::Timer)?;
        let per_group = median(&times).map(|m| m / groups as f64);
        let agrees_with_previous = match (reference_per_group, per_group) {
            (Some(a), Some(b)) => steady(a, b, settings.steady_tolerance),
            _ => false,
        };
        let is_steady = agrees_with_previous && halves_agree(&times, settings.steady_tolerance);
        // Clocks that ramp while sizing leave the measurement off target: size it again.
        let total: f64 = times.iter().sum();
        let resized = split(next_group_count(groups, total, settings.target_ns, limit));
        let off_target = (total / settings.target_ns - 1.0).abs() > SIZE_TOLERANCE;
        if off_target && resized != dims && discarded < settings.warmup_max {
            dims = resized;
            discarded += 1;
            reference_per_group = per_group;
            continue;
        }
        if is_steady || discarded >= settings.warmup_max {
            // A noisy case pools a few more measurements, so its median is as trustworthy as
            // a quiet case's (the median's error shrinks with the square root of the samples).
            let mut times = times;
            let mut pooled = 0;
            while pooled < POOL_MAX && Summary::of(&times).is_some_and(|s| s.cv > POOL_CV) {
                check_stop(stop)?;
                times.extend(timer.time(dims, samples).map_err(LoopError::Timer)?);
                pooled += 1;
            }
            return Ok(CaseMeasurement {
                measurement: Measurement {
                    groups,
                    dims,
                    samples_ns: times,
                    warmup_dispatches: probes + discarded * samples,
                    steady: is_steady,
                },
                probes,
            });
        }
        discarded += 1;
        reference_per_group = per_group;
    }
}

/// Keeps the GPU busy with `timer` until two consecutive measurements of `dims` agree within
/// `tolerance`, at most `max_measurements` times. Returns (measurements run, steady reached).
/// Run once before the first case so the clocks have ramped up.
pub fn warm_up_clocks<T: DispatchTimer>(
    timer: &mut T,
    dims: [u32; 3],
    samples: u32,
    tolerance: f64,
    max_measurements: u32,
    stop: &AtomicBool,
) -> Result<(u32, bool), LoopError<T::Error>> {
    let mut previous = None;
    for n in 1..=max_measurements {
        check_stop(stop)?;
        let times = timer.time(dims, samples.max(1)).map_err(LoopError::Timer)?;
        let m = median(&times);
        if let (Some(a), Some(b)) = (previous, m) {
            if steady(a, b, tolerance) {
                return Ok((n, true));
            }
        }
        previous = m;
    }
    Ok((max_measurements, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A simulated GPU: each group takes `ns_per_group` at full clock; the clock ramps from
    /// `start_speed` to 1.0 over `ramp_ns` of busy time; each dispatch costs `overhead_ns`.
    struct SimulatedGpu {
        ns_per_group: f64,
        overhead_ns: f64,
        start_speed: f64,
        ramp_ns: f64,
        busy_ns: f64,
        calls: Vec<([u32; 3], u32)>,
    }

    impl SimulatedGpu {
        fn new(ns_per_group: f64) -> Self {
            SimulatedGpu {
                ns_per_group,
                overhead_ns: 5_000.0,
                start_speed: 1.0,
                ramp_ns: 0.0,
                busy_ns: 0.0,
                calls: Vec::new(),
            }
        }
        fn speed(&self) -> f64 {
            if self.busy_ns >= self.ramp_ns {
                1.0
            } else {
                self.start_speed + (1.0 - self.start_speed) * self.busy_ns / self.ramp_ns
            }
        }
    }

    impl DispatchTimer for SimulatedGpu {
        type Error = String;
        fn time(&mut self, dims: [u32; 3], dispatches: u32) -> Result<Vec<f64>, String> {
            self.calls.push((dims, dispatches));
            let groups = group_total(dims) as f64;
            Ok((0..dispatches)
                .map(|_| {
                    let t = self.overhead_ns + groups * self.ns_per_group / self.speed();
                    self.busy_ns += t;
                    t
                })
                .collect())
        }
    }

    fn settings() -> LoopSettings {
        LoopSettings {
            target_ns: 20e6,
            samples: 10,
            warmup_max: 5,
            steady_tolerance: 0.02,
            max_count: [65535, 65535, 65535],
            first_dim_cap: 10_000,
            wave: 0,
        }
    }

    fn total_ns(m: &Measurement) -> f64 {
        m.samples_ns.iter().sum()
    }

    #[test]
    fn converges_from_one_group_to_the_target() {
        let mut gpu = SimulatedGpu::new(30.0); // a fast GPU: 30 ns per group
        let stop = AtomicBool::new(false);
        let r = measure_case(&mut gpu, &settings(), 1, &stop).unwrap();
        let t = total_ns(&r.measurement);
        assert!((15e6..=25e6).contains(&t), "measurement took {t} ns");
        assert!(r.measurement.steady);
        assert_eq!(r.measurement.samples_ns.len(), 10);
        assert!(r.probes <= 8, "{} probes", r.probes);
        // Growth was tenfold while tiny.
        assert_eq!(group_total(gpu.calls[1].0), 10);
    }

    #[test]
    fn starting_from_the_previous_size_is_cheap() {
        let mut gpu = SimulatedGpu::new(30.0);
        let stop = AtomicBool::new(false);
        let first = measure_case(&mut gpu, &settings(), 1, &stop).unwrap();
        let mut similar = SimulatedGpu::new(33.0);
        let second =
            measure_case(&mut similar, &settings(), first.measurement.groups, &stop).unwrap();
        assert_eq!(second.probes, 1);
        assert!((15e6..=25e6).contains(&total_ns(&second.measurement)));
    }

    #[test]
    fn slow_groups_stop_at_one_group() {
        // One group takes 6.5 ms (software texture filtering): cannot go below one group.
        let mut gpu = SimulatedGpu::new(6.5e6);
        let stop = AtomicBool::new(false);
        let r = measure_case(&mut gpu, &settings(), 1000, &stop).unwrap();
        assert_eq!(r.measurement.groups, 1);
        assert!(r.measurement.steady);
    }

    #[test]
    fn a_clock_ramp_is_waited_out_and_reported() {
        let mut gpu = SimulatedGpu::new(30.0);
        gpu.start_speed = 0.2;
        gpu.ramp_ns = 60e6;
        let stop = AtomicBool::new(false);
        let r = measure_case(&mut gpu, &settings(), 1, &stop).unwrap();
        assert!(r.measurement.steady);
        assert!(
            r.measurement.warmup_dispatches > r.probes,
            "some measurements were discarded"
        );
        // The recorded samples are at full speed: within 2% of the true time.
        let per_group = median(&r.measurement.samples_ns).unwrap() / r.measurement.groups as f64;
        assert!((per_group - 30.0).abs() / 30.0 < 0.02, "{per_group}");

        // A ramp too long for the warm-up budget is reported as not steady.
        let mut slow = SimulatedGpu::new(30.0);
        slow.start_speed = 0.2;
        slow.ramp_ns = 1e9;
        let r = measure_case(&mut slow, &settings(), 1, &stop).unwrap();
        assert!(!r.measurement.steady);
    }

    #[test]
    fn never_exceeds_device_limits() {
        let mut gpu = SimulatedGpu::new(0.001); // absurdly fast: wants ~2e9 groups per dispatch
        let mut s = settings();
        s.max_count = [100, 10, 5];
        let stop = AtomicBool::new(false);
        let r = measure_case(&mut gpu, &s, 1, &stop).unwrap();
        for (dims, _) in &gpu.calls {
            assert!(dims[0] <= 100 && dims[1] <= 10 && dims[2] <= 5, "{dims:?}");
        }
        assert_eq!(r.measurement.groups, 5000);
    }

    #[test]
    fn known_wave_size_gives_whole_waves() {
        let mut gpu = SimulatedGpu::new(30.0);
        let mut s = settings();
        s.wave = 1056;
        let stop = AtomicBool::new(false);
        let r = measure_case(&mut gpu, &s, 1, &stop).unwrap();
        assert_eq!(r.measurement.groups % 1056, 0);
        assert_eq!(r.measurement.dims[0], 1056);
        assert!((15e6..=25e6).contains(&total_ns(&r.measurement)));
    }

    #[test]
    fn noisy_cases_pool_more_samples() {
        struct Noisy(SimulatedGpu, u32);
        impl DispatchTimer for Noisy {
            type Error = String;
            fn time(&mut self, dims: [u32; 3], n: u32) -> Result<Vec<f64>, String> {
                let mut t = self.0.time(dims, n)?;
                for v in &mut t {
                    self.1 = self.1.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    *v *= 1.0 + 0.03 * (f64::from(self.1 >> 16 & 0xff) / 255.0 - 0.5);
                }
                Ok(t)
            }
        }
        let stop = AtomicBool::new(false);
        let mut s = settings();
        s.steady_tolerance = 0.05;
        let mut noisy = Noisy(SimulatedGpu::new(30.0), 1);
        let r = measure_case(&mut noisy, &s, 1, &stop).unwrap();
        assert_eq!(r.measurement.samples_ns.len(), 40, "3 measurements pooled");
        let mut quiet = SimulatedGpu::new(30.0);
        let r = measure_case(&mut quiet, &s, 1, &stop).unwrap();
        assert_eq!(r.measurement.samples_ns.len(), 10);
    }

    #[test]
    fn stop_flag_interrupts() {
        let mut gpu = SimulatedGpu::new(30.0);
        let stop = AtomicBool::new(true);
        assert!(matches!(
            measure_case(&mut gpu, &settings(), 1, &stop),
            Err(LoopError::Interrupted)
        ));
        assert!(gpu.calls.is_empty());
    }

    #[test]
    fn warm_up_runs_until_two_measurements_agree() {
        let mut gpu = SimulatedGpu::new(30.0);
        gpu.start_speed = 0.3;
        gpu.ramp_ns = 100e6;
        let stop = AtomicBool::new(false);
        let (n, ok) = warm_up_clocks(&mut gpu, [6667, 1, 1], 10, 0.01, 50, &stop).unwrap();
        assert!(ok && n > 2, "{n}");
        let mut flat = SimulatedGpu::new(30.0);
        assert_eq!(
            warm_up_clocks(&mut flat, [6667, 1, 1], 10, 0.01, 50, &stop).unwrap(),
            (2, true)
        );
    }
}
