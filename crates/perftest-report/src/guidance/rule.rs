//! How a claim is judged: a row of the claims table names its tests, each a figure of the
//! report (a finding's value, a ratio of cases' rates, or a figure computed by a function)
//! against the band of values for which the claim holds.

use crate::findings::{beyond_noise, Findings, Rates, RULES, TRANSFER_RULES};
use crate::schema::{CaseStatus, Report};

use super::types::Outcome;

/// Every difference below this factor counts as a tie: the default threshold of "faster" and
/// "slower" claims, and the tolerance around a factor a claim names.
pub const MARGIN: f64 = 1.2;

/// A vendor document, as the claims table names it.
#[derive(Clone, Copy, Debug)]
pub struct Doc {
    /// Its title.
    pub title: &'static str,
    /// Where it is published.
    pub url: &'static str,
}

/// One row of the claims table.
#[derive(Clone, Copy, Debug)]
pub struct Claim {
    /// Stable id (`vendor.topic`).
    pub id: &'static str,
    /// Who makes the claim.
    pub vendor: &'static str,
    /// Where.
    pub source: Doc,
    /// The claim, in perftest's words.
    pub claim: &'static str,
    /// How it is judged.
    pub rule: Rule,
}

/// How a claim is judged.
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// No case measures the claim yet: the text names what would.
    NoCase(&'static str),
    /// The claim holds when every test holds, and does not hold when any measured test does
    /// not; the first test's figure is the verdict's value.
    Tests(&'static [Test]),
}

/// One figure and the band of values for which the claim holds.
#[derive(Clone, Copy, Debug)]
pub struct Test {
    /// What is measured.
    pub figure: Figure,
    /// Where the claim holds: `low <= value <= high`.
    pub band: Band,
}

/// A figure of the report.
#[derive(Clone, Copy, Debug)]
pub enum Figure {
    /// A finding's value (for ratio findings, its first case's throughput over its second's).
    Finding(&'static str),
    /// The geometric mean, over the pairs, of the first case's throughput (loads per second)
    /// over the second's.
    Ratio(&'static [(&'static str, &'static str)]),
    /// The same of bytes per second.
    Bytes(&'static [(&'static str, &'static str)]),
    /// [`Figure::Ratio`] of the pairs where the report has them all, else the finding's value
    /// (a report of the original suite only, or a published table).
    RatioElse(&'static [(&'static str, &'static str)], &'static str),
    /// A figure a function computes, with the cases it reads.
    Custom(
        &'static [&'static str],
        fn(&Context) -> Result<Measured, String>,
    ),
}

/// The values for which a claim holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// The lowest (`0` for none).
    pub low: f64,
    /// The highest (`f64::INFINITY` for none).
    pub high: f64,
}

/// The first case at least `factor` times faster than the second.
pub const fn faster(factor: f64) -> Band {
    Band {
        low: factor,
        high: f64::INFINITY,
    }
}

/// The first case at least `factor` times slower than the second.
pub const fn slower(factor: f64) -> Band {
    Band {
        low: 0.0,
        high: 1.0 / factor,
    }
}

/// The first case no more than [`MARGIN`] times slower than the second.
pub const fn not_slower() -> Band {
    Band {
        low: 1.0 / MARGIN,
        high: f64::INFINITY,
    }
}

/// The two cases within [`MARGIN`] of each other.
pub const fn same() -> Band {
    near(1.0)
}

/// The figure within [`MARGIN`] of `factor`, either way.
pub const fn near(factor: f64) -> Band {
    Band {
        low: factor / MARGIN,
        high: factor * MARGIN,
    }
}

impl Band {
    /// Whether `value` lies in the band.
    pub fn contains(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }

    /// The band in words: `at least 1.20`, `at most 0.83`, `between 1.67 and 2.40`.
    pub fn words(&self) -> String {
        match (self.low > 0.0, self.high.is_finite()) {
            (true, true) => format!("between {:.2} and {:.2}", self.low, self.high),
            (true, false) => format!("at least {:.2}", self.low),
            (false, true) => format!("at most {:.2}", self.high),
            (false, false) => "any value".to_string(),
        }
    }
}

/// What a rule reads: the report, its rates and its findings.
pub struct Context<'a> {
    /// The report.
    pub report: &'a Report,
    /// Its cases' throughputs.
    pub rates: &'a Rates,
    /// Its findings.
    pub findings: &'a Findings,
}

/// A figure as measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The figure.
    pub value: f64,
    /// The figure with every pair whose cases lie within each other's noise taken as equal
    /// (`None` where no pair is).
    pub within_noise: Option<f64>,
    /// The cases it read.
    pub cases: Vec<String>,
}

impl Measured {
    /// A figure without a noise estimate.
    pub fn plain(value: f64, cases: &[&str]) -> Measured {
        Measured {
            value,
            within_noise: None,
            cases: cases.iter().map(|c| (*c).to_string()).collect(),
        }
    }
}

/// One test's outcome.
pub struct Judged {
    /// Holds, does not hold, or not measured.
    pub outcome: Outcome,
    /// The figure, where measured.
    pub value: Option<f64>,
    /// The cases it reads.
    pub cases: Vec<String>,
    /// The figure against the band, or why it is not measured.
    pub words: String,
}

