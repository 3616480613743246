//! Drives a [`Bench`] through a list of cases: build every pipeline, check results against
//! the CPU model, warm the clocks up, size every case, then measure them in interleaved rounds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use perftest_cases::{verify, Case};
use perftest_core::{Bench, Error, KernelId, PipelineCacheSource};

use crate::benchmark::clock_watch::ClockWatch;
use crate::benchmark::rounds::{measure_in_rounds_with, BatchTimer, Entry};
use crate::benchmark::settings::{RunObserver, RunSettings};
pub use crate::benchmark::timer::{is_fatal, BenchTimer};
use crate::benchmark::verify::{describe_failure_at, readbacks};
use crate::report::{CaseResult, DataPlaces, FailureKind, Report};
use crate::shader_stats::report_stats;
use perftest_report::places::choose_place;
use perftest_report::policy::{
    chain_warm_dispatches, cut_short, lap_floor, measure_alone, size_case, warm_up_clocks,
    warm_up_min_ns, LoopError, LoopSettings, Sizing, CLOCK_WARMUP_MAX, CLOCK_WARMUP_TOLERANCE,
};
use perftest_report::schema::Measurement;
use perftest_report::sizing::group_total;

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

/// Wall time spent in each phase of a run (printed with `--verbose`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseTimes {
    /// Building every pipeline, with the resources they bind.
    pub pipelines: Duration,
    /// The part of [`PhaseTimes::pipelines`] spent creating resources (data made on the CPU
    /// and uploaded).
    pub resources: Duration,
    /// Verification dispatches and CPU-model checks.
    pub verification: Duration,
    /// Warming the clocks up before the first case.
    pub warmup: Duration,
    /// Sizing the cases (probes).
    pub sizing: Duration,
    /// Measuring the cases in rounds.
    pub measurement: Duration,
}

impl PhaseTimes {
    /// Adds the times of `other` (a later run of more cases, such as a refinement round).
    pub fn add(&mut self, other: &PhaseTimes) {
        self.pipelines += other.pipelines;
        self.resources += other.resources;
        self.verification += other.verification;
        self.warmup += other.warmup;
        self.sizing += other.sizing;
        self.measurement += other.measurement;
    }
}

/// Times `cases` on `bench` as `settings` say, telling `observer` how it goes; `stop` ends the
/// run at its next step (the report then holds what was measured).
///
/// Where the driver reports pipeline statistics, each case that got a pipeline carries them
/// in its result (`shader_stats`); with [`RunSettings::keep_representations`], pipelines also
/// keep the driver's internal representations for
/// [`perftest_core::Bench::pipeline_executables_of`].
pub fn run_timing(
    bench: &mut Bench,
    cases: &[Case],
    settings: &RunSettings,
    stop: &AtomicBool,
    observer: &mut dyn RunObserver,
) -> (Report, RunEnd, PhaseTimes) {
    bench.set_capture_internal_representations(settings.keep_representations);
    let (mut report, mut end, mut phases) = run_phases(bench, cases, settings, stop, observer);
    let mut refined: Vec<Case> = Vec::new();
    if settings.refine {
        for _ in 0..crate::benchmark::refine::MAX_ROUNDS {
            if !matches!(end, RunEnd::Complete) || stop.load(std::sync::atomic::Ordering::SeqCst) {
                break;
            }
            let extra = crate::benchmark::refine::next_cases(&report, settings.max_working_set);
            if extra.is_empty() {
                break;
            }
            let (more, more_end, more_phases) = run_phases(bench, &extra, settings, stop, observer);
            report.cases.extend(more.cases);
            report.finished_at = more.finished_at;
            report.complete &= more.complete;
            phases.add(&more_phases);
            end = more_end;
            refined.extend(extra);
        }
        crate::benchmark::refine::order_chase_cases(&mut report);
    }
    let by_id: std::collections::HashMap<&str, &Case> = cases
        .iter()
        .chain(&refined)
        .map(|c| (c.id.as_str(), c))
        .collect();
    for result in &mut report.cases {
        if let Some(case) = by_id.get(result.id.as_str()) {
            result.shader_stats = report_stats(bench.pipeline_executables_of(case));
        }
    }
    (report, end, phases)
}

