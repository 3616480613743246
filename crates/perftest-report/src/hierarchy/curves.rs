//! Synthetic latency curves (cost by working set) of known hierarchies, for the hierarchy's
//! tests and the command's (built in tests and with the `samples` feature).

use super::levels::Point;

/// A kilobyte, as a working-set size.
pub const KB: f64 = 1024.0;
/// A megabyte.
pub const MB: f64 = 1024.0 * 1024.0;

/// Sizes from 4 KB to 512 MB, `per_octave` per doubling, rounded to 128 bytes.
pub fn grid(per_octave: u32) -> Vec<u64> {
    let steps = 17 * per_octave;
    (0..=steps)
        .map(|i| {
            let bytes = 4096.0 * 2f64.powf(f64::from(i) / f64::from(per_octave));
            ((bytes / 128.0).round() as u64) * 128
        })
        .collect()
}

/// The points of `model` at `sizes`.
pub fn sample(sizes: &[u64], model: impl Fn(f64) -> f64) -> Vec<Point> {
    sizes
        .iter()
        .map(|&bytes| Point {
            bytes,
            cost: model(bytes as f64),
        })
        .collect()
}

/// A step curve: `steps` are (capacity, cost) up to that capacity, then `last` beyond.
pub fn steps(steps: &[(f64, f64)], last: f64) -> impl Fn(f64) -> f64 + '_ {
    move |w| {
        steps
            .iter()
            .find(|(capacity, _)| w <= *capacity)
            .map_or(last, |(_, cost)| *cost)
    }
}

/// The H200 in cycles: L1 35 up to 200 KB, near L2 283 up to 30 MB, far L2 1.8x that up
/// to 60 MB, memory 690.
pub fn h200(w: f64) -> f64 {
    steps(
        &[
            (200.0 * KB, 35.0),
            (30.0 * MB, 283.0),
            (60.0 * MB, 283.0 * 1.8),
        ],
        690.0,
    )(w)
}

/// The H100 in cycles: L1 to 224 KB, 50 MB of L2 in two partitions, memory 680.
pub fn h100(w: f64) -> f64 {
    steps(
        &[
            (224.0 * KB, 33.0),
            (25.0 * MB, 277.0),
            (50.0 * MB, 277.0 * 1.8),
        ],
        680.0,
    )(w)
}

/// A CPU under lavapipe: L1 48 KB, L2 1.25 MB, L3 32 MB, each step spread over about an
/// octave (a set of `w` keeps `(capacity / w)^4` of itself in a cache too small for it).
pub fn cpu(w: f64) -> f64 {
    let levels = [(48.0 * KB, 1.2), (1.25 * MB, 4.0), (32.0 * MB, 12.0)];
    let mut cost = 0.0;
    let mut left = 1.0;
    for (capacity, latency) in levels {
        let hit = (capacity / w).min(1.0).powi(4) * left;
        cost += hit * latency;
        left -= hit;
    }
    cost + left * 90.0
}

/// A deterministic noise factor in 1 +- `amount`, different for every size.
pub fn noise(bytes: f64, amount: f64) -> f64 {
    let x = (bytes.log2() * 12.9898).sin() * 43758.5453;
    1.0 + amount * (2.0 * (x - x.floor()) - 1.0)
}
