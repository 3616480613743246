//! The "Vendor guidance" section every human-readable format prints after the findings: each
//! vendor claim the report's figures judge, and how many it cannot judge (the JSON report's
//! `guidance` array gives every claim, with the reason where it is not measured).

use perftest_report::analysis::Analysis;
use perftest_report::guidance::{Outcome, Verdict};

use crate::output::printable::{printable, wrap};

/// Lines of the text section are wrapped to this width.
const WRAP: usize = 100;

/// The verdicts the report's figures give (holds or does not hold), in the guidance's order.
pub fn measured(analysis: &Analysis) -> Vec<&Verdict> {
    analysis
        .guidance
        .iter()
        .filter(|v| v.verdict != Outcome::NotMeasured)
        .collect()
}

/// One measured verdict as a sentence: the vendor, the claim, the verdict and its figure.
pub fn sentence(v: &Verdict) -> String {
    let why = v
        .reason
        .as_deref()
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    format!(
        "{}: {} {}{why}.",
        v.vendor,
        v.claim.trim_end_matches('.'),
        match v.verdict {
            Outcome::Holds => "— holds here",
            Outcome::DoesNotHold => "— does not hold here",
            Outcome::NotMeasured => "— not measured here",
        }
    )
}

/// The sentence on the claims the report cannot judge, or `None` when it judges them all.
pub fn not_measured_line(analysis: &Analysis) -> Option<String> {
    let total = analysis.guidance.len();
    let left = total - measured(analysis).len();
    (left > 0).then(|| {
        format!(
            "Not judged here: {left} of {total} claims (no case measures them yet, or this \
             report lacks their cases); the JSON report's `guidance` array gives each with its \
             reason."
        )
    })
}

/// The section as plain text, wrapped for a terminal; `None` when no claim is judged.
pub fn text(analysis: &Analysis) -> Option<String> {
    let judged = measured(analysis);
    if judged.is_empty() {
        return None;
    }
    let mut out = String::from("Vendor guidance, judged on this GPU:\n");
    for v in judged {
        let line = format!("{} [{}]", sentence(v), v.id);
        wrap(&mut out, &printable(&line), "- ", "  ", WRAP);
    }
    if let Some(line) = not_measured_line(analysis) {
        out.push('\n');
        wrap(&mut out, &printable(&line), "", "", WRAP);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_lists_judged_claims_and_counts_the_rest() {
        let mut report = perftest_report::samples::sample_report();
        let analysis = Analysis::of(&report);
        let judged = measured(&analysis).len();
        let total = analysis.guidance.len();
        match text(&analysis) {
            Some(section) => {
                assert!(section.starts_with("Vendor guidance, judged on this GPU:\n"));
                assert_eq!(section.matches("\n- ").count() + 1, judged + 1, "{section}");
                assert!(section.contains(&format!("{} of {total} claims", total - judged)));
            }
            None => assert_eq!(judged, 0),
        }
        // A report without cases judges nothing and prints no section.
        report.cases.clear();
        assert!(text(&Analysis::of(&report)).is_none());
    }

    #[test]
    fn a_sentence_names_the_vendor_the_claim_and_the_verdict() {
        let v = Verdict {
            id: "x.y".to_string(),
            vendor: "NVIDIA".to_string(),
            source: perftest_report::guidance::Source {
                title: "t".to_string(),
                url: "u".to_string(),
            },
            claim: "Constant buffers are fast.".to_string(),
            verdict: Outcome::DoesNotHold,
            value: Some(0.5),
            cases: Vec::new(),
            reason: Some("0.50x".to_string()),
        };
        assert_eq!(
            sentence(&v),
            "NVIDIA: Constant buffers are fast — does not hold here (0.50x)."
        );
    }
}
