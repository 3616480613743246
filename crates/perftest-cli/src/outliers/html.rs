//! `perftest compare A B C ... --format html`: the node (or fleet) summary of three or more
//! reports as a self-contained page: which report is which device, the outlier verdicts, and
//! per case the median throughput with each report's deviation, flagged cells marked.

use std::fmt::Write;

use crate::export::formats::html::{page_end, page_start};
use crate::export::markup::escape;
use crate::report::LOADS_PER_GROUP;
use perftest_report::fleet::{Fleet, Verdict};
use perftest_report::outliers::{NodeSummary, MIN_REPORTS_FOR_FLAGS};
use perftest_report::statistics::median;

/// Writes one HTML page for `summary`; `describe(r)` says what report `r` is (device name and
/// PCI address). Labels, names and descriptions are escaped.
pub fn node_html(
    summary: &NodeSummary,
    describe: &dyn Fn(usize) -> String,
) -> Result<String, std::fmt::Error> {
    let n = summary.labels.len();
    let mut out = String::new();
    page_start(&mut out, &format!("perftest compare: {n} reports"))?;
    writeln!(out, "<h1>perftest compare: {n} reports</h1>")?;
    writeln!(
        out,
        "<p>Per case the median throughput over the reports and each report's deviation from it \
         (negative = slower). A report is flagged where it is more than {}% and more than {} \
         median absolute deviations off; the rule needs at least {MIN_REPORTS_FOR_FLAGS} \
         reports measuring a case.</p>",
        summary.rule.min_pct, summary.rule.min_mads
    )?;
    node_section(&mut out, summary, describe)?;
    page_end(&mut out, env!("CARGO_PKG_VERSION"))?;
    Ok(out)
}

/// One HTML page for a fleet comparison: per GPU model a section with its node tables, or the
/// reports it could not judge, then the overall verdict. Contributed text is escaped.
pub fn fleet_html(fleet: &Fleet) -> Result<String, std::fmt::Error> {
    let mut out = String::new();
    let n: usize = fleet.groups.iter().map(|g| g.members.len()).sum();
    page_start(&mut out, &format!("perftest compare: fleet of {n} reports"))?;
    writeln!(out, "<h1>perftest compare: fleet of {n} reports</h1>")?;
    writeln!(
        out,
        "<p>Each GPU model's reports are judged among themselves, whatever their drivers and \
         perftest versions; a model with fewer than {MIN_REPORTS_FOR_FLAGS} reports cannot be \
         judged.</p>"
    )?;
    for group in &fleet.groups {
        writeln!(
            out,
            "<h2>{}: {} report(s)</h2>",
            escape(&group.key.describe()),
            group.members.len()
        )?;
        if group.mixed_software() {
            writeln!(
                out,
                "<p>These reports differ in API version, driver or perftest version (shown \
                 beside each); a deviation may come from that difference.</p>"
            )?;
        }
        if group.members.len() >= MIN_REPORTS_FOR_FLAGS {
            node_section(&mut out, &group.summary, &|r| group.describe(r))?;
            continue;
        }
        writeln!(out, "<ul>")?;
        for (r, m) in group.members.iter().enumerate() {
            writeln!(
                out,
                "<li class=\"flag\">NOT JUDGED {}: {} report(s) of its GPU model ({})</li>",
                escape(&m.label),
                group.members.len(),
                escape(&group.describe(r))
            )?;
        }
        writeln!(out, "</ul>")?;
    }
    let verdict = match fleet.verdict() {
        Verdict::Flagged => "At least one report is flagged.",
        Verdict::Unjudged => "No outlier among the reports judged, but some could not be judged.",
        Verdict::Healthy => "Every report was judged and none is off.",
    };
    writeln!(out, "<p><strong>Verdict:</strong> {verdict}</p>")?;
    page_end(&mut out, env!("CARGO_PKG_VERSION"))?;
    Ok(out)
}

