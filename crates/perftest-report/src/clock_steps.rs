//! Samples taken while the shader clock ran on another step than usual.
//!
//! A run times its clock case in every round ([`ClockSamples`]), so each sample of a case has a
//! clock reading near it in time. A shader clock may step by a fraction of a percent now and
//! then, and a median with samples on both steps lands between them (the measurement chapter
//! gives the runs). A case's figures leave such samples out ([`at_usual_clock`]); the report keeps every sample.

use std::cmp::Ordering;

use crate::schema::ClockSamples;
use crate::statistics::median;

/// A clock reading more than this share (0.15%) off the run's usual reading is on another
/// step: the readings of a calm run lie within 0.07% of their median, the smallest steps seen
/// are 0.18-0.2%.
pub const CLOCK_STEP: f64 = 0.0015;

/// Two readings further apart than this share (0.075%, half a [`CLOCK_STEP`]) with none between
/// them may lie on two steps; [`usual_reading`] then looks at each side on its own.
pub const STEP_GAP: f64 = CLOCK_STEP / 2.0;

/// The run's usual clock reading, from `(place, time)` readings: their median, unless the
/// widest gap between readings next in size exceeds [`STEP_GAP`]; then the median of the side
/// of that gap that holds more readings, or, when both hold as many, of the side holding the
/// run's last reading (the step the clock settled on).
///
/// Why: a run that spends half its rounds on each of two steps has its median between them,
/// within [`CLOCK_STEP`] of every reading, and no sample would be left out.
pub fn usual_reading(readings: &[(usize, f64)]) -> Option<f64> {
    let mut sorted: Vec<(usize, f64)> = readings.to_vec();
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
    let times: Vec<f64> = sorted.iter().map(|r| r.1).collect();
    let widest = (1..times.len())
        .map(|i| (i, times[i] / times[i - 1] - 1.0))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let Some((split, _)) = widest.filter(|&(_, gap)| gap > STEP_GAP) else {
        return median(&times);
    };
    let (low, high) = sorted.split_at(split);
    let last_place = |side: &[(usize, f64)]| side.iter().map(|r| r.0).max();
    let side = match low.len().cmp(&high.len()) {
        Ordering::Greater => low,
        Ordering::Less => high,
        Ordering::Equal if last_place(low) > last_place(high) => low,
        Ordering::Equal => high,
    };
    median(&side.iter().map(|r| r.1).collect::<Vec<_>>())
}