/// The phases of [`run_timing`]: build every pipeline (in parallel), verify every case against its CPU model
/// (unless disabled; a failing case is reported failed and not timed), warm the clocks up
/// with the first case, size every case with probes (each starting from the previous case's
/// size), then measure all of them in interleaved rounds ([`crate::benchmark::rounds`]).
fn run_phases(
    bench: &mut Bench,
    cases: &[Case],
    settings: &RunSettings,
    stop: &AtomicBool,
    observer: &mut dyn RunObserver,
) -> (Report, RunEnd, PhaseTimes) {
    let target = bench.context().target().clone();
    let mut report = Report::begin(target.device_info(), settings.recorded.clone());
    report.baseline_id = settings.baseline.clone();
    let mut phases = PhaseTimes::default();
    let loop_settings = settings.loop_settings(
        target.max_compute_work_group_count,
        target.resident_workgroups.map_or(0, u64::from),
    );

    // Phase 1: every pipeline, before any measurement.
    let clock = Instant::now();
    let resources_before = bench.resource_time();
    let mut slots = build_pipelines(bench, cases, settings, observer);
    phases.pipelines = clock.elapsed();
    phases.resources = bench.resource_time().saturating_sub(resources_before);

    // Phase 2: verification.
    let clock = Instant::now();
    if settings.verify() {
        if let Some(end) = verify_all(bench, cases, &mut slots, stop) {
            phases.verification = clock.elapsed();
            return stopped_early(report, slots, end, phases);
        }
    }
    phases.verification = clock.elapsed();

    // Phase 3: clocks up, sized on the first runnable case.
    let clock = Instant::now();
    let min_busy = warm_up_min_ns(phases.pipelines + phases.verification);
    let warm = warm_up(
        bench,
        cases,
        &mut slots,
        &loop_settings,
        (settings.samples(), min_busy),
        stop,
    );
    phases.warmup = clock.elapsed();
    let groups = match warm {
        Ok(groups) => groups,
        Err(end) => return stopped_early(report, slots, end, phases),
    };

    // Phase 4: size every case (probes, each from the previous case's size), then measure
    // them all in interleaved rounds; a chain (a latency case) is measured alone as soon as it
    // is sized.
    let clock = Instant::now();
    // `--placements` moves whole sets of resources, each with copies of its own: a place
    // chosen in the first set would mean another place in the others, so none is chosen.
    let choose_places = settings.placements() <= 1;
    let sized = size_all(
        bench,
        cases,
        (slots, choose_places),
        &loop_settings,
        groups,
        stop,
        observer,
    );
    phases.sizing = clock.elapsed();
    let clock = Instant::now();
    let mut round_done = |round: usize| observer.round_done(round);
    let end = measure_rounds(
        bench,
        cases,
        sized,
        &loop_settings,
        &mut report,
        stop,
        &mut round_done,
    );
    phases.measurement = clock.elapsed();
    let complete = matches!(end, RunEnd::Complete);
    report.finish(complete);
    (report, end, phases)
}

/// Phase 1: every case's pipeline (in parallel, through `--pipeline-cache` when given); a case
/// the device cannot run is skipped, one whose pipeline fails is failed.
fn build_pipelines(
    bench: &mut Bench,
    cases: &[Case],
    settings: &RunSettings,
    observer: &mut dyn RunObserver,
) -> Vec<Slot> {
    cases
        .iter()
        .zip({
            let cache = settings
                .pipeline_cache
                .clone()
                .map_or(PipelineCacheSource::None, PipelineCacheSource::File);
            let (kernels, warnings) = bench.prepare_all(cases, &cache);
            for w in warnings {
                observer.warning(&w);
            }
            kernels
        })
        .map(|(case, kernel)| match kernel {
            Ok(k) => Slot::Ready(k),
            Err(Error::Unsupported { reason, .. }) => {
                Slot::Done(Box::new(CaseResult::skipped(case, reason)))
            }
            Err(e) => Slot::Done(Box::new(failed_with(case, &e))),
        })
        .collect()
}

