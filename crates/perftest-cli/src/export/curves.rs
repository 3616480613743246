//! Line charts of the memory suite's sweep: latency and bandwidth against working set on a
//! log2 axis (4 KB ... 512 MB), the points joined by a line, each level shaded and labelled
//! with its name and value. The HTML report shows both beside the levels table; the SVG chart
//! stacks them above the heatmaps.

use std::fmt::Write;

use super::markup::{escape, px, text_width};
use crate::hierarchy::{bandwidth_text, size_text, Hierarchy, NamedLevel, Point};

/// Size of one chart.
pub(crate) const CURVE_SIZE: (f64, f64) = (660.0, 330.0);
/// Room left of the plot for the value labels.
const LEFT: f64 = 74.0;
/// Room right of the plot.
const RIGHT: f64 = 16.0;
/// Room above the plot for the title and the level labels.
const TOP: f64 = 58.0;
/// Room below the plot for the size labels and the axis title.
const BOTTOM: f64 = 42.0;
/// The latency line and points.
pub(crate) const LATENCY_LINE: &str = "#7b3294";
/// The bandwidth line and points.
pub(crate) const BANDWIDTH_LINE: &str = "#e66101";
/// The levels' shades, alternating.
pub(crate) const LEVEL_FILLS: [&str; 2] = ["#ece2f4", "#fce8d6"];
/// Grid lines.
const GRID: &str = "#dddddd";
/// The narrowest distance between two size labels.
const MIN_LABEL_GAP: f64 = 52.0;

/// Which curve of the sweep to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Curve {
    /// ns per load by working set, on a log scale.
    Latency,
    /// GB/s by working set, on a linear scale from 0.
    Bandwidth,
}

impl Curve {
    fn points(self, h: &Hierarchy) -> &[Point] {
        match self {
            Curve::Latency => &h.latency,
            Curve::Bandwidth => &h.bandwidth,
        }
    }

    fn levels(self, h: &Hierarchy) -> &[NamedLevel] {
        match self {
            Curve::Latency => &h.latency_levels,
            Curve::Bandwidth => &h.bandwidth_levels,
        }
    }

    /// The value plotted for a cost: ns per load, or GB/s (bytes per ns).
    fn value(self, cost: f64) -> f64 {
        match self {
            Curve::Latency => cost,
            Curve::Bandwidth => 1.0 / cost,
        }
    }

    fn text(self, value: f64) -> String {
        match self {
            Curve::Latency if value >= 100.0 => format!("{value:.0} ns"),
            Curve::Latency => format!("{value:.1} ns"),
            Curve::Bandwidth => bandwidth_text(value),
        }
    }

    /// A tick's label: a round value without needless digits (`20 ns`, `0.5 ns`, `10 TB/s`).
    fn tick_text(self, value: f64) -> String {
        let plain = |v: f64| format!("{}", (v * 1000.0).round() / 1000.0);
        match self {
            Curve::Latency => format!("{} ns", plain(value)),
            Curve::Bandwidth if value == 0.0 => "0".to_string(),
            Curve::Bandwidth if value >= 1000.0 => format!("{} TB/s", plain(value / 1000.0)),
            Curve::Bandwidth => format!("{} GB/s", plain(value)),
        }
    }

    fn title(self) -> &'static str {
        match self {
            Curve::Latency => "Latency by working set",
            Curve::Bandwidth => "Bandwidth by working set",
        }
    }

    fn subtitle(self) -> &'static str {
        match self {
            Curve::Latency => "(ns per load, log scale; one SM's pointer chase)",
            Curve::Bandwidth => "(all SMs at once, linear read)",
        }
    }

    fn line(self) -> &'static str {
        match self {
            Curve::Latency => LATENCY_LINE,
            Curve::Bandwidth => BANDWIDTH_LINE,
        }
    }
}

/// The value axis: log for latency, linear from 0 for bandwidth.
struct Axis {
    log: bool,
    low: f64,
    high: f64,
}

impl Axis {
    fn new(curve: Curve, values: &[f64]) -> Axis {
        let max = values.iter().copied().fold(f64::MIN_POSITIVE, f64::max);
        match curve {
            Curve::Latency => {
                let min = values.iter().copied().fold(max, f64::min);
                Axis {
                    log: true,
                    low: (min / 1.5).log10(),
                    high: (max * 1.5).log10(),
                }
            }
            Curve::Bandwidth => Axis {
                log: false,
                low: 0.0,
                high: max * 1.12,
            },
        }
    }

    /// 0 at the bottom, 1 at the top.
    fn fraction(&self, value: f64) -> f64 {
        let v = if self.log {
            value.max(f64::MIN_POSITIVE).log10()
        } else {
            value
        };
        let span = self.high - self.low;
        if span > 0.0 {
            (v - self.low) / span
        } else {
            0.5
        }
    }

