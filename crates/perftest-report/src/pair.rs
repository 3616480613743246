//! Two reports compared case by case: how each case changed from report A to report B.
//!
//! Cases are matched by id. For each case measured in both, `ratio` is B's throughput over A's
//! (A's median nanoseconds per group over B's), so a ratio above 1 means B is faster, and
//! `change %` is `(ratio - 1) * 100`. A change is *beyond noise* when the two figures' 95%
//! intervals ([`crate::derived::Derived::interval`]) share no value: the samples of each run say
//! the other run's figure is out of reach of its own noise. A change is a *level* when the two
//! runs reported different levels of the case's dispatches, and a *place* when one run read the
//! case's data at the fastest of its places and the other did not.

use std::collections::HashMap;

use crate::derived::{Derived, ReportFigures};
use crate::schema::{CaseResult, CaseStatus, DataPlaces, Report, Settings};
use crate::statistics::median;

/// One case present in both reports.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseComparison {
    /// Case id.
    pub id: String,
    /// Display name (from B).
    pub name: String,
    /// A's median nanoseconds per group; `None` when not measured in A.
    pub a_ns_per_group: Option<f64>,
    /// B's median nanoseconds per group; `None` when not measured in B.
    pub b_ns_per_group: Option<f64>,
    /// A's time in the original's `ms` scale.
    pub a_original_ms: Option<f64>,
    /// B's time in the original's `ms` scale.
    pub b_original_ms: Option<f64>,
    /// B throughput / A throughput; `None` unless both were measured with non-zero times.
    pub ratio: Option<f64>,
    /// `(ratio - 1) * 100`.
    pub change_pct: Option<f64>,
    /// True when the two figures' 95% intervals do not overlap; `None` unless both have one.
    pub beyond_noise: Option<bool>,
    /// True when the two runs reported different levels of the case's dispatches, each seen by
    /// one of the runs ([`crate::derived::other_level`]): a change in how often the
    /// dispatches paid a fixed cost, not in the work.
    pub other_level: bool,
    /// True when one run chose the fastest of the case's data's places where the place set its
    /// speed, and the other, from before places, did not
    /// ([`crate::places::other_place`]): the change may be the place's.
    pub other_place: bool,
}

/// The largest change among the compared cases.
#[derive(Clone, Debug, PartialEq)]
pub struct LargestChange {
    /// Case id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its change in percent (signed).
    pub change_pct: f64,
}

/// Totals over the cases with a ratio.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareSummary {
    /// Cases with a ratio (measured in both reports).
    pub compared: usize,
    /// Median of `|change %|`.
    pub median_abs_change_pct: f64,
    /// Median of the signed `change %`: how far the whole of B moved against A (every case
    /// faster or slower together, as when a run, a clock or a driver is slower in everything).
    pub median_change_pct: f64,
    /// The case with the largest `|change %|`.
    pub largest: LargestChange,
    /// Cases whose intervals are apart ([`CaseComparison::beyond_noise`]), and cases with
    /// intervals in both reports.
    pub beyond_noise: (usize, usize),
    /// The names of the cases whose runs reported different levels
    /// ([`CaseComparison::other_level`]).
    pub other_levels: Vec<String>,
    /// The names of the cases whose runs read their data at other places
    /// ([`CaseComparison::other_place`]).
    pub other_places: Vec<String>,
}

/// The comparison of two reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Device name of A.
    pub a_device: String,
    /// Device name of B.
    pub b_device: String,
    /// Cases present in both reports, in B's order.
    pub cases: Vec<CaseComparison>,
    /// Names of cases only in A, in A's order.
    pub only_in_a: Vec<String>,
    /// Names of cases only in B, in B's order.
    pub only_in_b: Vec<String>,
    /// Totals; `None` when no case was measured in both.
    pub summary: Option<CompareSummary>,
    /// Cases measured in A (what a full comparison would compare).
    pub a_measured: usize,
    /// Whether each report is of a complete run (A, B).
    pub complete: (bool, bool),
    /// How the runs' settings differ where that moves their figures ([`settings_note`]).
    pub settings_note: Option<String>,
}

/// The GPU time a run's dispatches were sized for, in ms: `dispatch_ms`, or in reports from
/// before it was fixed, `target_ms / samples`.
fn dispatch_ms(settings: &Settings) -> f64 {
    settings
        .dispatch_ms
        .unwrap_or(settings.target_ms / f64::from(settings.samples.max(1)))
}

