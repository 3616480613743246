//! A time-budgeted probe for engines: measure a set of cases within a wall-time budget and
//! summarise which resource type is fastest per access pattern and load width.
//!
//! Pipeline creation is the slow part of a first launch (an empty driver cache), so the probe
//! builds pipelines on worker threads in [priority order](priority) while the calling thread
//! measures each one as soon as it is ready: the answer improves with every pipeline, and what
//! the budget did not reach is reported per case with the reason.
//!
//! It measures with the `perftest` command's policy ([`perftest_report::policy`]: the same
//! sizing probes, clock warm-up and median), with smaller settings (a few 0.5 ms dispatches per
//! case, warm-up bounded by a share of the budget) and without the command's interleaved rounds.

mod priority;
mod report;
mod timeline;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

use perftest_cases::{Case, Support, LOADS_PER_THREAD};
use perftest_report::policy::STEADY_TOLERANCE;

use crate::bench::{time_kernel, Bench, MAX_DISPATCHES_PER_SUBMIT};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::kernels::{Kernel, PipelineBuilder};
use crate::pipeline_cache::{PipelineCacheSource, ProbeCache};
use crate::report::DataPlaces;
use crate::resources::Resources;
use perftest_report::places::{choose_place, PlaceTimer};
use perftest_report::policy::{size_case, warm_up_clocks, DispatchTimer, LoopError, LoopSettings};
use perftest_report::sizing::{group_total, split_waves, DEFAULT_FIRST_DIM_CAP};
use perftest_report::statistics::median;

pub use report::{CaseThroughput, LeftOut, LeftOutReason, ProbeReport, Ranking};
pub use timeline::{ProbeTimeline, Span};

use priority::priority_order;

/// The most threads that build the probe's pipelines (12: each of the six rankings' two
/// likeliest winners at once, which is what a cold driver cache on a fresh machine needs to
/// compare them within the budget).
pub const MAX_BUILD_THREADS: usize = 12;

/// Settings of [`Bench::probe`].
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeSettings {
    /// Wall time allowed for the probe: pipeline creation, sizing, warm-up and measurement.
    /// No pipeline build or measurement starts once it would end after the budget; builds
    /// already running are waited for (so the probe can overrun by one pipeline build).
    pub budget: Duration,
    /// GPU time one timed dispatch should take.
    pub dispatch_target: Duration,
    /// Timed dispatches per case; the median is reported.
    pub dispatches: u32,
    /// Share of the budget the first case may spend waiting for steady clocks.
    pub warmup_share: f64,
    /// Threads building pipelines; `None`: the available cores, at most 12.
    pub build_threads: Option<usize>,
    /// When the budget ran out before any case was measured, measure the first ready one
    /// anyway (so the report is never empty while a pipeline could be built).
    pub measure_at_least_one: bool,
    /// Where pipelines are cached between launches.
    pub pipeline_cache: PipelineCacheSource,
    /// While waiting for pipelines, keep dispatching the last measured case so the GPU clocks
    /// stay up. `None`: yes, except on CPU devices (where it would slow the builds down).
    pub keep_warm: Option<bool>,
}

impl Default for ProbeSettings {
    /// 250 ms budget, 0.5 ms dispatches, 3 per case, up to 25% of the budget for warm-up,
    /// automatic build threads, at least one case measured, no pipeline cache, clocks kept
    /// warm on GPUs.
    fn default() -> Self {
        ProbeSettings {
            budget: Duration::from_millis(250),
            dispatch_target: Duration::from_micros(500),
            dispatches: 3,
            warmup_share: 0.25,
            build_threads: None,
            measure_at_least_one: true,
            pipeline_cache: PipelineCacheSource::None,
            keep_warm: None,
        }
    }
}

/// One built kernel timed on the probe's context, as the shared measurement policy
/// ([`perftest_report::policy`]) asks: its dispatches ([`DispatchTimer`]), and its data moved
/// between places in `resources` ([`PlaceTimer`], for [`choose_place`]). Past `until`, each
/// timing raises `stop`, so the policy's loops end at their next step instead of overrunning
/// the budget.
struct ProbeTimer<'a> {
    ctx: &'a mut Context,
    kernel: &'a mut Kernel,
    resources: &'a Resources,
    until: Option<Instant>,
    stop: &'a AtomicBool,
}

