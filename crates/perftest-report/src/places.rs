//! Where a case's data lies, for a case whose data has several places (identical copies in
//! one buffer): the place its samples are taken at.
//!
//! On some GPUs where a buffer lies sets how fast it is read, by more than any noise of the
//! dispatches, by a hash of the address of the 32 KB granule of memory it lies in (the
//! measurement chapter gives the evidence). The process sets the
//! addresses, so one run would read the fast speed and another the slow one, and whichever a
//! run got would decide a ranking of resource types. So, like a case whose dispatches take one
//! of two levels, such a case reports what its loads cost where nothing gets in their way: each
//! place is probed with dispatches of half the measurement's size, and the samples are taken at
//! the fastest place when it is faster than the first by more than [`PLACE_MARGIN`], else at
//! the first (differences within that margin are noise, and would move a figure between places
//! from run to run). The probes go into the report, so that the slower places are told too.
//!
//! Generic over [`PlaceTimer`], so that it is unit-tested with a simulated GPU.

use std::sync::atomic::AtomicBool;

use crate::derived::NOISY_CV;
use crate::policy::{check_stop, DispatchTimer, LoopError, LoopSettings};
use crate::schema::DataPlaces;
use crate::sizing::group_total;

/// How much faster than the first place another place must probe to be chosen: 3%, several
/// times the spread of one dispatch and far less than what a place can change.
pub const PLACE_MARGIN: f64 = 0.03;

/// Probe dispatches hold the measurement's workgroups divided by this (in whole waves where the
/// wave is known): a place's cost is a cost per load, so half the work shows it as well, at
/// half the time.
pub const PROBE_SHARE_DIVISOR: u64 = 2;

/// The size of the probe dispatches for a measurement of `dims`: [`PROBE_SHARE_DIVISOR`] times
/// fewer workgroups, laid out by `settings` (whole waves where the wave is known), at least one.
pub fn probe_dims(settings: &LoopSettings, dims: [u32; 3]) -> [u32; 3] {
    settings.split((group_total(dims) / PROBE_SHARE_DIVISOR).max(1))
}

/// A [`DispatchTimer`] whose case's data has several places and can be moved between them
/// (perftest-core's `Bench::put_data` in the real program).
pub trait PlaceTimer: DispatchTimer {
    /// How many places the case's data has (1: nothing to choose).
    fn places(&self) -> usize;
    /// Makes the following dispatches read the data at place `place` (from 0).
    fn put(&mut self, place: usize) -> Result<(), Self::Error>;
}

/// What [`choose_place`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaceChoice {
    /// The fastest probe dispatch at each place, ns (0 where no probe returned a time).
    pub probe_ns: Vec<f64>,
    /// The place the samples are to be taken at.
    pub place: usize,
    /// Probe dispatches run.
    pub dispatches: u32,
}

/// Whether a probe is a time (positive and finite).
fn usable(t: f64) -> bool {
    t.is_finite() && t > 0.0
}

/// The place to take the samples at, from the fastest probe at each place (`fastest_ns`):
/// the fastest place when its probe is more than [`PLACE_MARGIN`] below the first place's,
/// else the first. Probes that are not a positive time are left out; with no usable first
/// probe, the first place.
pub fn chosen_place(fastest_ns: &[f64]) -> usize {
    let Some(&first) = fastest_ns.first().filter(|&&t| usable(t)) else {
        return 0;
    };
    let fastest = fastest_ns
        .iter()
        .enumerate()
        .filter(|&(_, &t)| usable(t))
        .min_by(|a, b| a.1.total_cmp(b.1));
    match fastest {
        Some((i, &t)) if t < first * (1.0 - PLACE_MARGIN) => i,
        _ => 0,
    }
}

/// The places whose probe took longer than the chosen place's by more than [`PLACE_MARGIN`]
/// and more than three times `cv` (how much the case's samples vary, as a share of their mean):
/// each one's byte offset and how much longer (0.104: 10.4%). Empty when where the data lay
/// did not matter, or the probes cannot tell: among them, for a case whose samples vary by more
/// than [`NOISY_CV`] (a CPU driver's), whose probes differ by chance.
pub fn slower_places(places: &DataPlaces, cv: f64) -> Vec<(u64, f64)> {
    if cv.is_nan() || cv > NOISY_CV {
        return Vec::new();
    }
    let threshold = PLACE_MARGIN.max(3.0 * cv);
    let Some(&chosen) = places
        .probe_ns
        .get(places.place as usize)
        .filter(|&&t| usable(t))
    else {
        return Vec::new();
    };
    places
        .offsets
        .iter()
        .zip(&places.probe_ns)
        .filter(|&(_, &t)| usable(t))
        .map(|(&offset, &t)| (offset, t / chosen - 1.0))
        .filter(|&(_, longer)| longer.is_finite() && longer > threshold)
        .collect()
}

