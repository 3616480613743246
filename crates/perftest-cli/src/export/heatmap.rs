//! Families as grids (rows: format or path, columns: access pattern) and their SVG heatmaps,
//! shared by the HTML report and the SVG chart.
//!
//! The grid is derived from the case data only: cases are grouped by their report `family`,
//! the column is the last segment of the case id (the pattern), the row is the rest of the id.
//! Row labels are the display name without its trailing pattern word
//! (`Buffer<RGBA8>.Load random` -> `Buffer<RGBA8>.Load`).

use std::collections::HashMap;
use std::fmt::Write;

use super::markup::{escape, gload, px, text_width};
use crate::report::{CaseResult, CaseStatus, Derived, Report, ReportFigures};

/// Font size of the charts, in pixels.
pub(crate) const FONT_PX: f64 = 12.0;
/// Width of one heatmap cell.
const CELL_W: f64 = 78.0;
/// Height of one heatmap cell (and of one bar row).
pub(crate) const ROW_H: f64 = 22.0;
/// Height of a family's title line.
const TITLE_H: f64 = 24.0;
/// Height of the column header line.
const HEADER_H: f64 = 20.0;
/// Gap between the row labels and the cells.
const GAP: f64 = 8.0;
/// The colour scale, low to high (ColorBrewer YlGnBu).
const PALETTE: [(u8, u8, u8); 7] = [
    (0xff, 0xff, 0xd9),
    (0xc7, 0xe9, 0xb4),
    (0x7f, 0xcd, 0xbb),
    (0x41, 0xb6, 0xc4),
    (0x1d, 0x91, 0xc0),
    (0x22, 0x5e, 0xa8),
    (0x0c, 0x2c, 0x84),
];
/// Fill of a cell without a number (skipped, failed, not in the run).
const MISSING_FILL: &str = "#e0e0e0";

/// One case in a family grid.
#[derive(Clone, Debug)]
pub(crate) struct GridCase<'a> {
    /// Index of the case in the report.
    pub(crate) index: usize,
    /// The case.
    pub(crate) case: &'a CaseResult,
    /// Its derived figures (measured cases).
    pub(crate) derived: Option<Derived>,
    /// Column index.
    pub(crate) column: usize,
}

/// The cases of one report family laid out as a grid.
#[derive(Clone, Debug)]
pub(crate) struct FamilyGrid<'a> {
    /// The report's family word (`typed_buffer`).
    pub(crate) family: String,
    /// Row labels, in order of first appearance.
    pub(crate) rows: Vec<String>,
    /// Column labels (patterns), in order of first appearance.
    pub(crate) columns: Vec<String>,
    /// The cases, in report order.
    pub(crate) cases: Vec<GridCase<'a>>,
    /// The family's highest Gload/s (`None` when nothing was measured).
    pub(crate) best: Option<f64>,
    /// Every case is a latency case (a chain of dependent loads): cells show ns per load.
    pub(crate) latency: bool,
    /// The family measures bandwidth (`Family::reports_bandwidth`) and every case moves this
    /// many bytes per load: cells show GB/s (TB/s where large), not Gload/s.
    pub(crate) bandwidth_bytes: Option<f64>,
    /// The first case at each (row, column), as an index into `cases`.
    cells: HashMap<(usize, usize), usize>,
}

impl FamilyGrid<'_> {
    /// The family's title (`Typed buffers (typed_buffer)`).
    pub(crate) fn title(&self) -> String {
        let Some(words) = perftest_cases::families::family(&self.family).map(|f| f.title()) else {
            return self.family.replace('_', " ");
        };
        format!("{words} ({})", self.family)
    }

    /// The case at (`row`, `column`).
    fn at(&self, row: usize, column: usize) -> Option<&GridCase<'_>> {
        self.cells.get(&(row, column)).map(|&i| &self.cases[i])
    }

    /// Whether the grid is dense enough to draw: at most [`MAX_EMPTY_CELLS_PER_CASE`] empty
    /// cells per case. A report whose ids make every case a row and a column of its own would
    /// otherwise ask for cases² cells; its cases are still in the tables.
    pub(crate) fn drawable(&self) -> bool {
        let cells = self.rows.len().saturating_mul(self.columns.len());
        cells <= (MAX_EMPTY_CELLS_PER_CASE + 1).saturating_mul(self.cases.len()) + 64
            && self.columns.len() <= MAX_COLUMNS
    }
}