impl DispatchTimer for ProbeTimer<'_> {
    type Error = Error;

    fn time(&mut self, dims: [u32; 3], dispatches: u32) -> Result<Vec<f64>> {
        let times = time_kernel(self.ctx, self.kernel, dims, dispatches)?;
        if self.until.is_some_and(|until| Instant::now() >= until) {
            self.stop.store(true, Ordering::SeqCst);
        }
        Ok(nanoseconds(&times))
    }
}

impl PlaceTimer for ProbeTimer<'_> {
    fn places(&self) -> usize {
        self.resources
            .data_places(&self.kernel.case)
            .map_or(1, |p| p.len())
    }

    fn put(&mut self, place: usize) -> Result<()> {
        self.kernel
            .put_data(&self.ctx.device, self.resources, place)
    }
}

/// The policy's loop settings for the probe: `dispatches` samples of `target` each, on the
/// device's limits and wave.
fn loop_settings(ctx: &Context, target: Duration, dispatches: u32) -> LoopSettings {
    let device = ctx.target();
    LoopSettings {
        target_ns: target.as_secs_f64() * 1e9 * f64::from(dispatches.max(1)),
        samples: dispatches.max(1),
        warmup_max: u32::MAX,
        steady_tolerance: STEADY_TOLERANCE,
        max_count: device.max_compute_work_group_count,
        first_dim_cap: DEFAULT_FIRST_DIM_CAP,
        wave: device.resident_workgroups.map_or(0, u64::from),
    }
}

/// A policy loop's outcome as the probe's: a failed dispatch is the error; a stop (the
/// budget ran out) is `None`.
fn finished<T>(outcome: std::result::Result<T, LoopError<Error>>) -> Result<Option<T>> {
    match outcome {
        Ok(value) => Ok(Some(value)),
        Err(LoopError::Timer(e)) => Err(e),
        Err(LoopError::Interrupted) => Ok(None),
    }
}

/// Sizes `kernel`'s dispatch with the shared policy, starting from `groups` workgroups (the
/// previous case's size); where its data has several places, probes them and leaves it at the
/// chosen one (`perftest_report::places`); then times `dispatches` dispatches of that size.
/// Returns the size, each dispatch's GPU time in nanoseconds and where the data lay.
fn measure_sized(
    ctx: &mut Context,
    (kernel, resources): (&mut Kernel, &Resources),
    groups: u64,
    target: Duration,
    dispatches: u32,
) -> Result<SizedKernel> {
    let settings = loop_settings(ctx, target, dispatches);
    let never = AtomicBool::new(false);
    let mut timer = ProbeTimer {
        ctx,
        kernel,
        resources,
        until: None,
        stop: &never,
    };
    let dims = finished(size_case(&mut timer, &settings, groups.max(1), &never))?
        .map_or_else(|| settings.split(groups.max(1)), |sizing| sizing.dims);
    let offsets = resources.data_places(&timer.kernel.case)?;
    let data_places = finished(choose_place(&mut timer, (&settings, dims), &never))?
        .flatten()
        .map(|choice| DataPlaces {
            offsets,
            probe_ns: choice.probe_ns,
            place: choice.place as u32,
        });
    let samples = nanoseconds(&time_kernel(ctx, kernel, dims, settings.samples)?);
    Ok(SizedKernel {
        dims,
        samples,
        data_places,
    })
}

/// What [`measure_sized`] measured.
struct SizedKernel {
    dims: [u32; 3],
    /// Each dispatch's GPU time, ns.
    samples: Vec<f64>,
    data_places: Option<DataPlaces>,
}

/// GPU times in nanoseconds.
fn nanoseconds(times: &[Duration]) -> Vec<f64> {
    times.iter().map(|t| t.as_secs_f64() * 1e9).collect()
}

/// A GPU time in nanoseconds as a duration (rounded to whole nanoseconds; never negative).
fn nanos(ns: f64) -> Duration {
    // `as` saturates: a negative or NaN time becomes 0.
    Duration::from_nanos(ns.round() as u64)
}

/// A pipeline build finished on a worker thread.
struct Built {
    /// Position in the priority order.
    slot: usize,
    kernel: Result<Kernel>,
    span: Span,
}

