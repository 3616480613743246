//! Where to measure next: the working sets that bracket every transition of a curve to 1/16
//! octave.
//!
//! The doubling sweep knows each capacity only to a factor of two, and may hold a single point
//! of a plateau (a narrow cache partition) that no rule can tell from a transition. [`refine`]
//! returns the sizes to measure so that, measured and fed back, the gaps close:
//!
//! - it looks at every gap between consecutive measured sizes from a level's last size to the
//!   next level's first size (or the largest size measured, after the last level): those gaps
//!   hold the transition, and any plateau hidden in it;
//! - a gap whose two ends cost the same ([`FLAT_SPREAD`]) holds no transition, since a cost
//!   never falls as the working set grows: it is left uncut unless it touches a level;
//! - a gap wider than [`TARGET_OCTAVES`] gets up to [`POINTS_PER_GAP`] sizes, evenly spaced in
//!   log2 size (rounded to the granule), just enough to cut it into parts of 1/16 octave or
//!   less: a one-octave gap becomes four quarter-octave gaps, then sixteenths;
//! - widest gaps first, at most [`RefineLimits::max_points`] sizes per round.
//!
//! Each round measures the sizes, finds the levels again and asks again, until it returns
//! nothing. A sharp step on the doubling grid takes two rounds and six sizes to reach 1/16
//! octave; in all, a transition spanning `w` octaves costs at most `16 w` sizes, however
//! many rounds. The far-L2 plateau appears in the first round, as its quarter-octave points
//! agree.

use super::levels::{clean, octaves, Level, Point};

/// The resolution every transition is refined to: 1/16 octave, a ratio of 2^(1/16) = 1.044.
pub const TARGET_OCTAVES: f64 = 1.0 / 16.0;

/// The most sizes one gap gets in one round (three cut it into quarters).
pub const POINTS_PER_GAP: usize = 3;

/// How far past [`TARGET_OCTAVES`] a gap may be and count as refined (1%, for sizes rounded to
/// a granule).
const SLACK: f64 = 1.01;

/// What a round of refinement may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefineLimits {
    /// Every size asked for is a multiple of this many bytes (at least 1): 4096 keeps the
    /// bandwidth sweep's sets whole multiples of one workgroup's load.
    pub granule: u64,
    /// The most sizes one round asks for.
    pub max_points: usize,
}

impl Default for RefineLimits {
    fn default() -> Self {
        RefineLimits {
            granule: 4096,
            max_points: 64,
        }
    }
}

/// The working sets to measure next so that every transition between `levels` (found on
/// `points`) is bracketed to [`TARGET_OCTAVES`]; empty when it already is, or when the granule
/// leaves nothing new to measure. Sorted, none already measured.
pub fn refine(points: &[Point], levels: &[Level], limits: RefineLimits) -> Vec<u64> {
    let clean = clean(points);
    let sizes: Vec<u64> = clean.iter().map(|p| p.bytes).collect();
    let Some(&largest) = sizes.last() else {
        return Vec::new();
    };
    let mut gaps: Vec<(u64, u64)> = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        if level.beyond.is_none() {
            continue;
        }
        let end = levels.get(i + 1).map_or(largest, |next| next.first);
        for pair in clean.windows(2) {
            let (from, to) = (pair[0].bytes, pair[1].bytes);
            let edge = from == level.last || to == end;
            if from >= level.last
                && to <= end
                && octaves(from, to) > TARGET_OCTAVES * SLACK
                && (edge || !flat(pair[0], pair[1]))
            {
                gaps.push((from, to));
            }
        }
    }
    gaps.sort_by(|a, b| {
        octaves(b.0, b.1)
            .total_cmp(&octaves(a.0, a.1))
            .then(a.0.cmp(&b.0))
    });
    gaps.dedup();
    cut_gaps(&sizes, &gaps, limits)
}

/// The largest ratio between the costs of two points between which the curve counts as flat,
/// so that [`refine`] leaves the gap between them uncut: 5%. The far L2's plateau on one SM's
/// chase varies by 1.5%; a transition's ramp rises by more between two sizes a quarter octave
/// apart.
pub const FLAT_SPREAD: f64 = 1.05;

