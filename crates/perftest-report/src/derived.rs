//! The run report: the schema's data types (from perftest-core, which shares them with the
//! engine probe) and the figures the command derives from them.
//!
//! The report holds raw data only (per-dispatch GPU times); every figure printed from it is
//! derived on demand ([`ReportFigures`]), so a saved JSON report can be re-rendered in any
//! format later.

use crate::clock_steps::at_usual_clock;
use crate::schema::{
    CaseResult, CaseStatus, ClockSamples, Measurement, Report, ORIGINAL_THREADS_PER_GROUP,
};
use perftest_cases::{LOADS_PER_THREAD, THREADS_PER_GROUP};

use crate::modes::{levels_in_time, unconfirmed_fast_level, Mode, Modes, RareLevel, MODE_GAP};
use crate::statistics::{median_interval, Interval, Summary};

/// Above this coefficient of variation (5%) a case is marked noisy.
pub const NOISY_CV: f64 = 0.05;

/// Loads one workgroup performs: 256 threads x 256 loads (textures: 16x16 x 16x16).
pub const LOADS_PER_GROUP: u64 = THREADS_PER_GROUP as u64 * LOADS_PER_THREAD as u64;

/// Workgroups in one of the original's dispatches (4 x 1024).
pub const ORIGINAL_GROUPS_PER_DISPATCH: u64 = 4 * 1024;

/// Dispatches the original timed per case.
pub const ORIGINAL_DISPATCHES: u64 = 30;

/// Figures derived from a measured case (and the baseline case, for `relative`).
///
/// Everything that could be infinite or NaN (division by a zero time) is an `Option`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Derived {
    /// Statistics of the per-dispatch times, in nanoseconds.
    pub summary: Summary,
    /// Nanoseconds per workgroup: of the median dispatch, or of the fastest level when the
    /// samples fall into several levels ([`crate::modes`]: the slower ones are a cost a dispatch
    /// pays once, or not); for a measurement with smaller dispatches (a
    /// pointer chase), the time of one more workgroup ([`marginal_ns_per_group`]).
    pub ns_per_group: f64,
    /// The levels the dispatch times fall into, in nanoseconds per workgroup, with their
    /// shares: empty (and left out of JSON) unless there are two or more.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Modes::is_unimodal"))]
    pub modes: Modes,
    /// Where the true `ns_per_group` lies with 95% confidence (90% for a chain), from the
    /// samples it comes from ([`figure_interval`]); `None` (and left out of JSON) with fewer
    /// than six of them (for a modal case, six in its fastest level).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub interval: Option<Interval>,
    /// A level faster than the figure that too few dispatches took to be a mode
    /// ([`unconfirmed_fast_level`]): the median of its samples in nanoseconds per workgroup,
    /// and their share of the samples. Another run may report it, and the interval reaches
    /// down to where that run may put it. `None` (and left out of JSON) otherwise, and for a
    /// chain.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub faster_level: Option<Mode>,
    /// Loads (or the case's unit: stores, atomics) per second: `groups * 65536 / median`, or
    /// the case's own `ops_per_group` instead of 65536.
    pub loads_per_s: Option<f64>,
    /// Bytes loaded per second: `loads_per_s * bytes_per_load`.
    pub bytes_per_s: Option<f64>,
    /// The original's `ms` column: the time its 30 dispatches of 4x1024 groups of 256 threads
    /// would take at the measured time per workgroup (scaled to 256 threads where the case's
    /// groups have another count).
    pub original_ms: f64,
    /// The original's `x` column: baseline `original_ms` / this case's `original_ms`
    /// (higher is faster). `None` when the baseline was not measured.
    pub relative: Option<f64>,
    /// CV above [`NOISY_CV`]: of the samples, or for a chain measured at two sizes of either
    /// size's.
    pub noisy: bool,
}

impl Derived {
    /// Derives the figures of `case`, relative to `baseline` when given, from all its samples
    /// (a case on its own; a report's cases are derived by [`ReportFigures`], which also leaves
    /// out the samples taken on another clock step).
    ///
    /// `None` when the case was not measured, has no samples, no groups, or samples that
    /// [`Summary::of`] refuses.
    pub fn compute(case: &CaseResult, baseline: Option<&CaseResult>) -> Option<Derived> {
        let baseline_ms = baseline
            .and_then(|b| Derived::compute(b, None))
            .map(|b| b.original_ms);
        Derived::against(case, baseline_ms, None)
    }