/// Gload/s of a derived case.
pub(crate) fn gloads(derived: Option<&Derived>) -> Option<f64> {
    derived
        .and_then(|d| d.loads_per_s)
        .map(|l| l / 1e9)
        .filter(|g| g.is_finite() && *g > 0.0)
}

/// Splits a case into (row key, column): the id before and after its last dot.
fn split_id(id: &str) -> (&str, &str) {
    id.rsplit_once('.').unwrap_or((id, ""))
}

/// The row label of a case: its display name without the column's word (the trailing pattern,
/// or a working set inside the name: `Latency 4KB (pointer chase)` in column `4kb`).
fn row_label(case: &CaseResult, column: &str) -> String {
    let name = case.name.trim();
    if column.is_empty() {
        return name.to_string();
    }
    if let Some(rest) = name.strip_suffix(column) {
        if rest.ends_with(' ') {
            return rest.trim_end().to_string();
        }
    }
    let words: Vec<&str> = name.split(' ').collect();
    match words.iter().position(|w| w.eq_ignore_ascii_case(column)) {
        Some(i) if words.len() > 1 => {
            let mut kept = words.clone();
            kept.remove(i);
            kept.join(" ")
        }
        _ => name.to_string(),
    }
}

/// The unit of latency cases in reports.
const DEPENDENT_LOAD: &str = "dependent-load";

/// A cell's text: Gload/s, for latency grids the time per load, for bandwidth grids GB/s.
fn cell_text(grid: &FamilyGrid<'_>, gloads: f64) -> String {
    if grid.latency {
        format!("{:.1} ns", 1.0 / gloads)
    } else if let Some(bytes) = grid.bandwidth_bytes {
        crate::hierarchy::bandwidth_text(gloads * bytes)
    } else {
        gload(gloads)
    }
}

/// A cell's value with its unit, for titles and tooltips: `20.0 ns per load`, `4.71 TB/s`,
/// `2084 Gload/s`.
fn value_text(grid: &FamilyGrid<'_>, gloads: f64) -> String {
    if grid.latency {
        format!("{} per load", cell_text(grid, gloads))
    } else if grid.bandwidth_bytes.is_some() {
        cell_text(grid, gloads)
    } else {
        format!("{} Gload/s", gload(gloads))
    }
}

/// Whether the report's family `label` measures bandwidth (unknown families do not).
fn reports_bandwidth(label: &str) -> bool {
    perftest_cases::families::family(label).is_some_and(|f| f.reports_bandwidth())
}

/// The most columns a drawn grid has: a wider one (a refined latency sweep's 70 working sets in
/// one row) would be too narrow to read; its cases stay in the table, and a sweep's curves
/// show them.
pub(crate) const MAX_COLUMNS: usize = 32;

/// A grid may have this many empty cells per case and still be drawn ([`FamilyGrid::drawable`]).
pub(crate) const MAX_EMPTY_CELLS_PER_CASE: usize = 8;

/// Where each family's rows and columns are, while grids are built (hash maps: a report of
/// 100,000 cases is grouped in linear time).
#[derive(Default)]
struct GridIndex<'a> {
    rows: HashMap<&'a str, usize>,
    columns: HashMap<&'a str, usize>,
}

/// The report's cases grouped into family grids, families in order of first appearance.
pub(crate) fn family_grids(report: &Report) -> Vec<FamilyGrid<'_>> {
    let mut grids: Vec<FamilyGrid<'_>> = Vec::new();
    let mut indexes: Vec<GridIndex<'_>> = Vec::new();
    let mut families: HashMap<&str, usize> = HashMap::new();
    for (case_index, (case, derived)) in report.cases.iter().zip(report.derived_all()).enumerate() {
        let index = *families.entry(case.family.as_str()).or_insert_with(|| {
            grids.push(FamilyGrid {
                family: case.family.clone(),
                rows: Vec::new(),
                columns: Vec::new(),
                cases: Vec::new(),
                best: None,
                latency: case.unit == DEPENDENT_LOAD,
                bandwidth_bytes: reports_bandwidth(&case.family)
                    .then_some(f64::from(case.bytes_per_load)),
                cells: HashMap::new(),
            });
            indexes.push(GridIndex::default());
            grids.len() - 1
        });
        let (grid, found) = (&mut grids[index], &mut indexes[index]);
        grid.latency &= case.unit == DEPENDENT_LOAD;
        if grid.bandwidth_bytes != Some(f64::from(case.bytes_per_load)) {
            grid.bandwidth_bytes = None;
        }
        let (key, column) = split_id(&case.id);
        let column_label = if column.is_empty() { "-" } else { column };
        let column = *found.columns.entry(column_label).or_insert_with(|| {
            grid.columns.push(column_label.to_string());
            grid.columns.len() - 1
        });
        let row = *found.rows.entry(key).or_insert_with(|| {
            grid.rows.push(row_label(case, column_label));
            grid.rows.len() - 1
        });
        if let Some(g) = gloads(derived.as_ref()) {
            grid.best = Some(grid.best.map_or(g, |b: f64| b.max(g)));
        }
        grid.cells.entry((row, column)).or_insert(grid.cases.len());
        grid.cases.push(GridCase {
            index: case_index,
            case,
            derived,
            column,
        });
    }
    grids
}