/// Whether the curve is flat from `a` to `b`: their costs lie within [`FLAT_SPREAD`] of each
/// other. A cost never falls as the working set grows, so the sizes between two such points
/// cost the same and hold no transition to bracket: such a gap inside a transition's span is
/// left uncut, unless it touches a level (its edge).
fn flat(a: Point, b: Point) -> bool {
    let (low, high) = if a.cost <= b.cost {
        (a.cost, b.cost)
    } else {
        (b.cost, a.cost)
    };
    low > 0.0 && high <= low * FLAT_SPREAD
}

/// The working sets to measure next so that the capacity of `level` (found on `points`) is
/// bracketed to [`TARGET_OCTAVES`]: sizes in the one gap between its last size and the next
/// size measured, and nothing about the rest of the curve (the carve-out curves need only the
/// L1's edge). Empty when the level has no edge or it is bracketed already.
pub fn refine_edge(points: &[Point], level: &Level, limits: RefineLimits) -> Vec<u64> {
    let sizes: Vec<u64> = clean(points).iter().map(|p| p.bytes).collect();
    match level.beyond {
        Some(beyond) if octaves(level.last, beyond) > TARGET_OCTAVES * SLACK => {
            cut_gaps(&sizes, &[(level.last, beyond)], limits)
        }
        _ => Vec::new(),
    }
}

/// Sizes that cut each gap (widest first) into parts of at most [`TARGET_OCTAVES`]: up to
/// [`POINTS_PER_GAP`] per gap, evenly spaced in log2 size and rounded to the granule, none of
/// `sizes` (sorted, measured already), at most `limits.max_points` in all; sorted.
fn cut_gaps(sizes: &[u64], gaps: &[(u64, u64)], limits: RefineLimits) -> Vec<u64> {
    let granule = limits.granule.max(1);
    let mut wanted: Vec<u64> = Vec::new();
    for &(from, to) in gaps {
        let width = octaves(from, to);
        let parts = (width / (TARGET_OCTAVES * SLACK)).ceil().max(1.0) as usize;
        let count = (parts - 1).clamp(1, POINTS_PER_GAP);
        for k in 1..=count {
            if wanted.len() >= limits.max_points {
                break;
            }
            let exact = from as f64 * 2f64.powf(width * k as f64 / (count + 1) as f64);
            let size = ((exact / granule as f64).round() as u64).max(1) * granule;
            let new = size > from
                && size < to
                && sizes.binary_search(&size).is_err()
                && !wanted.contains(&size);
            if new {
                wanted.push(size);
            }
        }
    }
    wanted.sort_unstable();
    wanted
}

#[cfg(test)]
mod tests {
    use super::super::levels::levels;
    use super::super::levels::tests::{
        assert_brackets, cpu, grid, h100, h200, noise, sample, KB, MB,
    };
    use super::*;

    /// Refines `model` from the doubling grid until nothing is asked: (rounds, sizes added,
    /// final points).
    fn converge(model: impl Fn(f64) -> f64, limits: RefineLimits) -> (usize, usize, Vec<Point>) {
        let mut points = sample(&grid(1), &model);
        let start = points.len();
        for round in 0..20 {
            let more = refine(&points, &levels(&points), limits);
            if more.is_empty() {
                return (round, points.len() - start, points);
            }
            assert!(more.len() <= limits.max_points);
            for bytes in more {
                assert_eq!(bytes % limits.granule, 0);
                assert!(points.iter().all(|p| p.bytes != bytes), "{bytes} again");
                points.push(Point {
                    bytes,
                    cost: model(bytes as f64),
                });
            }
        }
        panic!("no convergence in 20 rounds");
    }

