//! Sizing one case's dispatch, and the clock warm-up before the first case.
//!
//! Vocabulary (the book uses the same words):
//! - a **sample** is the GPU time of one timestamped dispatch;
//! - a case's **measurement** is its `samples` dispatches of the same size, sized so that each
//!   takes `target / samples` of GPU time (`--dispatch-ms`, 2 ms: the options make sure of
//!   it, because the time per workgroup depends on the dispatch's size); the `perftest` command's rounds take
//!   them interleaved with the other cases' over the whole run.
//!
//! Per case, single-dispatch *probes* size the dispatch with the seed article's rule, applied to
//! the predicted measurement time (`samples x probe time`): grow x10 while under 2 ms, then
//! scale by target/time. The first probe runs a quarter of the previous case's size; once a
//! probe predicts at least a fifth of the target, one scaling step sizes the measurement.
//!
//! Generic over [`DispatchTimer`] so that it is unit-tested with a simulated GPU.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::derived::NOISY_CV;

pub mod pooling;
use crate::sizing::{
    group_total, growth_threshold, max_total, next_group_count, round_to_waves, split_waves,
    MIN_WAVES,
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
    /// Counted in groups of 256 threads ([`perftest_cases::THREADS_PER_GROUP`]);
    /// [`LoopSettings::for_threads`] gives a case of other groups its own.
    pub wave: u64,
}

impl LoopSettings {
    /// The settings for a case whose size is counted in no waves (`no_waves`: a draw, whose
    /// instances run on the graphics-capable part of the GPU, whose resident count Vulkan does
    /// not report; or an operation, whose "groups" are copies or launches) or in waves (a
    /// compute dispatch).
    pub fn for_kernel(&self, no_waves: bool) -> LoopSettings {
        LoopSettings {
            wave: if no_waves { 0 } else { self.wave },
            ..*self
        }
    }

    /// The settings for a compute case of `threads` threads per group: the wave, known in
    /// groups of 256 threads, becomes `wave * 256 / threads` of the case's groups (the same
    /// resident threads; at least 1 where a wave is known). The original's 256 keeps it.
    pub fn for_threads(&self, threads: u32) -> LoopSettings {
        let base = u64::from(perftest_cases::THREADS_PER_GROUP);
        let wave = match (self.wave, u64::from(threads)) {
            (0, _) | (_, 0) => self.wave,
            (w, t) => (w * base / t).max(1),
        };
        LoopSettings { wave, ..*self }
    }

    /// The settings for a chain (a pointer chase, the shader clock): one workgroup walking as
    /// many blocks as the dispatch counts groups, so no waves, and at most one Z layer of
    /// groups: with the X cap that keeps a walk under 2^32 blocks, the most one dispatch can
    /// count (about 655 million with the default cap, minutes of walking on any GPU). Without
    /// it, a walk that a driver cuts short sizes itself toward the device's group limit.
    pub fn for_chain(&self) -> LoopSettings {
        let [x, y, _] = self.max_count;
        LoopSettings {
            wave: 0,
            max_count: [x, y, 1],
            ..*self
        }
    }
}

/// Relative agreement that counts as steady (2%): two warm-up measurements of the clocks, and
/// the medians of a measurement's halves ([`halves_agree`]). The command's default and the
/// start-up probe's.
pub const STEADY_TOLERANCE: f64 = 0.02;

/// The share of the time its extra groups should add that a measurement's longer dispatches
/// must take over its smaller ones ([`cut_short`]): a quarter. A chain's dispatches are sized
/// to milliseconds, so what every dispatch pays once (microseconds) leaves them nearly all of
/// it (0.84-0.95 of it for lavapipe's clock spin), and a walk the driver cut short grows by
/// none (lavapipe: 0.78-1.02 times the smaller dispatches' median for twice the blocks).
/// Lenient, because a CPU driver's dispatches share the CPU with everything else: the check
/// is for a walk that stopped, not for noise.
pub const MIN_GROWTH_SHARE: f64 = 0.25;

/// Whether the longer dispatches of a measurement with smaller ones
/// ([`Measurement::short`](crate::schema::Measurement::short)) took too little longer for
/// the groups they add: their median over the smaller ones' grew by less than
/// [`MIN_GROWTH_SHARE`] of `groups / short.groups - 1`. A walk's time grows with its blocks;
/// when it does not, the driver ended the walk early (Mesa's lavapipe leaves a loop after
/// 65,535 iterations) and nothing can be derived from it. False without smaller dispatches or
/// without samples, and when the longer dispatches vary by more than [`NOISY_CV`]: then the
/// machine's other work can hide the growth (on a loaded lavapipe a whole walk of 1,500 blocks,
/// varying by 44-58%, once took 1.17 times its half at their fastest), and the case's figure
/// is marked noisy instead.
pub fn cut_short(measurement: &crate::schema::Measurement) -> bool {
    let Some(short) = &measurement.short else {
        return false;
    };
    let long_ns = match Summary::of(&measurement.samples_ns) {
        Some(long) if long.cv <= NOISY_CV => long.median,
        _ => return false,
    };
    let Some(short_ns) = median(&short.samples_ns) else {
        return false;
    };
    if short.groups == 0 || measurement.groups <= short.groups || short_ns <= 0.0 {
        return false;
    }
    let expected = measurement.groups as f64 / short.groups as f64 - 1.0;
    long_ns / short_ns - 1.0 < MIN_GROWTH_SHARE * expected
}

/// Upper bound on sizing probes per case (x10 growth from 1 group reaches 10^12 in 12 steps).
pub const MAX_PROBES: u32 = 16;

/// The first probe of a case uses the previous case's size divided by this.
pub const PROBE_DIVISOR: u64 = 4;

/// A probe shorter than a fifth of the final size but at least this long (50 us) is scaled in
/// proportion to a quarter of the final size for the next probe; shorter ones, dominated by what
/// every dispatch pays once, grow tenfold.
pub const MIN_SCALED_PROBE_NS: f64 = 50_000.0;

/// A probe predicting at least this fraction of the target is scaled from directly.
pub const MIN_PROBE_FRACTION: f64 = 0.2;

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

/// `Err(Interrupted)` once `stop` is raised.
pub fn check_stop<E>(stop: &AtomicBool) -> Result<(), LoopError<E>> {
    if stop.load(Ordering::Relaxed) {
        Err(LoopError::Interrupted)
    } else {
        Ok(())
    }
}