/// The colour of `fraction` (0..=1) of the family's best, and the CSS class of the text colour
/// readable on it (`w` white, `k` black).
pub(crate) fn colour(fraction: f64) -> (String, &'static str) {
    let f = if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let scaled = f * (PALETTE.len() - 1) as f64;
    let i = (scaled.floor() as usize).min(PALETTE.len() - 2);
    let t = scaled - i as f64;
    let (a, b) = (PALETTE[i], PALETTE[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
    let (r, g, bl) = (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2));
    let luminance = 0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(bl);
    let text = if luminance < 140.0 { "w" } else { "k" };
    (format!("#{r:02x}{g:02x}{bl:02x}"), text)
}

/// Width of the row-label column that fits every grid's labels.
pub(crate) fn label_width<'a>(grids: impl IntoIterator<Item = &'a FamilyGrid<'a>>) -> f64 {
    grids
        .into_iter()
        .flat_map(|g| g.rows.iter())
        .map(|r| text_width(r, FONT_PX))
        .fold(60.0, f64::max)
        + GAP
}

/// Size of one family's heatmap with row labels `label_w` wide.
pub(crate) fn heatmap_size(grid: &FamilyGrid<'_>, label_w: f64) -> (f64, f64) {
    if !grid.drawable() {
        return (label_w + 4.0 * CELL_W, TITLE_H + ROW_H + 4.0);
    }
    let width = label_w + grid.columns.len().max(1) as f64 * CELL_W + 2.0;
    let height = TITLE_H + HEADER_H + grid.rows.len() as f64 * ROW_H + 4.0;
    (width, height)
}

/// Writes one family's heatmap as SVG elements (no `<svg>` wrapper) with its top-left corner at
/// (`x`, `y`), under the line `title` followed by the family's best Gload/s.
pub(crate) fn write_heatmap(
    out: &mut String,
    grid: &FamilyGrid<'_>,
    title: &str,
    (x, y): (f64, f64),
    label_w: f64,
) -> std::fmt::Result {
    let best = grid.best;
    let subtitle = best.map_or_else(
        || "(nothing measured)".to_string(),
        |b| format!("(best {})", value_text(grid, b)),
    );
    writeln!(
        out,
        r#"<text x="{}" y="{}" class="t">{} <tspan class="s">{}</tspan></text>"#,
        px(x),
        px(y + 16.0),
        escape(title),
        escape(&subtitle)
    )?;
    let top = y + TITLE_H;
    if !grid.drawable() {
        return writeln!(
            out,
            r#"<text x="{}" y="{}" class="l" text-anchor="start">{} cases in {} rows and {} columns: too sparse or too wide to draw as a grid (see the table)</text>"#,
            px(x),
            px(top + 15.0),
            grid.cases.len(),
            grid.rows.len(),
            grid.columns.len()
        );
    }
    for (c, column) in grid.columns.iter().enumerate() {
        writeln!(
            out,
            r#"<text x="{}" y="{}" class="h">{}</text>"#,
            px(x + label_w + (c as f64 + 0.5) * CELL_W),
            px(top + 14.0),
            escape(column)
        )?;
    }
    for (r, row) in grid.rows.iter().enumerate() {
        let ry = top + HEADER_H + r as f64 * ROW_H;
        writeln!(
            out,
            r#"<text x="{}" y="{}" class="l">{}</text>"#,
            px(x + label_w - GAP),
            px(ry + 15.0),
            escape(row)
        )?;
        for c in 0..grid.columns.len() {
            let cx = x + label_w + c as f64 * CELL_W;
            let cell = grid.at(r, c);
            let value = cell.and_then(|g| gloads(g.derived.as_ref()));
            let (fill, ink, text, tip) = match (cell, value, best) {
                (Some(g), Some(v), Some(b)) => {
                    let (fill, ink) = colour(v / b);
                    let value = value_text(grid, v);
                    let tip = format!(
                        "{}: {value}, {:.0}% of the family's best",
                        g.case.name,
                        v / b * 100.0
                    );
                    (fill, ink, cell_text(grid, v), tip)
                }
                (Some(g), _, _) => {
                    let word = match &g.case.status {
                        CaseStatus::Measured => "n/a",
                        status => status.label(),
                    };
                    let tip = match g.case.status.reason() {
                        Some(reason) => format!("{}: {word}: {reason}", g.case.name),
                        None => format!("{}: {word}", g.case.name),
                    };
                    (MISSING_FILL.to_string(), "m", word.to_string(), tip)
                }
                (None, _, _) => (MISSING_FILL.to_string(), "m", String::new(), String::new()),
            };
            writeln!(
                out,
                r##"<g><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="#ffffff"/><text x="{}" y="{}" class="v {ink}">{}</text></g>"##,
                escape(&tip),
                px(cx),
                px(ry),
                px(CELL_W),
                px(ROW_H),
                px(cx + CELL_W / 2.0),
                px(ry + 15.0),
                escape(&text)
            )?;
        }
    }
    Ok(())
}