/// Phase 3: the clocks brought up on the first runnable case, which is sized for it, for at
/// least `min_busy` ns of measured time; the groups it was sized to (the next case's starting
/// size), or how the run ended. A warm-up that fails on a device error that is not fatal fails
/// that case only.
fn warm_up(
    bench: &mut Bench,
    cases: &[Case],
    slots: &mut [Slot],
    loop_settings: &LoopSettings,
    (samples, min_busy): (u32, f64),
    stop: &AtomicBool,
) -> Result<u64, RunEnd> {
    let mut groups = 1u64;
    let first = slots.iter().enumerate().find_map(|(i, s)| match s {
        Slot::Ready(k) => Some((i, *k)),
        Slot::Done(_) => None,
    });
    if let Some((index, kernel)) = first {
        let mut timer = BenchTimer { bench, kernel };
        let warm = size_case(&mut timer, loop_settings, groups, stop).and_then(|sizing| {
            groups = group_total(sizing.dims);
            warm_up_clocks(
                &mut timer,
                sizing.dims,
                samples,
                (CLOCK_WARMUP_TOLERANCE, min_busy),
                CLOCK_WARMUP_MAX,
                stop,
            )
        });
        match warm {
            Ok(_) => {}
            Err(LoopError::Interrupted) => return Err(RunEnd::Interrupted),
            Err(LoopError::Timer(e)) => {
                // The case the warm-up ran on is the one that failed: say so in the report.
                slots[index] = Slot::Done(Box::new(failed_with(&cases[index], &e)));
                if is_fatal(&e) {
                    return Err(RunEnd::Fatal(e));
                }
                // Otherwise the other cases still run; each waits for steady clocks itself.
            }
        }
    }
    Ok(groups)
}

/// What sizing every case leaves: every case's slot, the entries of the cases measured in
/// rounds with their kernels, each case's entry, and how the sizing ended.
struct SizedCases {
    slots: Vec<Slot>,
    entries: Vec<Entry>,
    kernels: Vec<KernelId>,
    entry_of: Vec<Option<usize>>,
    end: RunEnd,
}

/// Phase 4, first half: sizes every ready case with probes, each from the previous case's size
/// (`groups` for the first), and where `choose_places` puts the data of a case that has several
/// places at the chosen one ([`place_data`]); a chain (a latency case) is measured alone as soon
/// as it is sized and its slot is done.
fn size_all(
    bench: &mut Bench,
    cases: &[Case],
    (mut slots, choose_places): (Vec<Slot>, bool),
    loop_settings: &LoopSettings,
    mut groups: u64,
    stop: &AtomicBool,
    observer: &mut dyn RunObserver,
) -> SizedCases {
    let total = slots.len();
    let mut entries: Vec<Entry> = Vec::new();
    let mut kernels: Vec<KernelId> = Vec::new();
    let mut entry_of: Vec<Option<usize>> = vec![None; total];
    let mut end = RunEnd::Complete;
    for (i, (case, slot)) in cases.iter().zip(slots.iter_mut()).enumerate() {
        let Slot::Ready(kernel) = *slot else { continue };
        observer.sizing(i, total, case);
        if case.work().is_operation() {
            // Measured after the rounds (see `measure_operations`).
            continue;
        }
        let loop_settings = match case.work().is_chain() {
            true => loop_settings.for_chain(),
            false => loop_settings
                .for_kernel(!perftest_core::in_waves(case))
                .for_threads(case.threads()),
        };
        let sized = size_and_measure(bench, case, kernel, &loop_settings, groups, stop);
        match sized {
            Ok((sizing, Some(measurement))) => {
                groups = group_total(sizing.dims);
                let measured = (measurement, sizing);
                let result =
                    confirmed_result(bench, (case, kernel), &loop_settings, measured, stop);
                *slot = Slot::Done(Box::new(result));
            }
            Ok((sizing, None)) => {
                groups = group_total(sizing.dims);
                let dims = loop_settings.at_least_waves(sizing.dims);
                let mut entry = Entry::new(dims, sizing.probes, &loop_settings);
                let placed = match choose_places {
                    true => place_data(bench, (kernel, &loop_settings), &mut entry, stop),
                    false => Ok(()),
                };
                match placed {
                    Ok(()) => {
                        entry_of[i] = Some(entries.len());
                        entries.push(entry);
                        kernels.push(kernel);
                    }
                    Err(LoopError::Interrupted) => {
                        end = RunEnd::Interrupted;
                        break;
                    }
                    Err(LoopError::Timer(e)) => {
                        let fatal = is_fatal(&e);
                        *slot = Slot::Done(Box::new(failed_with(case, &e)));
                        if fatal {
                            end = RunEnd::Fatal(e);
                            break;
                        }
                    }
                }
            }
            Err(LoopError::Interrupted) => {
                end = RunEnd::Interrupted;
                break;
            }
            Err(LoopError::Timer(e)) if is_fatal(&e) => {
                *slot = Slot::Done(Box::new(failed_with(case, &e)));
                end = RunEnd::Fatal(e);
                break;
            }
            Err(LoopError::Timer(e)) => *slot = Slot::Done(Box::new(failed_with(case, &e))),
        }
    }
    SizedCases {
        slots,
        entries,
        kernels,
        entry_of,
        end,
    }
}