    /// Derives the figures of `case`, relative to a baseline whose `original_ms` is given (so
    /// the baseline's own figures are computed once per report, not once per case), from the
    /// samples taken at the run's usual shader clock when `clock` (the run's readings) says
    /// some were not ([`at_usual_clock`]).
    fn against(
        case: &CaseResult,
        baseline_ms: Option<f64>,
        clock: Option<&ClockSamples>,
    ) -> Option<Derived> {
        if case.status != CaseStatus::Measured {
            return None;
        }
        let recorded = case.measurement.as_ref()?;
        let usual = clock
            .and_then(|c| at_usual_clock(c, &recorded.seqs))
            .map(|keep| kept_samples(recorded, &keep));
        let measurement = usual.as_ref().unwrap_or(recorded);
        if measurement.groups == 0 {
            return None;
        }
        let summary = Summary::of(&measurement.samples_ns)?;
        let per_group = case.ops_per_group.unwrap_or(LOADS_PER_GROUP) as f64;
        let groups = measurement.groups as f64;
        let levels = levels_in_time(&measurement.samples_ns, &measurement.seqs);
        // A chain's figure stays the difference of the medians: its two dispatch sizes need not
        // show the same levels.
        let central = levels.fastest().map_or(summary.median, |fast| fast.center);
        let marginal = marginal_ns_per_group(measurement, summary.median);
        let faster = marginal
            .is_none()
            .then(|| unconfirmed_fast_level(&measurement.samples_ns, &measurement.seqs))
            .flatten();
        let interval = figure_interval(measurement, &levels, faster, marginal.is_some());
        let (ns_per_group, loads_per_s) = match marginal {
            Some(marginal) => (marginal, per_group / (marginal * 1e-9)),
            None => (central / groups, groups * per_group / (central * 1e-9)),
        };
        let loads_per_s = finite_positive(loads_per_s);
        let bytes_per_s = loads_per_s
            .map(|l| l * f64::from(case.bytes_per_load))
            .and_then(finite_positive);
        // The original's workgroups have 256 threads: a case whose groups have another count
        // is scaled to the time 256 of its threads take.
        let threads = f64::from(case.threads_per_group.unwrap_or(ORIGINAL_THREADS_PER_GROUP));
        let per_original_group = ns_per_group * f64::from(ORIGINAL_THREADS_PER_GROUP) / threads;
        let original_ms =
            per_original_group * (ORIGINAL_GROUPS_PER_DISPATCH * ORIGINAL_DISPATCHES) as f64 / 1e6;
        let relative = baseline_ms.and_then(|b| finite_positive(b / original_ms));
        Some(Derived {
            summary,
            ns_per_group,
            modes: levels.scaled(1.0 / groups),
            interval,
            faster_level: faster.map(|level| Mode {
                center: level.center / groups,
                share: level.share,
            }),
            loads_per_s,
            bytes_per_s,
            original_ms,
            relative,
            noisy: summary.cv > NOISY_CV || short_cv(measurement, marginal) > NOISY_CV,
        })
    }
}

/// Whether two figures of one case differ by which level of its dispatches each run reported:
/// they are more than [`MODE_GAP`] apart, and one run saw the other's figure as a level of its
/// own dispatches, within [`MODE_GAP`]: a slower mode beside the fastest it reports, or the
/// faster level it took too rarely to report ([`Derived::faster_level`]). Such a change is the
/// share of a per-dispatch cost, not the work.
pub fn other_level(a: &Derived, b: &Derived) -> bool {
    let near = |level: f64, figure: f64| (level / figure - 1.0).abs() <= MODE_GAP;
    let saw = |run: &Derived, figure: f64| {
        run.faster_level.is_some_and(|f| near(f.center, figure))
            || run.modes.as_slice().iter().any(|m| near(m.center, figure))
    };
    !near(a.ns_per_group, b.ns_per_group) && (saw(a, b.ns_per_group) || saw(b, a.ns_per_group))
}

