//! Interleaved measurement: every case's samples are spread over the whole run.
//!
//! Once every case is sized (one dispatch of it takes about `target / samples`), the run
//! proceeds in **rounds**: each round is one submission holding one timed dispatch of every
//! case that still needs samples, so a case's `samples` dispatches are taken at `samples`
//! moments spread over the run instead of in one 20 ms window. Anything that drifts during the
//! run (clocks, temperature, another process) then affects every case alike, rather than
//! landing on whichever case happened to be running. The position of a case inside the round
//! rotates from round to round, so no case always follows the same neighbour.
//!
//! A case's first dispatch also checks its size ([`LoopSettings::corrected_size`]): when it lands
//! another number of waves off the per-dispatch target (or, without waves, more than
//! [`SIZE_TOLERANCE`](perftest_report::policy::SIZE_TOLERANCE): clocks that ramped while it was sized), the case is re-sized and that
//! dispatch is not kept, at most `warmup_max` times; such a case takes one more round at the end.
//!
//! **Noisy cases** get more samples without leaving the rounds: half-way through the rounds, a
//! case whose samples so far vary by more than [`POOL_CV`] (0.25%) through more than one stray
//! dispatch ([`noisy`]), or may hide a level faster than their median
//! ([`fast_level_unseen`]), is to collect [`POOL_FACTOR`] times as many, within what perftest-vk
//! spends on a case ([`pool_samples`]), and
//! from then on takes several dispatches in each remaining round, spread through the round.
//! After the scheduled rounds, a case not pooled yet that is noisy or may hide a faster level by
//! all its samples, or whose samples fall into levels ([`perftest_report::modes`]), collects as many, its
//! extra dispatches in the rounds that follow; a case with levels is then reported by its
//! fastest level, so its samples need only show which level that is.
//!
//! Generic over [`BatchTimer`] so it is unit-tested with a simulated GPU whose speed drifts.

use std::sync::atomic::AtomicBool;

use crate::report::{DataPlaces, Measurement};
use perftest_report::modes::{fast_level_unseen, modes};
use perftest_report::policy::{check_stop, halves_agree, LoopError, LoopSettings};
use perftest_report::sizing::group_total;
use perftest_report::statistics::{median, Summary};

/// Above this coefficient of variation of a case's samples (0.25%) it collects more samples.
pub const POOL_CV: f64 = 0.0025;

/// A noisy case collects this many times `--samples` samples.
pub const POOL_FACTOR: usize = 6;

/// A pooled case spends on its extra samples at most what [`POOL_FACTOR`] times `--samples`
/// dispatches of this many times the dispatch target take (a factor, three).
pub const POOL_SPAN: f64 = 3.0;

/// Original-sized dispatches (4 x 1024 workgroups) whose GPU time a pooled case's samples fit
/// in: 60, what perftest-vk's fixed schedule (30 warm-up and 30 timed frames) spends on every
/// case, so that the noisiest cases cost no more than there.
pub const POOL_BUDGET_DISPATCHES: u64 = 60;

/// The samples a pooled case whose dispatches have `groups` workgroups collects:
/// [`POOL_FACTOR`] times `base` for a case whose dispatches take up to [`POOL_SPAN`] times
/// `dispatch_ns`, in proportion fewer for one whose dispatches take longer, and no more than
/// fit in [`POOL_BUDGET_DISPATCHES`] original-sized dispatches; but at least twice `base`,
/// enough for [`modes`] to tell levels apart.
pub fn pool_samples(base: usize, dispatch_ns: f64, samples: &[f64], groups: u64) -> usize {
    let full = base * POOL_FACTOR;
    let span = POOL_SPAN * dispatch_ns;
    let Some(t) = median(samples).filter(|t| t.is_finite() && *t > 0.0) else {
        return full.max(2 * base);
    };
    let spanned = if t > span && span > 0.0 {
        (full as f64 * span / t).round() as usize
    } else {
        full
    };
    let budget_groups =
        POOL_BUDGET_DISPATCHES * perftest_report::derived::ORIGINAL_GROUPS_PER_DISPATCH;
    let budget = if groups > 0 {
        // `as` saturates.
        (budget_groups as f64 / groups as f64).floor() as usize
    } else {
        full
    };
    spanned.min(budget).clamp(2 * base, full.max(2 * base))
}

/// Whether `samples` vary by more than [`POOL_CV`] through more than one stray dispatch. With
/// three samples: their CV is over it, and without the sample farthest from their median still
/// over a quarter of it. With more: without that sample, their CV is over a third of it.
/// A dispatch 0.5% slow among samples within 0.02% of each other is not noise the median
/// feels. The measurement chapter gives how often noisy cases escape both rules.
pub fn noisy(samples: &[f64]) -> bool {
    let Some(all) = Summary::of(samples).filter(|_| samples.len() >= 3) else {
        return false;
    };
    let distance = |t: &f64| (t - all.median).abs();
    let farthest = (0..samples.len())
        .max_by(|&i, &j| distance(&samples[i]).total_cmp(&distance(&samples[j])))
        .unwrap_or(0);
    let mut rest = samples.to_vec();
    rest.swap_remove(farthest);
    let Some(rest_cv) = Summary::of(&rest).map(|r| r.cv) else {
        return false;
    };
    if rest.len() >= 4 {
        rest_cv > POOL_CV / 3.0
    } else {
        all.cv > POOL_CV && rest_cv > POOL_CV / 4.0
    }
}

