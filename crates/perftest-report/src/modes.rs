//! Multi-modal samples: dispatch times that fall into separate levels.
//!
//! Some dispatches take one of two (or more) distinct times, and which one a dispatch takes
//! changes from dispatch to dispatch. The median of a few such samples lands on one level or the
//! other, so it jumps between runs by the whole distance between the levels. [`modes`] finds
//! the levels with a pure rule; a measurement with several is reported with its levels and
//! their shares, it collects more samples, and its figure is its **fastest level**
//! ([`Modes::fastest`]). A slower level is a fixed cost a dispatch pays or not, not a slower
//! rate of work: the fastest level is the time the work takes, whatever the shares (the
//! measurement chapter gives the evidence).
//!
//! The rule, on the sorted samples: the widest gap between neighbours that leaves each side
//! enough samples (below) separates two modes when
//! - it is wider than [`MODE_GAP`] of the median (smaller steps are noise, not levels);
//! - it is more than [`GAP_RATIO`] times the interquartile range of either side (a continuous
//!   spread is about as wide inside as between its halves; separate levels are narrow, far
//!   apart, and a stray sample between them does not hide them);
//! - each side holds at least [`MIN_MODE_SAMPLES`] samples and [`MIN_MODE_SHARE`] of them (a
//!   lone slow dispatch is an outlier, not a mode).
//!
//! Each side is then split again by the same rule, up to [`MAX_MODES`] modes.

use crate::statistics::Summary;

/// A gap narrower than this share of the median (0.3%) never separates modes.
pub const MODE_GAP: f64 = 0.003;

/// A gap separates modes only when it is this many times wider than the interquartile range of
/// either side.
pub const GAP_RATIO: f64 = 4.0;

/// The fewest samples a mode holds.
pub const MIN_MODE_SAMPLES: usize = 2;

/// The smallest share of the samples a mode holds (25%). A rarer level does not move the
/// median, and counting it in some runs only would switch the figure between median and mode.
pub const MIN_MODE_SHARE: f64 = 0.25;

/// At most this many modes are told apart.
pub const MAX_MODES: usize = 4;

/// One level of a multi-modal set of samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Mode {
    /// The median of the samples in this mode.
    pub center: f64,
    /// The share of all samples in this mode (0..=1).
    pub share: f64,
}

/// The modes of a set of samples, fastest first: empty for samples with one level (or too few
/// to tell), otherwise two to [`MAX_MODES`] entries. Fixed-size so that the figures holding it
/// stay `Copy`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Modes {
    found: [Mode; MAX_MODES],
    count: usize,
}

impl Modes {
    /// The modes found (none, or two and more).
    pub fn as_slice(&self) -> &[Mode] {
        &self.found[..self.count]
    }

    /// True when the samples fall into two or more levels.
    pub fn is_multimodal(&self) -> bool {
        self.count >= 2
    }

    /// True when the samples have one level (no modes told apart).
    pub fn is_unimodal(&self) -> bool {
        !self.is_multimodal()
    }

    /// The fastest mode (`None` for samples with one level).
    pub fn fastest(&self) -> Option<Mode> {
        self.as_slice().first().copied()
    }

    /// The modes scaled by `factor` (e.g. from ns per dispatch to ns per workgroup).
    pub fn scaled(&self, factor: f64) -> Modes {
        let mut out = *self;
        for m in &mut out.found[..self.count] {
            m.center *= factor;
        }
        out
    }

