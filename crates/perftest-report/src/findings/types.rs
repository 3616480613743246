//! What findings are: a finding, a line of advice, a finding a report cannot give, and all of
//! a report's.

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
    /// not overlap. `None` where a case has no interval (fewer than six samples; a published
    /// table whose source reports no spread).
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
    /// The findings, in the order of [`super::RULES`], then the best paths.
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