    /// Tick values: 1, 2, 5 times powers of ten (log), or about five steps of 1, 2 or 5 times
    /// a power of ten from 0 (linear).
    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let mut ticks = Vec::new();
            let (from, to) = (self.low.floor() as i32, self.high.ceil() as i32);
            for decade in from..=to {
                for m in [1.0, 2.0, 5.0] {
                    let v = m * 10f64.powi(decade);
                    let f = self.fraction(v);
                    if (0.0..=1.0).contains(&f) {
                        ticks.push(v);
                    }
                }
            }
            ticks
        } else {
            let rough = self.high / 5.0;
            if !(rough.is_finite() && rough > 0.0) {
                return Vec::new();
            }
            let power = 10f64.powf(rough.log10().floor());
            let step = [1.0, 2.0, 5.0, 10.0]
                .iter()
                .map(|m| m * power)
                .find(|s| *s >= rough)
                .unwrap_or(10.0 * power);
            (0..=((self.high / step).floor() as usize))
                .map(|i| i as f64 * step)
                .collect()
        }
    }
}

/// Whether `h` has anything for `curve` to draw.
pub(crate) fn has_curve(h: &Hierarchy, curve: Curve) -> bool {
    !curve.points(h).is_empty()
}

/// The log2 range of working sets both charts share: the smallest and largest size measured,
/// a quarter octave of margin on each side.
fn size_range(h: &Hierarchy) -> (f64, f64) {
    let sizes = h.latency.iter().chain(&h.bandwidth).map(|p| p.bytes.max(1));
    let (min, max) = sizes.fold((u64::MAX, 1), |(lo, hi), b| (lo.min(b), hi.max(b)));
    let (lo, hi) = ((min.min(max) as f64).log2(), (max as f64).log2());
    (lo - 0.25, hi.max(lo + 1.0) + 0.25)
}

/// One chart being drawn: the curve, its points and values, and the scales that place them.
struct Chart<'a> {
    h: &'a Hierarchy,
    curve: Curve,
    points: &'a [Point],
    /// The plotted value of each point.
    values: Vec<f64>,
    axis: Axis,
    /// The log2 range of working sets ([`size_range`]).
    lo: f64,
    hi: f64,
    plot_w: f64,
    plot_h: f64,
}