/// `measurement` with only the samples `keep` marks (their places and placements with them).
fn kept_samples(measurement: &Measurement, keep: &[bool]) -> Measurement {
    let mut kept = measurement.clone();
    kept.samples_ns = filtered(&measurement.samples_ns, keep);
    kept.seqs = filtered(&measurement.seqs, keep);
    if measurement.sample_placements.len() == keep.len() {
        kept.sample_placements = filtered(&measurement.sample_placements, keep);
    }
    kept
}

/// The items of `items` that `keep` marks.
fn filtered<T: Copy>(items: &[T], keep: &[bool]) -> Vec<T> {
    items
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(&item, _)| item)
        .collect()
}

/// The time of one more workgroup, from a measurement with smaller dispatches
/// ([`Measurement::short`]): the difference of the two medians over the difference of the
/// group counts, so whatever every dispatch pays once cancels. `None` without smaller
/// dispatches, or when the difference is not a positive time (noise larger than the work).
pub fn marginal_ns_per_group(measurement: &Measurement, median_ns: f64) -> Option<f64> {
    let short = measurement.short.as_ref()?;
    let short_median = Summary::of(&short.samples_ns)?.median;
    let extra_groups = measurement
        .groups
        .checked_sub(short.groups)
        .filter(|&g| g > 0)?;
    finite_positive((median_ns - short_median) / extra_groups as f64)
}

/// The CV of a chain's smaller dispatches, where its figure is the difference of the two sizes
/// (`marginal`); 0 otherwise. Its figure rests on both medians, so either set's spread makes
/// it noisy.
fn short_cv(measurement: &Measurement, marginal: Option<f64>) -> f64 {
    marginal
        .and(measurement.short.as_ref())
        .and_then(|short| Summary::of(&short.samples_ns))
        .map_or(0.0, |s| s.cv)
}

/// Where a case's true figure (nanoseconds per workgroup) lies with 95% confidence: the
/// [`median_interval`] of the samples its figure is the median of, per workgroup.
/// - One level: all samples.
/// - Several levels ([`levels_in_time`]): the fastest level's samples, the smallest ones.
/// - Either way, down to the lower bound of `faster`, a faster level that too few samples took
///   to be a mode ([`unconfirmed_fast_level`]): another run may report it.
/// - A chain whose figure is the difference of two dispatch sizes (`chain`: its
///   [`marginal_ns_per_group`] is the figure): from the lower bound of the large dispatches less
///   the upper bound of the small ones to the other way round, over the extra groups. Both
///   intervals hold their medians together with at least 90% (0.95 x 0.95), so that is the
///   chain's confidence.
///
/// `None` when the samples it needs are fewer than six.
pub fn figure_interval(
    measurement: &Measurement,
    levels: &Modes,
    faster: Option<RareLevel>,
    chain: bool,
) -> Option<Interval> {
    let groups = measurement.groups as f64;
    if let Some(short) = measurement.short.as_ref().filter(|_| chain) {
        let long = median_interval(&measurement.samples_ns)?;
        let short_interval = median_interval(&short.samples_ns)?;
        let extra = measurement
            .groups
            .checked_sub(short.groups)
            .filter(|&g| g > 0)? as f64;
        return Some(Interval {
            low: (long.low - short_interval.high) / extra,
            high: (long.high - short_interval.low) / extra,
        });
    }
    let interval = match levels.fastest() {
        Some(fast) => {
            let mut sorted = measurement.samples_ns.clone();
            sorted.sort_by(f64::total_cmp);
            let count = (fast.share * sorted.len() as f64).round() as usize;
            median_interval(sorted.get(..count)?)
        }
        None => median_interval(&measurement.samples_ns),
    }?;
    let low = faster.map_or(interval.low, |fast| interval.low.min(fast.low));
    Some(Interval { low, ..interval }.scaled(1.0 / groups))
}

/// The time every dispatch of `measurement` pays once, from its smaller dispatches: the median
/// less its groups at [`marginal_ns_per_group`] (for a pointer chase, the lap that refills the
/// L1); `None` without smaller dispatches.
pub fn fixed_ns_per_dispatch(measurement: &Measurement) -> Option<f64> {
    let median = Summary::of(&measurement.samples_ns)?.median;
    let per_group = marginal_ns_per_group(measurement, median)?;
    Some(median - per_group * measurement.groups as f64)
}

