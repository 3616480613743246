//! The cross-GPU comparison as a self-contained HTML page: the legend, the advice across GPUs,
//! the GPUs under two or more APIs or tools, and per family a heatmap table of the cases by GPU (each cell the case's throughput over its
//! GPU's baseline case, coloured by its share of the row's best).

use std::fmt::Write;

use crate::cross_gpu::{how_many, SAME_GPU_TITLE};
use crate::export::formats::html::{page_end, page_start};
use crate::export::markup::escape;
use perftest_report::cross_gpu::CrossGpu;

/// A cell's background: white for the row's slowest share of nothing, through yellow, to
/// green for the row's best.
fn colour(share: f64) -> String {
    let share = share.clamp(0.0, 1.0);
    // Hue 0 (red) at no share to 120 (green) at the row's best; pale so the text stays legible.
    format!("hsl({:.0}, 70%, 80%)", 120.0 * share)
}

/// The page of `cross`.
pub fn cross_html(cross: &CrossGpu) -> Result<String, std::fmt::Error> {
    let m = &cross.matrix;
    let n = how_many(cross);
    let mut out = String::new();
    page_start(&mut out, &format!("perftest compare: {n}"))?;
    writeln!(out, "<h1>perftest compare: {n}</h1>")?;
    writeln!(
        out,
        "<p>Each cell is the case's throughput relative to its own GPU's \
         <code>Buffer&lt;RGBA8&gt;.Load random</code> (the original's x; higher is faster), \
         coloured by its share of the row's best.</p>"
    )?;
    writeln!(
        out,
        r#"<table class="data"><thead><tr><th>Label</th><th>GPU</th><th>API</th><th>Tool</th><th>Driver</th><th>File</th></tr></thead><tbody>"#
    )?;
    for c in &m.columns {
        writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
            escape(&c.label),
            escape(&c.device),
            escape(&c.api),
            escape(&c.tool),
            escape(&c.driver),
            escape(&c.file)
        )?;
    }
    writeln!(out, "</tbody></table>")?;
    if !cross.advice.is_empty() {
        writeln!(out, "<h2>Advice across GPUs</h2>")?;
        writeln!(out, "<ul>")?;
        for v in &cross.advice {
            writeln!(
                out,
                "<li><strong>{}</strong> {} (<code>{}</code>)</li>",
                escape(&v.question),
                escape(&v.text),
                escape(&v.id)
            )?;
        }
        writeln!(out, "</ul>")?;
    }
    write_same_gpu(&mut out, cross)?;
    write_guidance(&mut out, cross)?;
    write_families(&mut out, cross)?;
    page_end(&mut out, env!("CARGO_PKG_VERSION"))?;
    Ok(out)
}

/// The vendor claims the reports judge: on how many GPUs each holds, with the exceptions.
fn write_guidance(out: &mut String, cross: &CrossGpu) -> std::fmt::Result {
    let mut judged = cross.judged().peekable();
    if judged.peek().is_none() {
        return Ok(());
    }
    writeln!(out, "<h2>Vendor guidance across GPUs</h2>")?;
    writeln!(out, "<ul>")?;
    for v in judged {
        writeln!(
            out,
            "<li>{}: {} — {} (<code>{}</code>)</li>",
            escape(&v.vendor),
            escape(&v.claim),
            escape(&super::guidance_words(v)),
            escape(&v.id)
        )?;
    }
    writeln!(out, "</ul>")
}

/// The GPUs under two or more APIs or tools: per GPU its columns and what each answers.
fn write_same_gpu(out: &mut String, cross: &CrossGpu) -> std::fmt::Result {
    if cross.same_gpu.is_empty() {
        return Ok(());
    }
    writeln!(out, "<h2>{SAME_GPU_TITLE}</h2>")?;
    writeln!(out, "<ul>")?;
    for g in &cross.same_gpu {
        writeln!(out, "<li>{}<ul>", escape(&g.text))?;
        for d in &g.differences {
            writeln!(
                out,
                "<li><strong>{}</strong> {} (<code>{}</code>)</li>",
                escape(&d.question),
                escape(&d.text),
                escape(&d.id)
            )?;
        }
        writeln!(out, "</ul></li>")?;
    }
    writeln!(out, "</ul>")
}

/// One heatmap table per family.
fn write_families(out: &mut String, cross: &CrossGpu) -> std::fmt::Result {
    let m = &cross.matrix;
    let mut family = "";
    for row in &m.rows {
        if row.family != family {
            if !family.is_empty() {
                writeln!(out, "</tbody></table>")?;
            }
            family = &row.family;
            let title = perftest_cases::family(family).map_or(family, |f| f.title());
            writeln!(out, "<h2>{}</h2>", escape(title))?;
            write!(out, r#"<table class="data"><thead><tr><th>Case</th>"#)?;
            for c in &m.columns {
                write!(
                    out,
                    r#"<th class="num" title="{}">{}</th>"#,
                    escape(&c.device),
                    escape(&c.label)
                )?;
            }
            writeln!(out, "</tr></thead><tbody>")?;
        }
        let best = row
            .relative
            .iter()
            .flatten()
            .fold(0.0, |a: f64, b| a.max(*b));
        write!(out, "<tr><td><code>{}</code></td>", escape(&row.name))?;
        for v in &row.relative {
            match v {
                Some(v) => write!(
                    out,
                    r#"<td class="num" style="background: {}">{v:.3}</td>"#,
                    colour(if best > 0.0 { v / best } else { 0.0 })
                )?,
                None => write!(out, r#"<td class="num">-</td>"#)?,
            }
        }
        writeln!(out, "</tr>")?;
    }
    if !family.is_empty() {
        writeln!(out, "</tbody></table>")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::formats::html::tests::{check_markup, hostile_report};
    use perftest_report::cross_gpu::cross_gpu;
    use perftest_report::samples::sample_report;

    #[test]
    fn the_page_is_well_formed_and_escapes_what_reports_say() {
        let a = hostile_report();
        let mut b = sample_report();
        b.device.name = "Other <GPU>".to_string();
        let c = sample_report();
        let cross = cross_gpu(&[("a<.json", &a), ("b.json", &b), ("c.json", &c)]);
        let page = cross_html(&cross).unwrap();
        check_markup(&page);
        assert!(page.contains("Other &lt;GPU&gt;"));
        assert!(page.contains("a&lt;.json"));
        assert!(page.contains("hsl(120, 70%, 80%)"), "{page}");
    }
}
