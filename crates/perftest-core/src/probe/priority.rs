//! The order in which the probe builds and measures pipelines: the answer should improve with
//! every pipeline, so the first round covers every (load width, access pattern) ranking with
//! its likeliest winner, the second round gives each ranking its likeliest runner-up (the first
//! comparison), and so on.
//!
//! Within a ranking, cases go in the order of [`LIKELY_FASTEST`] (from full runs of the
//! collection): a short budget on a slow first launch then
//! still compares the two candidates most likely to win, instead of whichever the suite lists
//! first. On a GPU where another resource type wins, the ranking still holds every candidate
//! the budget reached; only which ones are reached first depends on the table.

use perftest_cases::{Case, Pattern};

/// Case families from likeliest fastest to slowest, per load width: the full runs' order for
/// linear and random loads. Families not listed go last, in the order given.
pub(crate) const LIKELY_FASTEST: [&str; 10] = [
    "structured.float4",
    "structured.float",
    "raw.load",
    "typed.rgba32f",
    "raw.load4",
    "typed.r32f",
    "tex.load.rgba32f",
    "tex.load.r32f",
    "tex.sample.nearest.rgba32f",
    "cbuffer.float4",
];

/// A case's place in its ranking: its family's place in [`LIKELY_FASTEST`], except that
/// constant buffers, built for loads every thread makes alike, come right after the first for
/// uniform loads (they are fast for uniform loads and slow otherwise).
fn likely_rank(case: &Case) -> usize {
    let family = case.id.strip_suffix(case.pattern.name());
    let family = family.and_then(|f| f.strip_suffix('.')).unwrap_or(&case.id);
    let rank = LIKELY_FASTEST
        .iter()
        .position(|f| *f == family)
        .unwrap_or(LIKELY_FASTEST.len());
    if case.pattern == Pattern::Uniform && family.starts_with("cbuffer.") {
        return 1;
    }
    // Shift the others by one from second place, so the cbuffer's slot is its own.
    if case.pattern == Pattern::Uniform && rank >= 1 {
        rank + 1
    } else {
        rank
    }
}

/// Indices into `cases` in build order: round-robin over the (bytes per load, pattern) groups,
/// groups in order of first appearance, cases within a group by [`likely_rank`] (ties in the
/// order given).
pub(crate) fn priority_order(cases: &[Case]) -> Vec<usize> {
    let mut groups: Vec<((u32, u32), Vec<usize>)> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let key = (case.bytes_per_load(), case.pattern.spec_value());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    for (_, members) in &mut groups {
        members.sort_by_key(|&i| likely_rank(&cases[i])); // stable: ties keep their order
    }
    let rounds = groups.iter().map(|(_, m)| m.len()).max().unwrap_or(0);
    (0..rounds)
        .flat_map(|round| {
            groups
                .iter()
                .filter_map(move |(_, members)| members.get(round).copied())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_cases::{original_cases, quick_cases, Pattern};
    use std::collections::HashSet;

    #[test]
    fn the_first_round_covers_every_ranking_once() {
        let quick = quick_cases();
        let order = priority_order(&quick);
        // A permutation of all cases.
        assert_eq!(order.len(), quick.len());
        assert_eq!(order.iter().collect::<HashSet<_>>().len(), quick.len());
        // The first six: 4 and 16 bytes x 3 patterns, each exactly once.
        let first: HashSet<(u32, Pattern)> = order[..6]
            .iter()
            .map(|&i| (quick[i].bytes_per_load(), quick[i].pattern))
            .collect();
        assert_eq!(first.len(), 6);
        for width in [4, 16] {
            for pattern in Pattern::ALL {
                assert!(first.contains(&(width, pattern)), "{width} {pattern:?}");
            }
        }
        // After twelve, every ranking has two cases: a comparison.
        for width in [4, 16] {
            for pattern in Pattern::ALL {
                let n = order[..12]
                    .iter()
                    .filter(|&&i| quick[i].bytes_per_load() == width && quick[i].pattern == pattern)
                    .count();
                assert_eq!(n, 2, "{width} {pattern:?}");
            }
        }
        // The first twelve are each ranking's two likeliest winners (the full runs' top two on
        // the H200 and the H100), and 16-byte random loads get their close third next.
        let first: HashSet<&str> = order[..12].iter().map(|&i| quick[i].id.as_str()).collect();
        for id in [
            "raw.load.uniform",
            "structured.float.uniform",
            "structured.float.linear",
            "raw.load.linear",
            "structured.float.random",
            "raw.load.random",
            "structured.float4.uniform",
            "cbuffer.float4.uniform",
            "structured.float4.linear",
            "typed.rgba32f.linear",
            "structured.float4.random",
            "typed.rgba32f.random",
        ] {
            assert!(first.contains(id), "{id} not among the first twelve");
        }
        let random16: Vec<&str> = order
            .iter()
            .map(|&i| &quick[i])
            .filter(|c| c.bytes_per_load() == 16 && c.pattern == Pattern::Random)
            .map(|c| c.id.as_str())
            .take(3)
            .collect();
        assert_eq!(random16[2], "raw.load4.random");
    }

    #[test]
    fn every_quick_family_has_a_likely_rank() {
        for q in perftest_cases::QUICK_PROFILE {
            assert!(LIKELY_FASTEST.contains(&q), "{q}");
        }
    }

    #[test]
    fn uneven_groups_and_empty_input() {
        assert!(priority_order(&[]).is_empty());
        let all = original_cases();
        let order = priority_order(&all);
        assert_eq!(order.len(), all.len());
        assert_eq!(order.iter().collect::<HashSet<_>>().len(), all.len());
        let one = priority_order(&all[..1]);
        assert_eq!(one, vec![0]);
    }
}