/// `Some(value)` for a finite, positive value.
fn finite_positive(value: f64) -> Option<f64> {
    (value.is_finite() && value > 0.0).then_some(value)
}

/// The shader units a report's rates per unit use: the count the user gave, else the driver's;
/// `None` when neither is known (or is 0).
pub fn shader_units(report: &Report) -> Option<u32> {
    report
        .settings
        .shader_units
        .or(report.device.shader_units)
        .filter(|&u| u > 0)
}

/// What a vendor calls its shader units, singular and plural: SMs (NVIDIA), CUs (AMD), cores
/// (Arm), units (any other).
pub fn unit_words(vendor_id: u32) -> (&'static str, &'static str) {
    match vendor_id {
        0x10de => ("SM", "SMs"),
        0x1002 => ("CU", "CUs"),
        0x13b5 => ("core", "cores"),
        _ => ("unit", "units"),
    }
}

/// The figures derived from a report's samples (statistics are the command's policy, so they
/// live here rather than with the data types in perftest-core), each case's from the samples
/// taken at the run's usual shader clock ([`crate::clock_steps`]).
pub trait ReportFigures {
    /// The derived figures of `case` against this report's baseline.
    fn derived(&self, case: &CaseResult) -> Option<Derived>;

    /// The derived figures of every case, in order (`None` for cases not measured), in time
    /// linear in the number of cases and samples.
    fn derived_all(&self) -> Vec<Option<Derived>>;
}

impl ReportFigures for Report {
    /// The derived figures of `case` against this report's baseline.
    fn derived(&self, case: &CaseResult) -> Option<Derived> {
        Derived::against(case, baseline_ms(self), self.clock.as_ref())
    }

    /// The derived figures of every case, in order (`None` for cases not measured), in time
    /// linear in the number of cases and samples.
    fn derived_all(&self) -> Vec<Option<Derived>> {
        let baseline_ms = baseline_ms(self);
        self.cases
            .iter()
            .map(|c| Derived::against(c, baseline_ms, self.clock.as_ref()))
            .collect()
    }
}

/// Derives cases of one report, its baseline looked up once: for code that derives only some
/// of a report's cases, each in constant time ([`ReportFigures::derived`] looks the baseline
/// up per call, [`ReportFigures::derived_all`] derives every case).
pub struct Deriver<'a> {
    baseline_ms: Option<f64>,
    clock: Option<&'a ClockSamples>,
}

