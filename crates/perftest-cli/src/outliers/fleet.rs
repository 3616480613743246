//! A fleet comparison as text: the reports of `perftest compare A B C ...` grouped by GPU
//! model, each group judged by the outlier rule on its own ([`perftest_report::fleet`]).

use crate::output::printable::printable;
use perftest_report::fleet::{Fleet, Verdict};
use perftest_report::outliers::MIN_REPORTS_FOR_FLAGS;

/// The text of a fleet comparison: per group a heading and its node table (a group too small
/// for the rule gets one `NOT JUDGED` line per report instead), then the overall verdict.
pub fn render(fleet: &Fleet) -> String {
    let mut out = String::new();
    let reports: usize = fleet.groups.iter().map(|g| g.members.len()).sum();
    out.push_str(&format!(
        "Fleet summary: {reports} report(s) of {} GPU model(s); each model's reports are judged \
         among themselves, whatever their drivers and perftest versions\n\n",
        fleet.groups.len()
    ));
    for group in &fleet.groups {
        out.push_str(&format!(
            "== {}: {} report(s)\n",
            printable(&group.key.describe()),
            group.members.len()
        ));
        if group.mixed_software() {
            out.push_str(
                "Note: these reports differ in API version, driver or perftest version (shown \
                 beside each); a deviation may come from that difference.\n",
            );
        }
        if group.members.len() < MIN_REPORTS_FOR_FLAGS {
            let unmeasured = group.summary.unmeasured_reports();
            for (r, m) in group.members.iter().enumerate() {
                let why = if unmeasured.contains(&r) {
                    format!(
                        "NOT MEASURED {}: no case was measured, so nothing shows it is healthy",
                        printable(&m.label)
                    )
                } else {
                    format!(
                        "NOT JUDGED {}: {} report(s) of its GPU model, the outlier rule needs \
                         {MIN_REPORTS_FOR_FLAGS}",
                        printable(&m.label),
                        group.members.len()
                    )
                };
                out.push_str(&format!("{why} ({})\n", printable(&group.describe(r))));
            }
            out.push('\n');
            continue;
        }
        out.push_str(&super::render(&group.summary, &|r| group.describe(r)));
        out.push('\n');
    }
    out.push_str(match fleet.verdict() {
        Verdict::Flagged => "Verdict: at least one report is flagged (see above).\n",
        Verdict::Unjudged => {
            "Verdict: no outlier among the reports judged, but some could not be judged (NOT \
             JUDGED above): nothing shows they are healthy.\n"
        }
        Verdict::Healthy => "Verdict: every report was judged and none is off.\n",
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::fleet::Member;
    use perftest_report::outliers::{CaseNames, OutlierRule};
    use perftest_report::samples::sample_report;

    /// A model with one report gets a NOT JUDGED line, and the verdict says some reports could
    /// not be judged.
    #[test]
    fn a_model_with_too_few_reports_is_named() {
        let mut names = CaseNames::default();
        let mut other = sample_report();
        other.device.name = "B".to_string();
        let reports = [sample_report(), sample_report(), sample_report(), other];
        let members = reports
            .iter()
            .enumerate()
            .map(|(i, r)| Member::of(r, &format!("r{i}"), &mut names))
            .collect();
        let text = render(&Fleet::of(members, &names, OutlierRule::default()));
        assert!(text.contains("NOT JUDGED r3: 1 report(s)"), "{text}");
        assert!(
            text.contains("Verdict: no outlier among the reports judged"),
            "{text}"
        );
    }
}