/// The medians of the first and second half of `samples` agree (always true below 2 samples).
pub fn halves_agree(samples: &[f64], tolerance: f64) -> bool {
    if samples.len() < 2 {
        return true;
    }
    let (a, b) = samples.split_at(samples.len() / 2);
    match (median(a), median(b)) {
        (Some(a), Some(b)) => steady(a, b, tolerance),
        _ => false,
    }
}

/// The predicted measurement time from which one scaling step sizes a case: at least a fifth of
/// the target ([`MIN_PROBE_FRACTION`]) and at least the sizing rule's
/// [growth threshold](growth_threshold) (2 ms for targets of 2 ms and more: shorter probes are
/// dominated by what every dispatch pays once). Were the threshold the whole of a shorter
/// target (the start-up probe's), no probe short of it would count and each would grow by one
/// workgroup at a time.
pub fn sized_threshold(target_ns: f64) -> f64 {
    (target_ns * MIN_PROBE_FRACTION).max(growth_threshold(target_ns))
}

/// The dispatch size a case's probes settled on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sizing {
    /// Workgroups per dispatch, X/Y/Z.
    pub dims: [u32; 3],
    /// Single-dispatch probes run.
    pub probes: u32,
}

/// Sizes one case's dispatch so that `samples` of them take about the target, starting from
/// `start_groups` workgroups (the previous case's size): single-dispatch probes grow the size
/// x10 while a probe is under [`MIN_SCALED_PROBE_NS`], are scaled to a quarter of the target
/// while under a fifth of it, then scale it by target / predicted.
pub fn size_case<T: DispatchTimer>(
    timer: &mut T,
    settings: &LoopSettings,
    start_groups: u64,
    stop: &AtomicBool,
) -> Result<Sizing, LoopError<T::Error>> {
    let limit = max_total(settings.max_count, settings.first_dim_cap);
    let samples = settings.samples.max(1);
    // Probe with a quarter of the expected size: cheap, and still large enough to scale from.
    let mut dims = settings.split((start_groups / PROBE_DIVISOR).max(1));
    let mut probes = 0;
    while probes < MAX_PROBES {
        check_stop(stop)?;
        let groups = group_total(dims);
        let times = timer.time(dims, 1).map_err(LoopError::Timer)?;
        probes += 1;
        let Some(&t) = times.first() else { break };
        let predicted = t * f64::from(samples);
        let measurement_ns = settings.target_ns;
        // A probe of at least a fifth of the final size predicts it well enough to scale once.
        let sized = predicted >= sized_threshold(measurement_ns);
        let next = if !sized && t >= MIN_SCALED_PROBE_NS {
            // Long enough to trust its rate, too short to size from: the next probe is a
            // quarter of the final size, not ten times this one (a case a little faster than
            // the one before it would otherwise probe for 2.5 ms or more).
            let quarter = measurement_ns / PROBE_DIVISOR as f64;
            // `as` saturates; at least one group more, at most the device's limit.
            ((groups as f64 * quarter / predicted).round() as u64).clamp(
                groups.saturating_add(1),
                limit.max(groups.saturating_add(1)),
            )
        } else {
            next_group_count(groups, predicted, measurement_ns, limit)
        };
        let next_dims = settings.split(next);
        if next_dims == dims {
            break; // at a limit (one group, or the device maximum)
        }
        dims = next_dims;
        if sized {
            break; // scaled once more from an accurate probe: lands near the target
        }
    }
    Ok(Sizing { dims, probes })
}

/// At most this many untimed dispatches walk a chain before it is timed (with the default
/// settings, 100 ms of GPU time: more nodes than any L2 holds at L2 latency).
pub const MAX_CHAIN_WARM_DISPATCHES: u64 = 50;

/// The untimed dispatches that walk one lap of a chain of `lap` steps when each dispatch runs
/// `per_dispatch` steps (the last of them also re-sizes the case on warm caches): as many as
/// the lap needs, at least 1 and at most [`MAX_CHAIN_WARM_DISPATCHES`].
pub fn chain_warm_dispatches(lap: u64, per_dispatch: u64) -> u32 {
    let laps = lap.div_ceil(per_dispatch.max(1));
    u32::try_from(laps.clamp(1, MAX_CHAIN_WARM_DISPATCHES)).unwrap_or(1)
}

/// The longest lap, in steps, that a chain's dispatches are sized to walk whole
/// ([`lap_floor`]): 2^20 steps, a 128 MB chain of 128-byte nodes, twice the largest L2
/// measured here. Longer chains keep the target size: their steps miss every cache either
/// way, and whole laps of them would take seconds per dispatch.
pub const WHOLE_LAP_MAX_STEPS: u64 = 1 << 20;

/// The share of a lap, as its divisor, that a chain's longer dispatches walk beyond its
/// smaller ones when the lap sets their size ([`lap_floor`]): a quarter.
pub const EXTRA_LAP_DIVISOR: u64 = 4;

/// The least a chain's dispatches walk, in groups: the smaller dispatches a whole lap, the
/// longer ones a lap and a quarter ([`EXTRA_LAP_DIVISOR`]). A dispatch boundary loses cached
/// lines, so every dispatch pays for the lap that refills them; when both dispatches walk at
/// least a lap, that cost is the same in both and cancels in their difference, which then
/// holds only warm steps. Both 0 (no floor) for a chain of no steps or a lap longer than
/// [`WHOLE_LAP_MAX_STEPS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LapFloor {
    /// The fewest groups of the longer (measured) dispatches.
    pub long: u64,
    /// The fewest groups of the smaller dispatches.
    pub short: u64,
}

impl LapFloor {
    /// No floor: dispatches sized by the target alone (an operation, a clock spin).
    pub const NONE: LapFloor = LapFloor { long: 0, short: 0 };
}

/// The [`LapFloor`] of a chain of `lap_steps` steps walked in blocks of `steps_per_group`.
pub fn lap_floor(lap_steps: u64, steps_per_group: u64) -> LapFloor {
    if lap_steps == 0 || lap_steps > WHOLE_LAP_MAX_STEPS {
        return LapFloor::NONE;
    }
    let lap = lap_steps.div_ceil(steps_per_group.max(1));
    LapFloor {
        long: lap + lap.div_ceil(EXTRA_LAP_DIVISOR),
        short: lap,
    }
}