impl<'a> Deriver<'a> {
    /// The deriver of `report`'s cases.
    pub fn of(report: &'a Report) -> Deriver<'a> {
        Deriver {
            baseline_ms: baseline_ms(report),
            clock: report.clock.as_ref(),
        }
    }

    /// The derived figures of `case`, one of the report's cases.
    pub fn derive(&self, case: &CaseResult) -> Option<Derived> {
        Derived::against(case, self.baseline_ms, self.clock)
    }
}

/// The `original_ms` of `report`'s baseline case, derived as every case of the report is.
fn baseline_ms(report: &Report) -> Option<f64> {
    report
        .baseline()
        .and_then(|b| Derived::against(b, None, report.clock.as_ref()))
        .map(|b| b.original_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{case, device, measurement, sample_report, settings};
    use crate::schema::{ShortDispatches, SCHEMA};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
    }

    /// Two runs of a modal case: one reported its faster level, the other took it too rarely
    /// and reported the slower one; or reported the slower one that the first saw as a mode.
    #[test]
    fn runs_that_reported_different_levels() {
        let derive = |samples: &[f64]| {
            let m = measurement(1000, samples);
            Derived::compute(&CaseResult::measured(&case("typed.r8.uniform"), m), None).unwrap()
        };
        let levels = |fast: usize, n: usize| {
            (0..n)
                .map(|i| if i < fast { 125.7e3 } else { 126.7e3 })
                .collect::<Vec<f64>>()
        };
        let fast = derive(&levels(14, 36)); // a mode: reported by it
        let rare = derive(&levels(5, 36)); // too rare: the median, with a faster level
        let slow = derive(&levels(0, 6)); // never seen
        assert!(close(fast.ns_per_group, 125.7) && close(rare.ns_per_group, 126.7));
        assert!(rare.faster_level.is_some() && fast.modes.is_multimodal());
        assert!(other_level(&fast, &rare) && other_level(&rare, &fast));
        // The run that never saw the faster level: the other saw its figure as a slower mode.
        assert!(other_level(&fast, &slow) && other_level(&slow, &fast));
        // Two runs at the same level, and a change no run saw as a level.
        assert!(!other_level(&rare, &slow));
        let elsewhere = derive(&[127.5e3; 6]);
        assert!(!other_level(&fast, &elsewhere) && !other_level(&slow, &elsewhere));
    }

    /// The interval of a figure comes from the samples the figure is the median of.
    #[test]
    fn the_interval_follows_the_figure() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        // One level: all samples (six: the smallest to the largest), per workgroup.
        let one = measurement(1000, &[1.01e5, 1.0e5, 1.04e5, 1.02e5, 1.05e5, 1.03e5]);
        let i = figure_interval(&one, &crate::modes::modes(&one.samples_ns), None, false).unwrap();
        assert!(close(i.low, 100.0) && close(i.high, 105.0), "{i:?}");
        // Two levels: the fastest level's six samples, not the slow ones.
        let mut samples = vec![1.000e5, 1.001e5, 1.002e5, 1.003e5, 1.004e5, 1.005e5];
        samples.extend([1.02e5; 6]);
        let two = measurement(1000, &samples);
        let levels = crate::modes::modes(&two.samples_ns);
        assert!(levels.is_multimodal());
        let i = figure_interval(&two, &levels, None, false).unwrap();
        assert!(close(i.low, 100.0) && close(i.high, 100.5), "{i:?}");
        // A faster level in too few samples for a mode: the figure stays the median, and the
        // interval reaches down to that level.
        let mut samples = vec![1.02e5; 30];
        samples.extend([1.0e5, 1.0001e5]);
        let rare = measurement(1000, &samples);
        let d =
            Derived::compute(&CaseResult::measured(&case("typed.r8.uniform"), rare), None).unwrap();
        assert!(d.modes.is_unimodal());
        assert!(close(d.ns_per_group, 102.0), "{d:?}");
        let i = d.interval.unwrap();
        assert!(close(i.low, 100.0) && close(i.high, 102.0), "{i:?}");
        assert!(
            d.faster_level
                .is_some_and(|f| close(f.center, 100.005) && close(f.share, 2.0 / 32.0)),
            "{d:?}"
        );
        // A fast level of four samples is too few for an interval.
        let few = measurement(1000, &[1.0e5, 1.0e5, 1.0e5, 1.0e5, 1.02e5, 1.02e5, 1.02e5]);
        assert_eq!(
            figure_interval(&few, &crate::modes::modes(&few.samples_ns), None, false),
            None
        );
        // Two dispatch sizes: the widest difference of the two intervals over the extra groups.
        let mut chain = measurement(2000, &[2.15e6, 2.14e6, 2.16e6, 2.15e6, 2.15e6, 2.15e6]);
        chain.short = Some(ShortDispatches {
            groups: 1000,
            dims: [1000, 1, 1],
            samples_ns: vec![1.15e6, 1.15e6, 1.14e6, 1.16e6, 1.15e6, 1.15e6],
        });
        let i = figure_interval(&chain, &Modes::default(), None, true).unwrap();
        assert!(close(i.low, 980.0) && close(i.high, 1020.0), "{i:?}");
        // A chain whose smaller dispatches are not faster has the median of its dispatches as
        // its figure, and so that median's interval.
        if let Some(short) = chain.short.as_mut() {
            short.samples_ns = vec![2.2e6; 6];
        }
        let d = Derived::compute(
            &CaseResult::measured(&case("typed.r8.uniform"), chain),
            None,
        )
        .unwrap();
        assert!(close(d.ns_per_group, 2.15e6 / 2000.0), "{}", d.ns_per_group);
        let i = d.interval.unwrap();
        assert!(
            close(i.low, 2.14e6 / 2000.0) && close(i.high, 2.16e6 / 2000.0),
            "{i:?}"
        );
        let d = Derived::compute(&CaseResult::measured(&case("typed.r8.uniform"), one), None);
        assert!(close(d.unwrap().interval.unwrap().high, 105.0));
    }