impl<'a> Chart<'a> {
    /// The chart of `curve` in `h`; `None` when the curve has no point.
    fn new(h: &'a Hierarchy, curve: Curve) -> Option<Chart<'a>> {
        let points = curve.points(h);
        if points.is_empty() {
            return None;
        }
        let (width, height) = CURVE_SIZE;
        let (lo, hi) = size_range(h);
        let values: Vec<f64> = points.iter().map(|p| curve.value(p.cost)).collect();
        let axis = Axis::new(curve, &values);
        Some(Chart {
            h,
            curve,
            points,
            values,
            axis,
            lo,
            hi,
            plot_w: width - LEFT - RIGHT,
            plot_h: height - TOP - BOTTOM,
        })
    }

    /// The x of a working set.
    fn sx(&self, bytes: u64) -> f64 {
        LEFT + ((bytes.max(1) as f64).log2() - self.lo) / (self.hi - self.lo) * self.plot_w
    }

    /// The y of a value.
    fn sy(&self, value: f64) -> f64 {
        TOP + (1.0 - self.axis.fraction(value).clamp(0.0, 1.0)) * self.plot_h
    }

    /// The group's opening tag, the background and the title.
    fn write_head(&self, out: &mut String, (x, y): (f64, f64)) -> std::fmt::Result {
        let (width, height) = CURVE_SIZE;
        writeln!(
            out,
            r#"<g class="curve-chart" transform="translate({},{})">"#,
            px(x),
            px(y)
        )?;
        writeln!(
            out,
            r##"<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>"##,
            px(width),
            px(height)
        )?;
        writeln!(
            out,
            r#"<text x="0" y="16" class="t">{} <tspan class="s">{}</tspan></text>"#,
            self.curve.title(),
            self.curve.subtitle()
        )
    }

    /// The levels, shaded, their name and value above the plot (alternating rows when close).
    fn write_levels(&self, out: &mut String) -> std::fmt::Result {
        for (i, named) in self.curve.levels(self.h).iter().enumerate() {
            self.write_level(out, i, named)?;
        }
        Ok(())
    }

    /// Level `i`: its shade with a tooltip, its label and a dashed line at its value.
    fn write_level(&self, out: &mut String, i: usize, named: &NamedLevel) -> std::fmt::Result {
        let (width, _) = CURVE_SIZE;
        let level = &named.level;
        let (x0, x1) = (self.sx(level.first), self.sx(level.last));
        let (x0, x1) = (x0 - 3.0, x1.max(x0) + 3.0);
        let fill = LEVEL_FILLS[i % LEVEL_FILLS.len()];
        let value = self.curve.value(level.cost);
        let name = if named.name.is_empty() {
            "-"
        } else {
            &named.name
        };
        writeln!(
            out,
            r#"<g><title>{}: {} to {}, {}</title><rect class="level" x="{}" y="{}" width="{}" height="{}" fill="{fill}"/></g>"#,
            escape(name),
            size_text(level.first as f64),
            size_text(level.last as f64),
            escape(&self.curve.text(value)),
            px(x0),
            px(TOP),
            px(x1 - x0),
            px(self.plot_h)
        )?;
        let centre = (x0 + x1) / 2.0;
        let label = format!("{name} {}", self.curve.text(value));
        // Labels wider than their shade alternate between two rows.
        let fits = text_width(&label, 12.0) <= x1 - x0 + 8.0;
        let label_y = if fits || i % 2 == 1 {
            TOP - 8.0
        } else {
            TOP - 24.0
        };
        // Kept inside the chart.
        let half = text_width(&label, 12.0) / 2.0;
        let centre = centre.min(width - half - 2.0).max(half + 2.0);
        writeln!(
            out,
            r#"<text x="{}" y="{}" class="v">{}</text>"#,
            px(centre),
            px(label_y),
            escape(&label)
        )?;
        writeln!(
            out,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#777777" stroke-dasharray="4 3"/>"##,
            px(x0),
            px(self.sy(value)),
            px(x1),
            px(self.sy(value))
        )
    }

    /// Value grid and labels.
    fn write_value_grid(&self, out: &mut String) -> std::fmt::Result {
        for tick in self.axis.ticks() {
            let ty = self.sy(tick);
            writeln!(
                out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{GRID}"/><text x="{}" y="{}" class="l">{}</text>"#,
                px(LEFT),
                px(ty),
                px(LEFT + self.plot_w),
                px(ty),
                px(LEFT - 6.0),
                px(ty + 4.0),
                escape(&self.curve.tick_text(tick))
            )?;
        }
        Ok(())
    }

    /// Size ticks at every power of two, labelled as often as there is room.
    fn write_size_ticks(&self, out: &mut String) -> std::fmt::Result {
        let (lo, hi, plot_h) = (self.lo, self.hi, self.plot_h);
        let octave_w = self.plot_w / (hi - lo);
        let every = [1, 2, 4, 8]
            .into_iter()
            .find(|k| f64::from(*k) * octave_w >= MIN_LABEL_GAP)
            .unwrap_or(8);
        for power in (lo.ceil() as i32)..=(hi.floor() as i32) {
            let Ok(shift) = u32::try_from(power) else {
                continue;
            };
            let bytes = 1u64.checked_shl(shift).unwrap_or(u64::MAX);
            let tx = self.sx(bytes);
            writeln!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333333\"/>",
                px(tx),
                px(TOP + plot_h),
                px(tx),
                px(TOP + plot_h + 4.0)
            )?;
            if power % every == 0 {
                writeln!(
                    out,
                    r#"<text x="{}" y="{}" class="v">{}</text>"#,
                    px(tx),
                    px(TOP + plot_h + 17.0),
                    size_text(bytes as f64)
                )?;
            }
        }
        Ok(())
    }

    /// The size axis' title and the plot's frame.
    fn write_frame(&self, out: &mut String) -> std::fmt::Result {
        let (_, height) = CURVE_SIZE;
        writeln!(
            out,
            r#"<text x="{}" y="{}" class="v n">working set (log2 scale)</text>"#,
            px(LEFT + self.plot_w / 2.0),
            px(height - 6.0)
        )?;
        writeln!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#333333"/>"##,
            px(LEFT),
            px(TOP),
            px(self.plot_w),
            px(self.plot_h)
        )
    }

    /// The curve: a line through the points, then the points with their values as tooltips.
    fn write_line(&self, out: &mut String) -> std::fmt::Result {
        let line: Vec<String> = self
            .points
            .iter()
            .zip(&self.values)
            .map(|(p, v)| format!("{},{}", px(self.sx(p.bytes)), px(self.sy(*v))))
            .collect();
        writeln!(
            out,
            r#"<polyline class="curve" points="{}" fill="none" stroke="{}" stroke-width="2"/>"#,
            line.join(" "),
            self.curve.line()
        )?;
        for (p, v) in self.points.iter().zip(&self.values) {
            writeln!(
                out,
                r#"<g><title>{}: {}</title><circle cx="{}" cy="{}" r="3.5" fill="{}"/></g>"#,
                size_text(p.bytes as f64),
                escape(&self.curve.text(*v)),
                px(self.sx(p.bytes)),
                px(self.sy(*v)),
                self.curve.line()
            )?;
        }
        Ok(())
    }
}