/// The fewest samples a measurement taken alone takes of each of its two dispatch sizes.
pub const MIN_ALONE_SAMPLES: u32 = 3;

/// The samples of a measurement taken alone whose dispatch a lap floor ([`lap_floor`]) made
/// longer than the per-dispatch target, predicted to take `dispatch_ns`: as many as fit the
/// measurement's GPU-time target (rounded), at least [`MIN_ALONE_SAMPLES`] and at most
/// `settings.samples`; `settings.samples` for a time that is not a positive number. A set
/// whose halves then disagree takes the rest of `settings.samples` ([`measure_alone`]).
pub fn alone_samples(settings: &LoopSettings, dispatch_ns: f64) -> u32 {
    let samples = settings.samples.max(1);
    if !(dispatch_ns.is_finite() && dispatch_ns > settings.dispatch_ns()) {
        return samples;
    }
    let fit = (settings.target_ns / dispatch_ns).round() as u32;
    fit.clamp(MIN_ALONE_SAMPLES.min(samples), samples)
}

/// Measures one case alone, with nothing run between its dispatches (for chains, whose caches
/// anything else would evict): `warm` untimed dispatches of `sizing.dims` (in submissions of
/// at most `batch_max`), the last of which sizes the dispatch again on warm caches, then
/// [`alone_samples`] timed dispatches back to back in one submission. Then as many dispatches
/// of about half the groups ([`short_dims`], at least `floor.short`), so that what every
/// dispatch pays once cancels in the difference. Steady when the halves of both sets of
/// samples agree (or, without smaller dispatches, when the samples' median lands within
/// [`SIZE_TOLERANCE`] of the per-dispatch target and the halves agree).
pub fn measure_alone<T: DispatchTimer>(
    timer: &mut T,
    settings: &LoopSettings,
    (sizing, floor): (Sizing, LapFloor),
    warm: u32,
    batch_max: u32,
    stop: &AtomicBool,
) -> Result<crate::schema::Measurement, LoopError<T::Error>> {
    // At least `floor.long` (a chain's laps, [`lap_floor`]) from the start.
    let at_floor = |dims: [u32; 3]| {
        if group_total(dims) < floor.long {
            settings.split(floor.long)
        } else {
            dims
        }
    };
    let sizing = Sizing {
        dims: at_floor(sizing.dims),
        ..sizing
    };
    // The last warm dispatch re-sizes: the probes ran before the walk had filled the caches
    // (a chain that fits the L2 probes at memory latency, several times slower).
    let batch_max = batch_max.max(1);
    let mut left = warm.max(1);
    let mut warm_ns = None;
    while left > 0 {
        check_stop(stop)?;
        let n = left.min(batch_max);
        let times = timer.time(sizing.dims, n).map_err(LoopError::Timer)?;
        warm_ns = times.last().copied();
        left -= n;
    }
    let sized = match warm_ns {
        Some(ns) => settings.rescale(sizing.dims, ns),
        None => sizing.dims,
    };
    let dims = at_floor(sized);
    // Only a floor that set the size takes fewer samples.
    let floored = group_total(sized) < floor.long;
    let predicted_ns = match warm_ns {
        Some(ns) if floored => {
            ns * group_total(dims) as f64 / group_total(sizing.dims).max(1) as f64
        }
        _ => f64::NAN,
    };
    check_stop(stop)?;
    let samples = alone_samples(settings, predicted_ns);
    let mut samples_ns = timer.time(dims, samples).map_err(LoopError::Timer)?;
    let per_dispatch = settings.dispatch_ns();
    let on_target = median(&samples_ns)
        .is_some_and(|m| ((m - per_dispatch) / per_dispatch).abs() <= SIZE_TOLERANCE);
    // Then as many smaller dispatches: what every dispatch pays once (the lap that refills
    // the caches, which each dispatch starts without) cancels in the difference.
    let groups = group_total(dims);
    let mut short = match short_dims(settings, groups, floor.short) {
        Some(short_dims) => {
            check_stop(stop)?;
            let short_ns = timer.time(short_dims, samples).map_err(LoopError::Timer)?;
            Some(crate::schema::ShortDispatches {
                groups: group_total(short_dims),
                dims: short_dims,
                samples_ns: short_ns,
            })
        }
        None => None,
    };
    let mut steady = alone_steady(settings, &samples_ns, short.as_ref(), on_target);
    // Few samples whose halves disagree: the rest of `--samples` of both sizes decide.
    let rest = settings.samples.max(1) - samples;
    if !steady && rest > 0 {
        check_stop(stop)?;
        samples_ns.extend(timer.time(dims, rest).map_err(LoopError::Timer)?);
        if let Some(short) = short.as_mut() {
            check_stop(stop)?;
            let more = timer.time(short.dims, rest).map_err(LoopError::Timer)?;
            short.samples_ns.extend(more);
        }
        steady = alone_steady(settings, &samples_ns, short.as_ref(), on_target);
    }
    Ok(crate::schema::Measurement {
        groups,
        dims,
        steady,
        samples_ns,
        sample_placements: Vec::new(),
        warmup_dispatches: sizing.probes + warm.max(1),
        short,
        seqs: Vec::new(),
        data_places: None,
    })
}

/// Whether a measurement taken alone is steady. With smaller dispatches the figure does not
/// depend on the dispatch's size (what every dispatch pays cancels), so missing the target
/// matters less than both sets of samples agreeing with themselves ([`halves_agree`]);
/// without, the median must also be `on_target`.
fn alone_steady(
    settings: &LoopSettings,
    samples_ns: &[f64],
    short: Option<&crate::schema::ShortDispatches>,
    on_target: bool,
) -> bool {
    let agree = halves_agree(samples_ns, settings.steady_tolerance);
    match short {
        Some(short) => agree && halves_agree(&short.samples_ns, settings.steady_tolerance),
        None => on_target && agree,
    }
}

