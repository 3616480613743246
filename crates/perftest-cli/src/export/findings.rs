//! The "Findings" section every human-readable format prints before its tables: the report's
//! findings, its advice and what it lacks, from perftest-report's rules.

use std::fmt::Write;

use perftest_report::analysis::Analysis;
use perftest_report::findings::{Finding, Findings};

use crate::output::printable::{printable, wrap};

/// Lines of the text section are wrapped to this width.
const WRAP: usize = 100;

/// The analysis' findings, or `None` when it gives none (no case any rule reads).
pub fn of(analysis: &Analysis) -> Option<&Findings> {
    let f = &analysis.findings;
    (!f.findings.is_empty()).then_some(f)
}

/// The findings split into the questions and the per-width findings of a question that is in
/// the list too (`uniform.raw.load2` under `uniform.raw`), each in the findings' order.
pub fn by_question(f: &Findings) -> (Vec<&Finding>, Vec<&Finding>) {
    let ids: std::collections::HashSet<&str> = f.findings.iter().map(|x| x.id.as_str()).collect();
    f.findings.iter().partition(|x| {
        x.id.rsplit_once('.')
            .is_none_or(|(parent, _)| !ids.contains(parent))
    })
}

/// The heading's note on where the figures come from.
pub fn source_note(f: &Findings) -> Option<String> {
    f.published
        .as_ref()
        .map(|p| format!("from a published table ({p}): one figure per case, no noise estimate"))
}

/// A finding's marker when its difference is within its cases' noise.
pub fn noise_note(beyond_noise: Option<bool>) -> &'static str {
    if beyond_noise == Some(false) {
        " (within the noise)"
    } else {
        ""
    }
}

/// The section as plain text, wrapped for a terminal.
pub fn text(analysis: &Analysis) -> Option<String> {
    let f = of(analysis)?;
    let mut out = String::new();
    let _ = match source_note(f) {
        Some(note) => writeln!(out, "Findings, {note}:"),
        None => writeln!(out, "Findings:"),
    };
    for finding in &f.findings {
        let line = format!(
            "{}{} [{}]",
            finding.statement,
            noise_note(finding.beyond_noise),
            finding.id
        );
        wrap(&mut out, &printable(&line), "- ", "  ", WRAP);
    }
    if !f.advice.is_empty() {
        out.push_str("\nAdvice:\n");
        for (n, advice) in f.advice.iter().enumerate() {
            let line = format!("{} [{}]", advice.text, advice.findings.join(", "));
            let first = format!("{}. ", n + 1);
            let rest = " ".repeat(first.len());
            wrap(&mut out, &printable(&line), &first, &rest, WRAP);
        }
    }
    if let Some(line) = missing_line(f) {
        out.push('\n');
        wrap(&mut out, &printable(&line), "", "", WRAP);
    }
    Some(out)
}

/// Up to this many missing findings are listed with the cases they need; more (a run of a few
/// cases) by id only.
const MISSING_WITH_CASES: usize = 6;

/// The findings the report lacks cases for, in one sentence.
pub fn missing_line(f: &Findings) -> Option<String> {
    if f.missing.is_empty() {
        return None;
    }
    if f.missing.len() > MISSING_WITH_CASES {
        let ids: Vec<&str> = f.missing.iter().map(|m| m.id.as_str()).collect();
        return Some(format!(
            "Not in this report (their cases were not measured): {}.",
            ids.join(", ")
        ));
    }
    let list: Vec<String> = f
        .missing
        .iter()
        .map(|m| format!("{} (needs {})", m.id, m.cases.join(", ")))
        .collect();
    Some(format!("Not in this report: {}.", list.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_report_has_findings_and_names_what_it_lacks() {
        let report = perftest_report::samples::sample_report();
        let text = text(&Analysis::of(&report)).unwrap_or_default();
        // Its cases: typed.r8.uniform, the baseline, raw.load4.random and two unmeasured.
        assert!(text.starts_with("Findings:\n"), "{text}");
        assert!(
            text.contains("- The most bytes per second: ByteAddressBuffer.Load4 random"),
            "{text}"
        );
        assert!(
            text.contains("Not in this report (their cases were not measured): typed.width,"),
            "{text}"
        );
    }
}