/// For a case whose data has several places: probes them at half the entry's size (laid out by
/// `loop_settings`, `perftest_report::places::probe_dims`) and leaves the
/// data at the chosen one (`perftest_report::places`), counting the probes among its warm-up
/// dispatches and keeping them in the entry. Nothing for other cases.
fn place_data(
    bench: &mut Bench,
    (kernel, loop_settings): (KernelId, &LoopSettings),
    entry: &mut Entry,
    stop: &AtomicBool,
) -> Result<(), LoopError<Error>> {
    let offsets = bench.data_places(kernel).map_err(LoopError::Timer)?;
    let mut timer = BenchTimer { bench, kernel };
    let Some(choice) = choose_place(&mut timer, (loop_settings, entry.dims), stop)? else {
        return Ok(());
    };
    entry.warmup_dispatches += choice.dispatches;
    entry.data_places = Some(DataPlaces {
        offsets,
        probe_ns: choice.probe_ns,
        place: choice.place as u32,
    });
    Ok(())
}

/// A case measured alone: measured, or failed when its walk was cut short ([`cut_short`]) in
/// its measurement and again in one more, taken only on that suspicion. A driver's limit cuts
/// every walk; a CPU driver's other work stretched one set of a whole walk's dispatches once on
/// a loaded lavapipe (319 blocks at 4.8 ms, 639 at 1.7), and does not do it twice in a row.
fn confirmed_result(
    bench: &mut Bench,
    (case, kernel): (&Case, KernelId),
    loop_settings: &LoopSettings,
    (measurement, sizing): (Measurement, Sizing),
    stop: &AtomicBool,
) -> CaseResult {
    if !cut_short(&measurement) {
        return CaseResult::measured(case, measurement);
    }
    let groups = group_total(sizing.dims);
    match size_and_measure(bench, case, kernel, loop_settings, groups, stop) {
        Ok((_, Some(again))) if !cut_short(&again) => CaseResult::measured(case, again),
        _ => CaseResult::failed(case, FailureKind::Other, walk_cut_short(&measurement)),
    }
}

/// A case that failed with `e`: its kind is the error's ([`Error::failure_kind`]), its reason
/// the error's message.
fn failed_with(case: &Case, e: &Error) -> CaseResult {
    CaseResult::failed(case, e.failure_kind(), e.to_string())
}

/// Why a chain whose longer dispatches took too little longer than its smaller ones
/// ([`cut_short`]) has no figure: the two medians and block counts.
fn walk_cut_short(measurement: &Measurement) -> String {
    let median = |s: &[f64]| perftest_report::statistics::median(s).unwrap_or(f64::NAN) / 1e6;
    let (short_groups, short_ms) = measurement
        .short
        .as_ref()
        .map_or((0, f64::NAN), |s| (s.groups, median(&s.samples_ns)));
    format!(
        "the driver cut the walk short: {} blocks took {:.3} ms and {short_groups} blocks \
         {short_ms:.3} ms, where the longer walk should take about {:.1}x as long; a shorter \
         --dispatch-ms keeps it within what the driver runs (Mesa's lavapipe leaves a loop \
         after 65,535 iterations)",
        measurement.groups,
        median(&measurement.samples_ns),
        measurement.groups as f64 / short_groups.max(1) as f64,
    )
}