/// A note when two runs' dispatches were sized to times more than 1% apart: a figure depends
/// on the dispatch's size (how much of it the last, partly idle wave is), so a change between
/// them may be the setting rather than the GPU. `None` when they agree.
pub fn settings_note(a: &Settings, b: &Settings) -> Option<String> {
    let (a_ms, b_ms) = (dispatch_ms(a), dispatch_ms(b));
    let apart = (a_ms / b_ms - 1.0).abs() > 0.01 || !(a_ms / b_ms).is_finite();
    apart.then(|| {
        format!(
            "A's dispatches were sized to {a_ms} ms, B's to {b_ms} ms (--dispatch-ms); figures \
             depend on the dispatch size, so a change may be the setting rather than the GPU"
        )
    })
}

impl CaseComparison {
    /// `level` (the runs reported different levels), `place` (they read the data at other
    /// places), else `beyond`, `within` (noise) or `n/a`, for tables.
    pub fn noise_label(&self) -> &'static str {
        if self.other_level {
            return "level";
        }
        if self.other_place {
            return "place";
        }
        match self.beyond_noise {
            Some(true) => "beyond",
            Some(false) => "within",
            None => "n/a",
        }
    }
}

impl CompareSummary {
    /// "-0.019% (the median signed change; + is B faster)": three decimals, since a whole run
    /// moves by hundredths of a percent where a case moves by more.
    pub fn shift_text(&self) -> String {
        format!(
            "{:+.3}% (the median signed change; + is B faster)",
            self.median_change_pct
        )
    }

    /// `1 (Texture2D<RGBA16F>.Load random: ...)`: the cases whose runs reported different
    /// levels, `None` when there are none.
    pub fn other_levels_text(&self) -> Option<String> {
        (!self.other_levels.is_empty()).then(|| {
            format!(
                "{} ({}: each run reported a level of the dispatches that the other also saw, \
                 taken in other shares)",
                self.other_levels.len(),
                self.other_levels.join(", ")
            )
        })
    }

    /// `1 (cbuffer{float4} load random: ...)`: the cases whose runs read their data at other
    /// places, `None` when there are none.
    pub fn other_places_text(&self) -> Option<String> {
        (!self.other_places.is_empty()).then(|| {
            format!(
                "{} ({}: where its data lies sets its speed; one run measured it at the \
                 fastest of its places, the other wherever it lay)",
                self.other_places.len(),
                self.other_places.join(", ")
            )
        })
    }

    /// "1 of 138 (95% intervals apart; ...)": the cases beyond noise, `None` when no case has
    /// intervals in both reports.
    pub fn beyond_noise_text(&self) -> Option<String> {
        let (apart, judged) = self.beyond_noise;
        (judged > 0).then(|| {
            format!(
                "{apart} of {judged} (95% intervals apart; 1 in 500 by chance if dispatches \
                 are independent)"
            )
        })
    }
}

impl Comparison {
    /// Cases present in both reports (measured or not).
    pub fn matched(&self) -> usize {
        self.cases.len()
    }
}

/// Compares report `b` against report `a`, in time linear in the number of cases (cases are
/// matched through an index by id, and each report's figures are derived once).
pub fn compare(a: &Report, b: &Report) -> Comparison {
    let a_index: HashMap<&str, usize> = a
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    let b_ids: HashMap<&str, usize> = b
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    let a_derived = a.derived_all();
    let b_derived = b.derived_all();
    let mut cases = Vec::new();
    for (b_case, b_derived) in b.cases.iter().zip(&b_derived) {
        let Some(&a_at) = a_index.get(b_case.id.as_str()) else {
            continue;
        };
        let a_derived = a_derived[a_at];
        let a_ns = a_derived.map(|d| d.ns_per_group);
        let b_ns = b_derived.map(|d| d.ns_per_group);
        let ratio = match (a_ns, b_ns) {
            (Some(a_ns), Some(b_ns)) => Some(a_ns / b_ns).filter(|r| r.is_finite() && *r > 0.0),
            _ => None,
        };
        let a_interval = a_derived.and_then(|d| d.interval);
        let b_interval = b_derived.and_then(|d| d.interval);
        let beyond_noise = match (a_interval, b_interval) {
            (Some(a), Some(b)) if ratio.is_some() => Some(a.apart(b)),
            _ => None,
        };
        let other_level = match (a_derived, b_derived) {
            (Some(a), Some(b)) => crate::derived::other_level(&a, b),
            _ => false,
        };
        let a_places = places_of(&a.cases[a_at], a_derived);
        let b_places = places_of(b_case, *b_derived);
        let other_place = ratio.is_some() && crate::places::other_place(a_places, b_places);
        cases.push(CaseComparison {
            id: b_case.id.clone(),
            name: b_case.name.clone(),
            a_ns_per_group: a_ns,
            b_ns_per_group: b_ns,
            a_original_ms: a_derived.map(|d| d.original_ms),
            b_original_ms: b_derived.map(|d| d.original_ms),
            ratio,
            change_pct: ratio.map(|r| (r - 1.0) * 100.0),
            beyond_noise,
            other_level,
            other_place,
        });
    }
    let only_in_a = a
        .cases
        .iter()
        .filter(|c| !b_ids.contains_key(c.id.as_str()))
        .map(|c| c.name.clone())
        .collect();
    let only_in_b = b
        .cases
        .iter()
        .filter(|c| !a_index.contains_key(c.id.as_str()))
        .map(|c| c.name.clone())
        .collect();
    let summary = summarize(&cases);
    Comparison {
        a_device: a.device.name.clone(),
        b_device: b.device.name.clone(),
        cases,
        only_in_a,
        only_in_b,
        summary,
        a_measured: a
            .cases
            .iter()
            .filter(|c| c.status == CaseStatus::Measured)
            .count(),
        complete: (a.complete, b.complete),
        settings_note: settings_note(&a.settings, &b.settings),
    }
}

