//! Many reports of the same suite side by side as text — every GPU of a node
//! (`--all-devices`), or reports gathered from many nodes (`perftest compare A.json B.json
//! C.json ...`) — with the outlier rule's verdicts ([`perftest_report::outliers`]), and the
//! placeholders of `--all-devices` output paths.

// Reports of many GPU models: each model's group judged on its own, as text.
pub mod fleet;
// The node summary as an HTML page.
pub mod html;

use crate::output::printable::{cell_width, printable, push_left, push_right};
use crate::report::LOADS_PER_GROUP;
use perftest_report::outliers::{NodeSummary, MIN_REPORTS_FOR_FLAGS};

/// Renders the summary: a table with the node median throughput per case and each report's
/// deviation (`!` marks a flag), then one line per flagged report. `describe(r)` says what
/// report `r` is (device name and PCI address, file name).
pub fn render(summary: &NodeSummary, describe: &dyn Fn(usize) -> String) -> String {
    let n = summary.labels.len();
    let mut out = String::new();
    out.push_str(&format!(
        "Node summary: {n} report(s); per case the median over them and each one's deviation \
         from it (throughput; negative = slower; ! = more than {}% and {} MADs off)\n",
        summary.rule.min_pct, summary.rule.min_mads
    ));
    // Short column titles (R1, R2, ...): file names would make each line as wide as every
    // path together.
    for (r, label) in summary.labels.iter().enumerate() {
        out.push_str(&format!(
            "  R{}: {} ({})\n",
            r + 1,
            printable(label),
            printable(&describe(r))
        ));
    }
    out.push('\n');
    let mut titles = vec!["Case".to_string(), "median Gload/s".to_string()];
    titles.extend((1..=n).map(|r| format!("R{r}")));
    let rows: Vec<Vec<String>> = summary
        .cases
        .iter()
        .map(|c| {
            let mut row = vec![
                printable(&c.name).into_owned(),
                c.median_ns_per_group.map_or_else(
                    || "n/a".to_string(),
                    |m| format!("{:.2}", LOADS_PER_GROUP as f64 / m),
                ),
            ];
            row.extend(c.deviation_pct.iter().zip(&c.flagged).map(|(d, f)| {
                let mark = if *f { " !" } else { "" };
                d.map_or_else(|| "n/a".to_string(), |d| format!("{d:+.2}%{mark}"))
            }));
            row
        })
        .collect();
    let mut widths: Vec<usize> = titles.iter().map(|t| cell_width(t)).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell_width(cell));
        }
    }
    for row in std::iter::once(&titles).chain(&rows) {
        push_left(&mut out, &row[0], widths[0]);
        for (cell, w) in row[1..].iter().zip(&widths[1..]) {
            out.push_str("  ");
            push_right(&mut out, cell, *w);
        }
        out.push('\n');
    }
    out.push('\n');
    push_verdicts(&mut out, summary, describe);
    out
}

/// The verdict lines under the node table: the rule's overall result, then one line per report
/// not judged, not measured or flagged.
fn push_verdicts(out: &mut String, summary: &NodeSummary, describe: &dyn Fn(usize) -> String) {
    let flagged = summary.flagged_reports();
    let no_check = !summary.checked();
    if no_check {
        out.push_str(&format!(
            "No outlier check: it needs at least {MIN_REPORTS_FOR_FLAGS} reports measuring a case \
             (with two, nothing tells which one is off).\n"
        ));
    } else if flagged.is_empty() && summary.unjudged_reports().is_empty() {
        out.push_str("No outlier: every report is within the rule on every case.\n");
    }
    let unmeasured = summary.unmeasured_reports();
    if !no_check {
        for r in summary.unjudged_reports() {
            out.push_str(&format!(
                "NOT JUDGED {}: no case it measured was measured by {MIN_REPORTS_FOR_FLAGS} \
                 reports, so nothing shows it is healthy or slow ({})\n",
                printable(&summary.labels[r]),
                printable(&describe(r))
            ));
        }
    }
    for r in flagged {
        if unmeasured.contains(&r) {
            out.push_str(&format!(
                "NOT MEASURED {}: no case was measured, so nothing shows it is healthy ({})\n",
                printable(&summary.labels[r]),
                printable(&describe(r))
            ));
            continue;
        }
        let count = summary.flags_of(r).count();
        let typical = summary.typical_deviation(r);
        out.push_str(&format!(
            "OUTLIER {}: {count} case(s) flagged, median deviation {typical:+.2}% ({})\n",
            printable(&summary.labels[r]),
            printable(&describe(r))
        ));
    }
}

/// What `{device}` in an `--all-devices` output path is replaced by: the device's number.
pub const DEVICE_PLACEHOLDER: &str = "{device}";

/// What `{pci}` in an `--all-devices` output path is replaced by: the device's PCI address
/// with `-` for `:` (`00000000-18-00.0`, a file name on every system), or `uuid-` and its
/// device UUID without one, or `device-` and its number without either ([`location_word`]).
pub const PCI_PLACEHOLDER: &str = "{pci}";

