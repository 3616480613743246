//! Findings and advice: what a report says about the GPU, in sentences with their numbers,
//! by pure rules over the report (no Vulkan, no device).
//!
//! A [`Finding`] answers one question a rendering programmer asks (is a wide raw load split?
//! what does indexing a constant buffer per lane cost?) from two or more cases of the report.
//! Its `id` has a fixed meaning, documented in the book; its `value` is a ratio of throughputs
//! (loads per second) unless its documentation says otherwise. [`Advice`] is a short ranked
//! list of what to do, each line naming the findings it rests on.
//!
//! A report made from a published table (one figure per case, no samples) gives the findings
//! its rows allow; they have no noise estimate (`beyond_noise` is `None`) unless the source
//! reports each figure's spread (perftest-vk's `cv_pct`), and [`Findings::missing`] names the
//! findings the table lacks the rows for.

mod advice;
mod best;
mod cache;
mod groups;
mod rates;
mod rules;
mod transfer;
mod types;

use crate::schema::Report;

pub use groups::{GroupRule, Width, GROUPS};
pub(crate) use rates::recording;
pub use rates::{beyond_noise, Rate, Rates};
pub use rules::RULES;
pub use transfer::TRANSFER_RULES;
pub use types::{Advice, Finding, Findings, Missing};

/// The findings and advice of `report`.
pub fn findings(report: &Report) -> Findings {
    findings_with(report, &Rates::of(report))
}

/// The findings and advice of `report`, whose throughputs are `rates` ([`Rates::of`] the same
/// report): what [`findings`] gives, for callers that read the rates too.
pub fn findings_with(report: &Report, rates: &Rates) -> Findings {
    let mut out = Findings {
        published: report
            .source
            .as_ref()
            .map(|s| format!("{}, {}", s.tool, s.api)),
        ..Findings::default()
    };
    let original = rules::original_measured(rates);
    for rule in RULES {
        match rule.apply(rates) {
            Ok(finding) => out.findings.push(finding),
            Err(cases) if original && rule.original => out.missing.push(Missing {
                id: rule.id.to_string(),
                cases,
            }),
            Err(_) => {}
        }
    }
    for group in GROUPS {
        match group.apply(rates) {
            Ok(found) => out.findings.extend(found),
            Err(cases) if original && group.original => out.missing.push(Missing {
                id: group.id.to_string(),
                cases,
            }),
            Err(_) => {}
        }
    }
    let transfer = transfer::TRANSFER_RULES.iter();
    out.findings
        .extend(transfer.filter_map(|rule| rule.apply(rates).ok()));
    out.findings.extend(transfer::value_findings(rates));
    out.findings.extend(best::best_paths(report, rates));
    out.findings.extend(cache::cache_findings(report));
    out.advice = advice::advice(&out.findings, rates);
    out
}

/// What the analyses across reports read of one report, each computed once: its cases'
/// throughputs and its findings.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// The throughputs of its measured cases.
    pub rates: Rates,
    /// Its findings and advice.
    pub findings: Findings,
}

impl Reading {
    /// The throughputs and findings of `report`.
    pub fn of(report: &Report) -> Reading {
        let rates = Rates::of(report);
        let findings = findings_with(report, &rates);
        Reading { rates, findings }
    }
}

#[cfg(test)]
mod tests;