/// A case's data places, if it had several, and how much its samples varied (its CV).
fn places_of(case: &CaseResult, derived: Option<Derived>) -> (Option<&DataPlaces>, f64) {
    let places = case
        .measurement
        .as_ref()
        .and_then(|m| m.data_places.as_ref());
    (places, derived.map_or(0.0, |d| d.summary.cv))
}

fn summarize(cases: &[CaseComparison]) -> Option<CompareSummary> {
    let changed: Vec<(&CaseComparison, f64)> = cases
        .iter()
        .filter_map(|c| c.change_pct.map(|p| (c, p)))
        .collect();
    let magnitudes: Vec<f64> = changed.iter().map(|(_, p)| p.abs()).collect();
    let median_abs_change_pct = median(&magnitudes)?;
    let signed: Vec<f64> = changed.iter().map(|(_, p)| *p).collect();
    let median_change_pct = median(&signed)?;
    let (case, change_pct) = changed
        .iter()
        .max_by(|x, y| x.1.abs().total_cmp(&y.1.abs()))?;
    let judged = cases.iter().filter_map(|c| c.beyond_noise);
    let beyond_noise = judged.fold((0, 0), |(apart, all), b| (apart + usize::from(b), all + 1));
    let other_levels = cases
        .iter()
        .filter(|c| c.other_level)
        .map(|c| c.name.clone())
        .collect();
    let other_places = cases
        .iter()
        .filter(|c| c.other_place)
        .map(|c| c.name.clone())
        .collect();
    Some(CompareSummary {
        beyond_noise,
        other_levels,
        other_places,
        compared: changed.len(),
        median_abs_change_pct,
        median_change_pct,
        largest: LargestChange {
            id: case.id.clone(),
            name: case.name.clone(),
            change_pct: *change_pct,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{changed_pair, measurement, placed, sample_report, two_levels};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
    }

    #[test]
    fn ratios_and_summary() {
        let (a, b) = changed_pair();
        let c = compare(&a, &b);
        assert_eq!(c.matched(), 4);
        let ids: Vec<&str> = c.cases.iter().map(|x| x.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "typed.r8.uniform",
                "typed.rgba8.random",
                "tex.load.r8.linear",
                "cbuffer.float4.uniform"
            ]
        );
        let r8 = &c.cases[0];
        assert_eq!(
            (r8.a_ns_per_group, r8.b_ns_per_group),
            (Some(5000.0), Some(2500.0))
        );
        assert_eq!(r8.ratio, Some(2.0));
        assert_eq!(r8.change_pct, Some(100.0));
        let base = &c.cases[1];
        assert!(close(base.ratio.unwrap(), 20.0 / 24.0));
        assert!(close(base.change_pct.unwrap(), -100.0 / 6.0));
        assert_eq!(c.cases[2].ratio, None);
        assert_eq!(c.cases[3].change_pct, None);

        let s = c.summary.as_ref().unwrap();
        assert_eq!(s.compared, 2);
        assert!(close(s.median_abs_change_pct, (100.0 + 100.0 / 6.0) / 2.0));
        assert!(close(s.median_change_pct, (100.0 - 100.0 / 6.0) / 2.0));
        assert_eq!(s.largest.id, "typed.r8.uniform");
        assert_eq!(s.largest.change_pct, 100.0);
        assert_eq!(c.only_in_a, ["ByteAddressBuffer.Load4 random"]);
        assert_eq!(c.only_in_b, ["StructuredBuffer<float>.Load linear"]);
    }

    /// A modal case that one run reported by its faster level and the other, which took that
    /// level too rarely, by its slower one: the change is a level; no other case is one.
    #[test]
    fn runs_that_reported_other_levels() {
        let (a, mut b) = crate::samples::other_levels_pair();
        let c = compare(&a, &b);
        assert!(c.cases[0].other_level, "{:?}", c.cases[0]);
        assert_eq!(c.cases[0].noise_label(), "level");
        assert!(c.cases[1..].iter().all(|x| !x.other_level));
        let s = c.summary.as_ref().unwrap();
        assert_eq!(s.other_levels, ["Buffer<R8>.Load uniform"]);
        assert!(s
            .other_levels_text()
            .unwrap()
            .starts_with("1 (Buffer<R8>.Load uniform: each run reported a level"));
        // The same runs at one level: nothing of the kind.
        b.cases[0].measurement = Some(two_levels(14));
        let same = compare(&a, &b);
        assert!(!same.cases[0].other_level);
        assert!(same.summary.as_ref().unwrap().other_levels_text().is_none());
    }

    /// A report from before the data places against one whose case chose the fastest of
    /// them (10% faster than its first): the change is a place; the same report twice has
    /// none.
    #[test]
    fn runs_that_read_their_data_at_other_places() {
        let a = sample_report();
        let mut b = sample_report();
        b.cases[0].measurement = Some(placed());
        let c = compare(&a, &b);
        assert!(c.cases[0].other_place, "{:?}", c.cases[0]);
        assert_eq!(c.cases[0].noise_label(), "place");
        assert!(c.cases[1..].iter().all(|x| !x.other_place));
        let s = c.summary.as_ref().unwrap();
        assert_eq!(s.other_places, ["Buffer<R8>.Load uniform"]);
        let same = compare(&b, &b);
        assert!(!same.cases[0].other_place);
        assert!(same.summary.as_ref().unwrap().other_places_text().is_none());
    }

    #[test]
    fn largest_change_can_be_a_slowdown() {
        let (a, mut b) = changed_pair();
        b.cases[0].measurement = Some(measurement(4000, &[21e6]));
        b.cases[1].measurement = Some(measurement(1000, &[80e6]));
        let s = compare(&a, &b).summary.unwrap();
        assert_eq!(s.largest.id, "typed.rgba8.random");
        assert!(close(s.largest.change_pct, -75.0));
    }

    /// With six samples a side, a change is beyond noise when the two sets of samples do not
    /// overlap, and the summary counts such cases among those with intervals in both.
    #[test]
    fn changes_beyond_noise() {
        let (a, b) = crate::samples::six_sample_pair();
        let c = compare(&a, &b);
        assert_eq!(c.cases[0].beyond_noise, Some(true));
        assert_eq!(c.cases[1].beyond_noise, Some(false));
        assert_eq!(c.cases[2].beyond_noise, None);
        let s = c.summary.as_ref().unwrap();
        assert_eq!(s.beyond_noise, (1, 2));
        assert!(s.beyond_noise_text().unwrap().starts_with("1 of 2 "));
        // Without intervals there is nothing to count.
        let (a, b) = changed_pair();
        let s = compare(&a, &b).summary.unwrap();
        assert_eq!(s.beyond_noise, (0, 0));
        assert_eq!(s.beyond_noise_text(), None);
    }

    /// Runs whose dispatches were sized to other times say so; the same time, or one given as
    /// `target_ms / samples` in an older report, says nothing.
    #[test]
    fn dispatches_sized_to_other_times_are_noted() {
        let (a, mut b) = changed_pair();
        b.settings.dispatch_ms = Some(20.0);
        assert_eq!(compare(&a, &a).settings_note, None);
        let note = compare(&a, &b).settings_note.expect("a note");
        assert!(note.starts_with("A's dispatches were sized to "), "{note}");
        assert!(note.contains("B's to 20 ms"), "{note}");
        // An older report: dispatch_ms absent, target_ms / samples the same time.
        let mut old = a.clone();
        old.settings.dispatch_ms = None;
        old.settings.target_ms = dispatch_ms(&a.settings) * f64::from(old.settings.samples);
        assert_eq!(compare(&a, &old).settings_note, None);
    }

    #[test]
    fn nothing_in_common() {
        let a = sample_report();
        let mut b = sample_report();
        b.cases.clear();
        let c = compare(&a, &b);
        assert_eq!(c.matched(), 0);
        assert_eq!(c.summary, None);
        assert_eq!(c.only_in_a.len(), 5);
    }
}
