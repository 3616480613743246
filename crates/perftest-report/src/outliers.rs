//! Many reports of one GPU model side by side — every GPU of a node, or reports gathered from
//! many nodes — and the outlier rule a fleet operator runs after a driver update or a repair.
//!
//! Per case, the **node median** is the median over the reports of the median time per
//! workgroup, and each report's **deviation** is its throughput relative to that median, in
//! percent (negative = slower). A report is **flagged** on a case when its deviation is larger
//! than [`OutlierRule::min_pct`] (2%) *and* its distance from the node median is larger than
//! [`OutlierRule::min_mads`] (5) median absolute deviations of that case across the reports:
//! the first condition ignores differences too small to matter, the second ignores cases that
//! are noisy on every device. The rule needs at least three measured reports per case: with two,
//! nothing tells which one is off.

use std::collections::HashMap;

use crate::derived::ReportFigures;
use crate::schema::Report;
use crate::statistics::median;

/// When a report counts as an outlier on a case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutlierRule {
    /// Smallest |deviation| in percent that is flagged.
    pub min_pct: f64,
    /// Smallest distance from the node median, in median absolute deviations, that is flagged.
    pub min_mads: f64,
}

impl Default for OutlierRule {
    /// 2% and 5 MADs.
    fn default() -> Self {
        OutlierRule {
            min_pct: 2.0,
            min_mads: 5.0,
        }
    }
}

/// Fewest reports measuring a case for the rule to apply.
pub const MIN_REPORTS_FOR_FLAGS: usize = 3;

/// One case across the reports.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeCase {
    /// Case id.
    pub id: String,
    /// Display name (from the first report that has the case).
    pub name: String,
    /// Median over the reports of the median nanoseconds per workgroup; `None` when no report
    /// measured the case.
    pub median_ns_per_group: Option<f64>,
    /// Each report's deviation from the node median in percent (throughput, negative =
    /// slower); `None` where the report did not measure the case.
    pub deviation_pct: Vec<Option<f64>>,
    /// Each report's flag on this case.
    pub flagged: Vec<bool>,
}

/// Every case of the reports, in the first report's order, then cases only later reports
/// have.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeSummary {
    /// One label per report (device index, file name).
    pub labels: Vec<String>,
    /// The cases.
    pub cases: Vec<NodeCase>,
    /// The rule the flags come from.
    pub rule: OutlierRule,
}

impl NodeSummary {
    /// Indices of the reports flagged on at least one case, or that measured no case at all
    /// (nothing shows such a report is healthy: see [`NodeSummary::unmeasured_reports`]).
    pub fn flagged_reports(&self) -> Vec<usize> {
        (0..self.labels.len())
            .filter(|&r| self.cases.iter().any(|c| c.flagged[r]) || self.measured_nothing(r))
            .collect()
    }

    /// Indices of the reports that measured no case (every case failed or skipped, or the run
    /// stopped before its first measurement).
    pub fn unmeasured_reports(&self) -> Vec<usize> {
        (0..self.labels.len())
            .filter(|&r| self.measured_nothing(r))
            .collect()
    }

    /// Indices of the reports the rule could not judge: they measured a case, but none that at
    /// least [`MIN_REPORTS_FOR_FLAGS`] reports measured (too few reports of their GPU model, or
    /// no case in common with the others). Nothing shows such a report is healthy or slow.
    pub fn unjudged_reports(&self) -> Vec<usize> {
        (0..self.labels.len())
            .filter(|&r| {
                !self.measured_nothing(r)
                    && !self.cases.iter().any(|c| {
                        c.deviation_pct[r].is_some()
                            && c.deviation_pct.iter().flatten().count() >= MIN_REPORTS_FOR_FLAGS
                    })
            })
            .collect()
    }

    /// True when the rule could judge anything: at least one case was measured by
    /// [`MIN_REPORTS_FOR_FLAGS`] reports (with two, nothing tells which one is off).
    pub fn checked(&self) -> bool {
        self.cases
            .iter()
            .any(|c| c.deviation_pct.iter().flatten().count() >= MIN_REPORTS_FOR_FLAGS)
    }

    /// The median deviation of report `r` over the cases it is flagged on, in percent (0 when
    /// it is flagged on none).
    pub fn typical_deviation(&self, r: usize) -> f64 {
        let devs: Vec<f64> = self
            .flags_of(r)
            .filter_map(|c| c.deviation_pct[r])
            .collect();
        median(&devs).unwrap_or(0.0)
    }

    fn measured_nothing(&self, r: usize) -> bool {
        self.cases.iter().all(|c| c.deviation_pct[r].is_none())
    }