impl Test {
    /// The test judged on `ctx`.
    pub fn judge(&self, ctx: &Context) -> Judged {
        let cases = self.figure.cases(ctx);
        let measured = match self.figure.measure(ctx) {
            Ok(m) => m,
            Err(words) => {
                return Judged {
                    outcome: Outcome::NotMeasured,
                    value: None,
                    cases,
                    words,
                }
            }
        };
        let holds = self.band.contains(measured.value);
        let noise_flips = measured
            .within_noise
            .is_some_and(|v| self.band.contains(v) != holds);
        let figure = format!("{:.2} (the rule: {})", measured.value, self.band.words());
        let (outcome, words) = if noise_flips {
            (
                Outcome::NotMeasured,
                format!("{figure}, but the cases lie within each other's noise"),
            )
        } else if holds {
            (Outcome::Holds, figure)
        } else {
            (Outcome::DoesNotHold, figure)
        };
        Judged {
            outcome,
            value: Some(measured.value),
            cases: if cases.is_empty() {
                measured.cases
            } else {
                cases
            },
            words,
        }
    }
}

impl Figure {
    /// The cases the figure reads (for a finding absent from the report: the cases its rule
    /// names, where it has one).
    pub fn cases(&self, ctx: &Context) -> Vec<String> {
        let owned = |ids: &[&str]| ids.iter().map(|c| (*c).to_string()).collect();
        match self {
            Figure::Finding(id) => match ctx.findings.get(id) {
                Some(f) => f.cases.clone(),
                None => ratio_rule_cases(id).map_or_else(Vec::new, |c| owned(&c)),
            },
            Figure::Ratio(pairs) | Figure::Bytes(pairs) => {
                pairs.iter().flat_map(|(a, b)| owned(&[a, b])).collect()
            }
            Figure::RatioElse(pairs, id) => {
                if has_all(ctx, pairs) {
                    Figure::Ratio(pairs).cases(ctx)
                } else {
                    Figure::Finding(id).cases(ctx)
                }
            }
            Figure::Custom(cases, _) => owned(cases),
        }
    }

    /// The figure, or why the report cannot give it.
    pub fn measure(&self, ctx: &Context) -> Result<Measured, String> {
        match self {
            Figure::Finding(id) => finding(ctx, id),
            Figure::Ratio(pairs) => ratio(ctx, pairs, false),
            Figure::Bytes(pairs) => ratio(ctx, pairs, true),
            Figure::RatioElse(pairs, id) => {
                if has_all(ctx, pairs) {
                    ratio(ctx, pairs, false)
                } else {
                    finding(ctx, id)
                }
            }
            Figure::Custom(_, f) => f(ctx),
        }
    }
}

/// Whether the report measured every case of `pairs`.
fn has_all(ctx: &Context, pairs: &[(&str, &str)]) -> bool {
    pairs
        .iter()
        .all(|(a, b)| ctx.rates.get(a).is_some() && ctx.rates.get(b).is_some())
}

/// The cases of the ratio finding `id`, where it is one.
fn ratio_rule_cases(id: &str) -> Option<[&'static str; 2]> {
    RULES
        .iter()
        .chain(TRANSFER_RULES)
        .find(|r| r.id == id)
        .map(|r| [r.a, r.b])
}

/// The value of finding `id`.
fn finding(ctx: &Context, id: &str) -> Result<Measured, String> {
    match ctx.findings.get(id) {
        Some(f) => Ok(Measured {
            value: f.value,
            within_noise: (f.beyond_noise == Some(false)).then_some(1.0),
            cases: f.cases.clone(),
        }),
        None => Err(match ratio_rule_cases(id) {
            Some(cases) => absent(ctx, &cases),
            None => format!("the report does not give the finding {id}"),
        }),
    }
}

/// The geometric mean of the pairs' ratios (of bytes per second when `bytes`).
fn ratio(ctx: &Context, pairs: &[(&str, &str)], bytes: bool) -> Result<Measured, String> {
    let ids: Vec<&str> = pairs.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let mut logs = Vec::new();
    let mut noise_logs = Vec::new();
    let mut any_noisy = false;
    for (a, b) in pairs {
        let (Some(ra), Some(rb)) = (ctx.rates.get(a), ctx.rates.get(b)) else {
            return Err(absent(ctx, &ids));
        };
        let (x, y) = if bytes {
            (rate_bytes(ra), rate_bytes(rb))
        } else {
            (ra.per_s, rb.per_s)
        };
        let log = (x / y).ln();
        let noisy = beyond_noise(ra, rb) == Some(false);
        any_noisy |= noisy;
        logs.push(log);
        noise_logs.push(if noisy { 0.0 } else { log });
    }
    let mean = |v: &[f64]| (v.iter().sum::<f64>() / v.len().max(1) as f64).exp();
    Ok(Measured {
        value: mean(&logs),
        within_noise: any_noisy.then(|| mean(&noise_logs)),
        cases: ids.iter().map(|c| (*c).to_string()).collect(),
    })
}

/// A rate's bytes per second (loads times bytes per load where the report gives none).
fn rate_bytes(rate: &crate::findings::Rate) -> f64 {
    rate.bytes_per_s
        .unwrap_or(rate.per_s * f64::from(rate.bytes_per_load))
}

/// Why the report has no figure for `cases`: each one it skipped or failed with the reason,
/// the rest as absent.
pub fn absent(ctx: &Context, cases: &[&str]) -> String {
    let mut lacks = Vec::new();
    let mut why = Vec::new();
    for id in cases {
        if ctx.rates.get(id).is_some() || lacks.contains(id) {
            continue;
        }
        match ctx
            .report
            .cases
            .iter()
            .find(|c| c.id == *id)
            .map(|c| &c.status)
        {
            Some(CaseStatus::Measured) | None => lacks.push(*id),
            Some(status) => why.push(format!(
                "{id} {}: {}",
                status.label(),
                status.reason().unwrap_or_default()
            )),
        }
    }
    if !lacks.is_empty() {
        why.push(format!("the report lacks {}", lacks.join(", ")));
    }
    why.join("; ")
}