    #[test]
    fn smaller_dispatches_cancel_what_every_dispatch_pays() {
        // 2000 groups at 1 us each plus 150 us per dispatch (a chase's L1 refill), and 1000.
        let mut m = measurement(2000, &[2.15e6, 2.15e6, 2.16e6]);
        m.short = Some(ShortDispatches {
            groups: 1000,
            dims: [1000, 1, 1],
            samples_ns: vec![1.15e6, 1.15e6, 1.14e6],
        });
        assert!((marginal_ns_per_group(&m, 2.15e6).unwrap() - 1000.0).abs() < 1e-9);
        assert!((fixed_ns_per_dispatch(&m).unwrap() - 150e3).abs() < 1e-6);
        let mut chase = CaseResult::measured(&case("typed.r8.uniform"), m.clone());
        chase.ops_per_group = Some(256);
        let d = Derived::compute(&chase, None).unwrap();
        assert!((d.ns_per_group - 1000.0).abs() < 1e-9);
        assert!((d.loads_per_s.unwrap() - 256e6).abs() < 1.0);
        assert!(!d.noisy);
        // Steady large dispatches beside small ones that vary by 15%: the figure is noisy.
        let mut shaky = chase.clone();
        let short = shaky.measurement.as_mut().unwrap().short.as_mut().unwrap();
        short.samples_ns = vec![1.15e6, 0.95e6, 1.3e6, 1.0e6];
        assert!(Derived::compute(&shaky, None).unwrap().noisy);
        // Noise larger than the work: no marginal figure, the plain median per group instead.
        m.short.as_mut().unwrap().samples_ns = vec![2.2e6];
        assert_eq!(marginal_ns_per_group(&m, 2.15e6), None);
        let plain = CaseResult::measured(&case("typed.r8.uniform"), m);
        assert!((Derived::compute(&plain, None).unwrap().ns_per_group - 1075.0).abs() < 1e-9);
    }

    #[test]
    fn derived_figures() {
        let report = sample_report();
        let baseline = report.derived(&report.cases[1]).unwrap();
        assert_eq!(baseline.ns_per_group, 20_000.0);
        assert!(
            close(baseline.original_ms, 2457.6),
            "{}",
            baseline.original_ms
        );
        assert_eq!(baseline.relative, Some(1.0));
        let loads = baseline.loads_per_s.unwrap();
        assert!(close(loads, 1000.0 * 65536.0 / 0.02), "{loads}");
        assert!(close(baseline.bytes_per_s.unwrap(), loads * 4.0));
        assert!(!baseline.noisy); // CV = 1e6 / 20e6 = 0.05, not above

        let fast = report.derived(&report.cases[0]).unwrap();
        assert_eq!(fast.ns_per_group, 5_000.0);
        assert!(close(fast.original_ms, 614.4), "{}", fast.original_ms);
        assert!(close(fast.relative.unwrap(), 4.0));
        assert!(close(fast.bytes_per_s.unwrap(), fast.loads_per_s.unwrap()));
        assert!(!fast.noisy);

        let noisy = report.derived(&report.cases[2]).unwrap();
        assert!(close(noisy.summary.cv, 0.5));
        assert!(noisy.noisy);
        assert!(close(noisy.relative.unwrap(), 2.0));
        assert!(close(
            noisy.bytes_per_s.unwrap(),
            noisy.loads_per_s.unwrap() * 16.0
        ));

        assert_eq!(report.derived(&report.cases[3]), None);
        assert_eq!(report.derived(&report.cases[4]), None);
        assert_eq!(
            report.derived_all().iter().filter(|d| d.is_some()).count(),
            3
        );
    }

    /// A case whose workgroups have 64 threads does a quarter of an original group's work per
    /// group: its `ms` and `x` are those of 256 of its threads.
    #[test]
    fn other_workgroup_sizes_are_scaled_to_256_threads() {
        let mut report = sample_report();
        let mut small = report.cases[1].clone();
        small.threads_per_group = Some(64);
        small.ops_per_group = Some(64 * 256);
        report.cases.push(small);
        let same_groups = report.derived(&report.cases[1]).unwrap();
        let small = report.derived(report.cases.last().unwrap()).unwrap();
        assert_eq!(small.ns_per_group, same_groups.ns_per_group);
        assert!(close(small.original_ms, 4.0 * same_groups.original_ms));
        assert!(close(small.relative.unwrap(), 0.25));
        assert!(close(
            small.loads_per_s.unwrap(),
            same_groups.loads_per_s.unwrap() / 4.0
        ));
    }