/// Dispatches of other cases on each side that [`local_factors`] takes as a dispatch's
/// neighbourhood (4: about 16 ms of GPU time with 2 ms dispatches).
pub const NEIGHBOURS: usize = 4;

/// How much slower than usual the GPU ran around each of each entry's samples, for every case
/// alike: the median, over the [`NEIGHBOURS`] nearest recorded dispatches of other cases on
/// each side (by [`Entry::seqs`]), of `sample / that case's median`; 1 where fewer than four
/// such dispatches of at least three other cases are known. A moment of the run when the GPU ran
/// slower raises the dispatches of whichever cases ran then, which would otherwise look like a
/// second level in each.
pub fn local_factors(entries: &[Entry]) -> Vec<Vec<f64>> {
    // (place in the run, entry, sample index, ratio to the entry's median)
    let mut all: Vec<(usize, usize, usize, f64)> = Vec::new();
    for (j, e) in entries.iter().enumerate() {
        let Some(m) = median(&e.samples_ns).filter(|m| *m > 0.0) else {
            continue;
        };
        all.extend(
            e.seqs
                .iter()
                .zip(&e.samples_ns)
                .enumerate()
                .map(|(k, (&n, &t))| (n, j, k, t / m)),
        );
    }
    all.sort_by_key(|&(n, ..)| n);
    let mut factors: Vec<Vec<f64>> = entries
        .iter()
        .map(|e| vec![1.0; e.samples_ns.len()])
        .collect();
    for (i, &(_, j, k, _)) in all.iter().enumerate() {
        let others = |it: &mut dyn Iterator<Item = &(usize, usize, usize, f64)>| {
            it.filter(|o| o.1 != j)
                .take(NEIGHBOURS)
                .copied()
                .collect::<Vec<_>>()
        };
        let mut around = others(&mut all[..i].iter().rev());
        around.extend(others(&mut all[i + 1..].iter()));
        let mut cases: Vec<usize> = around.iter().map(|o| o.1).collect();
        cases.sort_unstable();
        cases.dedup();
        if around.len() >= 4 && cases.len() >= 3 {
            let ratios: Vec<f64> = around.iter().map(|o| o.3).collect();
            if let Some(f) = median(&ratios).filter(|f| f.is_finite() && *f > 0.0) {
                factors[j][k] = f;
            }
        }
    }
    factors
}

/// `samples` with the GPU's common slowdown around each (`factors`, from [`local_factors`])
/// divided out.
fn adjusted(samples: &[f64], factors: &[f64]) -> Vec<f64> {
    samples.iter().zip(factors).map(|(&t, &f)| t / f).collect()
}

/// Pools the cases that need more samples, judging each case by its samples with the GPU's
/// common slowdown around each divided out ([`local_factors`]).
///
/// Half-way through the rounds (`late` false): a [`noisy`] case, and one whose samples may hide
/// a faster level ([`fast_level_unseen`]), collects [`pool_samples`].
///
/// In every round after the scheduled ones (`late` true), for the cases that have all their
/// samples and were not pooled yet: one that is noisy, whose samples fall into levels by
/// [`modes`], or that may hide a faster level, collects as many; a pooled case is not looked at
/// again. A rare second level (one dispatch in ten, which many cases show) is slower than the
/// median, so it pools nothing.
fn pool(entries: &mut [Entry], base: usize, late: bool, dispatch_ns: f64) {
    let factors = local_factors(entries);
    for (e, factors) in entries.iter_mut().zip(&factors) {
        if late && (e.needs_more() || e.pooled) {
            continue;
        }
        let samples = adjusted(&e.samples_ns, factors);
        let levels = late && modes(&samples).is_multimodal();
        if levels || noisy(&samples) || fast_level_unseen(&samples) {
            e.pooled = true;
            let groups = group_total(e.dims);
            e.wanted = e
                .wanted
                .max(pool_samples(base, dispatch_ns, &e.samples_ns, groups));
        }
    }
}

/// Something that runs one timed dispatch per entry (case index, workgroups) in one
/// submission, in order, and returns each one's GPU time in nanoseconds.
pub trait BatchTimer {
    /// The error a failed submission reports.
    type Error;
    /// Runs the batch and returns one time per entry.
    fn time_batch(&mut self, batch: &[(usize, [u32; 3])]) -> Result<Vec<f64>, Self::Error>;
    /// The places in memory the cases' resources take turns at, one per round (1: one place).
    fn placements(&self) -> usize {
        1
    }
    /// Binds every case that [moves](Self::moves) to its resources at `placement` (below
    /// [`Self::placements`]) before the next round; nothing by default.
    fn place(&mut self, _placement: usize) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Whether entry `entry`'s resources take turns at the placements (otherwise it keeps the
    /// first); every entry by default.
    fn moves(&self, _entry: usize) -> bool {
        true
    }
}