    /// "125.7 (60%) / 126.7 (40%)", each center written by `write`.
    pub fn describe(&self, write: impl Fn(f64) -> String) -> String {
        self.as_slice()
            .iter()
            .map(|m| format!("{} ({:.0}%)", write(m.center), m.share * 100.0))
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Modes {
    /// The modes found, as a sequence of [`Mode`]s (`center`, `share`).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

/// Whether `samples` may hide a level faster than their median: their fastest is more than
/// [`MODE_GAP`] below it. A dispatch hardly ever runs faster than its work allows, so such a
/// sample says the median sits in a slower level; a lone slow dispatch, or a moment when every
/// case ran slower, does not count, since the median of the others is the fastest level already.
pub fn fast_level_unseen(samples: &[f64]) -> bool {
    let Some(summary) = Summary::of(samples).filter(|_| samples.len() >= 3) else {
        return false;
    };
    summary.median > 0.0 && summary.min < summary.median * (1.0 - MODE_GAP)
}

/// The modes of `samples` by the rule in the module documentation. Samples that are not all
/// finite and positive have no modes.
pub fn modes(samples: &[f64]) -> Modes {
    let mut none = Modes::default();
    if samples.len() < 2 * MIN_MODE_SAMPLES || samples.iter().any(|s| !(s.is_finite() && *s > 0.0))
    {
        return none;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let Some(median) = crate::statistics::median(&sorted) else {
        return none;
    };
    let min_size = MIN_MODE_SAMPLES.max((MIN_MODE_SHARE * sorted.len() as f64).ceil() as usize);
    let mut parts: Vec<&[f64]> = vec![&sorted];
    // Split the part with the widest acceptable gap until none is left.
    while parts.len() < MAX_MODES {
        let best = parts
            .iter()
            .enumerate()
            .filter_map(|(i, p)| split_point(p, median, min_size).map(|(at, gap)| (i, at, gap)))
            .max_by(|a, b| a.2.total_cmp(&b.2));
        let Some((i, at, _)) = best else { break };
        let part = parts.remove(i);
        let (low, high) = part.split_at(at);
        parts.insert(i, high);
        parts.insert(i, low);
    }
    if parts.len() < 2 {
        return none;
    }
    let n = sorted.len() as f64;
    for (slot, part) in none.found.iter_mut().zip(&parts) {
        *slot = Mode {
            center: crate::statistics::median(part).unwrap_or(f64::NAN),
            share: part.len() as f64 / n,
        };
    }
    none.count = parts.len();
    none
}

/// The levels of samples taken at `seqs` (each sample's place in the run): [`modes`], unless
/// the fastest level is one stretch of time at either end of the case's samples (its first
/// samples, or its last ones), which is then no level (`Modes` empty, so the figure is the
/// median of all samples).
///
/// Levels are a property of dispatches and take turns through the run; a faster stretch at
/// the run's start or end is the GPU changing over time, which a level would mistake for the
/// work's time. Samples without their places
/// (`seqs` of another length, as in reports of cases measured alone) get [`modes`].
pub fn levels_in_time(samples: &[f64], seqs: &[usize]) -> Modes {
    let levels = modes(samples);
    let Some(fastest) = levels.fastest() else {
        return levels;
    };
    if seqs.len() != samples.len() {
        return levels;
    }
    let fast_count = (fastest.share * samples.len() as f64).round() as usize;
    if fastest_at_either_end(samples, seqs, fast_count) {
        Modes::default()
    } else {
        levels
    }
}

/// Whether the `count` smallest of `samples` (taken at `seqs`, of the same length) are the
/// first `count` samples in time, or the last ones: one stretch of the run at either end.
fn fastest_at_either_end(samples: &[f64], seqs: &[usize], count: usize) -> bool {
    let count = count.min(samples.len());
    let mut by_value: Vec<usize> = (0..samples.len()).collect();
    by_value.sort_by(|&a, &b| samples[a].total_cmp(&samples[b]));
    let mut by_time: Vec<usize> = (0..samples.len()).collect();
    by_time.sort_by_key(|&i| seqs[i]);
    let mut fast: Vec<usize> = by_value[..count].to_vec();
    fast.sort_unstable();
    let stretch = |ends: &[usize]| {
        let mut ends = ends.to_vec();
        ends.sort_unstable();
        ends == fast
    };
    stretch(&by_time[..count]) || stretch(&by_time[samples.len() - count..])
}

/// A level faster than the rest of a case's samples that too few of them took to be a mode
/// ([`unconfirmed_fast_level`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RareLevel {
    /// The median of the samples in it.
    pub center: f64,
    /// The share of all samples in it (0..1).
    pub share: f64,
    /// The lower bound of its median's 95% interval
    /// ([`crate::statistics::median_interval`]), or its smallest sample when it holds fewer
    /// than six: where a run that takes it more often may put it.
    pub low: f64,
}

/// A level faster than the rest of `samples` (taken at `seqs`) that too few of them took to be
/// a mode, or `None`.
///
/// Some of the smallest samples, at least [`MIN_MODE_SAMPLES`] but fewer than a mode holds
/// ([`MIN_MODE_SHARE`]), sit below a gap wider than [`MODE_GAP`] of the median and more than
/// [`GAP_RATIO`] times the interquartile range of the samples above it, and are not one
/// stretch of time at either end of the run (see [`levels_in_time`]). A dispatch hardly ever
/// runs faster than its work allows, so the case's work may take that level, which another
/// run, whose samples take it more often, reports as its fastest mode. The figure stays the median (or the
/// fastest mode); its interval reaches down to this level ([`crate::derived::figure_interval`]).
pub fn unconfirmed_fast_level(samples: &[f64], seqs: &[usize]) -> Option<RareLevel> {
    if samples.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = crate::statistics::median(&sorted)?;
    let mode_size = MIN_MODE_SAMPLES.max((MIN_MODE_SHARE * sorted.len() as f64).ceil() as usize);
    // At least two below the gap (a lone sample far out is no level) but fewer than a mode
    // holds, and a mode's worth above it.
    let last = mode_size.min(sorted.len().saturating_sub(mode_size) + 1);
    let (at, gap) = (MIN_MODE_SAMPLES..last)
        .map(|at| (at, sorted[at] - sorted[at - 1]))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    if gap <= MODE_GAP * median || gap <= GAP_RATIO * interquartile(&sorted[at..]) {
        return None;
    }
    if seqs.len() == samples.len() && fastest_at_either_end(samples, seqs, at) {
        return None;
    }
    let level = &sorted[..at];
    Some(RareLevel {
        center: crate::statistics::median(level)?,
        share: at as f64 / sorted.len() as f64,
        low: crate::statistics::median_interval(level).map_or(level[0], |i| i.low),
    })
}

/// Where `part` (sorted) splits into two modes, and the gap there: its widest gap between
/// neighbours with `min_size` samples on each side, when that gap passes the rule against
/// `median`.
fn split_point(part: &[f64], median: f64, min_size: usize) -> Option<(usize, f64)> {
    if part.len() < 2 * min_size {
        return None;
    }
    // Split positions that leave `min_size` on each side: a lone sample far out is no level,
    // and its gap must not hide the levels inside.
    let (at, gap) = (min_size..=part.len() - min_size)
        .map(|at| (at, part[at] - part[at - 1]))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    if gap <= MODE_GAP * median {
        return None;
    }
    let inside = interquartile(&part[..at]).max(interquartile(&part[at..]));
    (gap > GAP_RATIO * inside).then_some((at, gap))
}

/// The distance between the quartiles of `sorted` (its lower quartile rounded down, its upper
/// one up, by index): how widely the middle half of a side spreads.
fn interquartile(sorted: &[f64]) -> f64 {
    let last = sorted.len().saturating_sub(1);
    let low = sorted.get(last / 4).copied().unwrap_or(0.0);
    let high = sorted.get((3 * last).div_ceil(4)).copied().unwrap_or(0.0);
    high - low
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The H200's ten dispatches of `Texture2D<RGBA16F>.Load random` (ns per workgroup).
    const TWO_LEVELS: [f64; 10] = [
        126.7, 125.6, 126.7, 125.6, 125.6, 126.8, 126.7, 126.7, 125.6, 126.7,
    ];

    /// `Texture2D<R32F>.Load random` in one H200 run (ns per workgroup, in the order taken):
    /// its first two rounds ran faster, as every case's did.
    const EARLY_STRETCH: [f64; 6] = [63.110, 63.096, 63.332, 63.346, 63.333, 63.330];

    #[test]
    fn a_fast_stretch_at_either_end_of_the_run_is_no_level() {
        let seqs = [77, 192, 307, 422, 706, 851];
        assert!(modes(&EARLY_STRETCH).is_multimodal());
        assert!(levels_in_time(&EARLY_STRETCH, &seqs).is_unimodal());
        // The same samples with the fast ones last in time.
        let late = [851, 706, 307, 422, 77, 192];
        assert!(levels_in_time(&EARLY_STRETCH, &late).is_unimodal());
        // Taking turns with the slower level, they are a level.
        let turns = [77, 422, 192, 307, 706, 851];
        let levels = levels_in_time(&EARLY_STRETCH, &turns);
        assert_eq!(levels, modes(&EARLY_STRETCH));
        let fastest = levels.fastest().map_or(0.0, |f| f.center);
        assert!((fastest - 63.103).abs() < 1e-9, "{fastest}");
        // Without places (another length), the plain rule.
        assert_eq!(levels_in_time(&EARLY_STRETCH, &[]), modes(&EARLY_STRETCH));
    }

    #[test]
    fn real_levels_taking_turns_stay_levels() {
        let seqs: Vec<usize> = (0..TWO_LEVELS.len()).map(|i| i * 100).collect();
        assert_eq!(levels_in_time(&TWO_LEVELS, &seqs), modes(&TWO_LEVELS));
        // A slower stretch at the start leaves the fastest level, and the levels, alone.
        let slow_first = [126.7, 126.7, 125.6, 126.7, 125.6, 126.7, 125.6];
        let seqs: Vec<usize> = (0..slow_first.len()).collect();
        assert!(levels_in_time(&slow_first, &seqs).is_multimodal());
        // One level only: nothing to judge.
        assert!(levels_in_time(&[1.0, 1.0, 1.0, 1.0], &[0, 1, 2, 3]).is_unimodal());
    }

    #[test]
    fn two_levels_are_found_with_their_shares() {
        let m = modes(&TWO_LEVELS);
        assert!(m.is_multimodal());
        let found = m.as_slice();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].center, 125.6);
        assert!((found[0].share - 0.4).abs() < 1e-12);
        assert_eq!(found[1].center, 126.7);
        assert!((found[1].share - 0.6).abs() < 1e-12);
        assert_eq!(
            m.describe(|c| format!("{c:.1}")),
            "125.6 (40%) / 126.7 (60%)"
        );
        assert_eq!(m.scaled(2.0).as_slice()[1].center, 253.4);
        assert_eq!(m.fastest().map(|f| f.center), Some(125.6));
        assert_eq!(modes(&[1.0, 1.0, 1.0]).fastest(), None);
    }

    #[test]
    fn a_stray_sample_between_the_levels_does_not_hide_them() {
        // The H200's 36 dispatches in a run where one round ran 0.3% slow for every case.
        let mut s = vec![125.75; 17];
        s.extend([126.03]);
        s.extend(vec![126.7; 18]);
        for (i, v) in s.iter_mut().enumerate() {
            *v += 0.002 * (i % 5) as f64;
        }
        let m = modes(&s);
        assert_eq!(m.as_slice().len(), 2, "{m:?}");
        assert!((m.as_slice()[0].share - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_continuous_spread_is_one_mode() {
        // cbuffer{float4} load random on the H200: a 1.3% CV, no levels.
        let spread = [
            676.7, 678.8, 689.0, 680.4, 671.5, 683.3, 676.7, 676.5, 678.9, 688.0, 666.1, 680.0,
            672.0, 666.0, 673.5, 663.9, 672.9, 683.9, 669.3, 663.7,
        ];
        assert!(!modes(&spread).is_multimodal());
        // Tight samples and small steps are one mode too.
        assert!(!modes(&[100.0, 100.01, 100.02, 100.0, 100.01, 100.2]).is_multimodal());
    }

    #[test]
    fn an_outlier_is_not_a_mode() {
        let mut one_slow = [100.0; 10];
        one_slow[3] = 110.0;
        assert!(!modes(&one_slow).is_multimodal());
        let mut two_slow = [100.0; 20];
        two_slow[3] = 110.0;
        two_slow[9] = 110.0;
        // 2 of 20 is under the 25% share, and so is 3 of 20.
        assert!(!modes(&two_slow).is_multimodal());
        two_slow[12] = 110.0;
        assert!(!modes(&two_slow).is_multimodal());
    }

    #[test]
    fn three_levels() {
        let s = [
            127.0, 134.7, 135.4, 134.7, 127.0, 135.4, 127.0, 134.7, 135.4, 127.0, 134.7, 135.4,
        ];
        let m = modes(&s);
        let centers: Vec<f64> = m.as_slice().iter().map(|m| m.center).collect();
        assert_eq!(centers, vec![127.0, 134.7, 135.4]);
        let shares: f64 = m.as_slice().iter().map(|m| m.share).sum();
        assert!((shares - 1.0).abs() < 1e-12);
    }

    /// More samples are needed only where the median may sit above the fastest level.
    #[test]
    fn the_unseen_fast_level_rule() {
        // One slow dispatch of four: the median is the fast level.
        assert!(!fast_level_unseen(&[125.7, 126.7, 125.7, 125.7]));
        // Two of four, or one fast dispatch of six: the fast level may be the minority.
        assert!(fast_level_unseen(&[125.7, 126.7, 125.7, 126.7]));
        assert!(fast_level_unseen(&[
            126.7, 126.7, 125.7, 126.7, 126.7, 126.7
        ]));
        assert!(fast_level_unseen(&[126.7, 125.7, 126.7]));
        // No levels at all.
        assert!(!fast_level_unseen(&[100.0, 100.01, 100.02, 100.0]));
        assert!(!fast_level_unseen(&[]));
        assert!(!fast_level_unseen(&[100.0, 110.0]));
        assert!(!fast_level_unseen(&[100.0, f64::NAN, 100.0, 99.0]));
        // A slow moment for one dispatch, and a drift of 0.4% over five, are not levels.
        assert!(!fast_level_unseen(&[100.0, 100.01, 100.32]));
        assert!(!fast_level_unseen(&[100.0, 100.1, 100.2, 100.3, 100.4]));
    }

    /// The H200's 36 dispatches in a run with one far slower than both levels: the widest gap
    /// is that one's, but the levels are still told apart.
    #[test]
    fn a_far_outlier_does_not_hide_the_levels() {
        let mut s = vec![125.65; 15];
        s.extend(vec![126.67; 20]);
        s.push(127.64);
        for (i, v) in s.iter_mut().enumerate() {
            *v += 0.01 * (i % 7) as f64;
        }
        let m = modes(&s);
        assert_eq!(m.as_slice().len(), 2, "{m:?}");
        assert!((m.fastest().unwrap().center - 125.68).abs() < 0.02, "{m:?}");
    }

    /// 36 dispatches of a modal case in a run that took the faster level too rarely for a
    /// mode: `fast` of them at 125.65 ns, the rest at 126.68, each with a little noise, taken
    /// in turns (every fourth sample, from the second, is fast until `fast` are).
    fn rare_fast(fast: usize) -> (Vec<f64>, Vec<usize>) {
        let mut left = fast;
        let samples = (0..36)
            .map(|i| {
                let noise = 0.004 * (i % 5) as f64;
                if i % 4 == 1 && left > 0 {
                    left -= 1;
                    125.65 + noise
                } else {
                    126.68 + noise
                }
            })
            .collect();
        (samples, (0..36).map(|i| 100 + 7 * i).collect())
    }

    #[test]
    fn a_faster_level_too_rare_for_a_mode_is_unconfirmed() {
        // One fast sample is a stray dispatch, as a lone slow one is: no level.
        let (samples, seqs) = rare_fast(1);
        assert_eq!(unconfirmed_fast_level(&samples, &seqs), None);
        for fast in 2..=8 {
            let (samples, seqs) = rare_fast(fast);
            assert!(modes(&samples).is_unimodal(), "{fast}");
            let level = unconfirmed_fast_level(&samples, &seqs);
            assert!(
                level.is_some_and(|l| (l.center - 125.65).abs() < 0.01
                    && l.low == 125.65
                    && l.share == fast as f64 / 36.0),
                "{fast}: {level:?}"
            );
        }
        // Nine of 36 are a mode, the fastest: nothing unconfirmed below it.
        let (samples, seqs) = rare_fast(9);
        assert!(modes(&samples).is_multimodal());
        assert_eq!(unconfirmed_fast_level(&samples, &seqs), None);
        // Levels found as modes have nothing below them either.
        let seqs: Vec<usize> = (0..TWO_LEVELS.len()).collect();
        assert_eq!(unconfirmed_fast_level(&TWO_LEVELS, &seqs), None);
        // Without places, the rule without the test in time.
        let (samples, _) = rare_fast(3);
        assert!(unconfirmed_fast_level(&samples, &[]).is_some());
    }

    #[test]
    fn a_fast_stretch_at_either_end_is_not_an_unconfirmed_level() {
        let (samples, _) = rare_fast(3);
        let fast: Vec<usize> = (0..36).filter(|&i| samples[i] < 126.0).collect();
        // The same three fast samples taken first, then taken last.
        let mut first = vec![0; 36];
        let mut last = vec![0; 36];
        let mut next = 3;
        for i in 0..36 {
            if let Some(k) = fast.iter().position(|&f| f == i) {
                first[i] = k;
                last[i] = 33 + k;
            } else {
                first[i] = next;
                last[i] = next - 3;
                next += 1;
            }
        }
        assert_eq!(unconfirmed_fast_level(&samples, &first), None);
        assert_eq!(unconfirmed_fast_level(&samples, &last), None);
    }

    #[test]
    fn spread_and_steps_are_no_unconfirmed_level() {
        // cbuffer{float4} load random: a continuous spread, its fastest far below its median.
        let spread = [
            676.7, 678.8, 689.0, 680.4, 671.5, 683.3, 676.7, 676.5, 678.9, 688.0, 666.1, 680.0,
            672.0, 666.0, 673.5, 663.9, 672.9, 683.9, 669.3, 663.7,
        ];
        let seqs: Vec<usize> = (0..spread.len()).collect();
        assert_eq!(unconfirmed_fast_level(&spread, &seqs), None);
        // Two fast samples only 0.2% below the others are no level; 0.4% below, they are.
        let mut small = vec![100.0; 20];
        small[7] = 99.8;
        small[13] = 99.8;
        assert_eq!(unconfirmed_fast_level(&small, &seqs), None);
        small[7] = 99.6;
        small[13] = 99.6;
        assert!(unconfirmed_fast_level(&small, &seqs).is_some_and(|l| l.center == 99.6));
        // Too few or bad samples.
        assert_eq!(unconfirmed_fast_level(&[], &[]), None);
        assert_eq!(unconfirmed_fast_level(&[99.0], &[0]), None);
        let mut bad = vec![100.0; 20];
        bad[3] = f64::NAN;
        bad[7] = 99.0;
        assert_eq!(unconfirmed_fast_level(&bad, &seqs), None);
    }

    #[test]
    fn too_few_or_bad_samples_have_no_modes() {
        assert!(!modes(&[]).is_multimodal());
        assert!(!modes(&[1.0, 2.0, 1.0]).is_multimodal());
        assert!(!modes(&[1.0, 1.0, 2.0, f64::NAN, 2.0]).is_multimodal());
        assert!(!modes(&[1.0, 1.0, 2.0, 0.0, 2.0]).is_multimodal());
        assert!(modes(&[1.0, 1.0, 2.0, 2.0]).is_multimodal());
    }
}
