//! `perftest compare A.json B.json` as text: the comparison of two reports
//! ([`perftest_report::pair`]) as an aligned table with its totals.

// The HTML comparison page.
pub mod html;

use std::fmt::Write;

use crate::output::printable::{cell_width, printable, push_left, push_right};
use perftest_report::pair::Comparison;

/// Renders a comparison as an aligned text table followed by the totals and the cases found in
/// one report only. `a_label`/`b_label` name the two reports (their file names, say). Names,
/// labels and device strings are printed with control characters escaped.
pub fn render(comparison: &Comparison, a_label: &str, b_label: &str) -> String {
    let (a_label, b_label) = (printable(a_label), printable(b_label));
    let ms = |v: Option<f64>| v.map_or_else(|| "n/a".to_string(), |v| format!("{v:.3}"));
    let rows: Vec<[String; 6]> = comparison
        .cases
        .iter()
        .map(|c| {
            [
                printable(&c.name).into_owned(),
                ms(c.a_original_ms),
                ms(c.b_original_ms),
                c.ratio
                    .map_or_else(|| "n/a".to_string(), |r| format!("{r:.3}x")),
                c.change_pct
                    .map_or_else(|| "n/a".to_string(), |p| format!("{p:+.2}%")),
                c.noise_label().to_string(),
            ]
        })
        .collect();
    let titles = ["Case", "A ms", "B ms", "B/A", "change", "noise"];
    let mut widths = titles.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell_width(cell));
        }
    }

    // Writing into a String cannot fail; the results are ignored.
    let mut out = String::new();
    let _ = writeln!(out, "A: {a_label} ({})", printable(&comparison.a_device));
    let _ = writeln!(out, "B: {b_label} ({})", printable(&comparison.b_device));
    let _ = writeln!(out);
    // Padded by hand: names from a report may be longer than format!'s width allows.
    for table_row in std::iter::once(titles.map(String::from)).chain(rows) {
        let [name, rest @ ..] = &table_row;
        push_left(&mut out, name, widths[0]);
        for (cell, width) in rest.iter().zip(&widths[1..]) {
            out.push_str("  ");
            push_right(&mut out, cell, *width);
        }
        out.push('\n');
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Matched cases: {}", comparison.matched());
    if let Some(note) = &comparison.settings_note {
        let _ = writeln!(out, "Settings: {note}");
    }
    match &comparison.summary {
        Some(s) => {
            let _ = writeln!(out, "Measured in both: {}", s.compared);
            let _ = writeln!(out, "Median |change|: {:.2}%", s.median_abs_change_pct);
            let _ = writeln!(out, "Whole-run shift: {}", s.shift_text());
            let _ = writeln!(
                out,
                "Largest change: {:+.2}% ({})",
                s.largest.change_pct,
                printable(&s.largest.name)
            );
            if let Some(text) = s.beyond_noise_text() {
                let _ = writeln!(out, "Beyond noise: {text}");
            }
            if let Some(text) = s.other_levels_text() {
                let _ = writeln!(out, "Other levels: {}", printable(&text));
            }
            if let Some(text) = s.other_places_text() {
                let _ = writeln!(out, "Other places: {}", printable(&text));
            }
        }
        None => {
            let _ = writeln!(out, "No case was measured in both reports.");
        }
    }
    for (label, names) in [
        (a_label, &comparison.only_in_a),
        (b_label, &comparison.only_in_b),
    ] {
        if !names.is_empty() {
            let _ = writeln!(out, "Only in {label}: {}", printable(&names.join(", ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::pair::compare;
    use perftest_report::samples::{changed_pair, placed, sample_report, two_levels};

    /// A modal case whose runs reported other levels is named in the table, the totals and
    /// the HTML page; the same runs at one level are not.
    #[test]
    fn runs_that_reported_other_levels() {
        let (a, mut b) = perftest_report::samples::other_levels_pair();
        let c = compare(&a, &b);
        let text = render(&c, "a.json", "b.json");
        assert!(
            text.contains("Other levels: 1 (Buffer<R8>.Load uniform: each run reported a level"),
            "{text}"
        );
        assert!(text.contains("  level\n"), "{text}");
        let html = html::comparison_html(&c, "a.json", "b.json").unwrap();
        assert!(html.contains("<th>Other levels</th>"), "{html}");
        b.cases[0].measurement = Some(two_levels(14));
        assert!(!render(&compare(&a, &b), "a", "b").contains("Other levels"));
    }

    /// A case read at another place is named in the table, the totals and the HTML page; the
    /// same report twice is not.
    #[test]
    fn runs_that_read_their_data_at_other_places() {
        let a = sample_report();
        let mut b = sample_report();
        b.cases[0].measurement = Some(placed());
        let c = compare(&a, &b);
        let text = render(&c, "a.json", "b.json");
        assert!(
            text.contains("Other places: 1 (Buffer<R8>.Load uniform: where its data lies"),
            "{text}"
        );
        let html = html::comparison_html(&c, "a.json", "b.json").unwrap();
        assert!(html.contains("<th>Other places</th>"), "{html}");
        assert!(!render(&compare(&b, &b), "b", "b").contains("Other places"));
    }

    /// A change beyond noise is labelled in its row and counted in the totals; without
    /// intervals there is no such line.
    #[test]
    fn changes_beyond_noise() {
        let (a, b) = perftest_report::samples::six_sample_pair();
        let text = render(&compare(&a, &b), "a.json", "b.json");
        assert!(text.contains("-0.03%  beyond\n"), "{text}");
        assert!(text.contains("Beyond noise: 1 of 2 "), "{text}");
        let (a, b) = changed_pair();
        assert!(!render(&compare(&a, &b), "a", "b").contains("Beyond noise"));
    }

    /// The note on dispatches sized to other times is printed as the `Settings:` line, and
    /// only where there is one.
    #[test]
    fn dispatches_sized_to_other_times_are_noted() {
        let (a, mut b) = changed_pair();
        b.settings.dispatch_ms = Some(20.0);
        let text = render(&compare(&a, &b), "a.json", "b.json");
        assert!(
            text.contains("\nSettings: A's dispatches were sized to "),
            "{text}"
        );
        assert!(!render(&compare(&a, &a), "a", "b").contains("Settings:"));
    }

    #[test]
    fn nothing_in_common() {
        let a = sample_report();
        let mut b = sample_report();
        b.cases.clear();
        let text = render(&compare(&a, &b), "a.json", "b.json");
        assert!(text.contains("No case was measured in both"), "{text}");
    }

    #[test]
    fn rendered_table() {
        let (a, b) = changed_pair();
        let text = render(&compare(&a, &b), "a.json", "b.json");
        let expected = "\
A: a.json (Test GPU)
B: b.json (Other GPU)

Case                              A ms      B ms     B/A    change  noise
Buffer<R8>.Load uniform        614.400   307.200  2.000x  +100.00%    n/a
Buffer<RGBA8>.Load random     2457.600  2949.120  0.833x   -16.67%    n/a
Texture2D<R8>.Load linear          n/a       n/a     n/a       n/a    n/a
cbuffer{float4} load uniform       n/a       n/a     n/a       n/a    n/a

Matched cases: 4
Measured in both: 2
Median |change|: 58.33%
Whole-run shift: +41.667% (the median signed change; + is B faster)
Largest change: +100.00% (Buffer<R8>.Load uniform)
Only in a.json: ByteAddressBuffer.Load4 random
Only in b.json: StructuredBuffer<float>.Load linear
";
        assert_eq!(text, expected);
    }
}
