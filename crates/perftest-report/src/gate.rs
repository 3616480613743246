//! The regression gate over a comparison of two reports ([`crate::pair`]): the verdict of
//! `perftest compare --fail-above PCT --fail-median PCT`.
//!
//! A case's slowdown is the drop of its throughput from A to B in percent, `-change %` (so a
//! case running at 0.95x of A's loads per second is 5% slower). The gate fails when any
//! compared case is slower by more than `--fail-above`, or when the median change over all
//! compared cases is a slowdown of more than `--fail-median`. Cases not measured in both
//! reports are not judged. A gate that compared too little gives no verdict: it fails, but as
//! not judged, never as slower, unless it also found a slowdown.

use crate::pair::Comparison;
use crate::statistics::median;

/// The limits, in percent; `None` turns a check off.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GateLimits {
    /// Largest slowdown any single case may show.
    pub fail_above: Option<f64>,
    /// Largest slowdown the median change may show.
    pub fail_median: Option<f64>,
}

impl GateLimits {
    /// True when at least one check is on.
    pub fn is_active(&self) -> bool {
        self.fail_above.is_some() || self.fail_median.is_some()
    }
}

/// A case slower than `--fail-above` allows.
#[derive(Clone, Debug, PartialEq)]
pub struct Offender {
    /// Case id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its change in percent (negative: slower).
    pub change_pct: f64,
}

/// What the gate found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GateVerdict {
    /// Cases slower than `fail_above`, slowest first.
    pub offenders: Vec<Offender>,
    /// The median signed change, when `fail_median` was given and it is a slowdown beyond it.
    pub median_regression: Option<f64>,
    /// Why the gate cannot judge (too little compared, an incomplete run), when it cannot: a
    /// gate that compared almost nothing must not pass.
    pub no_verdict: Option<String>,
}

impl GateVerdict {
    /// True when the gate failed.
    pub fn failed(&self) -> bool {
        !self.offenders.is_empty() || self.median_regression.is_some() || self.no_verdict.is_some()
    }

    /// True when the gate found a slowdown beyond a limit (a case or the median).
    pub fn regressed(&self) -> bool {
        !self.offenders.is_empty() || self.median_regression.is_some()
    }

    /// The lines printed when the gate failed (empty when it passed).
    pub fn describe(&self, limits: &GateLimits) -> Vec<String> {
        let mut lines: Vec<String> = self.no_verdict.iter().cloned().collect();
        if let (Some(limit), false) = (limits.fail_above, self.offenders.is_empty()) {
            lines.push(format!(
                "regression: {} case(s) got slower by more than {limit}%:",
                self.offenders.len()
            ));
            for o in &self.offenders {
                lines.push(format!("  {:+.2}%  {} ({})", o.change_pct, o.name, o.id));
            }
        }
        if let (Some(limit), Some(change)) = (limits.fail_median, self.median_regression) {
            lines.push(format!(
                "regression: the median change is {change:+.2}%, a slowdown of more than {limit}%"
            ));
        }
        lines
    }
}

/// Judges `comparison` against `limits`.
pub fn judge(comparison: &Comparison, limits: &GateLimits) -> GateVerdict {
    let changes: Vec<(&str, &str, f64)> = comparison
        .cases
        .iter()
        .filter_map(|c| {
            c.change_pct
                .filter(|p| p.is_finite())
                .map(|p| (c.id.as_str(), c.name.as_str(), p))
        })
        .collect();
    let mut offenders: Vec<Offender> = match limits.fail_above {
        Some(limit) => changes
            .iter()
            .filter(|(_, _, p)| -p > limit)
            .map(|&(id, name, change_pct)| Offender {
                id: id.to_string(),
                name: name.to_string(),
                change_pct,
            })
            .collect(),
        None => Vec::new(),
    };
    offenders.sort_by(|a, b| a.change_pct.total_cmp(&b.change_pct));
    let signed: Vec<f64> = changes.iter().map(|c| c.2).collect();
    let median_regression = limits
        .fail_median
        .and_then(|limit| median(&signed).filter(|m| -m > limit));
    let gated = limits.fail_above.is_some() || limits.fail_median.is_some();
    GateVerdict {
        offenders,
        median_regression,
        no_verdict: gated
            .then(|| coverage_problem(comparison, changes.len()))
            .flatten(),
    }
}