/// Whether a change between two runs of a case may be where its data lay rather than the work:
/// one run chose among its data's places and some place was slower there ([`slower_places`],
/// with `cv_a` and `cv_b` how much each run's samples vary), while the other has no places (a
/// report from before them, which read the data wherever it lay). Two runs that both chose
/// were both measured at a place within [`PLACE_MARGIN`] of their fastest, whatever offsets
/// their buffers gave those places, so they are not told apart.
pub fn other_place(
    (a, cv_a): (Option<&DataPlaces>, f64),
    (b, cv_b): (Option<&DataPlaces>, f64),
) -> bool {
    let mattered = |p: &DataPlaces, cv: f64| !slower_places(p, cv).is_empty();
    match (a, b) {
        (Some(p), None) => mattered(p, cv_a),
        (None, Some(p)) => mattered(p, cv_b),
        _ => false,
    }
}

/// Probes every place of the timer's case with one dispatch of [`probe_dims`] for a
/// measurement of `dims` workgroups laid out by `settings`, and where
/// another place than the first would be chosen, one more at both (so that one stray dispatch
/// at the first place does not move the case); then puts the data at the chosen place
/// ([`chosen_place`]). `None` when the data has one place.
pub fn choose_place<T: PlaceTimer>(
    timer: &mut T,
    (settings, dims): (&LoopSettings, [u32; 3]),
    stop: &AtomicBool,
) -> Result<Option<PlaceChoice>, LoopError<T::Error>> {
    let places = timer.places();
    if places < 2 {
        return Ok(None);
    }
    let dims = probe_dims(settings, dims);
    let mut choice = PlaceChoice {
        probe_ns: vec![f64::INFINITY; places],
        place: 0,
        dispatches: 0,
    };
    for place in 0..places {
        probe(timer, dims, place, &mut choice, stop)?;
    }
    let first_pick = chosen_place(&choice.probe_ns);
    if first_pick != 0 {
        probe(timer, dims, 0, &mut choice, stop)?;
        probe(timer, dims, first_pick, &mut choice, stop)?;
    }
    for t in &mut choice.probe_ns {
        if !t.is_finite() {
            *t = 0.0;
        }
    }
    choice.place = chosen_place(&choice.probe_ns);
    timer.put(choice.place).map_err(LoopError::Timer)?;
    Ok(Some(choice))
}

