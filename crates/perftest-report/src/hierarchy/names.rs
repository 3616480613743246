//! Names for the levels of a latency curve: L1, L2 near, L2 far, memory; L1, L2, L3, memory.
//!
//! The rule ([`level_names`]), from the smallest working set up:
//! - the last level is **memory** when the sweep went past every cache (it reached the top of
//!   the sweep's sizes, and there are at least two levels); otherwise it is a cache too;
//! - every other level is a cache. Caches are numbered L1, L2, ... in order, except that a
//!   cache whose capacity is at most [`PARTITION_RATIO`] times the one before it is a further
//!   **partition** of the same cache: the pair is named `L2 near` and `L2 far` (a third is
//!   `L2 far 2`). A partitioned cache's far part holds as much again as its near part, while
//!   a separate next cache is many times larger than the one before it (a CPU's L2 and L3, a
//!   GPU's L2 and infinity cache: 8x and more).

use super::levels::Level;

/// The largest ratio between the capacities of two consecutive caches for the second to count
/// as another partition of the first (3x).
pub const PARTITION_RATIO: f64 = 3.0;

/// The name of each of `levels` (in order, smallest working sets first); `last_is_memory` says
/// whether the curve reached past every cache, so that its last level is memory.
pub fn level_names(levels: &[Level], last_is_memory: bool) -> Vec<String> {
    let memory = last_is_memory && levels.len() >= 2;
    let caches = if memory {
        &levels[..levels.len() - 1]
    } else {
        levels
    };
    // Group the caches: each group is one numbered cache, its members its partitions.
    let mut groups: Vec<usize> = Vec::new();
    for (i, level) in caches.iter().enumerate() {
        let partition = i > 0
            && match (caches[i - 1].capacity(), level.capacity()) {
                (Some(before), Some(this)) => this as f64 <= before as f64 * PARTITION_RATIO,
                _ => false,
            };
        match groups.last_mut() {
            Some(count) if partition => *count += 1,
            _ => groups.push(1),
        }
    }
    let mut names = Vec::with_capacity(levels.len());
    for (number, &count) in groups.iter().enumerate() {
        let n = number + 1;
        for part in 0..count {
            names.push(match (count, part) {
                (1, _) => format!("L{n}"),
                (_, 0) => format!("L{n} near"),
                (_, 1) => format!("L{n} far"),
                (_, k) => format!("L{n} far {k}"),
            });
        }
    }
    if memory {
        names.push("memory".to_string());
    }
    names
}

#[cfg(test)]
mod tests {
    use super::super::levels::levels;
    use super::super::levels::tests::{cpu, grid, h100, h200, sample};
    use super::*;

    /// The H200's refined latency sweep as measured (ns per load by working set, from
    /// `perftest --suite memory` with the sweep refined): L1, L2 near, L2 far and memory, each
    /// cache's capacity to 1/16 octave.
    #[test]
    fn the_h200s_refined_sweep_reads_as_four_levels() {
        use crate::hierarchy::levels::{levels, Point};
        let measured: [(u64, f64); 59] = [
            (4096, 17.7),
            (8192, 17.8),
            (16384, 17.9),
            (32768, 18.0),
            (65536, 18.3),
            (131072, 19.0),
            (155648, 19.2),
            (163840, 19.3),
            (167936, 19.4),
            (176128, 19.6),
            (184320, 19.6),
            (192512, 28.4),
            (200704, 49.8),
            (204800, 61.3),
            (212992, 62.2),
            (221184, 63.9),
            (229376, 100.3),
            (233472, 93.9),
            (241664, 96.7),
            (249856, 108.7),
            (253952, 119.9),
            (262144, 126.4),
            (266240, 129.0),
            (274432, 130.1),
            (278528, 129.6),
            (286720, 135.7),
            (299008, 141.7),
            (311296, 143.2),
            (372736, 142.6),
            (442368, 142.5),
            (524288, 143.1),
            (1048576, 142.9),
            (2097152, 142.8),
            (4194304, 142.8),
            (8388608, 143.0),
            (16777216, 145.4),
            (19951616, 145.8),
            (23728128, 146.2),
            (24776704, 146.3),
            (25874432, 146.3),
            (27021312, 147.4),
            (28217344, 153.8),
            (29466624, 154.8),
            (30769152, 178.6),
            (32133120, 199.6),
            (33554432, 233.5),
            (35041280, 240.0),
            (36589568, 263.6),
            (38211584, 264.2),
            (39903232, 264.3),
            (41668608, 267.2),
            (43515904, 337.6),
            (45441024, 337.6),
            (47452160, 338.5),
            (56430592, 338.5),
            (67108864, 338.8),
            (134217728, 338.6),
            (268435456, 338.4),
            (536870912, 339.2),
        ];
        let points: Vec<Point> = measured
            .iter()
            .map(|&(bytes, cost)| Point { bytes, cost })
            .collect();
        let found = levels(&points);
        let names = level_names(&found, true);
        assert_eq!(names, ["L1", "L2 near", "L2 far", "memory"], "{found:?}");
        assert_eq!(found[0].capacity(), Some(184_320));
        assert_eq!(found[1].capacity(), Some(28_217_344));
        assert_eq!(found[2].capacity(), Some(41_668_608));
        for level in &found[..3] {
            assert!(level.resolution().is_some_and(|r| r <= 0.045), "{level:?}");
        }
        assert!(
            (found[2].cost / found[1].cost - 1.8).abs() < 0.1,
            "{found:?}"
        );
    }

    #[test]
    fn hopper_has_a_near_and_a_far_l2() {
        for model in [h200, h100] {
            let names = level_names(&levels(&sample(&grid(16), model)), true);
            assert_eq!(names, ["L1", "L2 near", "L2 far", "memory"]);
        }
        // The doubling sweep misses the far plateau: one L2.
        let names = level_names(&levels(&sample(&grid(1), h200)), true);
        assert_eq!(names, ["L1", "L2", "memory"]);
    }

    #[test]
    fn a_cpu_has_three_numbered_caches() {
        let names = level_names(&levels(&sample(&grid(16), cpu)), true);
        assert_eq!(names, ["L1", "L2", "L3", "memory"]);
    }

    #[test]
    fn a_sweep_that_stops_early_names_no_memory() {
        let found = levels(&sample(&grid(16)[..130], cpu));
        assert_eq!(level_names(&found, false), ["L1", "L2"]);
        assert_eq!(level_names(&found, true), ["L1", "memory"]);
        assert_eq!(level_names(&found[..1], true), ["L1"]);
        assert!(level_names(&[], true).is_empty());
    }

    #[test]
    fn three_partitions_and_an_infinity_cache() {
        let level = |last: u64| Level {
            first: last / 2,
            last,
            beyond: Some(last + last / 16),
            cost: 1.0,
            points: 4,
        };
        let found = [
            level(16 << 10),
            level(4 << 20),
            level(8 << 20),
            level(12 << 20),
            level(128 << 20),
            Level {
                beyond: None,
                ..level(512 << 20)
            },
        ];
        assert_eq!(
            level_names(&found, true),
            ["L1", "L2 near", "L2 far", "L2 far 2", "L3", "memory"]
        );
    }
}