/// The dimensions of a chain's smaller dispatches: half of `groups` (rounded down, laid out like
/// any dispatch) or `at_least` groups where that is more, or `None` when that leaves no fewer
/// groups than `groups`, or none at all.
pub fn short_dims(settings: &LoopSettings, groups: u64, at_least: u64) -> Option<[u32; 3]> {
    let dims = settings.split((groups / 2).max(at_least).max(1));
    (group_total(dims) < groups).then_some(dims)
}

impl LoopSettings {
    /// The GPU time one measured dispatch is sized for: `target / samples` (the options make
    /// that `--dispatch-ms`, whatever `--samples` and `--target-ms` are).
    pub fn dispatch_ns(&self) -> f64 {
        self.target_ns / f64::from(self.samples.max(1))
    }

    /// `groups` rounded to whole waves (when the wave is known) and laid out over X/Y/Z
    /// within the device's limits.
    pub fn split(&self, groups: u64) -> [u32; 3] {
        let limit = max_total(self.max_count, self.first_dim_cap);
        let g = round_to_waves(groups, self.wave, limit);
        split_waves(g, self.wave, self.max_count, self.first_dim_cap)
    }

    /// `dims` scaled in proportion to take `target / samples` where a dispatch of `dims` took
    /// `ns` (no tenfold growth step: for a dispatch measured long enough to scale from, such as
    /// a chain's, whose time is linear in its blocks); unchanged for a time that is not a
    /// positive finite number.
    pub fn rescale(&self, dims: [u32; 3], ns: f64) -> [u32; 3] {
        let per_dispatch = self.dispatch_ns();
        if !(ns.is_finite() && ns > 0.0) {
            return dims;
        }
        let scaled = (group_total(dims) as f64 * per_dispatch / ns)
            .round()
            .max(1.0);
        // `as` saturates; `split` clamps to the device's limits.
        self.split(scaled as u64)
    }

    /// `dims`, or [`MIN_WAVES`] waves when the wave is known and `dims` holds fewer (within
    /// the device's limits). For the interleaved cases; a chain keeps its size, since its
    /// smaller dispatches need half of it.
    pub fn at_least_waves(&self, dims: [u32; 3]) -> [u32; 3] {
        let floor = self.wave.saturating_mul(MIN_WAVES);
        if self.wave > 1 && group_total(dims) < floor {
            self.split(floor)
        } else {
            dims
        }
    }

    /// The size a case's first recorded dispatch (of `dims`, taking `ns`) says the case should
    /// have instead, or `None` to keep `dims`. Never fewer than [`MIN_WAVES`] waves.
    ///
    /// With whole waves known ([`LoopSettings::wave`]): the size [`Self::rescale`] gives, when
    /// that is another number of waves and the time is off the target by more than half a wave
    /// plus 1% (so that a size on the edge between two counts does not flip back and forth). The
    /// probes size from smaller dispatches, whose time per workgroup is a little higher, and
    /// can land one wave short; a case whose figure depends on its wave count (some do, by up
    /// to 0.8%) would then move between runs. Otherwise: [`Self::rescale`], when
    /// the time is more than [`SIZE_TOLERANCE`] off.
    pub fn corrected_size(&self, dims: [u32; 3], ns: f64) -> Option<[u32; 3]> {
        let target = self.dispatch_ns();
        let off = (ns / target - 1.0).abs();
        if !off.is_finite() {
            return None;
        }
        let groups = group_total(dims);
        let new = if self.wave > 1 && groups >= self.wave && groups % self.wave == 0 {
            let waves = (groups / self.wave) as f64;
            (off > 0.5 / waves + 0.01).then(|| self.rescale(dims, ns))
        } else {
            (off > SIZE_TOLERANCE).then(|| self.rescale(dims, ns))
        };
        new.map(|d| self.at_least_waves(d)).filter(|&d| d != dims)
    }
}

/// Keeps the GPU busy with `timer` until two consecutive measurements of `dims` agree within
/// `tolerance`, once at least `min_busy_ns` of measured time has passed, at most
/// `max_measurements` times. Returns (measurements run, steady reached). Run once before the
/// first case so the clocks have ramped up. The minimum matters after the GPU idled for
/// seconds (a transfer run's verification): a GPU may then stay at its idle clock long enough
/// for two measurements to agree there.
pub fn warm_up_clocks<T: DispatchTimer>(
    timer: &mut T,
    dims: [u32; 3],
    samples: u32,
    (tolerance, min_busy_ns): (f64, f64),
    max_measurements: u32,
    stop: &AtomicBool,
) -> Result<(u32, bool), LoopError<T::Error>> {
    let mut previous = None;
    let mut busy = 0.0;
    for n in 1..=max_measurements {
        check_stop(stop)?;
        let times = timer.time(dims, samples.max(1)).map_err(LoopError::Timer)?;
        busy += times.iter().sum::<f64>();
        let m = median(&times);
        if let (Some(a), Some(b)) = (previous, m) {
            if busy >= min_busy_ns && steady(a, b, tolerance) {
                return Ok((n, true));
            }
        }
        previous = m;
    }
    Ok((max_measurements, false))
}

/// Most measurements spent warming the clocks up before the first case (about 1 s at 20 ms).
pub const CLOCK_WARMUP_MAX: u32 = 50;

/// The longest the initial clock warm-up is made to run before it may stop (see
/// [`warm_up_clocks`] and [`warm_up_min_ns`]): 200 ms of measured time, as long as the ramp the
/// seed article saw.
pub const CLOCK_WARMUP_MIN_NS: f64 = 200e6;

/// The measured time the initial clock warm-up runs at least, after the GPU did little for
/// `idle` (the pipeline and verification phases): as long as that, at most
/// [`CLOCK_WARMUP_MIN_NS`].
///
/// Why: after seconds of idling a GPU may stay at its idle clock through two agreeing
/// measurements, while after a short idle a short warm-up suffices. The measurement chapter
/// gives the runs behind this.
pub fn warm_up_min_ns(idle: std::time::Duration) -> f64 {
    (idle.as_nanos() as f64).min(CLOCK_WARMUP_MIN_NS)
}

/// Tolerance of the initial clock warm-up: two consecutive measurements within 1%.
pub const CLOCK_WARMUP_TOLERANCE: f64 = 0.01;

#[cfg(test)]
mod tests {
    use super::*;

