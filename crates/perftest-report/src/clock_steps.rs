//! Samples taken while the shader clock ran on another step than usual.
//!
//! A run times its clock case in every round ([`ClockSamples`]), so each sample of a case has a
//! clock reading near it in time. On the H200 the shader clock steps by about 0.3% now and then
//! (26 of 107 committed reports with readings have one more than 0.1% off their median): in one
//! run the first two rounds ran at 1978-1979 MHz against 1971.6-1973.0 MHz in every other
//! round, every case ran 0.21% faster there, and a median of six with three samples in those
//! rounds landed between the two steps, 0.1-0.18% off the other runs. A case's figures leave
//! such samples out ([`at_usual_clock`]); the report keeps every sample.

use crate::schema::ClockSamples;
use crate::statistics::median;

/// A clock reading more than this share (0.15%) off the run's median reading is on another
/// step: the readings of a calm run lie within 0.07% of their median, the smallest steps seen
/// are 0.18-0.2%.
pub const CLOCK_STEP: f64 = 0.0015;

/// Which samples, taken at places `seqs` in the run, were taken at the run's usual clock: all
/// but those whose neighbouring clock readings in time (the one before and the one after, or
/// the one at either end of the run) are all more than [`CLOCK_STEP`] off the run's median
/// reading.
///
/// `None` (keep every sample) unless the run has a usual clock (at least half its readings
/// within [`CLOCK_STEP`] of their median: a CPU driver's readings scatter by percents), the
/// samples have their places, at least one sample was taken on another step and at least half
/// were not.
pub fn at_usual_clock(clock: &ClockSamples, seqs: &[usize]) -> Option<Vec<bool>> {
    let readings: Vec<(usize, f64)> = clock
        .seqs
        .iter()
        .copied()
        .zip(clock.samples_ns.iter().copied())
        .filter(|&(_, ns)| ns.is_finite() && ns > 0.0)
        .collect();
    let times: Vec<f64> = readings.iter().map(|r| r.1).collect();
    let usual_ns = median(&times)?;
    let usual = |ns: f64| (usual_ns / ns - 1.0).abs() <= CLOCK_STEP;
    if seqs.is_empty() || 2 * times.iter().filter(|&&ns| usual(ns)).count() < times.len() {
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

    /// The H200 run above: the clock case's times per round, the first two 0.35% shorter.
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