/// One case taking part in the rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Workgroups per dispatch.
    pub dims: [u32; 3],
    /// Dispatches run before the recorded ones (probes, re-sized first dispatches).
    pub warmup_dispatches: u32,
    /// The recorded dispatch times, ns.
    pub samples_ns: Vec<f64>,
    /// Each sample's place in the run: the number of dispatches timed before it.
    pub seqs: Vec<usize>,
    /// Each sample's placement ([`BatchTimer::placements`]), where there are several.
    pub sample_placements: Vec<u32>,
    /// Where its data lay, where it has several places (see `perftest_report::places`).
    pub data_places: Option<DataPlaces>,
    /// Re-sizes left before the size is accepted as it is.
    resizes_left: u32,
    /// Whether the size was checked by a recorded dispatch.
    size_checked: bool,
    /// Samples this case is to collect.
    wanted: usize,
    /// Whether the case was found noisy and collects more samples.
    pub pooled: bool,
    /// The whole waves its size is counted in ([`LoopSettings::wave`] of the settings it was
    /// sized with: none for a draw).
    wave: u64,
    /// The dispatch limits of those settings ([`LoopSettings::max_count`]: one Z layer for a
    /// chain), so that a re-size keeps within them.
    max_count: [u32; 3],
}

impl Entry {
    /// A sized case: `dims` from its probes, which count as `probes` warm-up dispatches.
    pub fn new(dims: [u32; 3], probes: u32, settings: &LoopSettings) -> Entry {
        Entry {
            dims,
            warmup_dispatches: probes,
            samples_ns: Vec::new(),
            seqs: Vec::new(),
            sample_placements: Vec::new(),
            data_places: None,
            resizes_left: settings.warmup_max,
            size_checked: false,
            wanted: settings.samples.max(1) as usize,
            pooled: false,
            wave: settings.wave,
            max_count: settings.max_count,
        }
    }

    /// The measurement recorded so far (`None` before the first sample).
    pub fn measurement(&self, settings: &LoopSettings) -> Option<Measurement> {
        if self.samples_ns.is_empty() {
            return None;
        }
        Some(Measurement {
            groups: group_total(self.dims),
            dims: self.dims,
            samples_ns: self.samples_ns.clone(),
            sample_placements: self.sample_placements.clone(),
            warmup_dispatches: self.warmup_dispatches,
            steady: self.size_checked && halves_agree(&self.samples_ns, settings.steady_tolerance),
            short: None,
            seqs: self.seqs.clone(),
            data_places: self.data_places.clone(),
        })
    }

    fn needs_more(&self) -> bool {
        self.samples_ns.len() < self.wanted
    }
}

/// Submissions run and dispatches timed by [`measure_in_rounds`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundStats {
    /// Submissions (one per round, or more when a round holds more dispatches than fit).
    pub submissions: u32,
    /// Dispatches timed, kept or not.
    pub dispatches: u32,
}

/// Runs rounds until every entry has its samples (see the module documentation). `batch_max`
/// is the most dispatches one submission may hold. On an error or a stop the entries keep what
/// they collected so far.
pub fn measure_in_rounds<T: BatchTimer>(
    timer: &mut T,
    entries: &mut [Entry],
    settings: &LoopSettings,
    batch_max: usize,
    stop: &AtomicBool,
) -> Result<RoundStats, LoopError<T::Error>> {
    measure_in_rounds_with(timer, entries, settings, batch_max, stop, &mut |_| {})
}

/// [`measure_in_rounds`], calling `round_done(n)` as soon as round `n` (from 1) is complete.
pub fn measure_in_rounds_with<T: BatchTimer>(
    timer: &mut T,
    entries: &mut [Entry],
    settings: &LoopSettings,
    batch_max: usize,
    stop: &AtomicBool,
    round_done: &mut dyn FnMut(usize),
) -> Result<RoundStats, LoopError<T::Error>> {
    let base = settings.samples.max(1) as usize;
    // Noise is judged half-way (at least three samples per case), and levels once more after
    // the scheduled rounds.
    let pool_round = (base / 2).max(3);
    let mut stats = RoundStats::default();
    let mut round = 0usize;
    loop {
        if round > 0 {
            round_done(round);
        }
        if round == pool_round {
            pool(entries, base, false, settings.dispatch_ns());
        } else if round >= base.max(pool_round + 1) {
            pool(entries, base, true, settings.dispatch_ns());
        }
        let mut due: Vec<usize> = (0..entries.len())
            .filter(|&i| entries[i].needs_more())
            .collect();
        if due.is_empty() {
            return Ok(stats);
        }
        // A different starting case every round (a stride that spreads the starts).
        let shift = (round * due.len().div_ceil(base)) % due.len();
        due.rotate_left(shift);
        // A case behind its schedule (pooled, or re-sized) takes several dispatches this round,
        // in passes through the round so its copies are spread out; with several placements,
        // over at least as many rounds as there are placements, so that each takes its share.
        let rounds_left = base.saturating_sub(round).max(timer.placements().max(1));
        let copies: Vec<usize> = due
            .iter()
            .map(|&i| {
                let e = &entries[i];
                if e.size_checked {
                    (e.wanted - e.samples_ns.len()).div_ceil(rounds_left).max(1)
                } else {
                    1
                }
            })
            .collect();
        let passes = copies.iter().copied().max().unwrap_or(1);
        let order: Vec<usize> = (0..passes)
            .flat_map(|pass| {
                due.iter()
                    .zip(&copies)
                    .filter(move |(_, &c)| c > pass)
                    .map(|(&i, _)| i)
            })
            .collect();
        let placements = timer.placements().max(1);
        let placement = (placements > 1).then_some(round % placements);
        if let Some(p) = placement {
            timer.place(p).map_err(LoopError::Timer)?;
        }
        round += 1;
        for chunk in order.chunks(batch_max.max(1)) {
            check_stop(stop)?;
            let batch: Vec<(usize, [u32; 3])> =
                chunk.iter().map(|&i| (i, entries[i].dims)).collect();
            let times = timer.time_batch(&batch).map_err(LoopError::Timer)?;
            stats.submissions += 1;
            stats.dispatches += batch.len() as u32;
            let first_seq = stats.dispatches as usize - batch.len();
            for (k, (&i, &t)) in chunk.iter().zip(&times).enumerate() {
                let e = &mut entries[i];
                let place = placement.map(|p| if timer.moves(i) { p as u32 } else { 0 });
                if record(e, settings, t, first_seq + k) {
                    e.sample_placements.extend(place);
                }
            }
        }
    }
}

