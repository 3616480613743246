use super::*;
use crate::findings::{GROUPS, RULES};
use crate::hierarchy::hierarchy;

/// Every case of every suite.
fn every_case() -> Vec<Case> {
    perftest_cases::all_cases()
}

/// A time per workgroup for case `i` in no order the selection used: a multiplicative hash.
fn scrambled(i: usize) -> f64 {
    let h = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
    1e3 * (1.0 + (h % 1000) as f64 / 250.0)
}

#[test]
fn the_selection_holds_every_case_a_rule_names_and_leaves_the_rest() {
    let all = every_case();
    let chosen = answer_cases(&all);
    let ids: BTreeSet<&str> = chosen.iter().map(|c| c.id.as_str()).collect();
    let known: BTreeSet<&str> = all.iter().map(|c| c.id.as_str()).collect();
    for rule in RULES {
        for id in [rule.a, rule.b] {
            assert!(!known.contains(id) || ids.contains(id), "{}: {id}", rule.id);
        }
    }
    for group in GROUPS {
        for (a, b) in group.widths.iter().flat_map(|w| w.pairs) {
            assert!(ids.contains(a) && ids.contains(b), "{}: {a} {b}", group.id);
        }
    }
    assert!(ids.contains(BASELINE_CASE_ID));
    assert!(chosen.iter().any(|c| c.family.curve_point(c).is_some()));
    // Nothing reads every case.
    assert!(
        chosen.len() < all.len(),
        "{} of {}",
        chosen.len(),
        all.len()
    );
}

/// The point of the selection: on a report whose figures are in an order the selection never
/// saw, the answers from the chosen cases alone are the answers from every case.
#[test]
fn the_chosen_cases_alone_give_the_same_answers() {
    let all = every_case();
    let chosen = answer_cases(&all);
    let full = every_case_measured(&all, scrambled);
    let position: std::collections::HashMap<&str, usize> = all
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    let mut part = full.clone();
    part.cases.retain(|c| chosen.iter().any(|k| k.id == c.id));
    assert_eq!(part.cases.len(), chosen.len());
    assert!(part
        .cases
        .iter()
        .all(|c| position.contains_key(c.id.as_str())));
    let (found_full, found_part) = (findings(&full), findings(&part));
    assert!(
        found_full.findings.len() > 50,
        "{}",
        found_full.findings.len()
    );
    assert_eq!(found_full, found_part);
    assert_eq!(guidance(&full, &found_full), guidance(&part, &found_part));
    assert_eq!(hierarchy(&full), hierarchy(&part));
}

#[test]
fn recording_sees_the_lookups_of_its_own_closure_only() {
    let report = every_case_measured(&every_case(), scrambled);
    let rates = crate::findings::Rates::of(&report);
    let _ = rates.get("typed.r8.linear");
    let ((), read) = recording(|| {
        let _ = rates.get("raw.load.random");
        let _ = rates.get("no.such.case");
    });
    assert_eq!(
        read.into_iter().collect::<Vec<_>>(),
        ["no.such.case", "raw.load.random"]
    );
    let ((), read) = recording(|| {});
    assert!(read.is_empty());
}