/// One probe dispatch at `place`, kept in `choice` when it is the place's fastest.
fn probe<T: PlaceTimer>(
    timer: &mut T,
    dims: [u32; 3],
    place: usize,
    choice: &mut PlaceChoice,
    stop: &AtomicBool,
) -> Result<(), LoopError<T::Error>> {
    check_stop(stop)?;
    timer.put(place).map_err(LoopError::Timer)?;
    let times = timer.time(dims, 1).map_err(LoopError::Timer)?;
    choice.dispatches += 1;
    for t in times.into_iter().filter(|&t| usable(t)) {
        choice.probe_ns[place] = choice.probe_ns[place].min(t);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_place_when_clearly_faster_than_the_first() {
        // The H200's uniform buffer: 658 ns at the first place, 596 at the second and fourth.
        assert_eq!(chosen_place(&[658.0, 596.0, 659.0, 595.0]), 3);
        assert_eq!(chosen_place(&[658.0, 596.0, 659.0, 597.0]), 1);
    }

    #[test]
    fn the_first_place_within_the_margin_or_when_fastest() {
        assert_eq!(chosen_place(&[100.0, 98.0, 97.5, 99.0]), 0);
        assert_eq!(chosen_place(&[100.0, 97.1, 101.0, 130.0]), 0);
        assert_eq!(chosen_place(&[100.0, 96.9, 101.0, 130.0]), 1);
        assert_eq!(chosen_place(&[90.0, 100.0, 100.0, 100.0]), 0);
        assert_eq!(chosen_place(&[100.0]), 0);
        assert_eq!(chosen_place(&[]), 0);
    }

    #[test]
    fn unusable_probes_are_left_out() {
        assert_eq!(chosen_place(&[0.0, 50.0]), 0);
        assert_eq!(chosen_place(&[f64::NAN, 50.0]), 0);
        assert_eq!(chosen_place(&[100.0, 0.0, f64::NAN, -5.0, 90.0]), 4);
        assert_eq!(chosen_place(&[100.0, f64::INFINITY]), 0);
    }

    #[test]
    fn the_slower_places_are_those_beyond_the_margin() {
        let places = DataPlaces {
            offsets: vec![0, 32768, 65536, 98304],
            probe_ns: vec![658.0, 596.0, 659.0, 610.0],
            place: 1,
        };
        let slower = slower_places(&places, 0.005);
        assert_eq!(slower.len(), 2, "{slower:?}");
        // As noisy as lavapipe (a CV of 20%), 10% between places says nothing.
        assert!(slower_places(&places, 0.2).is_empty());
        let noisier = slower_places(&places, 0.035);
        assert_eq!(noisier.len(), 1, "only 10.57% is over 10.5%: {noisier:?}");
        assert_eq!(noisier[0].0, 65536);
        assert_eq!(slower[0].0, 0);
        assert!((slower[0].1 - (658.0 / 596.0 - 1.0)).abs() < 1e-12);
        assert_eq!(slower[1].0, 65536);
        let even = DataPlaces {
            probe_ns: vec![100.0, 101.0, 102.9, 0.0],
            place: 0,
            ..places.clone()
        };
        assert!(slower_places(&even, 0.0).is_empty());
        let unusable = DataPlaces { place: 3, ..even };
        assert!(slower_places(&unusable, 0.0).is_empty());
        let out_of_range = DataPlaces { place: 9, ..places };
        assert!(slower_places(&out_of_range, 0.0).is_empty());
    }

    #[test]
    fn other_places_are_those_that_mattered() {
        let fast_first = DataPlaces {
            offsets: vec![0, 32768, 65536, 98304],
            probe_ns: vec![596.0, 660.0, 597.0, 596.0],
            place: 0,
        };
        let moved = DataPlaces {
            offsets: vec![16384, 49152, 81920, 114688],
            probe_ns: vec![658.0, 597.0, 659.0, 596.0],
            place: 3,
        };
        let even = DataPlaces {
            probe_ns: vec![100.0, 100.5, 99.8, 100.2],
            ..fast_first.clone()
        };
        let quiet = 0.004;
        // A report from before places against one where the place mattered, either way round.
        assert!(other_place((None, quiet), (Some(&fast_first), quiet)));
        assert!(other_place((Some(&moved), quiet), (None, quiet)));
        // Two runs that chose were both measured at a fast place, whatever their offsets.
        assert!(!other_place(
            (Some(&fast_first), quiet),
            (Some(&moved), quiet)
        ));
        assert!(!other_place(
            (Some(&fast_first), quiet),
            (Some(&fast_first), quiet)
        ));
        // Places that did not matter, and no places at all.
        assert!(!other_place((None, quiet), (Some(&even), quiet)));
        assert!(!other_place((None, quiet), (None, quiet)));
        // As noisy as a CPU driver: nothing can be said.
        assert!(!other_place((None, 0.25), (Some(&fast_first), 0.25)));
    }

    #[test]
    fn a_subnormal_probe_says_nothing() {
        let hostile = DataPlaces {
            offsets: vec![0, 32768],
            probe_ns: vec![1e-320, 600.0],
            place: 0,
        };
        assert!(slower_places(&hostile, 0.0).is_empty());
    }

    /// A simulated GPU whose dispatches take `speed[place]` ns per workgroup, except the
    /// dispatches listed in `stray` (by their number, from 0), which take 10% longer.
    struct PlacedGpu {
        speed: Vec<f64>,
        place: usize,
        dispatches: usize,
        stray: Vec<usize>,
        log: Vec<usize>,
    }

    /// Loop settings laying counts out as `[wave, waves, 1]` for a wave of `wave` (0: none).
    fn settings(wave: u64) -> LoopSettings {
        LoopSettings {
            target_ns: 2e6,
            samples: 6,
            warmup_max: 5,
            steady_tolerance: 0.02,
            max_count: [65535, 65535, 65535],
            first_dim_cap: 10_000,
            wave,
        }
    }

    #[test]
    fn probes_hold_half_the_measurement_in_whole_waves() {
        // The H200's 1,056 resident workgroups: the rounds' least size, 8 waves, probes at 4.
        let h200 = settings(1056);
        assert_eq!(probe_dims(&h200, [1056, 8, 1]), [1056, 4, 1]);
        assert_eq!(probe_dims(&h200, [1056, 52, 1]), [1056, 26, 1]);
        // An odd count of waves rounds to whole waves.
        assert_eq!(probe_dims(&h200, [1056, 9, 1]), [1056, 5, 1]);
        // No wave known: half the workgroups, never none.
        let none = settings(0);
        assert_eq!(probe_dims(&none, [10, 1, 1]), [5, 1, 1]);
        assert_eq!(probe_dims(&none, [1, 1, 1]), [1, 1, 1]);
    }

    impl PlacedGpu {
        fn new(speed: &[f64], stray: &[usize]) -> Self {
            PlacedGpu {
                speed: speed.to_vec(),
                place: 0,
                dispatches: 0,
                stray: stray.to_vec(),
                log: Vec::new(),
            }
        }
    }

    impl DispatchTimer for PlacedGpu {
        type Error = String;
        fn time(&mut self, dims: [u32; 3], dispatches: u32) -> Result<Vec<f64>, String> {
            let groups = f64::from(dims[0] * dims[1] * dims[2]);
            Ok((0..dispatches)
                .map(|_| {
                    let slow = self.stray.contains(&self.dispatches);
                    self.dispatches += 1;
                    self.log.push(self.place);
                    groups * self.speed[self.place] * if slow { 1.1 } else { 1.0 }
                })
                .collect())
        }
    }

    impl PlaceTimer for PlacedGpu {
        fn places(&self) -> usize {
            self.speed.len()
        }
        fn put(&mut self, place: usize) -> Result<(), String> {
            if place >= self.speed.len() {
                return Err(format!("no place {place}"));
            }
            self.place = place;
            Ok(())
        }
    }

    #[test]
    fn a_faster_place_is_confirmed_then_kept() {
        let mut gpu = PlacedGpu::new(&[658.0, 596.0, 659.0, 595.0], &[]);
        let stop = AtomicBool::new(false);
        let at = (&settings(0), [20, 1, 1]);
        let choice = choose_place(&mut gpu, at, &stop).unwrap().unwrap();
        assert_eq!(choice.place, 3);
        assert_eq!(gpu.place, 3, "the data stays at the chosen place");
        assert_eq!(gpu.log, [0, 1, 2, 3, 0, 3]);
        assert_eq!(choice.dispatches, 6);
        // The probes are of half the measurement's 20 workgroups.
        assert_eq!(choice.probe_ns, [6580.0, 5960.0, 6590.0, 5950.0]);
    }

    #[test]
    fn a_stray_dispatch_at_the_first_place_moves_nothing() {
        // The first probe runs 10% long; the others agree within 1%.
        let mut gpu = PlacedGpu::new(&[100.0, 99.5, 100.4, 99.0], &[0]);
        let stop = AtomicBool::new(false);
        let choice = choose_place(&mut gpu, (&settings(0), [8, 1, 1]), &stop)
            .unwrap()
            .unwrap();
        assert_eq!(choice.place, 0);
        assert_eq!(gpu.place, 0);
        assert_eq!(gpu.log, [0, 1, 2, 3, 0, 3]);
        assert_eq!(choice.probe_ns[0], 400.0);
    }

    #[test]
    fn one_place_probes_nothing() {
        let mut gpu = PlacedGpu::new(&[100.0], &[]);
        let stop = AtomicBool::new(false);
        let at = (&settings(0), [8, 1, 1]);
        assert_eq!(choose_place(&mut gpu, at, &stop).unwrap(), None);
        assert!(gpu.log.is_empty());
    }

    #[test]
    fn a_stop_ends_the_probes() {
        let mut gpu = PlacedGpu::new(&[100.0, 90.0], &[]);
        let stop = AtomicBool::new(true);
        let outcome = choose_place(&mut gpu, (&settings(0), [8, 1, 1]), &stop);
        assert!(matches!(outcome, Err(LoopError::Interrupted)));
        assert!(gpu.log.is_empty());
    }
}