    #[test]
    fn relative_needs_a_measured_baseline() {
        let mut report = sample_report();
        report.cases[1] = CaseResult::skipped(&case("typed.rgba8.random"), "no RGBA8");
        let fast = report.derived(&report.cases[0]).unwrap();
        assert_eq!(fast.relative, None);
        assert!(close(fast.original_ms, 614.4));
        report.cases.remove(1);
        assert_eq!(report.derived(&report.cases[0]).unwrap().relative, None);
    }

    #[test]
    fn degenerate_measurements_give_no_nan() {
        let c = case("typed.r8.uniform");
        let zero_time = CaseResult::measured(&c, measurement(10, &[0.0, 0.0]));
        let d = Derived::compute(&zero_time, Some(&zero_time)).unwrap();
        assert_eq!((d.ns_per_group, d.original_ms), (0.0, 0.0));
        assert_eq!(
            (d.loads_per_s, d.bytes_per_s, d.relative),
            (None, None, None)
        );
        let no_groups = CaseResult::measured(&c, measurement(0, &[5.0]));
        assert_eq!(Derived::compute(&no_groups, None), None);
        let no_samples = CaseResult::measured(&c, measurement(10, &[]));
        assert_eq!(Derived::compute(&no_samples, None), None);
        let nan = CaseResult::measured(&c, measurement(10, &[f64::NAN]));
        assert_eq!(Derived::compute(&nan, None), None);
        let mut missing = CaseResult::measured(&c, measurement(10, &[5.0]));
        missing.measurement = None;
        assert_eq!(Derived::compute(&missing, None), None);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_layout_and_round_trip() {
        let report = sample_report();
        let text = serde_json::to_string(&report).unwrap();
        assert!(text.contains(r#""schema":"perftest-report/1""#), "{text}");
        assert!(text.contains(r#""status":"measured""#), "{text}");
        assert!(
            text.contains(r#""status":"skipped","reason":"R8 sampled image not supported""#),
            "{text}"
        );
        assert!(text.contains(r#""family":"texture_load""#), "{text}");
        assert!(text.contains(r#""suite":"original""#), "{text}");
        assert!(text.contains(r#""suites":["original"]"#), "{text}");
        let back: Report = serde_json::from_str(&text).unwrap();
        assert_eq!(back, report);
    }

    /// Reports written before suites existed have neither field and still load.
    #[cfg(feature = "serde")]
    #[test]
    fn reports_without_suites_load() {
        let report = sample_report();
        let mut value = serde_json::to_value(&report).unwrap();
        value["settings"].as_object_mut().unwrap().remove("suites");
        for case in value["cases"].as_array_mut().unwrap() {
            case.as_object_mut().unwrap().remove("suite");
        }
        let text = value.to_string();
        assert!(!text.contains("suite"), "{text}");
        let back: Report = serde_json::from_str(&text).unwrap();
        assert!(back.settings.suites.is_empty());
        assert!(back.cases.iter().all(|c| c.suite.is_none()));
        assert_eq!(back.cases.len(), report.cases.len());
    }

    #[test]
    fn constructors() {
        let mut report = Report::begin(device(), settings());
        assert_eq!(report.schema, SCHEMA);
        assert_eq!(report.baseline_id, "typed.rgba8.random");
        assert!(!report.complete);
        assert_eq!(report.started_at.len(), 20);
        assert!(report.finished_at.is_empty());
        report.finish(true);
        assert!(report.complete);
        assert!(report.finished_at.ends_with('Z'));
        let r = CaseResult::skipped(&case("raw.load3.linear"), "x");
        assert_eq!((r.family.as_str(), r.bytes_per_load), ("raw_buffer", 12));
        assert_eq!(
            (r.status.label(), r.status.reason()),
            ("skipped", Some("x"))
        );
        assert_eq!(CaseStatus::Measured.reason(), None);
    }
}