/// Records a dispatch of `e` that took `t` ns, timed at place `seq` of the run, as a sample;
/// unless it is the first dispatch and off its size ([`LoopSettings::corrected_size`]): then
/// the case is re-sized and the dispatch not kept. Returns whether the dispatch was kept.
fn record(e: &mut Entry, settings: &LoopSettings, t: f64, seq: usize) -> bool {
    if !e.size_checked {
        let own = LoopSettings {
            wave: e.wave,
            max_count: e.max_count,
            ..*settings
        };
        if let Some(resized) = own.corrected_size(e.dims, t).filter(|_| e.resizes_left > 0) {
            e.dims = resized;
            e.resizes_left -= 1;
            e.warmup_dispatches += 1;
            return false;
        }
        e.size_checked = true;
    }
    e.samples_ns.push(t);
    e.seqs.push(seq);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::policy::size_case;
    use perftest_report::policy::DispatchTimer;
    use perftest_report::statistics::median;

    /// A simulated GPU running several cases, each `ns_per_group[case]` per workgroup at unit
    /// speed; its speed drifts linearly with busy time (`drift_per_s`: +0.01 = 1% faster per
    /// second of GPU work), and `noise` adds a deterministic ±noise/2 jitter.
    struct DriftingGpu {
        ns_per_group: Vec<f64>,
        drift_per_s: f64,
        noise: f64,
        busy_ns: f64,
        seed: u32,
        submissions: Vec<usize>,
        current: usize,
    }

    impl DriftingGpu {
        fn new(ns_per_group: Vec<f64>, drift_per_s: f64) -> Self {
            DriftingGpu {
                ns_per_group,
                drift_per_s,
                noise: 0.0,
                busy_ns: 0.0,
                seed: 1,
                submissions: Vec::new(),
                current: 0,
            }
        }

        fn one(&mut self, case: usize, dims: [u32; 3]) -> f64 {
            let speed = 1.0 + self.drift_per_s * self.busy_ns * 1e-9;
            self.seed = self.seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let jitter = 1.0 + self.noise * (f64::from(self.seed >> 16 & 0xff) / 255.0 - 0.5);
            let t = group_total(dims) as f64 * self.ns_per_group[case] / speed * jitter;
            self.busy_ns += t;
            t
        }
    }

    impl BatchTimer for DriftingGpu {
        type Error = String;
        fn time_batch(&mut self, batch: &[(usize, [u32; 3])]) -> Result<Vec<f64>, String> {
            self.submissions.push(batch.len());
            Ok(batch.iter().map(|&(c, d)| self.one(c, d)).collect())
        }
    }

    /// The GPU of `gpu`, with case 0's dispatch times multiplied by `factor` of a pseudo-random
    /// number drawn from the GPU's own generator for each of them.
    struct FirstCase<F> {
        gpu: DriftingGpu,
        factor: F,
    }

    impl<F: FnMut(u32) -> f64> BatchTimer for FirstCase<F> {
        type Error = String;
        fn time_batch(&mut self, b: &[(usize, [u32; 3])]) -> Result<Vec<f64>, String> {
            let mut t = self.gpu.time_batch(b)?;
            for (v, &(case, _)) in t.iter_mut().zip(b) {
                if case == 0 {
                    self.gpu.seed = self
                        .gpu
                        .seed
                        .wrapping_mul(1_103_515_245)
                        .wrapping_add(12345);
                    *v *= (self.factor)(self.gpu.seed >> 16);
                }
            }
            Ok(t)
        }
    }

    /// The single-case view used for sizing.
    impl DispatchTimer for DriftingGpu {
        type Error = String;
        fn time(&mut self, dims: [u32; 3], n: u32) -> Result<Vec<f64>, String> {
            let case = self.current;
            Ok((0..n).map(|_| self.one(case, dims)).collect())
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

    /// Sizes every case like the run does (each from the previous size), then runs the rounds.
    fn run(gpu: &mut DriftingGpu, s: &LoopSettings) -> Vec<Entry> {
        let stop = AtomicBool::new(false);
        let mut groups = 1;
        let mut entries = Vec::new();
        for case in 0..gpu.ns_per_group.len() {
            gpu.current = case;
            let sizing = size_case(gpu, s, groups, &stop).unwrap();
            groups = group_total(sizing.dims);
            entries.push(Entry::new(sizing.dims, sizing.probes, s));
        }
        measure_in_rounds(gpu, &mut entries, s, 256, &stop).unwrap();
        entries
    }

    /// Relative error of each case's median time per group against the truth.
    fn errors(entries: &[Entry], truth: &[f64]) -> Vec<f64> {
        entries
            .iter()
            .zip(truth)
            .map(|(e, t)| median(&e.samples_ns).unwrap() / group_total(e.dims) as f64 / t - 1.0)
            .collect()
    }

    /// A 2%-per-second drift over a run of 40 cases: measured one after the other, the last
    /// case would be ~1.6% faster than the first; interleaved, every case sees the same
    /// mid-run speed, so their errors agree within a small fraction of that.
    #[test]
    fn drift_does_not_land_on_one_case() {
        let truth: Vec<f64> = (0..40).map(|i| 30.0 + i as f64).collect();
        let mut gpu = DriftingGpu::new(truth.clone(), 0.02);
        let entries = run(&mut gpu, &settings());
        let errs = errors(&entries, &truth);
        let spread = errs.iter().copied().fold(f64::MIN, f64::max)
            - errs.iter().copied().fold(f64::MAX, f64::min);
        // Sequential measurement: case i would see speed 1 + 0.02 * (i * 20 ms), a spread of
        // 0.02 * 0.78 s = 1.6%. Interleaved: under a tenth of that.
        assert!(spread < 0.0016, "errors spread over {spread}: {errs:?}");
        for e in &entries {
            assert_eq!(e.samples_ns.len(), 10);
            assert!(e.measurement(&settings()).unwrap().steady);
        }
        // One submission per round holds every case.
        assert!(gpu.submissions.iter().filter(|&&n| n == 40).count() >= 10);

        // The same GPU measured case after case (each case's 10 dispatches back to back, as
        // the sequential schedule did) puts the drift on the late cases: the check above fails.
        let mut sequential = DriftingGpu::new(truth.clone(), 0.02);
        let seq: Vec<Entry> = entries
            .iter()
            .enumerate()
            .map(|(case, e)| {
                sequential.current = case;
                let mut copy = e.clone();
                copy.samples_ns = DispatchTimer::time(&mut sequential, e.dims, 10).unwrap();
                copy
            })
            .collect();
        let errs = errors(&seq, &truth);
        let spread = errs.iter().copied().fold(f64::MIN, f64::max)
            - errs.iter().copied().fold(f64::MAX, f64::min);
        assert!(spread > 0.01, "sequential spread {spread}");
    }

    #[test]
    fn rounds_hold_every_case_once_and_fit_the_batch_limit() {
        let truth = vec![33.0; 7];
        let mut gpu = DriftingGpu::new(truth, 0.0);
        let s = settings();
        let stop = AtomicBool::new(false);
        let mut entries: Vec<Entry> = (0..7).map(|_| Entry::new([10_000, 6, 1], 1, &s)).collect();
        let stats = measure_in_rounds(&mut gpu, &mut entries, &s, 3, &stop).unwrap();
        // 10 rounds of 7 dispatches in chunks of at most 3: 3 submissions a round.
        assert_eq!(stats.dispatches, 70);
        assert_eq!(stats.submissions, 30);
        assert!(gpu.submissions.iter().all(|&n| n <= 3));
        assert!(entries.iter().all(|e| e.samples_ns.len() == 10));
    }

    #[test]
    fn an_off_target_size_is_corrected_and_not_recorded() {
        let mut gpu = DriftingGpu::new(vec![30.0], 0.0);
        let s = settings();
        let stop = AtomicBool::new(false);
        // 10x too large for the 2 ms per dispatch.
        let mut entries = vec![Entry::new([10_000, 66, 1], 2, &s)];
        measure_in_rounds(&mut gpu, &mut entries, &s, 256, &stop).unwrap();
        let e = &entries[0];
        assert_eq!(e.warmup_dispatches, 3);
        assert_eq!(e.samples_ns.len(), 10);
        let t = median(&e.samples_ns).unwrap();
        assert!((t - 2e6).abs() / 2e6 < 0.05, "{t}");
    }

    /// Noise does not buy a case extra rounds of its own (which would sample it at another
    /// time of the run than the others).
    /// A noisy case collects four times the samples within the same rounds (so its samples
    /// still span the run); a quiet one keeps one per round.
    #[test]
    fn noisy_cases_collect_more_samples_within_the_rounds() {
        let s = settings();
        let stop = AtomicBool::new(false);
        let mut timer = FirstCase {
            gpu: DriftingGpu::new(vec![500.0, 500.0], 0.0),
            factor: |r: u32| 1.0 + 0.03 * (f64::from(r & 0xff) / 255.0 - 0.5),
        };
        // 2 ms of 4,000 groups: 61 samples fit in what the peer spends (60 are wanted).
        let mut entries = vec![
            Entry::new([4_000, 1, 1], 1, &s),
            Entry::new([4_000, 1, 1], 1, &s),
        ];
        let stats = measure_in_rounds(&mut timer, &mut entries, &s, 256, &stop).unwrap();
        assert_eq!(entries[0].samples_ns.len(), 10 * POOL_FACTOR);
        assert!(entries[0].pooled && !entries[1].pooled);
        assert_eq!(entries[1].samples_ns.len(), 10);
        // Still ten rounds: the noisy case's extra samples are spread over rounds 6 to 10.
        assert_eq!(stats.submissions, 10);
        assert!(timer.gpu.submissions.iter().skip(5).all(|&n| n > 2));
    }

    /// Entries with these samples, taken in rounds as a run takes them: sample `k` of case `j`
    /// is dispatch `k * cases + j` of the run.
    fn interleaved(cases: &[&[f64]]) -> Vec<Entry> {
        let s = settings();
        cases
            .iter()
            .enumerate()
            .map(|(j, samples)| {
                let mut e = Entry::new([1, 1, 1], 0, &s);
                e.samples_ns = samples.to_vec();
                e.seqs = (0..samples.len()).map(|k| k * cases.len() + j).collect();
                e
            })
            .collect()
    }

    fn wanted(entries: &[Entry]) -> Vec<usize> {
        entries.iter().map(|e| e.wanted).collect()
    }

    /// Half-way: a noisy case and one that may hide a faster level are pooled for six times
    /// their samples; one stray slow dispatch, and a moment when every case ran slower, are
    /// neither.
    #[test]
    fn the_halfway_pool_rule() {
        let quiet: &[f64] = &[100.0, 100.01, 100.02];
        let fast_unseen: &[f64] = &[126.7, 125.7, 126.7];
        let fast_seen: &[f64] = &[125.7, 126.7, 125.7];
        let noisy: &[f64] = &[100.0, 102.0, 98.0];
        let one_stray: &[f64] = &[100.5, 100.0, 100.01];
        let cases = [
            fast_unseen,
            noisy,
            fast_seen,
            one_stray,
            quiet,
            quiet,
            quiet,
            quiet,
        ];
        let mut entries = interleaved(&cases);
        pool(&mut entries, 10, false, 1e9);
        assert_eq!(wanted(&entries), [vec![60, 60], vec![10; 6]].concat());
        // The third round 0.3% slower for every case: not levels, and the case with levels is
        // still found.
        let slow_third: &[f64] = &[100.0, 100.01, 100.32];
        let mut cases = vec![fast_unseen];
        cases.extend([slow_third; 8]);
        let mut entries = interleaved(&cases);
        pool(&mut entries, 10, false, 1e9);
        assert_eq!(wanted(&entries), [vec![60], vec![10; 8]].concat());
    }

    /// After the scheduled rounds, for the cases not pooled yet: levels told apart, a faster
    /// level seen once, and noise pool; a lone slow dispatch does not, and a pooled case keeps
    /// the samples it has.
    #[test]
    fn the_late_pool_rule() {
        let quiet: &[f64] = &[100.0, 100.01, 100.02, 100.0, 100.01, 100.02];
        let told_apart: &[f64] = &[125.7, 126.7, 125.7, 126.7, 125.7, 126.7];
        let one_fast: &[f64] = &[126.7, 126.7, 125.7, 126.7, 126.7, 126.7];
        let one_slow: &[f64] = &[125.7, 125.7, 126.7, 125.71, 125.7, 125.7];
        let noisy: &[f64] = &[100.0, 100.6, 99.5, 100.3, 99.8, 100.5];
        let mut cases = vec![told_apart, one_fast, noisy, one_slow];
        cases.extend([quiet; 12]);
        let mut entries = interleaved(&cases);
        for e in &mut entries {
            e.wanted = e.samples_ns.len(); // all their samples collected
        }
        entries[4].samples_ns = told_apart.to_vec();
        entries[4].pooled = true;
        pool(&mut entries, 6, true, 1e9);
        let expected = [vec![36, 36, 36, 6], vec![6; 12]].concat();
        assert_eq!(wanted(&entries), expected);
    }

    #[test]
    fn one_stray_dispatch_is_not_noise() {
        assert!(!noisy(&[100.5, 100.0, 100.01]));
        assert!(!noisy(&[100.0, 100.01, 100.0, 99.99, 100.6, 100.0]));
        // cbuffer{float4} load random on the H200: 0.3-0.5% per dispatch.
        assert!(noisy(&[100.0, 100.5, 99.6]));
        assert!(noisy(&[100.0, 100.6, 99.5, 100.3, 99.8, 100.5]));
        // Six dispatches of `cbuffer{float4} load random` on an H200 (ns per workgroup), which
        // vary by 0.09% without the farthest: over a third of POOL_CV, under half of it.
        assert!(noisy(&[597.24, 598.7, 598.6, 597.01, 597.83, 597.56]));
        // Under a third of POOL_CV without the farthest (0.07%), over a quarter: steady.
        assert!(!noisy(&[100.0, 100.1, 99.92, 100.05, 99.95, 100.4]));
        assert!(!noisy(&[100.0, 100.01, 100.02, 100.0]));
        assert!(!noisy(&[100.0, 101.0]));
    }

    #[test]
    fn a_long_dispatch_collects_fewer_samples() {
        // 2 ms dispatches of one original dispatch's groups (60 of them fit): six times six.
        let big = 4096;
        assert_eq!(pool_samples(6, 2e6, &[2e6, 2.01e6, 2e6], big), 36);
        // 5.6 ms, within three times the target: all 36.
        assert_eq!(pool_samples(6, 2e6, &[5.6e6, 5.6e6, 5.62e6], big), 36);
        // 14.7 ms: 36 * 6 / 14.7.
        assert_eq!(pool_samples(6, 2e6, &[14.7e6, 14.76e6, 14.7e6], big), 15);
        // 30 ms: at least twice six.
        assert_eq!(pool_samples(6, 2e6, &[30e6, 30e6, 30e6], big), 12);
        assert_eq!(pool_samples(6, 2e6, &[], big), 36);
    }

    #[test]
    fn a_pooled_case_fits_in_what_the_peer_spends_on_it() {
        // 2 ms dispatches of 15,360 groups: 60 original dispatches are 16 of them.
        assert_eq!(pool_samples(6, 2e6, &[2e6, 2.01e6, 2e6], 15_360), 16);
        // `cbuffer{float4} load random` on the H100: 8,448 groups in 5.04 ms, 29 fit.
        assert_eq!(pool_samples(6, 2e6, &[5.04e6, 5.05e6, 5.04e6], 8448), 29);
        // A fast case whose budget is under twice six keeps twelve.
        assert_eq!(pool_samples(6, 2e6, &[2e6, 2e6, 2e6], 200_000), 12);
        // No groups known: no budget.
        assert_eq!(pool_samples(6, 2e6, &[2e6, 2e6, 2e6], 0), 36);
    }

    #[test]
    fn a_moment_slower_for_every_case_is_found() {
        // Twelve cases in four rounds; the second round 0.3% slower for all of them.
        let cases: Vec<Vec<f64>> = (1..=12)
            .map(|k| {
                let base = 100.0 * f64::from(k);
                vec![base, base * 1.003, base, base]
            })
            .collect();
        let refs: Vec<&[f64]> = cases.iter().map(|c| c.as_slice()).collect();
        let entries = interleaved(&refs);
        let f = local_factors(&entries);
        // The middle of the second round (dispatches 12-23) has only slow neighbours; the first
        // and last rounds only normal ones.
        for (j, per_case) in f.iter().enumerate() {
            assert_eq!(per_case.len(), 4);
            if (4..8).contains(&j) {
                assert!((per_case[1] - 1.003).abs() < 1e-9, "{j}: {f:?}");
                assert_eq!((per_case[0], per_case[3]), (1.0, 1.0), "{j}: {f:?}");
            }
        }
        // Divided out, a slow-round sample is like the others.
        let a = adjusted(&entries[5].samples_ns, &f[5]);
        assert!((a[1] - 600.0).abs() < 1e-9, "{a:?}");
        // Too few other cases around: no factor.
        assert_eq!(
            local_factors(&interleaved(&[&[1.0, 2.0], &[1.0, 2.0]])),
            vec![vec![1.0; 2]; 2]
        );
        assert!(local_factors(&[]).is_empty());
    }

    /// A case whose dispatches take one of two times 0.8% apart, at random (the H200's
    /// `Texture2D<RGBA16F>.Load random`): the median of a few samples lands on either level, so
    /// it moves by up to 0.8% from run to run. Reported by its fastest level, it is within 0.02%
    /// of it in every run whose first six samples hold a fast one; one whose levels were told
    /// apart lists both.
    #[test]
    fn a_two_mode_case_is_reported_by_its_fastest_level() {
        let s = LoopSettings {
            target_ns: 12e6,
            samples: 6,
            ..settings()
        };
        let case = perftest_cases::original_cases().remove(0);
        let (mut worst_figure, mut worst_median, mut modal, mut blind) = (0.0f64, 0.0f64, 0, 0);
        for seed in 1..=40u32 {
            let stop = AtomicBool::new(false);
            // 2 ms of 4,000 groups: the 36 samples of a pooled case fit the peer's budget.
            let mut gpu = DriftingGpu::new(vec![500.0, 500.0], 0.0);
            gpu.seed = seed.wrapping_mul(2_654_435_761);
            let mut timer = FirstCase {
                gpu,
                factor: |r: u32| if r & 1 == 1 { 1.008 } else { 1.0 },
            };
            let dims = s.split((2e6f64 / 500.0).round() as u64);
            let mut entries = vec![Entry::new(dims, 1, &s), Entry::new(dims, 1, &s)];
            measure_in_rounds(&mut timer, &mut entries, &s, 256, &stop).unwrap();
            let e = &entries[0];
            assert!(!entries[1].pooled);
            let fast = group_total(e.dims) as f64 * 500.0;
            let result = crate::report::CaseResult::measured(&case, e.measurement(&s).unwrap());
            let d = crate::report::Derived::compute(&result, None).unwrap();
            let figure = d.ns_per_group * group_total(e.dims) as f64;
            let first_six = &e.samples_ns[..6];
            if first_six.iter().all(|&t| t > fast * 1.004) {
                blind += 1;
                continue;
            }
            if d.modes.is_multimodal() {
                modal += 1;
                assert!(e.pooled, "seed {seed}");
                assert_eq!(e.samples_ns.len(), 36, "seed {seed}");
                assert_eq!(d.modes.as_slice().len(), 2);
            }
            worst_figure = worst_figure.max((figure / fast - 1.0).abs());
            let median_six = median(first_six).unwrap();
            worst_median = worst_median.max((median_six / fast - 1.0).abs());
        }
        assert!(worst_figure < 0.0002, "fastest level off by {worst_figure}");
        assert!(worst_median > 0.003, "median off by at most {worst_median}");
        assert!(modal >= 20, "levels told apart in {modal} of 40 runs");
        assert!(blind <= 3, "{blind} of 40 runs without a fast sample");
    }

    /// With three placements, round `r` binds placement `r % 3` before its dispatches, and
    /// each sample says which it ran on: a placement 0.1% slower shows in those samples alone.
    /// An entry that does not move says the first.
    #[test]
    fn placements_take_turns_by_round() {
        struct Placed {
            gpu: DriftingGpu,
            now: usize,
            calls: Vec<usize>,
        }
        impl BatchTimer for Placed {
            type Error = String;
            fn time_batch(&mut self, b: &[(usize, [u32; 3])]) -> Result<Vec<f64>, String> {
                let slow = if self.now == 1 { 1.001 } else { 1.0 };
                let t = self.gpu.time_batch(b)?;
                Ok(t.into_iter().map(|v| v * slow).collect())
            }
            fn placements(&self) -> usize {
                3
            }
            fn place(&mut self, placement: usize) -> Result<(), String> {
                self.now = placement;
                self.calls.push(placement);
                Ok(())
            }
            fn moves(&self, entry: usize) -> bool {
                entry != 3
            }
        }
        let s = LoopSettings {
            target_ns: 12e6,
            samples: 6,
            ..settings()
        };
        let mut timer = Placed {
            gpu: DriftingGpu::new(vec![50.0; 4], 0.0),
            now: 0,
            calls: Vec::new(),
        };
        let dims = s.split(40_000);
        let mut entries: Vec<Entry> = (0..4).map(|_| Entry::new(dims, 1, &s)).collect();
        let stop = AtomicBool::new(false);
        measure_in_rounds(&mut timer, &mut entries, &s, 256, &stop).unwrap();
        assert_eq!(timer.calls[..6], [0, 1, 2, 0, 1, 2]);
        // An entry that does not move stays at the first place.
        assert_eq!(entries[3].sample_placements, [0; 6]);
        for e in &entries[..3] {
            assert_eq!(e.sample_placements, [0, 1, 2, 0, 1, 2]);
            let m = e.measurement(&s).unwrap();
            assert_eq!(m.sample_placements, e.sample_placements);
            for (&t, &p) in m.samples_ns.iter().zip(&m.sample_placements) {
                let expected = group_total(dims) as f64 * 50.0 * if p == 1 { 1.001 } else { 1.0 };
                assert!((t / expected - 1.0).abs() < 1e-9);
            }
        }
        // A pooled case's extra samples are spread over the placements too.
        let mut timer = Placed {
            gpu: DriftingGpu::new(vec![50.0; 4], 0.0),
            now: 0,
            calls: Vec::new(),
        };
        let mut entries: Vec<Entry> = (0..4).map(|_| Entry::new(dims, 1, &s)).collect();
        entries[0].wanted = 36;
        measure_in_rounds(&mut timer, &mut entries, &s, 256, &stop).unwrap();
        let places = &entries[0].sample_placements;
        assert_eq!(places.len(), 36);
        for p in 0..3 {
            let n = places.iter().filter(|&&q| q == p).count();
            assert!(
                (10..=14).contains(&n),
                "placement {p}: {n} of 36: {places:?}"
            );
        }
        // One placement: nothing recorded.
        let mut gpu = DriftingGpu::new(vec![50.0; 2], 0.0);
        let mut one: Vec<Entry> = (0..2).map(|_| Entry::new(dims, 1, &s)).collect();
        measure_in_rounds(&mut gpu, &mut one, &s, 256, &stop).unwrap();
        assert!(one[0].measurement(&s).unwrap().sample_placements.is_empty());
    }

    #[test]
    fn a_stop_keeps_what_was_collected() {
        struct StopAfter<'a>(DriftingGpu, &'a AtomicBool, usize);
        impl BatchTimer for StopAfter<'_> {
            type Error = String;
            fn time_batch(&mut self, b: &[(usize, [u32; 3])]) -> Result<Vec<f64>, String> {
                self.2 += 1;
                if self.2 == 4 {
                    self.1.store(true, std::sync::atomic::Ordering::SeqCst);
                }
                self.0.time_batch(b)
            }
        }
        let s = settings();
        let stop = AtomicBool::new(false);
        let mut timer = StopAfter(DriftingGpu::new(vec![30.0; 3], 0.0), &stop, 0);
        let mut entries: Vec<Entry> = (0..3).map(|_| Entry::new([10_000, 6, 1], 1, &s)).collect();
        let r = measure_in_rounds(&mut timer, &mut entries, &s, 256, &stop);
        assert!(matches!(r, Err(LoopError::Interrupted)));
        assert!(entries.iter().all(|e| e.samples_ns.len() == 4));
        assert!(entries[0].measurement(&s).is_some());
    }
}