/// The verdict table and the case table of one node summary.
fn node_section(
    out: &mut String,
    summary: &NodeSummary,
    describe: &dyn Fn(usize) -> String,
) -> std::fmt::Result {
    writeln!(
        out,
        r#"<table class="data"><thead><tr><th>Report</th><th>Device</th><th>Verdict</th></tr></thead><tbody>"#
    )?;
    let flagged = summary.flagged_reports();
    let unmeasured = summary.unmeasured_reports();
    let unjudged = summary.unjudged_reports();
    for (r, label) in summary.labels.iter().enumerate() {
        let verdict = if unmeasured.contains(&r) {
            "NOT MEASURED: no case was measured".to_string()
        } else if unjudged.contains(&r) {
            "NOT JUDGED: too few reports measured its cases".to_string()
        } else if flagged.contains(&r) {
            let devs: Vec<f64> = summary
                .flags_of(r)
                .filter_map(|c| c.deviation_pct[r])
                .collect();
            format!(
                "OUTLIER: {} case(s) flagged, median deviation {:+.2}%",
                devs.len(),
                median(&devs).unwrap_or(0.0)
            )
        } else {
            "ok".to_string()
        };
        let class = if flagged.contains(&r) {
            r#" class="flag""#
        } else {
            ""
        };
        writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td{class}>{}</td></tr>",
            escape(label),
            escape(&describe(r)),
            escape(&verdict)
        )?;
    }
    writeln!(out, "</tbody></table>")?;
    write!(
        out,
        r#"<table class="data"><thead><tr><th>Case</th><th class="num">Median Gload/s</th>"#
    )?;
    for label in &summary.labels {
        write!(out, r#"<th class="num">{}</th>"#, escape(label))?;
    }
    writeln!(out, "</tr></thead><tbody>")?;
    for case in &summary.cases {
        write!(
            out,
            r#"<tr><td>{}</td><td class="num">{}</td>"#,
            escape(&case.name),
            case.median_ns_per_group.map_or_else(
                || "n/a".to_string(),
                |m| format!("{:.2}", LOADS_PER_GROUP as f64 / m)
            )
        )?;
        for (d, f) in case.deviation_pct.iter().zip(&case.flagged) {
            let text = d.map_or_else(|| "n/a".to_string(), |d| format!("{d:+.2}%"));
            if *f {
                write!(out, r#"<td class="num flag">{text} !</td>"#)?;
            } else {
                write!(out, r#"<td class="num">{text}</td>"#)?;
            }
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody></table>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::formats::html::tests::check_markup;
    use perftest_report::outliers::{summarize, OutlierRule};
    use perftest_report::samples::{measurement, sample_report};

    #[test]
    fn a_slow_report_is_flagged_on_the_page() {
        let reports: Vec<_> = (0..4)
            .map(|r| {
                let mut report = sample_report();
                for case in report.cases.iter_mut() {
                    if let Some(m) = case.measurement.as_mut() {
                        // Report 2 is 10% slower; the others differ by 0.01%.
                        let scale = if r == 2 { 1.1 } else { 1.0 + 1e-4 * r as f64 };
                        *m = measurement(1000, &[10e6 * scale; 3]);
                    }
                }
                report
            })
            .collect();
        let refs: Vec<_> = reports.iter().collect();
        let labels: Vec<String> = (0..4).map(|r| format!("node{r}<&>.json")).collect();
        let summary = summarize(&refs, &labels, OutlierRule::default());
        let page = node_html(&summary, &|r| format!("GPU {r}")).unwrap();
        let doc = check_markup(&page);
        let flagged: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.contains("flag")))
            .collect();
        assert!(flagged.len() >= 2, "{page}");
        assert!(page.contains("OUTLIER: "), "{page}");
        assert!(page.contains("node2&lt;&amp;&gt;.json"), "{page}");
        assert_eq!(page.matches("<td>ok</td>").count(), 3, "{page}");
    }
}