/// What the build threads share with the measuring thread.
struct BuildQueue<'a> {
    builder: PipelineBuilder,
    resources: &'a crate::resources::Resources,
    /// The supported cases in priority order.
    cases: Vec<&'a Case>,
    next: AtomicUsize,
    stop: AtomicBool,
    start: Instant,
    deadline: Instant,
    /// Longest build so far, in nanoseconds (a new build must fit before the deadline).
    longest_build: AtomicU64,
    /// Longest measurement so far, in nanoseconds (a build must leave time to measure it).
    longest_measure: AtomicU64,
}

impl BuildQueue<'_> {
    /// One build thread: takes the next case until none is left, the probe stops, or a build
    /// (plus measuring it) would no longer end before the deadline. The first case is always
    /// built, so a probe with any supported case has a pipeline to report on.
    fn work(&self, done: mpsc::Sender<Built>) {
        loop {
            let now = Instant::now();
            let needed = Duration::from_nanos(
                self.longest_build.load(Ordering::SeqCst)
                    + self.longest_measure.load(Ordering::SeqCst),
            );
            let slot = self.next.fetch_add(1, Ordering::SeqCst);
            let Some(case) = self.cases.get(slot) else {
                return;
            };
            if slot > 0 && (self.stop.load(Ordering::SeqCst) || now + needed > self.deadline) {
                return;
            }
            let kernel = Kernel::new(&self.builder, self.resources, case);
            let end = Instant::now();
            let took = u64::try_from((end - now).as_nanos()).unwrap_or(u64::MAX);
            self.longest_build.fetch_max(took, Ordering::SeqCst);
            let span = Span {
                case_id: case.id.clone(),
                start: now - self.start,
                end: end - self.start,
            };
            if let Err(mpsc::SendError(mut lost)) = done.send(Built { slot, kernel, span }) {
                // The measuring thread is gone (it cannot be, it drains the channel); never
                // leak a pipeline.
                if let Ok(k) = &mut lost.kernel {
                    k.destroy_on(self.builder.device());
                }
                return;
            }
        }
    }
}

/// The measuring thread's state.
struct Measuring<'a> {
    settings: &'a ProbeSettings,
    start: Instant,
    deadline: Instant,
    dispatches: u32,
    /// Pipelines ready and not yet measured, by priority slot.
    ready: BTreeMap<usize, Kernel>,
    /// Every pipeline built (measured or not), for the bench to keep.
    done: Vec<Kernel>,
    measured: Vec<(usize, CaseThroughput)>,
    failed: Vec<(usize, Error)>,
    built_slots: Vec<usize>,
    groups: u64,
    warmed: bool,
    steady: bool,
    per_case: Duration,
    timeline: ProbeTimeline,
    keep_warm_allowed: bool,
}

impl<'a> Measuring<'a> {
    /// The measuring state before anything is built: nothing measured, clocks not warmed up,
    /// the budget's start and deadline those of `queue`.
    fn new(
        settings: &'a ProbeSettings,
        queue: &BuildQueue<'_>,
        timeline: ProbeTimeline,
        keep_warm_allowed: bool,
    ) -> Self {
        Measuring {
            settings,
            start: queue.start,
            deadline: queue.deadline,
            dispatches: settings.dispatches.clamp(1, MAX_DISPATCHES_PER_SUBMIT),
            ready: BTreeMap::new(),
            done: Vec::new(),
            measured: Vec::new(),
            failed: Vec::new(),
            built_slots: Vec::new(),
            groups: 1,
            warmed: false,
            steady: false,
            per_case: Duration::ZERO,
            timeline,
            keep_warm_allowed,
        }
    }