    /// The cases report `r` is flagged on.
    pub fn flags_of(&self, r: usize) -> impl Iterator<Item = &NodeCase> {
        self.cases.iter().filter(move |c| c.flagged[r])
    }
}

/// The ids and names of the cases of the reports lined up in node summaries, each kept once
/// however many reports have the case (the first report's name for it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaseNames {
    index: HashMap<String, u32>,
    cases: Vec<(String, String)>,
}

impl CaseNames {
    /// The number of case `id` (named `name` where it is new).
    fn intern(&mut self, id: &str, name: &str) -> u32 {
        if let Some(&n) = self.index.get(id) {
            return n;
        }
        let n = u32::try_from(self.cases.len()).unwrap_or(u32::MAX);
        self.index.insert(id.to_string(), n);
        self.cases.push((id.to_string(), name.to_string()));
        n
    }

    /// The id and name of case number `n`.
    fn get(&self, n: u32) -> (&str, &str) {
        self.cases
            .get(n as usize)
            .map_or(("", ""), |(id, name)| (id.as_str(), name.as_str()))
    }
}

/// What the node summary needs of one report: each case's number in the [`CaseNames`] of the
/// summary, in the report's order, with its median nanoseconds per workgroup where it was
/// measured. 16 bytes per case, so `perftest compare` of many reports keeps this and drops
/// each report once it is read.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeInput {
    /// `(case number, ns_per_group)` of every case; `None` where the case has no usable figure.
    pub cases: Vec<(u32, Option<f64>)>,
}

impl NodeInput {
    /// The figures of `report` the node summary uses, its cases' ids and names kept in `names`.
    pub fn of(report: &Report, names: &mut CaseNames) -> Self {
        let cases = report
            .cases
            .iter()
            .zip(report.derived_all())
            .map(|(c, d)| {
                let ns = d
                    .map(|d| d.ns_per_group)
                    .filter(|ns| ns.is_finite() && *ns > 0.0);
                (names.intern(&c.id, &c.name), ns)
            })
            .collect();
        NodeInput { cases }
    }
}

/// Lines up `reports` (labelled by `labels`) case by case and applies `rule`.
pub fn summarize(reports: &[&Report], labels: &[String], rule: OutlierRule) -> NodeSummary {
    let mut names = CaseNames::default();
    let inputs: Vec<NodeInput> = reports
        .iter()
        .map(|r| NodeInput::of(r, &mut names))
        .collect();
    let refs: Vec<&NodeInput> = inputs.iter().collect();
    summarize_inputs(&refs, &names, labels, rule)
}

/// [`summarize`] over the figures of each report ([`NodeInput::of`], with the `names` they
/// were made with), in time linear in the cases: every case in the first report's order, then
/// the cases only later reports have.
pub fn summarize_inputs(
    inputs: &[&NodeInput],
    names: &CaseNames,
    labels: &[String],
    rule: OutlierRule,
) -> NodeSummary {
    // Per case (by its place in `order`), each report's figure.
    let mut place: HashMap<u32, usize> = HashMap::new();
    let mut values: Vec<Vec<Option<f64>>> = Vec::new();
    for (r, input) in inputs.iter().enumerate() {
        for &(n, ns) in &input.cases {
            let at = *place.entry(n).or_insert_with(|| {
                values.push(vec![None; inputs.len()]);
                values.len() - 1
            });
            values[at][r] = ns;
        }
    }
    let mut order: Vec<(u32, usize)> = place.into_iter().collect();
    order.sort_unstable_by_key(|&(_, at)| at);
    let cases = order
        .into_iter()
        .map(|(n, at)| {
            let (id, name) = names.get(n);
            node_case(id, name, &values[at], rule)
        })
        .collect();
    NodeSummary {
        labels: labels.to_vec(),
        cases,
        rule,
    }
}