/// Which samples, taken at places `seqs` in the run, were taken at the run's usual clock: all
/// but those whose neighbouring clock readings in time (the one before and the one after, or
/// the one at either end of the run) are all more than [`CLOCK_STEP`] off the run's usual
/// reading ([`usual_reading`]).
///
/// `None` (keep every sample) unless the run has a usual clock (at least half its readings
/// within [`CLOCK_STEP`] of it: a CPU driver's readings scatter by percents), the samples have
/// their places, at least one sample was taken on another step and at least half were not.
pub fn at_usual_clock(clock: &ClockSamples, seqs: &[usize]) -> Option<Vec<bool>> {
    let readings: Vec<(usize, f64)> = clock
        .seqs
        .iter()
        .copied()
        .zip(clock.samples_ns.iter().copied())
        .filter(|&(_, ns)| ns.is_finite() && ns > 0.0)
        .collect();
    let usual_ns = usual_reading(&readings)?;
    let usual = |ns: f64| (usual_ns / ns - 1.0).abs() <= CLOCK_STEP;
    if seqs.is_empty() || 2 * readings.iter().filter(|r| usual(r.1)).count() < readings.len() {
        return None;
    }
    let mut by_place = readings;
    by_place.sort_by_key(|r| r.0);
    let keep: Vec<bool> = seqs
        .iter()
        .map(|&seq| {
            // The readings just before and just after the sample (one of them at either end
            // of the run): a sample is off only when both are, so a dip the clock case caught
            // in one round does not take out samples far from it.
            let after = by_place.partition_point(|r| r.0 < seq);
            let around = [after.checked_sub(1), Some(after)];
            let mut off = around
                .iter()
                .flatten()
                .filter_map(|&i| by_place.get(i))
                .map(|&(_, ns)| !usual(ns))
                .peekable();
            off.peek().is_none() || !off.all(|o| o)
        })
        .collect();
    let kept = keep.iter().filter(|&&k| k).count();
    (kept < keep.len() && 2 * kept >= keep.len()).then_some(keep)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(times: &[f64], seqs: &[usize]) -> ClockSamples {
        ClockSamples {
            ticks_per_dispatch: 4_000_000,
            samples_ns: times.to_vec(),
            seqs: seqs.to_vec(),
            ticks_per_group: 4096,
            alone: None,
        }
    }

    /// An H200 run: the clock case's times per round, the first two 0.35% shorter.
    const STEPPED: [f64; 6] = [
        1_987_488.0,
        1_988_320.0,
        1_994_528.0,
        1_994_272.0,
        1_994_464.0,
        1_994_304.0,
    ];
    const ROUNDS: [usize; 6] = [138, 253, 368, 483, 628, 773];

    #[test]
    fn samples_of_the_rounds_on_another_step_are_left_out() {
        let run = clock(&STEPPED, &ROUNDS);
        // A case measured in every round: before the first reading, between the two fast
        // ones, then between a fast and a usual one (kept), and later.
        let seqs = [77, 192, 307, 422, 706, 851];
        assert_eq!(
            at_usual_clock(&run, &seqs),
            Some(vec![false, false, true, true, true, true])
        );
        // Most of a case's samples on another step: keep them all.
        assert_eq!(at_usual_clock(&run, &[77, 192, 200, 422]), None);
        // One reading off in the middle of the run: a dip, nothing left out.
        let mut dip = STEPPED;
        dip[..2].copy_from_slice(&[1_994_300.0, 1_994_400.0]);
        dip[3] = 1_990_000.0;
        assert_eq!(at_usual_clock(&clock(&dip, &ROUNDS), &seqs), None);
        // All at the usual clock, or without places: nothing to leave out.
        assert_eq!(at_usual_clock(&run, &[400, 500, 700]), None);
        assert_eq!(at_usual_clock(&run, &[]), None);
    }

    /// An H200 run whose first three rounds ran on the faster step and its last three on the
    /// slower one, the step of the machine's other runs.
    const HALVES: [f64; 6] = [
        1_980_224.0,
        1_981_120.0,
        1_981_216.0,
        1_985_344.0,
        1_985_408.0,
        1_984_480.0,
    ];
    const HALVES_ROUNDS: [usize; 6] = [138, 253, 368, 483, 608, 733];

    fn placed(times: &[f64], seqs: &[usize]) -> Vec<(usize, f64)> {
        seqs.iter().copied().zip(times.iter().copied()).collect()
    }

    #[test]
    fn the_usual_reading_is_the_side_of_a_step_with_more_readings_or_the_last() {
        // Half the run on each step: the step of the last rounds, not the median between.
        let halves = placed(&HALVES, &HALVES_ROUNDS);
        assert_eq!(usual_reading(&halves), Some(1_985_344.0));
        // The same readings the other way round in time: the faster step came last.
        let mut reversed = HALVES;
        reversed.reverse();
        assert_eq!(
            usual_reading(&placed(&reversed, &HALVES_ROUNDS)),
            Some(1_981_120.0)
        );
        // More readings on one step: that step, wherever the last reading is.
        assert_eq!(usual_reading(&placed(&STEPPED, &ROUNDS)), Some(1_994_384.0));
        // No gap wider than STEP_GAP: the plain median.
        let calm = placed(
            &[1_994_300.0, 1_995_000.0, 1_994_400.0, 1_995_500.0],
            &ROUNDS[..4],
        );
        assert_eq!(usual_reading(&calm), Some(1_994_700.0));
        assert_eq!(usual_reading(&[]), None);
    }

    #[test]
    fn a_run_split_between_two_steps_leaves_out_the_earlier_step() {
        let run = clock(&HALVES, &HALVES_ROUNDS);
        // One sample per round, each just before the round's reading: those before and
        // between the three fast readings are left out, the one between a fast and a slow
        // reading and those after are kept.
        let seqs = [100, 200, 300, 400, 500, 600];
        assert_eq!(
            at_usual_clock(&run, &seqs),
            Some(vec![false, false, false, true, true, true])
        );
    }

    #[test]
    fn a_calm_run_or_scattered_readings_leave_every_sample() {
        let calm = clock(
            &[1_994_300.0, 1_994_500.0, 1_994_400.0, 1_994_350.0],
            &[10, 20, 30, 40],
        );
        assert_eq!(at_usual_clock(&calm, &[9, 19, 29, 39]), None);
        // Readings scattered by percents (lavapipe's clock is the CPU's): no usual clock.
        let scattered = clock(
            &[1.0e6, 1.02e6, 0.97e6, 1.05e6, 0.99e6],
            &[10, 20, 30, 40, 50],
        );
        assert_eq!(at_usual_clock(&scattered, &[9, 19, 29, 39, 49]), None);
        // No readings at all.
        assert_eq!(at_usual_clock(&clock(&[], &[]), &[1, 2]), None);
    }
}