    /// Builds `queue`'s cases on `threads` threads while this thread measures them
    /// ([`Measuring::run`]); then stops the builders and takes what they still finish, so no
    /// pipeline leaks and no thread uses the device once it returns.
    fn run_with_builders(
        &mut self,
        ctx: &mut Context,
        queue: &BuildQueue<'_>,
        threads: usize,
    ) -> Result<()> {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel();
            if !queue.cases.is_empty() {
                for _ in 0..threads {
                    let tx = tx.clone();
                    scope.spawn(move || queue.work(tx));
                }
            }
            drop(tx);
            let outcome = self.run(ctx, queue, &rx);
            // Stop the builders and take what they still finish (nothing may leak).
            queue.stop.store(true, Ordering::SeqCst);
            let begin = Instant::now();
            for b in rx.iter() {
                self.accept(b);
            }
            self.timeline.draining = begin.elapsed();
            outcome
        })
    }

    /// The measured cases and those left out (with the reason), each in the order of `cases`;
    /// `todo` maps a priority slot to its index in `cases` and `unsupported` lists what was
    /// left out before building. Errors when not one pipeline was built: the first pipeline
    /// failure, else why the first case was left out.
    fn in_given_order(
        &mut self,
        cases: &[Case],
        todo: &[usize],
        unsupported: Vec<(usize, String)>,
    ) -> Result<(Vec<CaseThroughput>, Vec<LeftOut>)> {
        let position = |slot: usize| todo.get(slot).copied().unwrap_or(usize::MAX);
        let mut measured: Vec<(usize, CaseThroughput)> = self
            .measured
            .drain(..)
            .map(|(slot, c)| (position(slot), c))
            .collect();
        measured.sort_by_key(|(i, _)| *i);
        let measured_slots: Vec<usize> = measured.iter().map(|(i, _)| *i).collect();
        let built: Vec<usize> = self.built_slots.iter().map(|&s| position(s)).collect();
        let mut left_out: Vec<(usize, LeftOutReason)> = unsupported
            .into_iter()
            .map(|(i, why)| (i, LeftOutReason::Unsupported(why)))
            .collect();
        let mut first_failure = None;
        for (slot, e) in self.failed.drain(..) {
            left_out.push((position(slot), LeftOutReason::PipelineFailed(e.to_string())));
            first_failure.get_or_insert(e);
        }
        for &i in todo {
            if measured_slots.contains(&i) || left_out.iter().any(|(j, _)| *j == i) {
                continue;
            }
            let reason = if built.contains(&i) {
                LeftOutReason::OutOfTime
            } else {
                LeftOutReason::NotCompiledInTime
            };
            left_out.push((i, reason));
        }
        left_out.sort_by_key(|(i, _)| *i);

        if built.is_empty() && !cases.is_empty() {
            // Not one pipeline: there is no partial answer to give.
            return Err(match first_failure {
                Some(e) => e,
                None => Error::Unsupported {
                    id: "every case".into(),
                    reason: left_out
                        .first()
                        .map_or_else(String::new, |(_, r)| r.to_string()),
                },
            });
        }
        let measured = measured.into_iter().map(|(_, c)| c).collect();
        let left_out = left_out
            .into_iter()
            .map(|(i, reason)| LeftOut {
                case: cases[i].clone(),
                reason,
            })
            .collect();
        Ok((measured, left_out))
    }

    fn accept(&mut self, built: Built) {
        self.timeline.pipelines.push(built.span);
        match built.kernel {
            Ok(k) => {
                self.built_slots.push(built.slot);
                self.ready.insert(built.slot, k);
            }
            Err(e) => self.failed.push((built.slot, e)),
        }
    }

    /// True when a measurement started now would still end within the budget.
    fn fits(&self) -> bool {
        Instant::now() + self.per_case <= self.deadline
    }

    /// Warms the clocks up on `kernel` (the first ready case) with the shared policy: sizes
    /// its dispatch, then dispatches it until two dispatches agree within 2% or the warm-up
    /// share of the budget is spent.
    fn warm_up(
        &mut self,
        ctx: &mut Context,
        (kernel, resources): (&mut Kernel, &Resources),
    ) -> Result<()> {
        let begin = Instant::now();
        let settings = loop_settings(ctx, self.settings.dispatch_target, self.dispatches);
        let limit = self
            .settings
            .budget
            .mul_f64(self.settings.warmup_share.clamp(0.0, 1.0));
        let stop = AtomicBool::new(false);
        let mut timer = ProbeTimer {
            ctx,
            kernel,
            resources,
            until: Some((begin + limit).min(self.deadline)),
            stop: &stop,
        };
        if let Some(sizing) = finished(size_case(&mut timer, &settings, self.groups, &stop))? {
            self.groups = group_total(sizing.dims);
            let outcome = warm_up_clocks(
                &mut timer,
                sizing.dims,
                1,
                (STEADY_TOLERANCE, 0.0),
                settings.warmup_max,
                &stop,
            );
            self.steady = finished(outcome)?.is_some_and(|(_, steady)| steady);
        }
        self.warmed = true;
        self.timeline.warmup = begin.elapsed();
        Ok(())
    }

    /// Measures the highest-priority ready case.
    fn measure_next(&mut self, ctx: &mut Context, queue: &BuildQueue<'_>) -> Result<()> {
        let Some((slot, mut kernel)) = self.ready.pop_first() else {
            return Ok(());
        };
        let outcome = self.measure(ctx, queue, slot, &mut kernel);
        self.done.push(kernel);
        outcome
    }

    fn measure(
        &mut self,
        ctx: &mut Context,
        queue: &BuildQueue<'_>,
        slot: usize,
        kernel: &mut Kernel,
    ) -> Result<()> {
        if !self.warmed {
            self.warm_up(ctx, (&mut *kernel, queue.resources))?;
        }
        let begin = Instant::now();
        let SizedKernel {
            dims,
            samples: samples_ns,
            data_places,
        } = measure_sized(
            ctx,
            (&mut *kernel, queue.resources),
            self.groups,
            self.settings.dispatch_target,
            self.dispatches,
        )?;
        let samples: Vec<Duration> = samples_ns.iter().map(|&ns| nanos(ns)).collect();
        let end = Instant::now();
        self.groups = group_total(dims);
        let took = end - begin;
        self.per_case = self.per_case.max(took);
        queue.longest_measure.fetch_max(
            u64::try_from(self.per_case.as_nanos()).unwrap_or(u64::MAX),
            Ordering::SeqCst,
        );
        self.timeline.measurements.push(Span {
            case_id: kernel.case.id.clone(),
            start: begin - self.start,
            end: end - self.start,
        });
        let median = median(&samples_ns).map(nanos).unwrap_or_default();
        let seconds = median.as_secs_f64();
        if seconds > 0.0 {
            let loads =
                self.groups as f64 * f64::from(kernel.case.threads() * LOADS_PER_THREAD) / seconds;
            self.measured.push((
                slot,
                CaseThroughput {
                    bytes_per_second: loads * f64::from(kernel.case.bytes_per_load()),
                    loads_per_second: loads,
                    case: kernel.case.clone(),
                    groups: self.groups,
                    dims,
                    median,
                    samples,
                    data_places,
                },
            ));
        }
        Ok(())
    }

    /// While waiting for pipelines: one dispatch of the last measured kernel keeps the GPU
    /// clocks up. Returns false when there is nothing to dispatch.
    fn keep_warm(&mut self, ctx: &mut Context) -> Result<bool> {
        let Some(kernel) = self.done.last().filter(|_| self.keep_warm_allowed) else {
            return Ok(false);
        };
        let begin = Instant::now();
        let dims = split_waves(
            self.groups.max(1),
            0,
            ctx.target().max_compute_work_group_count,
            DEFAULT_FIRST_DIM_CAP,
        );
        time_kernel(ctx, kernel, dims, 1)?;
        self.timeline.keep_warm += begin.elapsed();
        Ok(true)
    }

    /// The measuring loop: measure what is ready, in priority order, until the budget is
    /// spent or every case is measured.
    fn run(
        &mut self,
        ctx: &mut Context,
        queue: &BuildQueue<'_>,
        built: &Receiver<Built>,
    ) -> Result<()> {
        let mut builders_done = false;
        loop {
            loop {
                match built.try_recv() {
                    Ok(b) => self.accept(b),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => {
                        builders_done = true;
                        break;
                    }
                }
            }
            let nothing_yet = self.measured.is_empty() && self.settings.measure_at_least_one;
            if !self.ready.is_empty() {
                if self.fits() || nothing_yet {
                    self.measure_next(ctx, queue)?;
                    continue;
                }
                return Ok(()); // out of time: the rest stays unmeasured
            }
            if builders_done {
                return Ok(());
            }
            let now = Instant::now();
            if now >= self.deadline && !nothing_yet {
                return Ok(());
            }
            if now < self.deadline && self.keep_warm(ctx)? {
                continue;
            }
            // Nothing ready: wait for the next pipeline (past the deadline only while nothing
            // has been measured yet).
            let wait = self
                .deadline
                .saturating_duration_since(now)
                .max(Duration::from_millis(1));
            let begin = Instant::now();
            let received = built.recv_timeout(wait);
            self.timeline.waiting += begin.elapsed();
            match received {
                Ok(b) => self.accept(b),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => builders_done = true,
            }
        }
    }
}