/// The node figures of one case from each report's nanoseconds per workgroup.
fn node_case(id: &str, name: &str, values: &[Option<f64>], rule: OutlierRule) -> NodeCase {
    let measured: Vec<f64> = values.iter().flatten().copied().collect();
    let node = median(&measured);
    let mad = node.and_then(|m| {
        let distances: Vec<f64> = measured.iter().map(|v| (v - m).abs()).collect();
        median(&distances)
    });
    let deviation_pct = values
        .iter()
        .map(|v| Some((node? / (*v)? - 1.0) * 100.0))
        .collect();
    let enough = measured.len() >= MIN_REPORTS_FOR_FLAGS;
    let flagged = values
        .iter()
        .map(|v| match (v, node, mad) {
            (Some(v), Some(m), Some(mad)) if enough => {
                let pct = (m / v - 1.0).abs() * 100.0;
                pct > rule.min_pct && (v - m).abs() > rule.min_mads * mad
            }
            _ => false,
        })
        .collect();
    NodeCase {
        id: id.to_string(),
        name: name.to_string(),
        median_ns_per_group: node,
        deviation_pct,
        flagged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{measurement, sample_report};

    /// `n` copies of the sample report whose measured cases take `base * scale(r, case)` ns.
    fn reports(n: usize, scale: impl Fn(usize, usize) -> f64) -> Vec<Report> {
        (0..n)
            .map(|r| {
                let mut report = sample_report();
                for (i, case) in report.cases.iter_mut().enumerate() {
                    if let Some(m) = case.measurement.as_mut() {
                        let t = 10e6 * scale(r, i) * (1.0 + 1e-4 * r as f64);
                        *m = measurement(1000, &[t, t, t]);
                    }
                }
                report
            })
            .collect()
    }

    fn run(reports: &[Report]) -> NodeSummary {
        let refs: Vec<&Report> = reports.iter().collect();
        let labels: Vec<String> = (1..=reports.len()).map(|i| format!("#{i}")).collect();
        summarize(&refs, &labels, OutlierRule::default())
    }

    #[test]
    fn a_device_three_percent_slower_everywhere_is_flagged() {
        // Device 3 (index 2) takes 3% longer on every case.
        let summary = run(&reports(4, |r, _| if r == 2 { 1.03 } else { 1.0 }));
        assert_eq!(summary.flagged_reports(), vec![2]);
        assert!(summary.checked());
        let measured = summary
            .cases
            .iter()
            .filter(|c| c.median_ns_per_group.is_some())
            .count();
        assert_eq!(measured, 3);
        assert_eq!(summary.flags_of(2).count(), 3);
        let slower = (1.0 / 1.03 - 1.0) * 100.0;
        for c in summary.flags_of(2) {
            let d = c.deviation_pct[2].unwrap();
            assert!((d - slower).abs() < 0.05, "{d}");
        }
        assert!((summary.typical_deviation(2) - slower).abs() < 0.05);
        assert_eq!(summary.typical_deviation(0), 0.0);
    }

    #[test]
    fn a_case_noisy_on_every_device_is_not_flagged() {
        // Case 2 (raw.load4.random) varies by up to 6% between all four devices.
        let spread = [1.0, 1.06, 0.97, 1.03];
        let summary = run(&reports(
            4,
            |r, case| if case == 2 { spread[r] } else { 1.0 },
        ));
        assert!(summary.flagged_reports().is_empty(), "{summary:#?}");
        assert!(summary.unjudged_reports().is_empty());
    }

    /// A report that measured no case is never called healthy: it is flagged and named as
    /// unmeasured.
    #[test]
    fn a_report_that_measured_nothing_is_not_healthy() {
        let mut rs = reports(3, |_, _| 1.0);
        for case in &mut rs[1].cases {
            case.measurement = None;
        }
        let summary = run(&rs);
        assert_eq!(summary.unmeasured_reports(), vec![1]);
        assert_eq!(summary.flagged_reports(), vec![1]);
        // With two reports (no outlier rule), the one that measured nothing is still flagged.
        let summary = run(&rs[..2]);
        assert_eq!(summary.flagged_reports(), vec![1]);
    }

    #[test]
    fn small_differences_are_not_flagged_even_when_many_mads_off() {
        // 1% off with the others identical: many MADs, but under 2%.
        let summary = run(&reports(5, |r, _| if r == 0 { 1.01 } else { 1.0 }));
        assert!(summary.flagged_reports().is_empty());
    }

    #[test]
    fn two_reports_cannot_single_one_out() {
        let summary = run(&reports(2, |r, _| if r == 0 { 1.5 } else { 1.0 }));
        assert!(summary.flagged_reports().is_empty());
        assert!(!summary.checked());
    }

    #[test]
    fn cases_missing_from_some_reports() {
        let mut rs = reports(3, |_, _| 1.0);
        rs[1].cases.remove(0);
        let summary = run(&rs);
        let first = &summary.cases[0];
        assert_eq!(first.deviation_pct[1], None);
        assert_eq!(first.deviation_pct.iter().flatten().count(), 2);
        assert!(!first.flagged.iter().any(|f| *f));
        // Skipped and failed cases have no figures anywhere.
        assert!(summary.cases[3].median_ns_per_group.is_none());
    }
}
