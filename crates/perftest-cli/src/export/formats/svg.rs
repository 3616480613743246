//! One SVG chart of a run: the families' heatmaps stacked, for a README or an issue.

use std::fmt::Write;

use crate::export::columns;
use crate::export::curves::{has_curve, write_curve, Curve, CURVE_SIZE};
use crate::export::exporter::{ExportError, Exporter};
use crate::export::heatmap::{
    family_grids, heatmap_size, label_width, write_heatmap, write_legend, CHART_CSS, LEGEND_SIZE,
};
use crate::export::markup::{escape, px, svg_open, text_width};
use crate::report::Report;
use perftest_report::analysis::Analysis;

/// Margin around the chart.
const MARGIN: f64 = 12.0;

/// Writes a standalone SVG: the device line, the settings, the sweep's latency and bandwidth
/// curves when the report has sweep cases, a colour legend and one heatmap per family (rows:
/// format or path, columns: pattern, cells: Gload/s coloured by their share of the family's
/// best), stacked vertically. Text from the report is escaped.
#[derive(Clone, Copy, Debug, Default)]
pub struct SvgExporter;

impl Exporter for SvgExporter {
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError> {
        let grids = family_grids(report);
        let label_w = label_width(&grids);
        let header = [
            columns::device_line(report),
            format!(
                "perftest {}, {}: {}{}",
                report.perftest_version,
                report.started_at,
                columns::sampling(&report.settings),
                if report.complete {
                    ""
                } else {
                    " (incomplete run)"
                }
            ),
        ];
        let header_h = header.len() as f64 * 18.0 + 6.0;
        // The first line is a 14 px title, the others 12 px notes.
        let mut width = header
            .iter()
            .enumerate()
            .map(|(i, h)| text_width(h, if i == 0 { 14.0 } else { 12.0 }))
            .fold(LEGEND_SIZE.0, f64::max);
        let hierarchy = analysis.hierarchy.as_ref();
        let curves: Vec<Curve> = [Curve::Latency, Curve::Bandwidth]
            .into_iter()
            .filter(|c| hierarchy.as_ref().is_some_and(|h| has_curve(h, *c)))
            .collect();
        if !curves.is_empty() {
            width = width.max(CURVE_SIZE.0);
        }
        let mut height =
            header_h + LEGEND_SIZE.1 + 8.0 + curves.len() as f64 * (CURVE_SIZE.1 + 8.0);
        for grid in &grids {
            let (w, h) = heatmap_size(grid, label_w);
            width = width.max(w);
            height += h + 8.0;
        }
        let (total_w, total_h) = (width + 2.0 * MARGIN, height + 2.0 * MARGIN);

        let mut out = String::new();
        svg_open(&mut out, total_w, total_h)?;
        writeln!(out, "<style>\n{CHART_CSS}</style>")?;
        writeln!(
            out,
            r##"<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>"##,
            px(total_w),
            px(total_h)
        )?;
        let mut y = MARGIN;
        for (i, line) in header.iter().enumerate() {
            let class = if i == 0 { "t" } else { "n" };
            writeln!(
                out,
                r#"<text x="{}" y="{}" class="{class}">{}</text>"#,
                px(MARGIN),
                px(y + 14.0 + i as f64 * 18.0),
                escape(line)
            )?;
        }
        y += header_h;
        if let Some(h) = &hierarchy {
            for curve in &curves {
                write_curve(&mut out, h, *curve, (MARGIN, y))?;
                y += CURVE_SIZE.1 + 8.0;
            }
        }
        write_legend(&mut out, MARGIN, y)?;
        y += LEGEND_SIZE.1 + 8.0;
        for grid in &grids {
            write_heatmap(&mut out, grid, &grid.title(), (MARGIN, y), label_w)?;
            y += heatmap_size(grid, label_w).1 + 8.0;
        }
        out.push_str("</svg>\n");
        Ok(out.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::formats::html::tests::{check_markup, hostile_report};
    use perftest_report::samples::sample_report;

    fn svg(report: &Report) -> String {
        String::from_utf8(SvgExporter.serialize(report).unwrap()).unwrap()
    }

    #[test]
    fn chart_is_well_formed_svg_with_every_value() {
        let report = sample_report();
        let text = svg(&report);
        let doc = check_markup(&text);
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        for value in ["13.1", "3.28", "6.55", "skipped", "failed"] {
            assert!(texts.contains(&value), "{value}: {text}");
        }
        // Every coordinate is a plain number.
        for node in doc.descendants().filter(|n| n.is_element()) {
            for name in ["x", "y", "width", "height"] {
                if let Some(v) = node.attribute(name) {
                    assert!(v.parse::<f64>().is_ok_and(f64::is_finite), "{name}={v}");
                }
            }
        }
        // Four families stacked: four title lines after the two header lines.
        let titles = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("t"))
            .count();
        assert_eq!(titles, 1 + 4);
    }

    #[test]
    fn sweep_reports_draw_both_curves_above_the_heatmaps() {
        let report = crate::export::formats::html::tests::sweep_report();
        let text = svg(&report);
        let doc = check_markup(&text);
        let charts: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("curve-chart"))
            .collect();
        assert_eq!(charts.len(), 2);
        let root_height: f64 = doc
            .root_element()
            .attribute("height")
            .unwrap()
            .parse()
            .unwrap();
        assert!(root_height > 2.0 * CURVE_SIZE.1, "{root_height}");
        assert_eq!(
            doc.descendants()
                .filter(|n| n.has_tag_name("polyline"))
                .count(),
            2
        );
        // The plain report has none.
        assert!(!svg(&sample_report()).contains("curve-chart"));
    }

    #[test]
    fn hostile_strings_are_escaped() {
        let text = svg(&hostile_report());
        let doc = check_markup(&text);
        let all: String = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(all.contains("GPU <script>alert('x')</script>"), "{all}");
        assert!(all.contains("<b>family</b>&"), "{all}");
    }
}
