//! A self-contained HTML report: inline CSS and SVG, no scripts, nothing fetched.
//!
//! The page is also well-formed XML (XHTML syntax), so an XML parser can check it.

use std::fmt::Write;

use crate::export::chart::{max_relative, relative_bars};
use crate::export::columns::{self, Cells, FIGURE_COLUMNS, TITLES};
use crate::export::curves::{has_curve, write_curve, Curve, CURVE_SIZE};
use crate::export::exporter::{ExportError, Exporter};
use crate::export::heatmap::{
    family_grids, heatmap_size, label_width, write_heatmap, write_legend, FamilyGrid, CHART_CSS,
    LEGEND_SIZE,
};
use crate::export::markup::{escape, svg_open};
use crate::hierarchy::{bandwidth_text, resolution_text, size_text, Hierarchy};
use crate::report::{CaseStatus, Report};
use perftest_report::analysis::Analysis;

/// The page's stylesheet (before the charts' [`CHART_CSS`]).
pub(crate) const PAGE_CSS: &str = include_str!("../css/page.css");

/// Writes one HTML page: device and driver header, settings, the cache hierarchy when the run
/// has sweep cases (latency and bandwidth curves with the levels shaded, and the levels'
/// table), per family a heatmap (Gload/s, coloured by share of the family's best), a bar chart
/// of `x` (relative to the baseline) and the table, then the skipped and failed cases with
/// their reasons and, when the driver gave any, the shader statistics. Text from the report is
/// escaped.
#[derive(Clone, Copy, Debug, Default)]
pub struct HtmlExporter;