    /// The warm-up runs at least as long as the GPU did little before it, up to 200 ms.
    #[test]
    fn the_warm_up_minimum_follows_the_idle_time() {
        let ms = |n: u64| warm_up_min_ns(std::time::Duration::from_millis(n));
        // The original suite's phases on a warm machine: 60 ms.
        assert_eq!(ms(60), 60e6);
        // Seconds of host work (a transfer run's verification), or a first launch's pipeline
        // builds: the whole 200 ms.
        assert_eq!(ms(3_000), CLOCK_WARMUP_MIN_NS);
        assert_eq!(ms(810), CLOCK_WARMUP_MIN_NS);
        assert_eq!(ms(0), 0.0);
        assert!(ms(199) < ms(200) && ms(200) == ms(201));
    }

    use crate::schema::Measurement;

    /// A simulated GPU: each group takes `ns_per_group` at full clock; the clock ramps from
    /// `start_speed` to 1.0 over `ramp_ns` of busy time; each dispatch costs `overhead_ns`.
    struct SimulatedGpu {
        ns_per_group: f64,
        overhead_ns: f64,
        start_speed: f64,
        /// Busy time spent at `start_speed` before the ramp begins.
        idle_ns: f64,
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
                idle_ns: 0.0,
                ramp_ns: 0.0,
                busy_ns: 0.0,
                calls: Vec::new(),
            }
        }
        fn speed(&self) -> f64 {
            if self.busy_ns >= self.ramp_ns {
                1.0
            } else if self.busy_ns < self.idle_ns {
                self.start_speed
            } else {
                let ramp = (self.busy_ns - self.idle_ns) / (self.ramp_ns - self.idle_ns);
                self.start_speed + (1.0 - self.start_speed) * ramp
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

    /// GPU time of `samples` dispatches of the sized case on `gpu` at full speed.
    fn measurement_ns(gpu: &SimulatedGpu, sizing: &Sizing) -> f64 {
        10.0 * (gpu.overhead_ns + group_total(sizing.dims) as f64 * gpu.ns_per_group)
    }

    #[test]
    fn a_wave_counts_the_groups_of_the_case() {
        let s = LoopSettings {
            wave: 1056,
            ..settings()
        };
        assert_eq!(s.for_threads(256), s);
        assert_eq!(s.for_threads(64).wave, 4224);
        assert_eq!(s.for_threads(32).wave, 8448);
        assert_eq!(s.for_threads(1024).wave, 264);
        // Unknown stays unknown; a tiny wave keeps at least one group.
        assert_eq!(settings().for_threads(64).wave, 0);
        let tiny = LoopSettings { wave: 1, ..s };
        assert_eq!(tiny.for_threads(1024).wave, 1);
    }

    #[test]
    fn a_first_dispatch_a_wave_short_is_corrected() {
        let s = LoopSettings {
            wave: 1056,
            ..settings()
        };
        let per_wave = 133_000.0; // ns: 15.04 waves make the 2 ms
        let dims = |waves: u64| s.split(waves * 1056);
        // Sized a wave short: 1.86 ms, 7% off, more than half a wave (3.6%) plus 1%.
        assert_eq!(s.corrected_size(dims(14), 14.0 * per_wave), Some(dims(15)));
        // On target, or a little off: kept.
        assert_eq!(s.corrected_size(dims(15), 15.0 * per_wave), None);
        assert_eq!(s.corrected_size(dims(15), 15.0 * per_wave * 1.03), None);
        // Slow waves held at the floor of eight are not re-sized toward 2 ms.
        assert_eq!(s.corrected_size(dims(8), 6e6), None);
        assert_eq!(s.corrected_size(dims(9), 2.6e6 * 9.0 / 2.0), Some(dims(8)));
        // Far off: re-sized in proportion.
        assert_eq!(s.corrected_size(dims(30), 4e6), Some(dims(15)));
        assert_eq!(s.corrected_size(dims(15), 4e6), Some(dims(8)));
        // The floor: fewer than eight waves become eight; more, or no wave known, stay.
        assert_eq!(s.at_least_waves(dims(3)), dims(8));
        assert_eq!(s.at_least_waves(dims(9)), dims(9));
        assert_eq!(settings().at_least_waves([3, 1, 1]), [3, 1, 1]);
        assert_eq!(s.corrected_size(dims(15), f64::NAN), None);
        // Without a wave: the 25% rule.
        let plain = settings();
        assert_eq!(
            plain.corrected_size([10_000, 66, 1], 2.2e6 * 10.0 / 10.0),
            None
        );
        assert!(plain.corrected_size([10_000, 66, 1], 20e6).is_some());
    }

    #[test]
    fn the_sized_threshold_is_unchanged_from_2_ms_and_a_fifth_below() {
        assert_eq!(sized_threshold(20e6), 4e6);
        assert_eq!(sized_threshold(5e6), 2e6);
        assert_eq!(sized_threshold(2e6), 2e6);
        assert_eq!(sized_threshold(1.5e6), 0.3e6);
    }

    /// A target below 2 ms (the start-up probe's 3 x 0.5 ms) is reached in a few probes, not
    /// by growing one workgroup per probe up to the probe limit.
    #[test]
    fn a_short_target_is_sized_in_few_probes() {
        // Twice as fast as the previous case, which took 2,000 groups.
        let mut gpu = SimulatedGpu::new(500.0);
        let mut s = settings();
        s.target_ns = 1.5e6;
        s.samples = 3;
        let stop = AtomicBool::new(false);
        let sizing = size_case(&mut gpu, &s, 2_000, &stop).unwrap();
        assert!(sizing.probes <= 3, "{} probes", sizing.probes);
        let per_dispatch = gpu.overhead_ns + group_total(sizing.dims) as f64 * gpu.ns_per_group;
        assert!(
            (per_dispatch / 0.5e6 - 1.0).abs() < 0.1,
            "{per_dispatch} ns, {:?}",
            sizing
        );
    }

    #[test]
    fn converges_from_one_group_to_the_target() {
        let mut gpu = SimulatedGpu::new(30.0); // a fast GPU: 30 ns per group
        let stop = AtomicBool::new(false);
        let sizing = size_case(&mut gpu, &settings(), 1, &stop).unwrap();
        let t = measurement_ns(&gpu, &sizing);
        assert!((15e6..=25e6).contains(&t), "measurement would take {t} ns");
        assert!(sizing.probes <= 8, "{} probes", sizing.probes);
        // Growth was tenfold while tiny.
        assert_eq!(group_total(gpu.calls[1].0), 10);
        assert!(
            gpu.calls.iter().all(|&(_, n)| n == 1),
            "probes are single dispatches"
        );
    }

    #[test]
    fn starting_from_the_previous_size_is_cheap() {
        let mut gpu = SimulatedGpu::new(30.0);
        let stop = AtomicBool::new(false);
        let first = size_case(&mut gpu, &settings(), 1, &stop).unwrap();
        let mut similar = SimulatedGpu::new(33.0);
        let second = size_case(&mut similar, &settings(), group_total(first.dims), &stop).unwrap();
        assert_eq!(second.probes, 1);
        assert!((15e6..=25e6).contains(&measurement_ns(&similar, &second)));
    }

    /// A case faster than the one before it probes a quarter of the final size next, not ten
    /// times its first probe.
    #[test]
    fn a_short_probe_is_scaled_not_grown_tenfold() {
        let mut gpu = SimulatedGpu::new(30.0);
        gpu.overhead_ns = 0.0;
        let s = LoopSettings {
            target_ns: 12e6,
            samples: 6,
            ..settings()
        };
        let stop = AtomicBool::new(false);
        // The previous case's size is a quarter of this one's: 2 ms is 66,667 groups here, and
        // a quarter of 16,667 groups is a first probe of 0.125 ms (a sixteenth of the dispatch).
        let sizing = size_case(&mut gpu, &s, 16_667, &stop).unwrap();
        assert_eq!(sizing.probes, 2, "{:?}", gpu.calls);
        let probe_ns: f64 = gpu
            .calls
            .iter()
            .map(|(dims, n)| group_total(*dims) as f64 * 30.0 * f64::from(*n))
            .sum();
        assert!(
            probe_ns < 0.7e6,
            "probes took {probe_ns} ns: {:?}",
            gpu.calls
        );
        let per_dispatch = group_total(sizing.dims) as f64 * 30.0;
        assert!((per_dispatch / 2e6 - 1.0).abs() < 0.01, "{per_dispatch}");
    }

    #[test]
    fn slow_groups_stop_at_one_group() {
        // One group takes 6.5 ms (software texture filtering): cannot go below one group.
        let mut gpu = SimulatedGpu::new(6.5e6);
        let stop = AtomicBool::new(false);
        let sizing = size_case(&mut gpu, &settings(), 1000, &stop).unwrap();
        assert_eq!(group_total(sizing.dims), 1);
    }

    #[test]
    fn never_exceeds_device_limits() {
        let mut gpu = SimulatedGpu::new(0.001); // absurdly fast: wants ~2e9 groups per dispatch
        let mut s = settings();
        s.max_count = [100, 10, 5];
        let stop = AtomicBool::new(false);
        let sizing = size_case(&mut gpu, &s, 1, &stop).unwrap();
        for (dims, _) in &gpu.calls {
            assert!(dims[0] <= 100 && dims[1] <= 10 && dims[2] <= 5, "{dims:?}");
        }
        assert_eq!(group_total(sizing.dims), 5000);
        assert_eq!(s.rescale(sizing.dims, 1.0), [100, 10, 5]);
    }

    #[test]
    fn known_wave_size_gives_whole_waves() {
        let mut gpu = SimulatedGpu::new(30.0);
        let mut s = settings();
        s.wave = 1056;
        let stop = AtomicBool::new(false);
        let sizing = size_case(&mut gpu, &s, 1, &stop).unwrap();
        assert_eq!(group_total(sizing.dims) % 1056, 0);
        assert_eq!(sizing.dims[0], 1056);
        assert!((15e6..=25e6).contains(&measurement_ns(&gpu, &sizing)));
        // Re-sizing keeps whole waves.
        assert_eq!(group_total(s.rescale(sizing.dims, 4e6)) % 1056, 0);
    }

    #[test]
    fn rescaling_is_proportional() {
        let s = settings();
        // 2 ms per dispatch: 1000 groups that took 0.8 ms become 2500, with no tenfold step.
        assert_eq!(group_total(s.rescale([1000, 1, 1], 0.8e6)), 2500);
        assert_eq!(group_total(s.rescale([1000, 1, 1], 4e6)), 500);
        assert_eq!(s.rescale([7, 1, 1], f64::NAN), [7, 1, 1]);
        assert_eq!(s.rescale([7, 1, 1], 0.0), [7, 1, 1]);
        assert_eq!(group_total(s.rescale([1, 1, 1], 1e12)), 1);
    }

    #[test]
    fn short_dispatches_have_half_the_groups() {
        let s = settings();
        assert_eq!(short_dims(&s, 2000, 0).map(group_total), Some(1000));
        assert_eq!(short_dims(&s, 3, 0).map(group_total), Some(1));
        assert_eq!(short_dims(&s, 1, 0), None);
        // A lap's floor wins over half, as long as it stays below the longer dispatch.
        assert_eq!(short_dims(&s, 2000, 1600).map(group_total), Some(1600));
        assert_eq!(short_dims(&s, 2000, 2000), None);
    }

    #[test]
    fn a_chain_warms_up_for_about_one_lap() {
        assert_eq!(chain_warm_dispatches(0, 1000), 1);
        assert_eq!(chain_warm_dispatches(32, 1000), 1);
        assert_eq!(chain_warm_dispatches(5000, 1000), 5);
        assert_eq!(chain_warm_dispatches(4 << 20, 14_000), 50);
        assert_eq!(chain_warm_dispatches(10, 0), 10);
    }

    #[test]
    fn measuring_alone_drops_the_warm_dispatches() {
        let mut gpu = SimulatedGpu::new(1000.0);
        let s = settings();
        let sizing = Sizing {
            dims: [2000, 1, 1],
            probes: 3,
        };
        let stop = AtomicBool::new(false);
        let m = measure_alone(&mut gpu, &s, (sizing, LapFloor::NONE), 7, 4, &stop).unwrap();
        assert_eq!(m.samples_ns.len(), s.samples as usize);
        let counts: Vec<u32> = gpu.calls.iter().map(|&(_, n)| n).collect();
        assert_eq!(counts, [4, 3, s.samples, s.samples]);
        // The short dispatches: half the groups, as many samples; the difference of the medians
        // is the time of the other half alone, without the 5 us every dispatch pays.
        let short = m.short.as_ref().unwrap();
        assert_eq!(short.groups, m.groups / 2);
        assert_eq!(short.samples_ns.len(), s.samples as usize);
        let long = m.samples_ns[0];
        let per_group = (long - short.samples_ns[0]) / (m.groups - short.groups) as f64;
        assert!((per_group - 1000.0).abs() < 1e-6, "{per_group}");
        assert!((long / m.groups as f64 - 1000.0) > 2.0);
        assert_eq!(m.warmup_dispatches, 10);
        // 2000 groups x 1000 ns is the 2 ms per-dispatch target already: the warm re-size keeps
        // it (up to the 5 us dispatch overhead).
        assert!((1990..=2000).contains(&m.groups), "{}", m.groups);
        assert!(m.steady);
        // Sized on a probe twice as slow as the warm walk: the warm re-size doubles it.
        let mut gpu = SimulatedGpu::new(1000.0);
        let short = Sizing {
            dims: [1000, 1, 1],
            probes: 3,
        };
        let m = measure_alone(&mut gpu, &s, (short, LapFloor::NONE), 2, 4, &stop).unwrap();
        assert!((1990..=2000).contains(&m.groups), "{}", m.groups);
        assert!(m.steady);
        let stopped = AtomicBool::new(true);
        assert!(matches!(
            measure_alone(&mut gpu, &s, (sizing, LapFloor::NONE), 1, 4, &stopped),
            Err(LoopError::Interrupted)
        ));
    }

    #[test]
    fn stop_flag_interrupts() {
        let mut gpu = SimulatedGpu::new(30.0);
        let stop = AtomicBool::new(true);
        assert!(matches!(
            size_case(&mut gpu, &settings(), 1, &stop),
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
        let (n, ok) = warm_up_clocks(&mut gpu, [6667, 1, 1], 10, (0.01, 0.0), 50, &stop).unwrap();
        assert!(ok && n > 2, "{n}");
        let mut flat = SimulatedGpu::new(30.0);
        assert_eq!(
            warm_up_clocks(&mut flat, [6667, 1, 1], 10, (0.01, 0.0), 50, &stop).unwrap(),
            (2, true)
        );
    }

    #[test]
    fn a_minimum_busy_time_outlasts_a_clock_that_waits_before_it_ramps() {
        // Idle at 345 of 1980 MHz for 100 ms of work, then a 50 ms ramp.
        let gpu = || {
            let mut g = SimulatedGpu::new(30.0);
            g.start_speed = 345.0 / 1980.0;
            g.idle_ns = 100e6;
            g.ramp_ns = 150e6;
            g
        };
        let stop = AtomicBool::new(false);
        let mut hasty = gpu();
        let (n, ok) = warm_up_clocks(&mut hasty, [6667, 1, 1], 1, (0.01, 0.0), 50, &stop).unwrap();
        assert!(ok && n == 2 && hasty.speed() < 0.2, "{n} {}", hasty.speed());
        let mut patient = gpu();
        let (n, ok) =
            warm_up_clocks(&mut patient, [6667, 1, 1], 10, (0.01, 200e6), 50, &stop).unwrap();
        assert!(
            ok && n > 2 && patient.speed() == 1.0,
            "{n} {}",
            patient.speed()
        );
    }

    #[test]
    fn a_chain_walks_whole_laps_up_to_the_longest_lap() {
        // 40 MB of 128-byte nodes in blocks of 256 steps: 1280 blocks a lap.
        let floor = lap_floor(40 << 13, 256);
        assert_eq!(
            floor,
            LapFloor {
                long: 1600,
                short: 1280
            }
        );
        assert_eq!(lap_floor(100, 256), LapFloor { long: 2, short: 1 });
        assert_eq!(lap_floor(0, 256), LapFloor::NONE);
        assert_eq!(lap_floor(WHOLE_LAP_MAX_STEPS + 1, 256), LapFloor::NONE);
        // measure_alone keeps both floors even where the target asks for less, and takes as
        // few samples as fit the target (at least three) when the floor makes dispatches long.
        let mut gpu = SimulatedGpu::new(30.0);
        let s = settings();
        let stop = AtomicBool::new(false);
        let (sizing, floor) = (TINY_SIZING, LONG_FLOOR);
        let m = measure_alone(&mut gpu, &s, (sizing, floor), 1, 4, &stop).unwrap();
        assert!(m.groups >= 500_000, "{}", m.groups);
        let short = m.short.as_ref().map_or(0, |s| s.groups);
        assert_eq!(short, 400_000);
        assert_eq!(m.samples_ns.len(), MIN_ALONE_SAMPLES as usize);
        assert_eq!(m.warmup_dispatches, 2);
        // The difference of the two sizes' medians is the walk's own time per group.
        let extra = (median(&m.samples_ns).unwrap()
            - median(&m.short.as_ref().unwrap().samples_ns).unwrap())
            / (m.groups - short) as f64;
        assert!((extra - 30.0).abs() < 1e-6, "{extra}");
        assert!(!cut_short(&m));
    }

    /// A chain sized by its probes to 10 groups, far below its lap floor.
    const TINY_SIZING: Sizing = Sizing {
        dims: [10, 1, 1],
        probes: 1,
    };

    /// A lap floor whose dispatches take far longer than the target (15 ms at 30 ns a group).
    const LONG_FLOOR: LapFloor = LapFloor {
        long: 500_000,
        short: 400_000,
    };

    /// A walk of `ns_per_group` whose first timed set of `samples` long dispatches starts 10%
    /// slow (so its halves disagree), then steady.
    struct FirstSetSlow {
        ns_per_group: f64,
        calls: Vec<(u64, u32)>,
        slow_left: bool,
    }

    impl DispatchTimer for FirstSetSlow {
        type Error = ();
        fn time(&mut self, dims: [u32; 3], n: u32) -> Result<Vec<f64>, ()> {
            let groups = group_total(dims);
            self.calls.push((groups, n));
            let mut times = vec![groups as f64 * self.ns_per_group; n as usize];
            if self.calls.len() == 2 && self.slow_left {
                times[0] *= 1.1;
                self.slow_left = false;
            }
            Ok(times)
        }
    }

    #[test]
    fn few_samples_that_disagree_take_the_rest() {
        let s = settings();
        let stop = AtomicBool::new(false);
        let (sizing, floor) = (TINY_SIZING, LONG_FLOOR);
        let mut gpu = FirstSetSlow {
            ns_per_group: 30.0,
            calls: Vec::new(),
            slow_left: true,
        };
        let m = measure_alone(&mut gpu, &s, (sizing, floor), 1, 4, &stop).unwrap();
        // Warm, three long, three short, then seven more of each.
        let counts: Vec<u32> = gpu.calls.iter().map(|&(_, n)| n).collect();
        assert_eq!(counts, [1, 3, 3, 7, 7]);
        assert_eq!(m.samples_ns.len(), s.samples as usize);
        assert_eq!(
            m.short.as_ref().unwrap().samples_ns.len(),
            s.samples as usize
        );
        assert!(m.steady);
        // Steady at once: three of each only.
        let mut calm = FirstSetSlow {
            ns_per_group: 30.0,
            calls: Vec::new(),
            slow_left: false,
        };
        measure_alone(&mut calm, &s, (sizing, floor), 1, 4, &stop).unwrap();
        assert_eq!(calm.calls.len(), 3);
    }

    #[test]
    fn a_long_dispatch_takes_the_samples_that_fit_the_target() {
        let s = settings();
        let per = s.dispatch_ns();
        assert_eq!(alone_samples(&s, per), s.samples);
        assert_eq!(alone_samples(&s, f64::NAN), s.samples);
        assert_eq!(alone_samples(&s, s.target_ns / 4.0), 4.min(s.samples));
        // Rounded: 20 ms in 3.1 ms dispatches is six.
        assert_eq!(alone_samples(&s, 3.1e6), 6);
        assert_eq!(alone_samples(&s, s.target_ns * 10.0), MIN_ALONE_SAMPLES);
        let one = LoopSettings { samples: 1, ..s };
        assert_eq!(alone_samples(&one, s.target_ns * 10.0), 1);
    }

    fn chain(groups: u64, long_ns: f64, short_groups: u64, short_ns: f64) -> Measurement {
        Measurement {
            groups,
            dims: [groups as u32, 1, 1],
            samples_ns: vec![long_ns; 6],
            sample_placements: Vec::new(),
            warmup_dispatches: 0,
            steady: true,
            short: Some(crate::schema::ShortDispatches {
                groups: short_groups,
                dims: [short_groups as u32, 1, 1],
                samples_ns: vec![short_ns; 6],
            }),
            seqs: Vec::new(),
            data_places: None,
        }
    }

    /// lavapipe's 4 KB chase at --dispatch-ms 5 (a whole walk) and 10 (cut at 65,535 loop
    /// iterations: twice the blocks took no longer).
    #[test]
    fn a_walk_that_does_not_grow_with_its_blocks_was_cut_short() {
        // Medians count: a few disturbed smaller dispatches do not hide a whole walk.
        let mut disturbed = chain(2000, 1.9e6, 1000, 1.0e6);
        if let Some(short) = disturbed.short.as_mut() {
            short.samples_ns = vec![1.8e6, 1.0e6, 1.0e6, 1.9e6, 1.0e6, 1.0e6];
        }
        assert!(!cut_short(&disturbed));
        // Longer dispatches varying by more than 5% cannot tell (the figure is marked noisy):
        // a loaded lavapipe's whole walk of 1,500 blocks, 1.17 times its half at their fastest.
        let mut loaded = chain(1500, 2.016e6, 750, 1.730e6);
        loaded.samples_ns = vec![2.016e6, 3.1e6, 2.4e6, 4.0e6, 2.2e6, 2.9e6];
        assert!(!cut_short(&loaded));
        loaded.samples_ns = vec![2.016e6; 6];
        assert!(cut_short(&loaded), "steady dispatches are judged");
        // lavapipe's cut walk of 50,958 blocks: steady longer dispatches, noisier smaller ones.
        let mut cut = chain(50_958, 5.28e6, 25_479, 5.33e6);
        cut.samples_ns = vec![
            5576228.0, 5181104.0, 5269547.0, 5133242.0, 5434925.0, 5285851.0,
        ];
        if let Some(short) = cut.short.as_mut() {
            short.samples_ns = vec![
                5203497.0, 5254043.0, 5411419.0, 5490348.0, 5456298.0, 4551177.0,
            ];
        }
        assert!(cut_short(&cut));
        assert!(!cut_short(&chain(3114, 4.86e6, 1557, 2.36e6)));
        assert!(cut_short(&chain(19_098, 4.26e6, 9549, 4.43e6)));
        // A quarter of the growth is the line: 1.25x for twice the blocks.
        assert!(!cut_short(&chain(2000, 1.26e6, 1000, 1.0e6)));
        assert!(cut_short(&chain(2000, 1.24e6, 1000, 1.0e6)));
        // Three times the blocks should take about three times as long.
        assert!(cut_short(&chain(3000, 1.49e6, 1000, 1.0e6)));
        assert!(!cut_short(&chain(3000, 1.51e6, 1000, 1.0e6)));
    }

    #[test]
    fn without_smaller_dispatches_nothing_is_cut_short() {
        let mut m = chain(2000, 1.0e6, 1000, 1.0e6);
        m.short = None;
        assert!(!cut_short(&m));
        let mut empty = chain(2000, 1.0e6, 1000, 1.0e6);
        empty.samples_ns.clear();
        assert!(!cut_short(&empty));
        assert!(!cut_short(&chain(1000, 1.0e6, 1000, 1.0e6)));
        assert!(!cut_short(&chain(2000, 1.0e6, 0, 1.0e6)));
    }

    #[test]
    fn a_chain_stays_under_two_to_the_32_blocks() {
        let s = LoopSettings {
            wave: 1056,
            max_count: [2_147_483_647, 65535, 65535],
            ..settings()
        };
        let chain = s.for_chain();
        assert_eq!(chain.wave, 0);
        let most = chain.split(u64::MAX);
        assert!(group_total(most) <= u64::from(u32::MAX), "{most:?}");
        // What a runaway sizing asked for on lavapipe: [9999, 63296, 19].
        assert_eq!(chain.split(9999 * 63296 * 19)[2], 1);
    }
}