/// Sizes `case` from `groups` with `loop_settings` (already for its kind of kernel,
/// `LoopSettings::for_kernel` or `for_chain`) and, for a chain or an operation, measures it alone at once
/// (see `measure_alone`); a case measured in rounds gives no measurement here.
fn size_and_measure(
    bench: &mut Bench,
    case: &Case,
    kernel: KernelId,
    loop_settings: &LoopSettings,
    groups: u64,
    stop: &AtomicBool,
) -> Result<(Sizing, Option<Measurement>), LoopError<Error>> {
    let mut timer = BenchTimer { bench, kernel };
    let sizing = size_case(&mut timer, loop_settings, groups, stop)?;
    if !case.work().measured_alone() {
        return Ok((sizing, None));
    }
    // A chain's dispatches walk whole laps (see `lap_floor`).
    let floor = lap_floor(case.chain_length(), case.ops_per_group());
    let groups = group_total(sizing.dims).max(floor.long);
    let per_dispatch = groups.saturating_mul(case.ops_per_group());
    let warm = chain_warm_dispatches(case.chain_length(), per_dispatch);
    let batch_max = perftest_core::MAX_DISPATCHES_PER_SUBMIT;
    measure_alone(
        &mut timer,
        loop_settings,
        (sizing, floor),
        warm,
        batch_max,
        stop,
    )
    .map(|m| (sizing, Some(m)))
}

/// After the rounds: every operation (a copy, a launch) sized and measured alone, its slot
/// done. They come last because the GPU idles while the host does much of their work, which
/// would leave the rounds' first dispatches at an idle clock. Returns how the run must end when a stop or a fatal error cut it short.
fn measure_operations(
    bench: &mut Bench,
    cases: &[Case],
    slots: &mut [Slot],
    loop_settings: &LoopSettings,
    stop: &AtomicBool,
) -> RunEnd {
    for (case, slot) in cases.iter().zip(slots.iter_mut()) {
        let Slot::Ready(kernel) = *slot else { continue };
        if !case.work().is_operation() {
            continue;
        }
        let settings = loop_settings.for_kernel(!perftest_core::in_waves(case));
        match size_and_measure(bench, case, kernel, &settings, 1, stop) {
            Ok((_, Some(m))) => *slot = Slot::Done(Box::new(CaseResult::measured(case, m))),
            Ok((_, None)) => {}
            Err(LoopError::Interrupted) => return RunEnd::Interrupted,
            Err(LoopError::Timer(e)) => {
                let fatal = is_fatal(&e);
                *slot = Slot::Done(Box::new(failed_with(case, &e)));
                if fatal {
                    return RunEnd::Fatal(e);
                }
            }
        }
    }
    RunEnd::Complete
}

