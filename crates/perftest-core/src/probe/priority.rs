//! The order in which the probe builds and measures pipelines: the answer should improve with
//! every pipeline, so the first round covers every (load width, access pattern) ranking with
//! one case each, the second round gives each ranking a second case (the first comparison),
//! and so on.

use perftest_cases::Case;

/// Indices into `cases` in build order: round-robin over the (bytes per load, pattern) groups,
/// groups in order of first appearance, cases within a group in the order given.
pub(crate) fn priority_order(cases: &[Case]) -> Vec<usize> {
    let mut groups: Vec<((u32, u32), Vec<usize>)> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let key = (case.bytes_per_load(), case.pattern.spec_value());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
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
        // Within a ranking the given order is kept.
        let typed_first = quick.iter().position(|c| c.id == "typed.r32f.uniform");
        assert_eq!(Some(order[0]), typed_first);
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