    #[test]
    fn an_edge_is_refined_alone_until_bracketed() {
        // L1 to 180 KB, then a long transition to the L2: only the L1's edge is cut.
        let model = |w: f64| {
            if w <= 180.0 * KB {
                18.0
            } else {
                18.0 + (w - 180.0 * KB) / KB
            }
        };
        let mut points = sample(&grid(1), model);
        points.retain(|p| p.bytes >= 16 << 10 && p.bytes <= 512 << 10);
        let mut rounds = 0;
        loop {
            let l1 = levels(&points)[0];
            let more = refine_edge(&points, &l1, RefineLimits::default());
            if more.is_empty() {
                assert!(l1.resolution().unwrap() <= 0.0443 * SLACK, "{l1:?}");
                assert!(
                    l1.last as f64 <= 180.0 * KB && l1.last as f64 > 170.0 * KB,
                    "{l1:?}"
                );
                break;
            }
            for &bytes in &more {
                assert!(
                    bytes > l1.last && bytes < l1.beyond.unwrap(),
                    "{bytes} {l1:?}"
                );
            }
            points.extend(more.iter().map(|&bytes| Point {
                bytes,
                cost: model(bytes as f64),
            }));
            rounds += 1;
            assert!(rounds < 6, "converges");
        }
        assert!(points.len() < 6 + 12, "{} points", points.len());
    }

    #[test]
    fn the_h200_converges_to_near_and_far_l2_at_a_sixteenth_octave() {
        let (rounds, added, points) = converge(h200, RefineLimits::default());
        assert_brackets(&levels(&points), &[200.0 * KB, 30.0 * MB, 60.0 * MB], 0.045);
        // Two sharp steps and a plateau hidden in the third: a handful of rounds, a few dozen
        // sizes against the sweep's 18.
        assert!(rounds <= 4, "{rounds} rounds");
        assert!(added <= 30, "{added} sizes");
    }

    #[test]
    fn the_h100_and_noisy_curves_converge() {
        let (_, _, points) = converge(h100, RefineLimits::default());
        assert_brackets(&levels(&points), &[224.0 * KB, 25.0 * MB, 50.0 * MB], 0.045);
        let noisy = |w: f64| h200(w) * noise(w, 0.05);
        let (rounds, _, points) = converge(noisy, RefineLimits::default());
        assert_brackets(&levels(&points), &[200.0 * KB, 30.0 * MB, 60.0 * MB], 0.045);
        assert!(rounds <= 5, "{rounds} rounds");
    }

    /// One SM's chase on an H100, ns per step by working set in KB (a memory-suite run of
    /// 2026-12-07), as a model: the cost between two measured sizes is the smaller one's.
    fn h100_measured(w: f64) -> f64 {
        const CURVE: [(u64, f64); 60] = [
            (4, 17.5),
            (8, 17.5),
            (16, 17.5),
            (32, 17.5),
            (64, 17.5),
            (128, 17.5),
            (152, 17.5),
            (180, 17.5),
            (188, 24.6),
            (196, 45.5),
            (200, 57.3),
            (208, 55.3),
            (216, 63.1),
            (224, 88.0),
            (228, 86.6),
            (236, 84.8),
            (244, 106.5),
            (248, 112.2),
            (256, 113.8),
            (260, 124.6),
            (268, 118.2),
            (272, 121.7),
            (280, 133.6),
            (292, 138.4),
            (304, 139.8),
            (364, 140.3),
            (432, 140.1),
            (512, 140.0),
            (1024, 140.1),
            (2048, 139.9),
            (4096, 140.1),
            (8192, 140.3),
            (16384, 142.6),
            (19484, 142.6),
            (23172, 147.5),
            (24196, 145.0),
            (24200, 148.5),
            (25268, 191.9),
            (26388, 185.6),
            (27556, 227.4),
            (28776, 246.4),
            (30048, 266.1),
            (31380, 266.2),
            (32768, 265.7),
            (34220, 266.3),
            (35732, 266.3),
            (37316, 266.3),
            (38968, 266.4),
            (40692, 266.5),
            (42496, 266.5),
            (44376, 266.5),
            (46340, 268.9),
            (48392, 270.7),
            (50536, 277.9),
            (52772, 313.9),
            (55108, 345.9),
            (65536, 345.5),
            (131072, 345.8),
            (262144, 345.5),
            (524288, 346.6),
        ];
        CURVE
            .iter()
            .take_while(|&&(kb, _)| (kb * 1024) as f64 <= w)
            .last()
            .map_or(CURVE[0].1, |&(_, cost)| cost)
    }