/// Phase 4, second half: every sized case in interleaved rounds, with the shader clock where
/// the device has one, then every case's result in suite order into `report`; how the run
/// ended. `round_done(n)` is called once round `n` (from 1) is measured.
fn measure_rounds(
    bench: &mut Bench,
    cases: &[Case],
    sized: SizedCases,
    loop_settings: &LoopSettings,
    report: &mut Report,
    stop: &AtomicBool,
    round_done: &mut dyn FnMut(usize),
) -> RunEnd {
    let SizedCases {
        slots,
        mut entries,
        mut kernels,
        entry_of,
        mut end,
    } = sized;
    // The shader clock takes part in the rounds too, where the device has one.
    let watch = matches!(end, RunEnd::Complete)
        .then(|| ClockWatch::start(bench, loop_settings, stop))
        .flatten();
    let clock_entry = watch.as_ref().map(|w| {
        entries.push(w.entry());
        kernels.push(w.kernel());
        entries.len() - 1
    });
    let mut round_error = None;
    let placements = report.settings.placements.unwrap_or(1).max(1);
    if matches!(end, RunEnd::Complete) {
        let mut timer = BenchBatch {
            bench,
            kernels: &kernels,
            placements: placements as usize,
        };
        let batch_max = perftest_core::MAX_DISPATCHES_PER_SUBMIT as usize;
        let measured = measure_in_rounds_with(
            &mut timer,
            &mut entries,
            loop_settings,
            batch_max,
            stop,
            round_done,
        );
        // The resources the run started with are bound again for what follows.
        let measured = measured.and_then(|stats| match placements {
            1 => Ok(stats),
            _ => timer.place(0).map(|()| stats).map_err(LoopError::Timer),
        });
        match measured {
            Ok(_) => {}
            Err(LoopError::Interrupted) => end = RunEnd::Interrupted,
            Err(LoopError::Timer(e)) => {
                round_error = Some((e.failure_kind(), e.to_string()));
                end = RunEnd::Fatal(e);
            }
        }
    }
    if let (Some(watch), Some(i), RunEnd::Complete) = (watch, clock_entry, &end) {
        report.clock = watch.finish(bench, &entries[i], stop);
    }
    let mut slots = slots;
    if matches!(end, RunEnd::Complete) {
        end = measure_operations(bench, cases, &mut slots, loop_settings, stop);
    }
    // Every case in suite order: decided early, measured (with the samples it has), or — when
    // a round failed — failed with that error; a case the run stopped before is listed as not
    // reached.
    for ((case, slot), entry) in cases.iter().zip(slots).zip(entry_of) {
        match (
            slot,
            entry.and_then(|e| entries[e].measurement(loop_settings)),
        ) {
            (Slot::Done(result), _) => report.cases.push(*result),
            (Slot::Ready(_), Some(m)) => report.cases.push(CaseResult::measured(case, m)),
            (Slot::Ready(_), None) => report.cases.push(match &round_error {
                Some((kind, why)) => CaseResult::failed(case, *kind, why.clone()),
                None => CaseResult::not_reached(case),
            }),
        }
    }
    end
}

/// A [`BatchTimer`] over prepared cases of a [`Bench`]: entry `i` is `kernels[i]`, whose
/// resources take turns at `placements` places (see [`Bench::place`]).
struct BenchBatch<'a> {
    bench: &'a mut Bench,
    kernels: &'a [KernelId],
    placements: usize,
}

impl BatchTimer for BenchBatch<'_> {
    type Error = Error;
    fn time_batch(&mut self, batch: &[(usize, [u32; 3])]) -> Result<Vec<f64>, Error> {
        let dispatches: Vec<(KernelId, [u32; 3])> = batch
            .iter()
            .map(|&(i, dims)| (self.kernels[i], dims))
            .collect();
        let times = self.bench.time_batch(&dispatches)?;
        Ok(times.iter().map(|d| d.as_nanos() as f64).collect())
    }

    fn placements(&self) -> usize {
        self.placements
    }

    fn place(&mut self, placement: usize) -> Result<(), Error> {
        self.bench.place(placement, self.kernels)
    }

    fn moves(&self, entry: usize) -> bool {
        self.kernels
            .get(entry)
            .is_some_and(|&k| self.bench.moves(k))
    }
}

/// Of verification failures known by (case, place index), each failed case's failure at its
/// first failed place, by case.
fn first_failures(mut failures: Vec<((usize, usize), String)>) -> Vec<(usize, String)> {
    failures.sort_by_key(|&(key, _)| key);
    failures.dedup_by_key(|&mut ((case, _), _)| case);
    failures
        .into_iter()
        .map(|((case, _), why)| (case, why))
        .collect()
}