/// Writes one chart as SVG elements with its top-left corner at (`x`, `y`), [`CURVE_SIZE`]
/// large (no `<svg>` wrapper). Nothing is written when the curve has no point.
pub(crate) fn write_curve(
    out: &mut String,
    h: &Hierarchy,
    curve: Curve,
    at: (f64, f64),
) -> std::fmt::Result {
    let Some(chart) = Chart::new(h, curve) else {
        return Ok(());
    };
    chart.write_head(out, at)?;
    chart.write_levels(out)?;
    chart.write_value_grid(out)?;
    chart.write_size_ticks(out)?;
    chart.write_frame(out)?;
    chart.write_line(out)?;
    writeln!(out, "</g>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::formats::html::tests::check_markup;
    use crate::export::markup::svg_open;
    use crate::hierarchy::section::tests::h200_doubling;

    fn chart(h: &Hierarchy, curve: Curve) -> String {
        let mut out = String::new();
        svg_open(&mut out, CURVE_SIZE.0, CURVE_SIZE.1).unwrap();
        write_curve(&mut out, h, curve, (0.0, 0.0)).unwrap();
        out.push_str("</svg>\n");
        out
    }

    #[test]
    fn latency_chart_has_every_point_level_and_size_label() {
        let h = h200_doubling();
        let text = chart(&h, Curve::Latency);
        let doc = check_markup(&text);
        let circles: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("circle"))
            .collect();
        assert_eq!(circles.len(), 18);
        // Larger working sets lie further right, slower loads higher up (smaller y).
        let xy: Vec<(f64, f64)> = circles
            .iter()
            .map(|c| {
                let get = |a: &str| c.attribute(a).unwrap().parse::<f64>().unwrap();
                (get("cx"), get("cy"))
            })
            .collect();
        assert!(xy.windows(2).all(|w| w[1].0 > w[0].0), "{xy:?}");
        assert!(xy[17].1 < xy[8].1 && xy[8].1 < xy[0].1, "{xy:?}");
        for (_, y) in &xy {
            assert!(*y >= TOP && *y <= CURVE_SIZE.1 - BOTTOM, "{y}");
        }
        let shades = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("level"))
            .count();
        assert_eq!(shades, 3);
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        for label in [
            "4 KB",
            "64 KB",
            "1 MB",
            "16 MB",
            "256 MB",
            "L1 17.9 ns",
            "memory 352 ns",
            "20 ns",
            "200 ns",
        ] {
            assert!(texts.contains(&label), "{label}: {texts:?}");
        }
        assert_eq!(
            doc.descendants()
                .filter(|n| n.has_tag_name("polyline"))
                .count(),
            1
        );
        assert!(!text.contains("Gload"));
    }

    #[test]
    fn bandwidth_chart_uses_gb_and_tb_per_second_from_zero() {
        let h = h200_doubling();
        let text = chart(&h, Curve::Bandwidth);
        let doc = check_markup(&text);
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        for tick in ["0", "10 TB/s", "20 TB/s", "30 TB/s"] {
            assert!(texts.contains(&tick), "{tick}: {texts:?}");
        }
        assert!(texts.contains(&"L1 32.3 TB/s"), "{texts:?}");
        // Centred labels stay inside the chart (the last level's sits at the right edge).
        for node in doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("v"))
        {
            let x: f64 = node.attribute("x").unwrap().parse().unwrap();
            let half = text_width(node.text().unwrap_or(""), 12.0) / 2.0;
            assert!(x - half >= 0.0 && x + half <= CURVE_SIZE.0, "{node:?}");
        }
        assert_eq!(
            doc.descendants()
                .filter(|n| n.has_tag_name("circle"))
                .count(),
            17
        );
    }

    #[test]
    fn an_empty_curve_draws_nothing_and_names_are_escaped() {
        let mut h = h200_doubling();
        h.latency.clear();
        let mut out = String::new();
        write_curve(&mut out, &h, Curve::Latency, (0.0, 0.0)).unwrap();
        assert!(out.is_empty());
        assert!(!has_curve(&h, Curve::Latency));
        let mut h = h200_doubling();
        h.latency_levels[0].name = "<L1 & \"x\">".to_string();
        let text = chart(&h, Curve::Latency);
        let doc = check_markup(&text);
        let all: String = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(all.contains("<L1 & \"x\"> 17.9 ns"), "{all}");
    }
}