    #[test]
    fn a_plateau_between_levels_is_not_measured_inside() {
        // The far L2 is flat from 30 to 44 MB: sizes inside it tell nothing about an edge.
        let (_, added, points) = converge(h100_measured, RefineLimits::default());
        let found = levels(&points);
        // The same four levels and edges as the run measured (L1 to 180 KB, near L2 to
        // 24 MB, far L2 from 28 to 49 MB, memory beyond), each bracketed to 1/16 octave.
        assert_brackets(&found, &[180.0 * KB, 24.2 * MB, 49.5 * MB], 0.045);
        assert_eq!(found.len(), 4, "{found:#?}");
        // Inside the plateau: the doubling sweep's 32 MB and one quarter-octave point only
        // (eight, and 41 sizes in all, when flat gaps were cut too; 33 now).
        let inside = points
            .iter()
            .filter(|p| p.bytes > (31.0 * MB) as u64 && p.bytes < (44.0 * MB) as u64)
            .count();
        assert!(inside <= 2, "{inside} sizes inside the far L2");
        assert!(added <= 33, "{added} sizes");
    }

    #[test]
    fn a_cpu_curve_converges_within_its_bound() {
        // A CPU's L1 is small: 1/16 octave of 48 KB is 2 KB, finer than 4 KB.
        let limits = RefineLimits {
            granule: 128,
            max_points: 64,
        };
        let (_, added, points) = converge(cpu, limits);
        let found = levels(&points);
        assert_eq!(found.len(), 4, "{found:#?}");
        for level in &found[..3] {
            assert!(level.resolution().unwrap() <= 0.045, "{level:?}");
        }
        // At most 16 sizes per octave of the transitions the doubling sweep showed (from a
        // level's last size to the next level's first).
        let start = levels(&sample(&grid(1), cpu));
        let transitions: f64 = start
            .windows(2)
            .map(|pair| octaves(pair[0].last, pair[1].first))
            .sum();
        assert!(
            added as f64 <= 16.0 * transitions,
            "{added} sizes for {transitions} octaves"
        );
    }

    #[test]
    fn one_round_is_bounded_and_cuts_a_doubling_into_quarters() {
        let points = sample(&grid(1), h200);
        let found = levels(&points);
        let limits = RefineLimits {
            granule: 4096,
            max_points: 5,
        };
        let more = refine(&points, &found, limits);
        assert_eq!(more.len(), 5, "{more:?}");
        let all = refine(&points, &found, RefineLimits::default());
        // L1 (128-256 KB), near L2 to far (16-32 MB), far to memory (32-64 MB): three each.
        assert_eq!(all.len(), 9, "{all:?}");
        let quarter = |from: f64, k: i32| {
            ((from * 2f64.powf(f64::from(k) / 4.0) / 4096.0).round() as u64) * 4096
        };
        for k in 1..=3 {
            assert!(all.contains(&quarter(128.0 * KB, k)), "{all:?}");
            assert!(all.contains(&quarter(32.0 * MB, k)), "{all:?}");
        }
        // Already at a sixteenth of an octave: nothing to ask.
        let dense = sample(&grid(16), h200);
        assert!(refine(&dense, &levels(&dense), RefineLimits::default()).is_empty());
        assert!(refine(&[], &[], RefineLimits::default()).is_empty());
    }

    #[test]
    fn a_coarse_granule_stops_refinement() {
        // Sizes of 4 and 8 KB with a 4 KB granule: nothing fits between them.
        let points = [
            Point {
                bytes: 4096,
                cost: 1.0,
            },
            Point {
                bytes: 6144,
                cost: 1.0,
            },
            Point {
                bytes: 8192,
                cost: 10.0,
            },
            Point {
                bytes: 16384,
                cost: 10.0,
            },
        ];
        let found = levels(&points);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(refine(&points, &found, RefineLimits::default()).is_empty());
        let fine = RefineLimits {
            granule: 128,
            max_points: 64,
        };
        assert_eq!(refine(&points, &found, fine).len(), 3);
    }
}
