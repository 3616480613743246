//! Bar charts as SVG: a family's cases relative to the baseline (HTML report) and the per-case
//! change between two reports (HTML comparison).

use std::fmt::Write;

use super::heatmap::{FamilyGrid, FONT_PX, ROW_H};
use super::markup::{escape, px, svg_open, text_width};
use perftest_report::pair::Comparison;

/// Width of the bar area.
const BAR_W: f64 = 300.0;
/// Room for the value printed after a bar.
const VALUE_W: f64 = 70.0;
/// Bar colours by column (pattern), cycled.
const PATTERN_FILLS: [&str; 4] = ["#4c78a8", "#f58518", "#54a24b", "#b279a2"];
/// Faster in a comparison.
pub(crate) const FASTER: &str = "#2e7d32";
/// Slower in a comparison.
pub(crate) const SLOWER: &str = "#c62828";

/// The largest `x` (relative to the baseline) in `grids`, at least 1.
pub(crate) fn max_relative(grids: &[FamilyGrid<'_>]) -> f64 {
    grids
        .iter()
        .flat_map(|g| g.cases.iter())
        .filter_map(|c| c.derived.and_then(|d| d.relative))
        .filter(|r| r.is_finite())
        .fold(1.0, f64::max)
}

/// An `<svg>` with one horizontal bar per case of `grid`: its `x` (baseline time / case time,
/// higher is faster) on a linear scale from 0 to `scale_max`, a dashed line at 1 (the
/// baseline), the value after each bar. Cases without a value show `n/a`.
pub(crate) fn relative_bars(
    grid: &FamilyGrid<'_>,
    scale_max: f64,
) -> Result<String, std::fmt::Error> {
    let labels: Vec<String> = grid.cases.iter().map(|c| c.case.name.clone()).collect();
    let label_w = labels
        .iter()
        .map(|l| text_width(l, FONT_PX))
        .fold(60.0, f64::max)
        + 8.0;
    let top = 24.0;
    let width = label_w + BAR_W + VALUE_W;
    let height = top + grid.cases.len() as f64 * ROW_H + 6.0;
    let scale = if scale_max.is_finite() && scale_max > 0.0 {
        scale_max
    } else {
        1.0
    };
    let mut out = String::new();
    svg_open(&mut out, width, height)?;
    writeln!(
        out,
        r#"<text x="0" y="16" class="t">x: relative to the baseline <tspan class="s">(dashed line: 1x; higher is faster)</tspan></text>"#
    )?;
    for (i, (case, label)) in grid.cases.iter().zip(&labels).enumerate() {
        let y = top + i as f64 * ROW_H;
        writeln!(
            out,
            r#"<text x="{}" y="{}" class="l">{}</text>"#,
            px(label_w - 8.0),
            px(y + 15.0),
            escape(label)
        )?;
        let value = case
            .derived
            .and_then(|d| d.relative)
            .filter(|r| r.is_finite() && *r > 0.0);
        match value {
            Some(v) => {
                let w = (v / scale).min(1.0) * BAR_W;
                let fill = PATTERN_FILLS[case.column % PATTERN_FILLS.len()];
                writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"/><text x="{}" y="{}" class="r">{v:.3}x</text>"#,
                    px(label_w),
                    px(y + 3.0),
                    px(w.max(1.0)),
                    px(ROW_H - 6.0),
                    px(label_w + w.max(1.0) + 4.0),
                    px(y + 15.0)
                )?;
            }
            None => writeln!(
                out,
                r#"<text x="{}" y="{}" class="n">n/a</text>"#,
                px(label_w + 4.0),
                px(y + 15.0)
            )?,
        }
    }
    let one = label_w + (1.0 / scale).min(1.0) * BAR_W;
    writeln!(
        out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333333\" stroke-dasharray=\"3 3\"/>",
        px(one),
        px(top - 2.0),
        px(one),
        px(height - 4.0)
    )?;
    out.push_str("</svg>\n");
    Ok(out)
}

/// An `<svg>` with one row per compared case: a bar from the centre line, green to the right
/// when B is faster, red to the left when slower, scaled to the largest |change| (at least
/// 1%), the change printed beside it. Cases not measured in both show `n/a`.
pub(crate) fn change_bars(comparison: &Comparison) -> Result<String, std::fmt::Error> {
    let label_w = comparison
        .cases
        .iter()
        .map(|c| text_width(&c.name, FONT_PX))
        .fold(60.0, f64::max)
        + 8.0;
    let half = BAR_W;
    let top = 24.0;
    let width = label_w + VALUE_W + 2.0 * half + VALUE_W;
    let height = top + comparison.cases.len() as f64 * ROW_H + 6.0;
    let scale = comparison
        .cases
        .iter()
        .filter_map(|c| c.change_pct)
        .filter(|p| p.is_finite())
        .fold(1.0, |m: f64, p| m.max(p.abs()));
    let centre = label_w + VALUE_W + half;
    let mut out = String::new();
    svg_open(&mut out, width, height)?;
    writeln!(
        out,
        r#"<text x="{}" y="16" class="v">change of throughput, B vs A (scale: ±{scale:.2}%)</text>"#,
        px(centre)
    )?;
    for (i, case) in comparison.cases.iter().enumerate() {
        let y = top + i as f64 * ROW_H;
        writeln!(
            out,
            r#"<text x="{}" y="{}" class="l">{}</text>"#,
            px(label_w - 8.0),
            px(y + 15.0),
            escape(&case.name)
        )?;
        match case.change_pct.filter(|p| p.is_finite()) {
            Some(p) => {
                let w = (p.abs() / scale).min(1.0) * half;
                let (x, fill, text_x, class) = if p >= 0.0 {
                    (centre, FASTER, centre + w + 4.0, "r")
                } else {
                    (centre - w, SLOWER, centre - w - 4.0, "l")
                };
                writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"/><text x="{}" y="{}" class="{class}">{p:+.2}%</text>"#,
                    px(x),
                    px(y + 3.0),
                    px(w.max(1.0)),
                    px(ROW_H - 6.0),
                    px(text_x),
                    px(y + 15.0)
                )?;
            }
            None => writeln!(
                out,
                r#"<text x="{}" y="{}" class="n">n/a</text>"#,
                px(centre + 4.0),
                px(y + 15.0)
            )?,
        }
    }
    writeln!(
        out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333333\"/>",
        px(centre),
        px(top - 2.0),
        px(centre),
        px(height - 4.0)
    )?;
    out.push_str("</svg>\n");
    Ok(out)
}