/// The start of a page: doctype, `<head>` with the stylesheet, `<body>`.
pub(crate) fn page_start(out: &mut String, title: &str) -> std::fmt::Result {
    writeln!(out, "<!DOCTYPE html>")?;
    writeln!(
        out,
        r#"<html xmlns="http://www.w3.org/1999/xhtml" lang="en">"#
    )?;
    writeln!(out, "<head>")?;
    writeln!(out, r#"<meta charset="utf-8"/>"#)?;
    writeln!(out, "<title>{}</title>", escape(title))?;
    writeln!(out, "<style>\n{PAGE_CSS}{CHART_CSS}</style>")?;
    writeln!(out, "</head>")?;
    writeln!(out, "<body>")
}

/// The end of a page.
pub(crate) fn page_end(out: &mut String, version: &str) -> std::fmt::Result {
    writeln!(
        out,
        "<footer>Written by perftest {}. This page is self-contained: no scripts, fonts or \
         images are loaded from anywhere.</footer>",
        escape(version)
    )?;
    writeln!(out, "</body>")?;
    writeln!(out, "</html>")
}

/// A `<tr>` of the header table.
fn meta_row(out: &mut String, key: &str, value: &str) -> std::fmt::Result {
    writeln!(out, "<tr><th>{key}</th><td>{}</td></tr>", escape(value))
}

fn write_header(out: &mut String, report: &Report, analysis: &Analysis) -> std::fmt::Result {
    let d = &report.device;
    let s = &report.settings;
    writeln!(out, "<h1>perftest: {}</h1>", escape(&d.name))?;
    writeln!(out, r#"<table class="meta"><tbody>"#)?;
    meta_row(
        out,
        "Device",
        &format!(
            "{} ({}, vendor {:#06x}, device {:#06x})",
            d.name, d.device_type, d.vendor_id, d.device_id
        ),
    )?;
    meta_row(
        out,
        "Driver",
        &format!(
            "{} {} (version {:#x})",
            d.driver_name, d.driver_info, d.driver_version
        ),
    )?;
    let resident = d
        .resident_workgroups
        .map_or_else(String::new, |r| format!(", {r} resident workgroups"));
    meta_row(
        out,
        "Vulkan",
        &format!(
            "{}, queue family {}, subgroup size {}, timestamp period {} ns{resident}",
            d.api_version, d.queue_family, d.subgroup_size, d.timestamp_period_ns
        ),
    )?;
    let on = |b: bool| if b { "on" } else { "off" };
    meta_row(
        out,
        "Settings",
        &format!(
            "{}, at most {} warm-up measurements, verification {}, validation {}",
            columns::sampling(s),
            s.warmup_max,
            on(s.verify),
            on(s.validation)
        ),
    )?;
    meta_row(
        out,
        "Run",
        &format!(
            "perftest {}, {} to {}{}",
            report.perftest_version,
            report.started_at,
            report.finished_at,
            if report.complete { "" } else { ", incomplete" }
        ),
    )?;
    let baseline = report.baseline().map_or(report.baseline_id.clone(), |b| {
        format!("{} ({})", b.name, b.id)
    });
    meta_row(out, "Baseline", &baseline)?;
    let count = |label: &str| {
        report
            .cases
            .iter()
            .filter(|c| c.status.label() == label)
            .count()
    };
    meta_row(
        out,
        "Cases",
        &format!(
            "{}: {} measured, {} skipped, {} failed",
            report.cases.len(),
            count("measured"),
            count("skipped"),
            count("failed")
        ),
    )?;
    writeln!(out, "</tbody></table>")?;
    for note in columns::footnotes(report, analysis) {
        writeln!(out, r#"<p class="note">{}</p>"#, escape(&note))?;
    }
    Ok(())
}

fn write_family(
    out: &mut String,
    number: usize,
    grid: &FamilyGrid<'_>,
    rows: &[columns::Row],
    label_w: f64,
    scale_max: f64,
) -> std::fmt::Result {
    writeln!(out, r#"<section id="family-{number}">"#)?;
    writeln!(out, "<h2>{}</h2>", escape(&grid.title()))?;
    writeln!(out, r#"<div class="charts">"#)?;
    let (w, h) = heatmap_size(grid, label_w);
    svg_open(out, w, h)?;
    let title = if grid.latency {
        "Latency by working set"
    } else if grid.bandwidth_bytes.is_some() {
        "Bandwidth by working set"
    } else {
        "Gload/s by pattern"
    };
    write_heatmap(out, grid, title, (0.0, 0.0), label_w)?;
    writeln!(out, "</svg>")?;
    // Bars unless they would all say n/a: latency cases have no `x`, nor has any case of a run
    // without the baseline (skipped and failed cases still show why).
    let worth_bars = !grid.latency
        && grid.cases.iter().any(|c| {
            c.case.status != CaseStatus::Measured || c.derived.and_then(|d| d.relative).is_some()
        });
    if worth_bars {
        out.push_str(&relative_bars(grid, scale_max)?);
    }
    writeln!(out, "</div>")?;
    writeln!(
        out,
        "<details><summary>Table ({} cases)</summary>",
        grid.cases.len()
    )?;
    writeln!(out, r#"<table class="data"><thead><tr><th>Case</th>"#)?;
    let shown = columns::shown_columns(rows);
    for (i, title) in TITLES.iter().take(shown).enumerate() {
        let class = if i < FIGURE_COLUMNS { "num" } else { "text" };
        write!(out, r#"<th class="{class}">{}</th>"#, escape(title))?;
    }
    writeln!(out, "</tr></thead><tbody>")?;
    for case in &grid.cases {
        let Some(row) = rows.get(case.index) else {
            continue;
        };
        write!(out, "<tr><td><code>{}</code></td>", escape(&row.name))?;
        match &row.cells {
            Cells::Figures(cells) => {
                for (i, cell) in cells.iter().take(shown).enumerate() {
                    let class = if i < FIGURE_COLUMNS { "num" } else { "text" };
                    write!(out, r#"<td class="{class}">{}</td>"#, escape(cell))?;
                }
            }
            Cells::Note(note) => write!(out, r#"<td colspan="{shown}">{}</td>"#, escape(note))?,
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody></table></details>")?;
    writeln!(out, "</section>")
}

/// The cache-hierarchy section: both curves, the latency levels' table, and how levels are
/// found.
fn write_hierarchy(out: &mut String, h: &Hierarchy, clock_mhz: Option<f64>) -> std::fmt::Result {
    writeln!(out, r#"<section id="cache-hierarchy">"#)?;
    writeln!(
        out,
        "<h2>Cache hierarchy (the memory suite's sweep; Vulkan reports no cache sizes)</h2>"
    )?;
    writeln!(out, r#"<div class="charts">"#)?;
    for curve in [Curve::Latency, Curve::Bandwidth] {
        if has_curve(h, curve) {
            svg_open(out, CURVE_SIZE.0, CURVE_SIZE.1)?;
            write_curve(out, h, curve, (0.0, 0.0))?;
            writeln!(out, "</svg>")?;
        }
    }
    writeln!(out, "</div>")?;
    if !h.latency_levels.is_empty() {
        write!(
            out,
            r#"<table class="data"><thead><tr><th>Level</th><th class="num">Latency ns</th>"#
        )?;
        if clock_mhz.is_some() {
            write!(out, r#"<th class="num">Cycles</th>"#)?;
        }
        writeln!(
            out,
            r#"<th>On the plateau</th><th class="num">Capacity (one SM)</th><th class="num">Resolution</th><th class="num">Bandwidth</th></tr></thead><tbody>"#
        )?;
        for named in &h.latency_levels {
            let l = &named.level;
            write!(
                out,
                r#"<tr><td>{}</td><td class="num">{:.1}</td>"#,
                escape(&named.name),
                l.cost
            )?;
            if let Some(mhz) = clock_mhz {
                write!(out, r#"<td class="num">{:.0}</td>"#, l.cost * mhz / 1e3)?;
            }
            let dash = || "-".to_string();
            writeln!(
                out,
                r#"<td>{} - {}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td></tr>"#,
                size_text(l.first as f64),
                size_text(l.last as f64),
                l.capacity().map_or_else(dash, |c| size_text(c as f64)),
                l.resolution().map_or_else(dash, resolution_text),
                h.bandwidth_of(&named.name)
                    .map_or_else(dash, bandwidth_text)
            )?;
        }
        writeln!(out, "</tbody></table>")?;
    }
    if let Some(line) = crate::hierarchy::section::inverted_levels(&h.latency_levels) {
        writeln!(out, "<p><strong>{}</strong></p>", escape(&line))?;
    }
    if !h.carveout.is_empty() {
        write_carveout(out, h, clock_mhz)?;
    }
    if !h.unsteady.is_empty() {
        writeln!(
            out,
            "<p>{}</p>",
            escape(&crate::hierarchy::section::unsteady_text(&h.unsteady))
        )?;
    }
    writeln!(
        out,
        "<p>{}</p>",
        escape(&crate::hierarchy::section::rule_text())
    )?;
    writeln!(out, "</section>")
}

/// The fragment-vs-compute table ([`crate::export::twins`]), when the report pairs any case with its
/// compute twin.
fn write_twins(out: &mut String, report: &Report) -> std::fmt::Result {
    use crate::export::twins::{cells, pairs, summary, HEADING, TITLES};
    let pairs = pairs(report);
    if pairs.is_empty() {
        return Ok(());
    }
    writeln!(out, "<section>\n<h2>{}</h2>", escape(HEADING))?;
    writeln!(out, "<p>{}</p>", escape(&summary(&pairs)))?;
    write!(out, r#"<table class="data"><thead><tr><th>Case</th>"#)?;
    for title in TITLES {
        write!(out, r#"<th class="num">{}</th>"#, escape(title))?;
    }
    writeln!(out, "</tr></thead><tbody>")?;
    for pair in &pairs {
        let (name, figures) = cells(pair);
        write!(out, "<tr><td><code>{}</code></td>", escape(&name))?;
        for figure in figures {
            write!(out, r#"<td class="num">{}</td>"#, escape(&figure))?;
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody></table>\n</section>")
}

/// The carve-out table: the L1 each declared shared-memory size leaves.
fn write_carveout(out: &mut String, h: &Hierarchy, clock_mhz: Option<f64>) -> std::fmt::Result {
    use crate::hierarchy::section::{
        carveout_cells, carveout_not_measured, carveout_titles, CARVEOUT_TITLE,
    };
    writeln!(
        out,
        r#"<h3 id="carveout">{}</h3>"#,
        escape(CARVEOUT_TITLE.trim_end_matches(':'))
    )?;
    write!(out, r#"<table class="data"><thead><tr>"#)?;
    for (i, title) in carveout_titles(clock_mhz).iter().enumerate() {
        let class = if i == 0 { "" } else { r#" class="num""# };
        write!(out, "<th{class}>{}</th>", escape(title))?;
    }
    writeln!(out, "</tr></thead><tbody>")?;
    for c in h.carveout.iter().filter(|c| c.not_measured.is_none()) {
        write!(out, "<tr>")?;
        for (i, cell) in carveout_cells(c, clock_mhz).iter().enumerate() {
            let class = if i == 0 { "" } else { r#" class="num""# };
            write!(out, "<td{class}>{}</td>", escape(cell))?;
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody></table>")?;
    for line in carveout_not_measured(&h.carveout) {
        writeln!(out, "<p>{}</p>", escape(&line))?;
    }
    Ok(())
}

/// The findings, the advice and what the report lacks, before the charts: the advice open, the
/// findings it rests on under a heading of their own in a closed block (the charts stay on the
/// first screen), each question's per-width findings in a block inside it.
fn write_findings(out: &mut String, analysis: &Analysis) -> std::fmt::Result {
    let Some(f) = crate::export::findings::of(analysis) else {
        return Ok(());
    };
    writeln!(out, "<section>")?;
    if !f.advice.is_empty() {
        writeln!(out, "<h2>Advice</h2>")?;
        writeln!(out, "<ol>")?;
        for advice in &f.advice {
            let ids: Vec<String> = advice
                .findings
                .iter()
                .map(|id| format!("<code>{}</code>", escape(id)))
                .collect();
            writeln!(
                out,
                "<li>{} ({})</li>",
                escape(&advice.text),
                ids.join(", ")
            )?;
        }
        writeln!(out, "</ol>")?;
    }
    writeln!(out, "<h2>Findings</h2>")?;
    let (questions, widths) = crate::export::findings::by_question(f);
    writeln!(
        out,
        "<details><summary>{} findings, the numbers the advice rests on</summary>",
        f.findings.len()
    )?;
    if let Some(note) = crate::export::findings::source_note(f) {
        writeln!(out, "<p>Figures {}.</p>", escape(&note))?;
    }
    write_finding_list(out, &questions)?;
    if !widths.is_empty() {
        writeln!(
            out,
            "<details><summary>Each width and format ({})</summary>",
            widths.len()
        )?;
        write_finding_list(out, &widths)?;
        writeln!(out, "</details>")?;
    }
    if let Some(line) = crate::export::findings::missing_line(f) {
        writeln!(out, "<p>{}</p>", escape(&line))?;
    }
    writeln!(out, "</details>")?;
    writeln!(out, "</section>")
}

/// `findings` as a list, each with its id and, where within the noise, a note saying so.
fn write_finding_list(
    out: &mut String,
    findings: &[&perftest_report::findings::Finding],
) -> std::fmt::Result {
    writeln!(out, "<ul>")?;
    for finding in findings {
        writeln!(
            out,
            "<li><code>{}</code>: {}{}</li>",
            escape(&finding.id),
            escape(&finding.statement),
            crate::export::findings::noise_note(finding.beyond_noise)
        )?;
    }
    writeln!(out, "</ul>")
}

/// The vendor claims the report judges, each with its source's title and address as text (the
/// page links to nothing), and how many it cannot judge, in a closed block.
fn write_guidance(out: &mut String, analysis: &Analysis) -> std::fmt::Result {
    let judged = crate::export::guidance::measured(analysis);
    if judged.is_empty() {
        return Ok(());
    }
    writeln!(out, "<section>")?;
    writeln!(out, "<h2>Vendor guidance</h2>")?;
    writeln!(
        out,
        "<details><summary>{} of {} claims judged on this GPU</summary>",
        judged.len(),
        analysis.guidance.len()
    )?;
    writeln!(out, "<ul>")?;
    for v in judged {
        writeln!(
            out,
            "<li><code>{}</code>: {} <small>{}, {}</small></li>",
            escape(&v.id),
            escape(&crate::export::guidance::sentence(v)),
            escape(&v.source.title),
            escape(&v.source.url)
        )?;
    }
    writeln!(out, "</ul>")?;
    if let Some(line) = crate::export::guidance::not_measured_line(analysis) {
        writeln!(out, "<p>{}</p>", escape(&line))?;
    }
    writeln!(out, "</details>")?;
    writeln!(out, "</section>")
}

fn write_not_measured(out: &mut String, report: &Report) -> std::fmt::Result {
    writeln!(out, "<section>")?;
    writeln!(out, "<h2>Skipped and failed cases</h2>")?;
    let missing: Vec<_> = report
        .cases
        .iter()
        .filter(|c| c.status != CaseStatus::Measured)
        .collect();
    if missing.is_empty() {
        writeln!(out, "<p>None: every case was measured.</p>")?;
    } else {
        writeln!(
            out,
            r#"<table class="data"><thead><tr><th>Case</th><th>Id</th><th>Status</th><th>Reason</th></tr></thead><tbody>"#
        )?;
        for case in missing {
            writeln!(
                out,
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                escape(&case.name),
                escape(&case.id),
                case.status.label(),
                escape(case.status.reason().unwrap_or(""))
            )?;
        }
        writeln!(out, "</tbody></table>")?;
    }
    writeln!(out, "</section>")
}

fn write_shader_stats(out: &mut String, report: &Report) -> std::fmt::Result {
    let with_stats: Vec<_> = report
        .cases
        .iter()
        .filter(|c| !c.shader_stats.is_empty())
        .collect();
    if with_stats.is_empty() {
        return Ok(());
    }
    // Columns: every statistic name, in order of first appearance.
    let mut names: Vec<(&str, &str)> = Vec::new();
    for case in &with_stats {
        for stat in &case.shader_stats {
            if !names.iter().any(|(n, _)| *n == stat.name) {
                names.push((&stat.name, &stat.description));
            }
        }
    }
    writeln!(out, "<section>")?;
    writeln!(out, "<h2>Shader statistics (from the driver)</h2>")?;
    write!(out, r#"<table class="data"><thead><tr><th>Case</th>"#)?;
    for (name, description) in &names {
        write!(
            out,
            r#"<th class="num" title="{}">{}</th>"#,
            escape(description),
            escape(name)
        )?;
    }
    writeln!(out, "</tr></thead><tbody>")?;
    for case in with_stats {
        write!(out, "<tr><td><code>{}</code></td>", escape(&case.name))?;
        for (name, _) in &names {
            let value = case
                .shader_stats
                .iter()
                .find(|s| s.name == *name)
                .map_or_else(String::new, |s| s.value.to_string());
            write!(out, r#"<td class="num">{}</td>"#, escape(&value))?;
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(out, "</section>")
}

impl Exporter for HtmlExporter {
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError> {
        let grids = family_grids(report);
        let rows = columns::rows(report, analysis);
        let label_w = label_width(&grids);
        let scale_max = max_relative(&grids);
        let mut out = String::new();
        page_start(&mut out, &format!("perftest: {}", report.device.name))?;
        write_header(&mut out, report, analysis)?;
        write_findings(&mut out, analysis)?;
        write_guidance(&mut out, analysis)?;
        let (w, h) = LEGEND_SIZE;
        svg_open(&mut out, w, h)?;
        write_legend(&mut out, 0.0, 0.0)?;
        writeln!(out, "</svg>")?;
        if let Some(h) = &analysis.hierarchy {
            write_hierarchy(&mut out, h, analysis.clock_mhz())?;
        }
        for (number, grid) in grids.iter().enumerate() {
            write_family(&mut out, number, grid, &rows, label_w, scale_max)?;
        }
        write_twins(&mut out, report)?;
        write_not_measured(&mut out, report)?;
        write_shader_stats(&mut out, report)?;
        page_end(&mut out, env!("CARGO_PKG_VERSION"))?;
        Ok(out.into_bytes())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::report::{ShaderStat, StatValue};
    use perftest_report::samples::sample_report;

    /// A report whose strings try to break out of the markup.
    pub(crate) fn hostile_report() -> Report {
        let mut report = sample_report();
        report.device.name = "GPU <script>alert('x')</script> & \"friends\"".to_string();
        report.device.driver_info = "]]><!-- \u{1}\u{1b}[31m".to_string();
        report.cases[0].name = "Buffer<R8>.Load' onload=\"evil()\" uniform".to_string();
        report.cases[3].status = CaseStatus::Skipped {
            reason: "</td></tr></table><img src=x onerror=alert(1)>".to_string(),
        };
        report.cases[2].family = "<b>family</b>&".to_string();
        report.cases[1].shader_stats = vec![ShaderStat {
            name: "Register <Count>".to_string(),
            description: "\"quoted\" & 'single'".to_string(),
            value: StatValue::Uint(40),
        }];
        report
    }

    /// Parses `text` as XML; every element must be HTML or SVG, none a script, an image, a
    /// link, or anything else that loads or runs something.
    pub(crate) fn check_markup(text: &str) -> roxmltree::Document<'_> {
        // `<!DOCTYPE html>` is a DTD as far as XML is concerned.
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        };
        let doc = roxmltree::Document::parse_with_options(text, options)
            .unwrap_or_else(|e| panic!("{e}:\n{text}"));
        for node in doc.descendants().filter(|n| n.is_element()) {
            let name = node.tag_name().name();
            assert!(
                !["script", "img", "link", "iframe", "object", "embed", "image", "use"]
                    .contains(&name),
                "<{name}> in:\n{text}"
            );
            for attribute in node.attributes() {
                let n = attribute.name();
                assert!(
                    !n.starts_with("on") && n != "src" && n != "href",
                    "attribute {n} on <{name}>"
                );
            }
        }
        assert!(!text.contains("url("), "{text}");
        assert!(!text.contains("@import"), "{text}");
        doc
    }

    fn html(report: &Report) -> String {
        String::from_utf8(HtmlExporter.serialize(report).unwrap()).unwrap()
    }

    #[test]
    fn page_is_well_formed_and_self_contained() {
        let report = sample_report();
        let text = html(&report);
        let doc = check_markup(&text);
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "html");
        let svgs = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "svg")
            .count();
        // The legend, then a heatmap and a bar chart per family (4 families).
        assert_eq!(svgs, 1 + 2 * 4);
        assert!(text.contains("Test GPU (discrete, vendor 0x10de, device 0x2684)"));
        assert!(text.contains("TestDriver 1.2.3"));
        assert!(text.contains("5: 3 measured, 1 skipped, 1 failed"));
        assert!(text.contains("R8 sampled image not supported"));
        assert!(text.contains("fence timeout"));
        // No shader statistics in the report: no section for them.
        assert!(!text.contains("Shader statistics"));
    }

    #[test]
    fn every_table_number_is_on_the_page() {
        let report = sample_report();
        let text = html(&report);
        let doc = check_markup(&text);
        let cells: Vec<String> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "td")
            .map(|n| {
                n.descendants()
                    .filter(|d| d.is_text())
                    .filter_map(|d| d.text())
                    .collect()
            })
            .collect();
        let rows = columns::rows(&report, &Analysis::of(&report));
        let mut figures = 0;
        for row in &rows {
            if let Cells::Figures(values) = &row.cells {
                for value in values {
                    assert!(cells.contains(value), "{value} not in a cell");
                    figures += 1;
                }
            }
        }
        assert_eq!(figures, 3 * TITLES.len());
        // The heatmap cells carry the Gload/s too.
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        for value in ["13.1", "3.28", "6.55"] {
            assert!(texts.contains(&value), "{value}");
        }
    }

    #[test]
    fn hostile_strings_are_escaped() {
        let report = hostile_report();
        let text = html(&report);
        let doc = check_markup(&text);
        // The strings come back intact as text (controls replaced), never as markup.
        let all: String = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(all.contains("GPU <script>alert('x')</script> & \"friends\""));
        assert!(all.contains("</td></tr></table><img src=x onerror=alert(1)>"));
        assert!(all.contains("]]><!-- \u{fffd}\u{fffd}[31m"));
        assert!(all.contains("Register <Count>"));
        assert!(!text.contains('\u{1}'));
        let th = doc
            .descendants()
            .find(|n| n.attribute("title") == Some("\"quoted\" & 'single'"));
        assert!(th.is_some(), "{text}");
    }

    #[test]
    fn shader_statistics_get_a_table() {
        let mut report = sample_report();
        let stat = |name: &str, value: StatValue| ShaderStat {
            name: name.to_string(),
            description: String::new(),
            value,
        };
        report.cases[0].shader_stats = vec![
            stat("Register Count", StatValue::Uint(32)),
            stat("Binary Size", StatValue::Uint(4096)),
        ];
        report.cases[2].shader_stats = vec![stat("Register Count", StatValue::Uint(40))];
        let text = html(&report);
        check_markup(&text);
        assert!(text.contains("Shader statistics"));
        assert!(text.contains(r#"<th class="num" title="">Binary Size</th>"#));
        assert!(text.contains(r#"<td class="num">4096</td>"#));
        assert!(text.contains(r#"<td class="num">40</td><td class="num"></td>"#));
    }

    /// A memory-suite run with the sweep (a test fixture).
    pub(crate) fn sweep_report() -> Report {
        let bytes = include_bytes!("../../../tests/fixtures/reports/nvidia-h200-memory.json");
        crate::report_file::parse_report(bytes, std::path::Path::new("memory.json")).unwrap()
    }

    #[test]
    fn sweep_runs_get_curves_and_a_levels_table() {
        let report = sweep_report();
        let text = html(&report);
        let doc = check_markup(&text);
        let section = doc
            .descendants()
            .find(|n| n.attribute("id") == Some("cache-hierarchy"))
            .unwrap();
        let lines: Vec<_> = section
            .descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .collect();
        assert_eq!(lines.len(), 2, "latency and bandwidth");
        let points = |i: usize| lines[i].attribute("points").unwrap().split(' ').count();
        // Every steady point of the refined latency sweep and of the bandwidth sweep.
        let (latency, bandwidth) = crate::hierarchy::curves(&report);
        assert!(latency.len() > 50, "{}", latency.len());
        assert_eq!((points(0), points(1)), (latency.len(), bandwidth.len()));
        let shades = section
            .descendants()
            .filter(|n| n.attribute("class") == Some("level"))
            .count();
        assert!(shades >= 6, "{shades} shaded levels");
        let cells: Vec<&str> = section
            .descendants()
            .filter(|n| n.has_tag_name("td"))
            .filter_map(|n| n.text())
            .collect();
        for cell in [
            "L1",
            "L2 near",
            "L2 far",
            "memory",
            "180 KB",
            "±4.4%",
            "4.71 TB/s",
            "693",
            "none (the sweep)",
            "48 KB",
        ] {
            assert!(cells.contains(&cell), "{cell}: {cells:?}");
        }
        let section_text: String = section.descendants().filter_map(|n| n.text()).collect();
        assert!(!section_text.contains("Gload"), "{section_text}");
        // Without sweep cases there is no such section.
        assert!(!html(&sample_report()).contains("cache-hierarchy"));
    }

    #[test]
    fn empty_report_still_renders() {
        let mut report = sample_report();
        report.cases.clear();
        let text = html(&report);
        check_markup(&text);
        assert!(text.contains("None: every case was measured."));
    }
}
