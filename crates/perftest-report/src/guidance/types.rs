//! What guidance verdicts are: one claim's verdict on one GPU, where the claim comes from, and
//! one claim's verdicts across GPUs.

/// A vendor document a claim comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Source {
    /// The document's title.
    pub title: String,
    /// Where it is published.
    pub url: String,
}

/// Whether a claim holds on the GPU of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outcome {
    /// The report's figures meet the claim's rule.
    Holds,
    /// The report's figures contradict the claim's rule.
    DoesNotHold,
    /// The report cannot answer: no case measures the claim yet, the report lacks the cases,
    /// the device lacks a feature, or the difference is within the noise.
    NotMeasured,
}

impl Outcome {
    /// The outcome as the JSON spells it (`holds`, `does_not_hold`, `not_measured`).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Holds => "holds",
            Outcome::DoesNotHold => "does_not_hold",
            Outcome::NotMeasured => "not_measured",
        }
    }
}

/// One vendor claim, judged on one report.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Verdict {
    /// Stable identifier (`nvidia.cbuffer_divergent`), documented in the book.
    pub id: String,
    /// Who makes the claim (`NVIDIA`, `AMD`, `Arm`, ...).
    pub vendor: String,
    /// The document the claim comes from.
    pub source: Source,
    /// The claim, in perftest's words.
    pub claim: String,
    /// Whether it holds here.
    pub verdict: Outcome,
    /// The figure the rule judged (its documentation says which), where measured.
    pub value: Option<f64>,
    /// The cases the rule reads.
    pub cases: Vec<String>,
    /// Why the claim is not measured; for measured claims, the figure against the rule's
    /// threshold in words.
    pub reason: Option<String>,
}

/// One claim's verdicts across several GPUs.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AcrossVerdict {
    /// The claim's id.
    pub id: String,
    /// Who makes the claim.
    pub vendor: String,
    /// The claim, in perftest's words.
    pub claim: String,
    /// On how many of the GPUs it holds.
    pub holds: usize,
    /// On how many it does not hold.
    pub does_not_hold: usize,
    /// On how many it is not measured.
    pub not_measured: usize,
    /// The usual measured outcome: the more common of holds and does not hold
    /// (`not_measured` on a tie, or where no GPU measures it).
    pub usual: Outcome,
    /// The GPUs whose measured outcome is not the usual one (on a tie: those where it does
    /// not hold), by name.
    pub exceptions: Vec<String>,
}