/// The word [`PCI_PLACEHOLDER`] becomes for a device.
pub fn location_word(pci_bus: Option<&str>, device_uuid: Option<&str>, number: usize) -> String {
    let safe = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '-'
                }
            })
            .collect()
    };
    match (pci_bus, device_uuid) {
        (Some(pci), _) => safe(pci),
        (None, Some(uuid)) => format!("uuid-{}", safe(uuid)),
        (None, None) => format!("device-{number}"),
    }
}

/// `path` with every `{device}` replaced by `number` and every `{pci}` by `location` (see
/// [`location_word`]), byte for byte (a file name that is not UTF-8 keeps its bytes); `None`
/// when it holds neither placeholder.
pub fn with_placeholders(
    path: &std::path::Path,
    number: usize,
    location: &str,
) -> Option<std::path::PathBuf> {
    let digits = number.to_string();
    let words = [
        (DEVICE_PLACEHOLDER.as_bytes(), digits.as_bytes()),
        (PCI_PLACEHOLDER.as_bytes(), location.as_bytes()),
    ];
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut out = Vec::with_capacity(bytes.len() + 16);
    let mut found = false;
    let mut i = 0;
    'scan: while i < bytes.len() {
        for (placeholder, word) in words {
            if bytes[i..].starts_with(placeholder) {
                out.extend_from_slice(word);
                i += placeholder.len();
                found = true;
                continue 'scan;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    if !found {
        return None;
    }
    // SAFETY: `out` is the path's own bytes, cut only around the ASCII placeholders and joined
    // with ASCII words, which the encoding of `OsStr` allows on every platform.
    let os = unsafe { std::ffi::OsString::from_encoded_bytes_unchecked(out) };
    Some(os.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_placeholders_are_replaced_byte_for_byte() {
        use std::path::Path;
        assert_eq!(
            with_placeholders(Path::new("out/{device}/run-{device}.json"), 3, "x"),
            Some("out/3/run-3.json".into())
        );
        assert_eq!(
            with_placeholders(Path::new("r/node7-{pci}.json"), 3, "00000000-18-00.0"),
            Some("r/node7-00000000-18-00.0.json".into())
        );
        assert_eq!(with_placeholders(Path::new("out/run.json"), 3, "x"), None);
        assert_eq!(with_placeholders(Path::new("{pci"), 3, "x"), None);
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let raw = std::ffi::OsStr::from_bytes(b"r\xff{device}\xfe{pci}.json");
            let done = with_placeholders(Path::new(raw), 12, "p").unwrap();
            assert_eq!(done.as_os_str().as_bytes(), b"r\xff12\xfep.json");
        }
    }

    #[test]
    fn a_device_location_is_a_file_name_word() {
        assert_eq!(
            location_word(Some("00000000:18:00.0"), Some("ab-cd"), 2),
            "00000000-18-00.0"
        );
        assert_eq!(
            location_word(None, Some("6d657361-3232"), 2),
            "uuid-6d657361-3232"
        );
        assert_eq!(location_word(None, None, 2), "device-2");
        assert_eq!(location_word(Some("a/b\\c"), None, 1), "a-b-c");
    }
    use perftest_report::outliers::{summarize, OutlierRule};
    use perftest_report::samples::{measurement, sample_report};
    use perftest_report::Report;

    /// `n` copies of the sample report whose measured cases take `base * scale(r)` ns.
    fn run(n: usize, scale: impl Fn(usize) -> f64) -> NodeSummary {
        let reports: Vec<Report> = (0..n)
            .map(|r| {
                let mut report = sample_report();
                for case in &mut report.cases {
                    if let Some(m) = case.measurement.as_mut() {
                        let t = 10e6 * scale(r) * (1.0 + 1e-4 * r as f64);
                        *m = measurement(1000, &[t, t, t]);
                    }
                }
                report
            })
            .collect();
        let refs: Vec<&Report> = reports.iter().collect();
        let labels: Vec<String> = (1..=n).map(|i| format!("#{i}")).collect();
        summarize(&refs, &labels, OutlierRule::default())
    }

    /// A flagged report gets its line with the count and median of its flags, and its cells
    /// a mark; a healthy node says so; two reports are not checked.
    #[test]
    fn the_verdict_lines() {
        let summary = run(4, |r| if r == 2 { 1.03 } else { 1.0 });
        let text = render(&summary, &|r| format!("GPU {r}"));
        assert!(
            text.contains("OUTLIER #3: 3 case(s) flagged, median deviation -2.9"),
            "{text}"
        );
        assert!(text.contains(" !"), "{text}");
        let text = render(&run(4, |_| 1.0), &|_| String::new());
        assert!(text.contains("No outlier: every report"), "{text}");
        let text = render(&run(2, |r| 1.0 + r as f64), &|_| String::new());
        assert!(text.contains("No outlier check"), "{text}");
    }

    /// A report that measured nothing is named on its own line, and the summary does not say
    /// "No outlier".
    #[test]
    fn a_report_that_measured_nothing_is_named() {
        let mut summary = run(3, |_| 1.0);
        for case in &mut summary.cases {
            case.deviation_pct[1] = None;
        }
        let text = render(&summary, &|r| format!("GPU {r}"));
        assert!(
            text.contains("NOT MEASURED #2: no case was measured"),
            "{text}"
        );
        assert!(!text.contains("No outlier:"), "{text}");
    }
}
