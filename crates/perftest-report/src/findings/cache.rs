//! The cache findings: what the memory suite's sweep says about the levels Vulkan does not
//! report (their capacities and latencies), and what shared memory costs the L1.

use crate::clock::clock;
use crate::hierarchy::{hierarchy, size_text};
use crate::schema::Report;

use super::types::Finding;

/// The cache findings of `report`: one per latency level (`cache.l1`, `cache.l2`, ... by the
/// level's name; `value` its latency in nanoseconds per dependent load), and
/// `cache.carveout` where shared memory shrank the L1 (`value` the smallest L1 left, bytes).
pub fn cache_findings(report: &Report) -> Vec<Finding> {
    let Some(h) = hierarchy(report) else {
        return Vec::new();
    };
    let mhz = clock(report).map(|c| c.mhz);
    let mut out = Vec::new();
    for named in &h.latency_levels {
        let level = &named.level;
        let cycles = mhz.map_or_else(String::new, |m| {
            format!(" ({:.0} cycles)", level.cost * m / 1e3)
        });
        let extent = match level.capacity() {
            Some(bytes) => format!("up to {}", size_text(bytes as f64)),
            None => format!("from {} on", size_text(level.first as f64)),
        };
        out.push(Finding {
            id: format!("cache.{}", id_word(&named.name)),
            statement: format!(
                "{}: {extent}, {:.1} ns per dependent load{cycles}.",
                named.name, level.cost
            ),
            value: level.cost,
            cases: Vec::new(),
            beyond_noise: None,
        });
    }
    let sweep_l1 = h
        .carveout
        .iter()
        .find(|c| c.shared == 0)
        .and_then(|c| c.l1.as_ref());
    let smallest = h
        .carveout
        .iter()
        .filter(|c| c.shared > 0)
        .filter_map(|c| Some((c.shared, c.l1.as_ref()?.last)))
        .min_by_key(|(_, l1)| *l1);
    let shrunk = smallest
        .zip(sweep_l1)
        .filter(|((_, l1), full)| *l1 < full.last);
    if let Some(((shared, l1), full)) = shrunk {
        out.push(Finding {
            id: "cache.carveout".to_string(),
            statement: format!(
                "Shared memory takes L1: with {} declared the L1 holds {} (without: {}).",
                size_text(shared as f64),
                size_text(l1 as f64),
                size_text(full.last as f64)
            ),
            value: l1 as f64,
            cases: Vec::new(),
            beyond_noise: None,
        });
    }
    out
}

/// A level's name as an id word: `L2 near` becomes `l2_near`.
fn id_word(name: &str) -> String {
    name.to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}