/// Checks every ready case against its CPU model, marking the ones that fail (or cannot run) as
/// done. The GPU runs one case's check dispatch while worker threads compare the previous
/// cases' results with their models, so the two overlap. Returns how the run must end when a stop or a fatal
/// device error cut it short.
fn verify_all(
    bench: &mut Bench,
    cases: &[Case],
    slots: &mut [Slot],
    stop: &AtomicBool,
) -> Option<RunEnd> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_VERIFY_WORKERS);
    let mut end = None;
    // A readback is known by its case and its place's index, so that a case failing at several
    // places reports its first, whichever thread finished first.
    type Work = ((usize, usize), Option<u64>, perftest_cases::Readback);
    let (work, queue) = mpsc::channel::<Work>();
    let queue = Mutex::new(queue);
    let failures: Vec<((usize, usize), String)> = std::thread::scope(|scope| {
        let (done, results) = mpsc::channel::<((usize, usize), String)>();
        let check = |key: (usize, usize),
                     at: Option<u64>,
                     readback: &perftest_cases::Readback,
                     done: &mpsc::Sender<_>| {
            let outcome = verify(&cases[key.0], readback);
            outcome.passed() || done.send((key, describe_failure_at(at, &outcome))).is_ok()
        };
        // Workers that could not be started (a pids limit) are none of the count: with none,
        // this thread compares each readback itself.
        let started = (0..workers)
            .filter(|_| {
                let (queue, done) = (&queue, done.clone());
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || loop {
                        // The lock is held only to take the next readback, not while comparing.
                        let next = queue.lock().ok().and_then(|q| q.recv().ok());
                        let Some((key, at, readback)) = next else {
                            break;
                        };
                        if !check(key, at, &readback, &done) {
                            break;
                        }
                    })
                    .is_ok()
            })
            .count();
        let inline = (started == 0).then(|| done.clone());
        drop(done);
        for (i, slot) in slots.iter_mut().enumerate() {
            let Slot::Ready(kernel) = *slot else { continue };
            if stop.load(Ordering::Relaxed) {
                end = Some(RunEnd::Interrupted);
                break;
            }
            match readbacks(bench, kernel) {
                Ok(readbacks) if inline.is_some() => {
                    if let Some(done) = &inline {
                        for (place, (at, readback)) in readbacks.iter().enumerate() {
                            check((i, place), *at, readback, done);
                        }
                    }
                }
                Ok(readbacks) => {
                    let sent = readbacks
                        .into_iter()
                        .enumerate()
                        .all(|(place, (at, r))| work.send(((i, place), at, r)).is_ok());
                    if !sent {
                        break; // every worker is gone (one panicked): the scope reports it
                    }
                }
                Err(e) => {
                    let fatal = is_fatal(&e);
                    *slot = Slot::Done(Box::new(failed_with(&cases[i], &e)));
                    if fatal {
                        end = Some(RunEnd::Fatal(e));
                        break;
                    }
                }
            }
        }
        drop(work);
        drop(inline);
        results.iter().collect()
    });
    for (i, why) in first_failures(failures) {
        let result = CaseResult::failed(&cases[i], FailureKind::Verification, why);
        slots[i] = Slot::Done(Box::new(result));
    }
    end
}

/// At most this many threads compare verification results with the CPU models.
const MAX_VERIFY_WORKERS: usize = 4;

/// Ends a run before the measurement phase: the cases already decided (skipped, or failed in
/// verification or warm-up) go into the report, which is marked incomplete.
fn stopped_early(
    mut report: Report,
    slots: Vec<Slot>,
    end: RunEnd,
    phases: PhaseTimes,
) -> (Report, RunEnd, PhaseTimes) {
    report
        .cases
        .extend(slots.into_iter().filter_map(|s| match s {
            Slot::Done(result) => Some(*result),
            Slot::Ready(_) => None,
        }));
    report.finish(false);
    (report, end, phases)
}

/// A case on its way through the phases.
enum Slot {
    /// Pipeline built, still to be measured.
    Ready(KernelId),
    /// Finished early: skipped or failed.
    Done(Box<CaseResult>),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A case that fails at several places reports its first, in whatever order the checking
    /// threads sent them.
    #[test]
    fn a_case_failing_at_several_places_reports_its_first() {
        let failure = |case, place| ((case, place), format!("case {case} place {place}"));
        let sent = vec![
            failure(4, 3),
            failure(1, 0),
            failure(4, 1),
            failure(4, 2),
            failure(2, 1),
        ];
        let first = first_failures(sent);
        let expected = [
            (1, "case 1 place 0"),
            (2, "case 2 place 1"),
            (4, "case 4 place 1"),
        ];
        assert_eq!(first.len(), expected.len());
        for ((case, why), (want_case, want_why)) in first.iter().zip(expected) {
            assert_eq!((*case, why.as_str()), (want_case, want_why));
        }
        assert!(first_failures(Vec::new()).is_empty());
    }
}
