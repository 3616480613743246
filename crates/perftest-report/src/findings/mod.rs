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
//! its rows allow; they have no noise estimate (`beyond_noise` is `None`), and
//! [`Findings::missing`] names the findings the table lacks the rows for.

mod advice;
mod best;
mod rates;
mod rules;

use crate::schema::Report;

pub use rates::{Rate, Rates};
pub use rules::RULES;

/// One answer the report gives, with the numbers it rests on.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Finding {
    /// Stable identifier (`cbuffer.divergent`), documented in the book.
    pub id: String,
    /// One sentence with its numbers.
    pub statement: String,
    /// The number the finding is about: for ratio findings, the throughput (loads per second)
    /// of the first case over the second's.
    pub value: f64,
    /// The ids of the cases it rests on (for ratio findings: the numerator's first).
    pub cases: Vec<String>,
    /// Whether the difference between the cases is beyond their noise: their 95% intervals do
    /// not overlap. `None` where a case has no interval (fewer than six samples; every
    /// published table).
    pub beyond_noise: Option<bool>,
}

/// One line of advice: what to do, and the findings that say so.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Advice {
    /// One sentence.
    pub text: String,
    /// The ids of the findings it rests on.
    pub findings: Vec<String>,
}

/// A finding the report cannot give, and the cases it would need.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Missing {
    /// The finding's id.
    pub id: String,
    /// The cases it needs that the report has no measurement of.
    pub cases: Vec<String>,
}

/// Everything a report says: its findings, the advice drawn from them, and the findings it
/// could not give.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Findings {
    /// The findings, in the order of [`RULES`], then the best paths.
    pub findings: Vec<Finding>,
    /// Advice, most important first.
    pub advice: Vec<Advice>,
    /// Findings of the original suite that the report lacks cases for (only when it has some
    /// of the original suite's cases: a report of another suite misses nothing).
    pub missing: Vec<Missing>,
    /// Where the figures come from when perftest did not measure them (`sebbbi/perftest,
    /// Direct3D 11`): the findings then rest on one published figure per case.
    pub published: Option<String>,
}

impl Findings {
    /// The finding `id`, when the report gives it.
    pub fn get(&self, id: &str) -> Option<&Finding> {
        self.findings.iter().find(|f| f.id == id)
    }
}

/// The findings and advice of `report`.
pub fn findings(report: &Report) -> Findings {
    let rates = Rates::of(report);
    let mut out = Findings {
        published: report
            .source
            .as_ref()
            .map(|s| format!("{}, {}", s.tool, s.api)),
        ..Findings::default()
    };
    let original = rules::original_measured(&rates);
    for rule in RULES {
        match rule.apply(&rates) {
            Ok(finding) => out.findings.push(finding),
            Err(cases) if original && rule.original => out.missing.push(Missing {
                id: rule.id.to_string(),
                cases,
            }),
            Err(_) => {}
        }
    }
    out.findings.extend(best::best_paths(report, &rates));
    out.advice = advice::advice(&out.findings, &rates);
    out
}

#[cfg(test)]
mod tests;