impl Bench {
    /// Measures `cases` within `settings.budget` of wall time, pipeline creation included.
    ///
    /// Pipelines are built on [`ProbeSettings::build_threads`] threads in priority order (the
    /// first round covers every load width and access pattern once) and each is measured as
    /// soon as it is ready, so a short budget still gives a partial answer. Cases without a
    /// measurement are listed in [`ProbeReport::left_out`] with the reason (unsupported, not
    /// compiled in time, out of time, pipeline failed).
    ///
    /// Errors: Vulkan errors while measuring (lost device, timeouts), or no pipeline at all
    /// could be built (every case unsupported or failing). When the function returns, every
    /// submission has finished and no thread uses the device any more.
    pub fn probe(&mut self, cases: &[Case], settings: &ProbeSettings) -> Result<ProbeReport> {
        let start = Instant::now();
        let mut report = ProbeReport {
            device: Some(self.context().target().device_info()),
            dispatch_target: settings.dispatch_target,
            ..ProbeReport::default()
        };
        let mut timeline = ProbeTimeline {
            resources: self.setup_time(),
            ..ProbeTimeline::default()
        };
        let (todo, unsupported) = self.probe_order(cases);
        let cache = ProbeCache::open(
            self.context(),
            &settings.pipeline_cache,
            &mut report.warnings,
        );
        timeline.cache_load = start.elapsed();
        let threads = build_threads(settings, todo.len());
        timeline.build_threads = threads;
        let keep_warm_allowed = settings.keep_warm.unwrap_or(
            self.context().target().summary.device_type != crate::selection::DeviceType::Cpu,
        );

        let builder = self.builder(cache.handle);
        let (ctx, resources, kernels) = self.parts();
        let queue = BuildQueue {
            builder,
            resources,
            cases: todo.iter().map(|&i| &cases[i]).collect(),
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            start,
            deadline: start + settings.budget,
            longest_build: AtomicU64::new(0),
            longest_measure: AtomicU64::new(0),
        };
        let mut m = Measuring::new(settings, &queue, timeline, keep_warm_allowed);
        let outcome = m.run_with_builders(ctx, &queue, threads);
        // Built but unmeasured pipelines stay with the bench too (reused by `prepare`).
        kernels.append(&mut m.done);
        kernels.extend(std::mem::take(&mut m.ready).into_values());
        let begin = Instant::now();
        cache.close(self.context(), &mut report.warnings);
        m.timeline.cache_save = begin.elapsed();
        outcome?;

        let (measured, left_out) = m.in_given_order(cases, &todo, unsupported)?;
        report.measured = measured;
        report.left_out = left_out;
        report.steady_clocks = m.steady;
        report.elapsed = start.elapsed();
        m.timeline.total = report.elapsed;
        report.timeline = m.timeline;
        Ok(report)
    }

    /// The indices of `cases` to build, in priority order, and those left out at once because
    /// the device does not support them (with the reason). The families' resources of the
    /// cases to build are created here, before any thread builds their pipelines.
    fn probe_order(&mut self, cases: &[Case]) -> (Vec<usize>, Vec<(usize, String)>) {
        let mut unsupported = Vec::new();
        let mut todo: Vec<usize> = Vec::new();
        for i in priority_order(cases) {
            match self.support(&cases[i]) {
                Support::Supported => match self.ensure_resources(&cases[i]) {
                    Ok(()) => todo.push(i),
                    Err(e) => unsupported.push((i, e.to_string())),
                },
                Support::Skipped(reason) => unsupported.push((i, reason)),
            }
        }
        (todo, unsupported)
    }
}

/// How many threads build the probe's pipelines: the setting, else the available cores; at
/// least one, at most [`MAX_BUILD_THREADS`] and no more than there are cases to build.
fn build_threads(settings: &ProbeSettings, cases: usize) -> usize {
    settings
        .build_threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, MAX_BUILD_THREADS)
        .min(cases.max(1))
}