/// Why a gate over `comparison`, which compared `compared` cases, cannot judge: fewer than half
/// of A's measured cases compared (disjoint suites, failed cases, an interrupted run), or
/// either run incomplete.
fn coverage_problem(comparison: &Comparison, compared: usize) -> Option<String> {
    let incomplete: Vec<&str> = [("A", comparison.complete.0), ("B", comparison.complete.1)]
        .iter()
        .filter(|(_, complete)| !complete)
        .map(|(name, _)| *name)
        .collect();
    let too_few = compared == 0 || compared * 2 < comparison.a_measured;
    if !too_few && incomplete.is_empty() {
        return None;
    }
    let mut why = format!(
        "no verdict: {compared} of A's {} measured case(s) were compared",
        comparison.a_measured
    );
    match incomplete.as_slice() {
        [] => {}
        [one] => why.push_str(&format!(", and {one} is an incomplete run")),
        _ => why.push_str(", and A and B are incomplete runs"),
    }
    why.push_str("; the gate fails rather than pass on what it did not compare");
    Some(why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pair::compare;
    use crate::samples::{measurement, sample_report};

    /// B: the R8 case 5% slower in throughput (time x 1/0.95), the baseline 1% faster.
    fn five_percent_slower() -> Comparison {
        let a = sample_report();
        let mut b = sample_report();
        b.cases[0].measurement = Some(measurement(4000, &[20e6 / 0.95; 3]));
        b.cases[1].measurement = Some(measurement(1000, &[19e6 / 1.01, 20e6 / 1.01, 21e6 / 1.01]));
        compare(&a, &b)
    }

    fn limits(fail_above: Option<f64>, fail_median: Option<f64>) -> GateLimits {
        GateLimits {
            fail_above,
            fail_median,
        }
    }

    #[test]
    fn one_case_five_percent_slower_fails_a_two_percent_gate() {
        let c = five_percent_slower();
        let verdict = judge(&c, &limits(Some(2.0), None));
        assert!(verdict.failed());
        assert_eq!(verdict.offenders.len(), 1);
        assert_eq!(verdict.offenders[0].id, "typed.r8.uniform");
        assert!((verdict.offenders[0].change_pct + 5.0).abs() < 1e-9);
        let lines = verdict.describe(&limits(Some(2.0), None));
        assert_eq!(
            lines[0],
            "regression: 1 case(s) got slower by more than 2%:"
        );
        assert_eq!(
            lines[1],
            "  -5.00%  Buffer<R8>.Load uniform (typed.r8.uniform)"
        );
    }

    /// An incomplete run gives no verdict, and the reason names which run (one, or both).
    #[test]
    fn incomplete_runs_are_named() {
        let mut c = five_percent_slower();
        c.complete = (true, false);
        let why = coverage_problem(&c, 4).unwrap();
        assert!(why.contains(", and B is an incomplete run;"), "{why}");
        c.complete = (false, false);
        let why = coverage_problem(&c, 4).unwrap();
        assert!(why.contains(", and A and B are incomplete runs;"), "{why}");
        c.complete = (true, true);
        assert_eq!(coverage_problem(&c, 4), None);
    }

    #[test]
    fn within_the_limit_passes() {
        let c = five_percent_slower();
        for limit in [5.5, 10.0] {
            let verdict = judge(&c, &limits(Some(limit), Some(limit)));
            assert!(!verdict.failed(), "{limit}: {verdict:?}");
            assert!(verdict.describe(&limits(Some(limit), None)).is_empty());
        }
        // No limit given: nothing is judged.
        assert!(!judge(&c, &GateLimits::default()).failed());
        // Identical reports pass even a zero limit.
        let same = compare(&sample_report(), &sample_report());
        assert!(!judge(&same, &limits(Some(0.0), Some(0.0))).failed());
    }

    #[test]
    fn median_gate_uses_the_signed_median() {
        let c = five_percent_slower();
        // Changes: -5%, +1% (raw.load4 and the others are unchanged, 0%): median 0%.
        assert!(!judge(&c, &limits(None, Some(0.5))).failed());
        let a = sample_report();
        let mut b = sample_report();
        for case in &mut b.cases {
            if let Some(m) = case.measurement.as_mut() {
                for s in &mut m.samples_ns {
                    *s /= 0.9; // every case 10% slower
                }
            }
        }
        let verdict = judge(&compare(&a, &b), &limits(None, Some(5.0)));
        let median = verdict.median_regression.unwrap();
        assert!((median + 10.0).abs() < 1e-9, "{median}");
        assert!(verdict.offenders.is_empty());
        let lines = verdict.describe(&limits(None, Some(5.0)));
        assert_eq!(
            lines,
            ["regression: the median change is -10.00%, a slowdown of more than 5%"]
        );
        // Faster is never a regression.
        let verdict = judge(&compare(&b, &a), &limits(Some(0.0), Some(0.0)));
        assert!(!verdict.failed());
    }

    #[test]
    fn a_gate_is_active_with_either_limit() {
        assert!(limits(Some(0.0), Some(1e6)).is_active());
        assert!(!limits(None, None).is_active());
    }
}
