//! Guidance: the claims the GPU vendors publish about shader memory access, each judged on
//! the GPU of a report by a pure rule over its figures.
//!
//! Every claim is a row of a table ([`claims`]): a stable id (`nvidia.cbuffer_divergent`),
//! the vendor, the document it comes from, the claim in perftest's words, and its rule: the
//! figures it reads (a finding's value, a ratio of two cases' throughputs, or a figure
//! computed from the report) and the band of values for which it holds. A claim no case
//! measures yet is `not_measured`, with what would measure it. The book's guidance chapter
//! lists every claim with its source, cases and threshold.
//!
//! A difference counts only beyond [`MARGIN`] (1.2x) unless the claim names a factor, and
//! only where the cases' 95% intervals do not overlap: a verdict that would change if the
//! cases were equal is `not_measured` (within the noise). A published table has no noise
//! estimate, so its verdicts rest on the figures alone.

mod across;
mod buffers;
mod constant_data;
mod dispatch;
mod figures;
mod graphics;
mod memory;
mod rule;
mod sources;
mod textures;
mod types;
mod workgroups;

use crate::findings::{Findings, Rates};
use crate::schema::Report;

pub use across::{across, across_with};
pub use rule::{Band, Claim, Context, Doc, Figure, Measured, Rule, Test, MARGIN};
pub use types::{AcrossVerdict, Outcome, Source, Verdict};

/// Every claim, in a stable order: load throughput (constant data, buffers, textures), then
/// descriptors and dispatch, bandwidth and caches, vertex and fragment work.
pub fn claims() -> impl Iterator<Item = &'static Claim> {
    constant_data::CLAIMS
        .iter()
        .chain(&buffers::CLAIMS)
        .chain(&textures::CLAIMS)
        .chain(&dispatch::CLAIMS)
        .chain(&memory::CLAIMS)
        .chain(&graphics::CLAIMS)
}

/// One verdict for every claim, in the order of [`claims`], on `report` and its `findings`
/// ([`crate::findings::findings`] of the same report).
pub fn guidance(report: &Report, findings: &Findings) -> Vec<Verdict> {
    guidance_with(report, &Rates::of(report), findings)
}

/// [`guidance`] of `report` whose throughputs are `rates` ([`Rates::of`] the same report), for
/// callers that read the rates too.
pub fn guidance_with(report: &Report, rates: &Rates, findings: &Findings) -> Vec<Verdict> {
    let ctx = Context {
        report,
        rates,
        findings,
    };
    claims().map(|claim| judge(claim, &ctx)).collect()
}

/// `claim` judged on the report of `ctx`.
fn judge(claim: &Claim, ctx: &Context) -> Verdict {
    let mut verdict = Verdict {
        id: claim.id.to_string(),
        vendor: claim.vendor.to_string(),
        source: Source {
            title: claim.source.title.to_string(),
            url: claim.source.url.to_string(),
        },
        claim: claim.claim.to_string(),
        verdict: Outcome::NotMeasured,
        value: None,
        cases: Vec::new(),
        reason: None,
    };
    let tests = match claim.rule {
        Rule::NoCase(why) => {
            verdict.reason = Some(why.to_string());
            return verdict;
        }
        Rule::Tests(tests) => tests,
    };
    let judged: Vec<_> = tests.iter().map(|t| t.judge(ctx)).collect();
    for j in &judged {
        for case in &j.cases {
            if !verdict.cases.contains(case) {
                verdict.cases.push(case.clone());
            }
        }
    }
    verdict.value = judged.first().and_then(|j| j.value);
    let fails = judged.iter().find(|j| j.outcome == Outcome::DoesNotHold);
    let unmeasured = judged.iter().find(|j| j.outcome == Outcome::NotMeasured);
    let (outcome, reason) = match (fails, unmeasured) {
        (Some(f), _) => (Outcome::DoesNotHold, f.words.clone()),
        (None, Some(u)) => (Outcome::NotMeasured, u.words.clone()),
        (None, None) => {
            let words: Vec<&str> = judged.iter().map(|j| j.words.as_str()).collect();
            (Outcome::Holds, words.join("; "))
        }
    };
    let published = ctx.report.source.is_some() && outcome != Outcome::NotMeasured;
    verdict.verdict = outcome;
    verdict.reason = Some(if published {
        format!("{reason} (published figures: no noise estimate)")
    } else {
        reason
    });
    verdict
}

#[cfg(test)]
mod tests;
