//! `perftest compare --format html`: the comparison of two reports as a self-contained page.

use std::fmt::Write;

use crate::export::chart::change_bars;
use crate::export::formats::html::{page_end, page_start};
use crate::export::markup::escape;
use perftest_report::pair::{CompareSummary, Comparison};

/// Writes one HTML page: which report is A and which is B, the median and largest change,
/// how many changes are beyond noise, one change bar per case (green: B faster, red: B slower),
/// the cases found in one report only, and the per-case table. Labels and names are escaped.
pub fn comparison_html(
    comparison: &Comparison,
    a_label: &str,
    b_label: &str,
) -> Result<String, std::fmt::Error> {
    let mut out = String::new();
    page_start(
        &mut out,
        &format!("perftest compare: {a_label} vs {b_label}"),
    )?;
    writeln!(out, "<h1>perftest compare</h1>")?;
    write_meta(&mut out, comparison, a_label, b_label)?;
    writeln!(
        out,
        "<p>Change = B's throughput / A's throughput - 1: green bars (positive) mean B is \
         faster, red bars (negative) mean B is slower.</p>"
    )?;
    out.push_str(&change_bars(comparison)?);
    write_only_in(&mut out, comparison, a_label, b_label)?;
    write_table(&mut out, comparison)?;
    page_end(&mut out, env!("CARGO_PKG_VERSION"))?;
    Ok(out)
}