/// Size of the colour legend.
pub(crate) const LEGEND_SIZE: (f64, f64) = (700.0, 34.0);

/// Writes the colour legend (ten swatches, 0% to 100% of the family's best) at (`x`, `y`).
pub(crate) fn write_legend(out: &mut String, x: f64, y: f64) -> std::fmt::Result {
    writeln!(
        out,
        r#"<text x="{}" y="{}" class="n">cell: Gload/s (latency: ns per load; bandwidth: GB/s); colour: share of the family's best</text>"#,
        px(x),
        px(y + 12.0)
    )?;
    writeln!(
        out,
        r#"<text x="{}" y="{}" class="n">0%</text>"#,
        px(x),
        px(y + 30.0)
    )?;
    for i in 0..10 {
        let fraction = (f64::from(i) + 0.5) / 10.0;
        let (fill, _) = colour(fraction);
        writeln!(
            out,
            r#"<rect x="{}" y="{}" width="28" height="14" fill="{fill}"/>"#,
            px(x + 26.0 + f64::from(i) * 28.0),
            px(y + 19.0)
        )?;
    }
    writeln!(
        out,
        r#"<text x="{}" y="{}" class="n">100%</text>"#,
        px(x + 312.0),
        px(y + 30.0)
    )
}

/// The CSS classes the chart text uses (inside an SVG `<style>` or the page's stylesheet).
pub(crate) const CHART_CSS: &str = include_str!("css/chart.css");

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::samples::sample_report;

    #[test]
    fn grids_follow_the_case_ids() {
        let report = sample_report();
        let grids = family_grids(&report);
        let families: Vec<&str> = grids.iter().map(|g| g.family.as_str()).collect();
        assert_eq!(
            families,
            [
                "typed_buffer",
                "raw_buffer",
                "texture_load",
                "uniform_buffer"
            ]
        );
        let typed = &grids[0];
        assert_eq!(typed.rows, ["Buffer<R8>.Load", "Buffer<RGBA8>.Load"]);
        assert_eq!(typed.columns, ["uniform", "random"]);
        assert_eq!(typed.cases[1].column, 1);
        assert_eq!(typed.at(1, 1).map(|c| c.index), Some(typed.cases[1].index));
        let best = typed.best.unwrap();
        assert!((best - 4000.0 * 65536.0 / 20e6).abs() < 1e-9, "{best}");
        assert_eq!(grids[2].best, None);
        assert_eq!(grids[1].rows, ["ByteAddressBuffer.Load4"]);
    }

    #[test]
    fn full_suite_grid_shapes() {
        let mut report = sample_report();
        report.cases = perftest_cases::original_cases()
            .iter()
            .map(|c| CaseResult::skipped(c, "x"))
            .collect();
        let shapes: Vec<(String, usize, usize)> = family_grids(&report)
            .iter()
            .map(|g| (g.family.clone(), g.rows.len(), g.columns.len()))
            .collect();
        let expected = [
            ("typed_buffer", 9, 3),
            ("raw_buffer", 6, 3),
            ("structured_buffer", 3, 3),
            ("uniform_buffer", 1, 3),
            ("texture_load", 9, 3),
            ("texture_sample", 18, 3),
        ];
        let expected: Vec<(String, usize, usize)> = expected
            .iter()
            .map(|(f, r, c)| (f.to_string(), *r, *c))
            .collect();
        assert_eq!(shapes, expected);
    }

    #[test]
    fn latency_grids_show_ns_and_rows_drop_the_size() {
        let mut report = sample_report();
        report.cases.truncate(1);
        let mut case = report.cases[0].clone();
        case.unit = "dependent-load".into();
        for (id, name) in [
            ("mem.sweep.latency.4kb", "Latency 4KB (pointer chase)"),
            ("mem.sweep.latency.8kb", "Latency 8KB (pointer chase)"),
        ] {
            let mut c = case.clone();
            c.id = id.into();
            c.name = name.into();
            c.family = "pointer_chase".into();
            report.cases.push(c);
        }
        let grids = family_grids(&report);
        let chase = grids.iter().find(|g| g.family == "pointer_chase").unwrap();
        assert!(chase.latency);
        assert!(!grids[0].latency);
        assert_eq!(chase.rows, ["Latency (pointer chase)"]);
        assert_eq!(chase.columns, ["4kb", "8kb"]);
        assert_eq!(cell_text(chase, 0.05), "20.0 ns");
        let mut svg = String::new();
        write_heatmap(&mut svg, chase, "Latency by working set", (0.0, 0.0), 100.0).unwrap();
        assert!(svg.contains(" ns per load)"), "{svg}");
        assert!(chase.drawable());
        // A refined sweep's one row of many working sets is too wide to read as a grid.
        for kb in 0..MAX_COLUMNS as u64 {
            let mut c = case.clone();
            c.id = format!("mem.sweep.latency.{}kb", 12 + 4 * kb);
            c.name = format!("Latency {}KB (pointer chase)", 12 + 4 * kb);
            c.family = "pointer_chase".into();
            report.cases.push(c);
        }
        let grids = family_grids(&report);
        let wide = grids.iter().find(|g| g.family == "pointer_chase").unwrap();
        assert!(wide.columns.len() > MAX_COLUMNS);
        assert!(!wide.drawable());
        let mut svg = String::new();
        write_heatmap(&mut svg, wide, "Latency by working set", (0.0, 0.0), 100.0).unwrap();
        assert!(svg.contains("too sparse or too wide"), "{svg}");
    }

    #[test]
    fn bandwidth_grids_show_gb_per_s() {
        let mut report = sample_report();
        report.cases.truncate(1);
        let mut case = report.cases[0].clone();
        case.family = "cache_sweep".into();
        case.bytes_per_load = 16;
        case.id = "mem.sweep.bandwidth.8kb".into();
        case.name = "Bandwidth 8KB (StructuredBuffer<uint4>.Load linear)".into();
        report.cases = vec![case];
        let grids = family_grids(&report);
        assert_eq!(grids[0].bandwidth_bytes, Some(16.0));
        // 2 Gload/s of 16 bytes: 32 GB/s; 2,000 Gload/s: 32 TB/s.
        assert_eq!(cell_text(&grids[0], 2.0), "32.0 GB/s");
        assert_eq!(cell_text(&grids[0], 2000.0), "32.0 TB/s");
        let mut svg = String::new();
        write_heatmap(&mut svg, &grids[0], "Bandwidth", (0.0, 0.0), 100.0).unwrap();
        assert!(!svg.contains("Gload"), "{svg}");
    }

    #[test]
    fn colours_run_light_to_dark() {
        assert_eq!(colour(0.0), ("#ffffd9".to_string(), "k"));
        assert_eq!(colour(1.0), ("#0c2c84".to_string(), "w"));
        assert_eq!(colour(f64::NAN).0, "#ffffd9");
        assert_eq!(colour(7.0).0, "#0c2c84");
    }
}