/// The table at the top: the two reports, how many cases match, and the summary.
fn write_meta(
    out: &mut String,
    comparison: &Comparison,
    a_label: &str,
    b_label: &str,
) -> std::fmt::Result {
    writeln!(out, r#"<table class="meta"><tbody>"#)?;
    for (key, label, device) in [
        ("A", a_label, &comparison.a_device),
        ("B", b_label, &comparison.b_device),
    ] {
        writeln!(
            out,
            "<tr><th>{key}</th><td>{} ({})</td></tr>",
            escape(label),
            escape(device)
        )?;
    }
    writeln!(
        out,
        "<tr><th>Matched</th><td>{} cases</td></tr>",
        comparison.matched()
    )?;
    match &comparison.summary {
        Some(s) => write_summary(out, s)?,
        None => writeln!(
            out,
            "<tr><th>Measured in both</th><td>no case was measured in both reports</td></tr>"
        )?,
    }
    writeln!(out, "</tbody></table>")
}

/// The summary's rows: how many cases were measured in both, the median, the whole-run
/// shift, the largest change and how many are beyond noise.
fn write_summary(out: &mut String, s: &CompareSummary) -> std::fmt::Result {
    writeln!(
        out,
        "<tr><th>Measured in both</th><td>{}</td></tr>",
        s.compared
    )?;
    writeln!(
        out,
        "<tr><th>Median |change|</th><td>{:.2}%</td></tr>",
        s.median_abs_change_pct
    )?;
    writeln!(
        out,
        "<tr><th>Whole-run shift</th><td>{}</td></tr>",
        escape(&s.shift_text())
    )?;
    writeln!(
        out,
        "<tr><th>Largest change</th><td>{:+.2}% ({})</td></tr>",
        s.largest.change_pct,
        escape(&s.largest.name)
    )?;
    if let Some(text) = s.beyond_noise_text() {
        writeln!(
            out,
            "<tr><th>Beyond noise</th><td>{}</td></tr>",
            escape(&text)
        )?;
    }
    if let Some(text) = s.other_levels_text() {
        writeln!(
            out,
            "<tr><th>Other levels</th><td>{}</td></tr>",
            escape(&text)
        )?;
    }
    if let Some(text) = s.other_places_text() {
        writeln!(
            out,
            "<tr><th>Other places</th><td>{}</td></tr>",
            escape(&text)
        )?;
    }
    Ok(())
}

/// The settings note ([`super::settings_note`]), then the cases found in one report only, a
/// note per report.
fn write_only_in(
    out: &mut String,
    comparison: &Comparison,
    a_label: &str,
    b_label: &str,
) -> std::fmt::Result {
    if let Some(note) = &comparison.settings_note {
        writeln!(out, r#"<p class="note">Settings: {}</p>"#, escape(note))?;
    }
    for (label, names) in [
        (a_label, &comparison.only_in_a),
        (b_label, &comparison.only_in_b),
    ] {
        if !names.is_empty() {
            let list: Vec<String> = names.iter().map(|n| escape(n)).collect();
            writeln!(
                out,
                r#"<p class="note">Only in {}: {}</p>"#,
                escape(label),
                list.join(", ")
            )?;
        }
    }
    Ok(())
}

/// The per-case table, open: both times, the ratio, the change and its noise label.
fn write_table(out: &mut String, comparison: &Comparison) -> std::fmt::Result {
    let ms = |v: Option<f64>| v.map_or_else(|| "n/a".to_string(), |v| format!("{v:.3}"));
    writeln!(out, "<details open=\"open\"><summary>Table</summary>")?;
    writeln!(
        out,
        r#"<table class="data"><thead><tr><th>Case</th><th class="num">A ms</th><th class="num">B ms</th><th class="num">B/A</th><th class="num">change</th><th class="num">noise</th></tr></thead><tbody>"#
    )?;
    for c in &comparison.cases {
        writeln!(
            out,
            r#"<tr><td><code>{}</code></td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td></tr>"#,
            escape(&c.name),
            ms(c.a_original_ms),
            ms(c.b_original_ms),
            c.ratio
                .map_or_else(|| "n/a".to_string(), |r| format!("{r:.3}x")),
            c.change_pct
                .map_or_else(|| "n/a".to_string(), |p| format!("{p:+.2}%")),
            match c.noise_label() {
                // Bold, so the changes that count stand out of a long table.
                "beyond" => "<strong>beyond</strong>",
                label => label,
            }
        )?;
    }
    writeln!(out, "</tbody></table></details>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::chart::{FASTER, SLOWER};
    use crate::export::formats::html::tests::{check_markup, hostile_report};
    use perftest_report::pair::compare;
    use perftest_report::samples::{measurement, sample_report};

    #[test]
    fn change_bars_are_green_and_red() {
        let a = sample_report();
        let mut b = sample_report();
        b.cases[0].measurement = Some(measurement(4000, &[10e6; 3])); // 2x faster
        b.cases[1].measurement = Some(measurement(1000, &[25e6; 3])); // slower
        let text = comparison_html(&compare(&a, &b), "a <1>.json", "b.json").unwrap();
        let doc = check_markup(&text);
        let fills: Vec<&str> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "rect")
            .filter_map(|n| n.attribute("fill"))
            .collect();
        assert!(
            fills.contains(&FASTER) && fills.contains(&SLOWER),
            "{fills:?}"
        );
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(texts.contains(&"+100.00%"), "{texts:?}");
        assert!(texts.contains(&"-20.00%"), "{texts:?}");
        assert!(text.contains("a &lt;1&gt;.json"));
        // Cases not measured in both show n/a.
        assert!(texts.contains(&"n/a"));
    }

    #[test]
    fn changes_beyond_noise_are_marked() {
        let mut a = sample_report();
        let mut b = sample_report();
        let six = |ns: f64| [0.0, 1.0, 2.0, 3.0, 4.0, 5.0].map(|i| ns + i * 1e3);
        a.cases[0].measurement = Some(measurement(4000, &six(20.000e6)));
        b.cases[0].measurement = Some(measurement(4000, &six(20.010e6)));
        let text = comparison_html(&compare(&a, &b), "a.json", "b.json").unwrap();
        let doc = check_markup(&text);
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(texts.contains(&"Beyond noise"), "{texts:?}");
        assert!(texts.contains(&"Whole-run shift"), "{texts:?}");
        assert!(
            texts.contains(&"+0.000% (the median signed change; + is B faster)"),
            "{texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with("1 of 1 (95% intervals apart")),
            "{texts:?}"
        );
        assert!(texts.contains(&"beyond"), "{texts:?}");
    }

    #[test]
    fn hostile_reports_are_escaped() {
        let a = hostile_report();
        let text = comparison_html(&compare(&a, &a), "x", "y").unwrap();
        let doc = check_markup(&text);
        let all: String = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(all.contains("GPU <script>alert('x')</script>"));
    }
}
