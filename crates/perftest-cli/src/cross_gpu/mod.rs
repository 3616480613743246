//! `perftest compare` of reports from different GPUs, APIs or tools as text, Markdown and JSON:
//! the comparison ([`perftest_report::cross_gpu`]: the matrix of cases by GPU, the advice across
//! the GPUs, the same GPU under several APIs or tools, the guidance) under short column labels
//! with a legend.

// The matrix as an HTML page.
pub mod html;

use perftest_report::apis::SameGpu;
use perftest_report::cross_gpu::CrossGpu;
use perftest_report::gpu_matrix::{Matrix, Verdict};
use perftest_report::guidance::AcrossVerdict;

use crate::output::printable::{cell_width, printable, push_left, push_right, wrap};

/// Lines of the legend and the advice are wrapped to this width.
const WRAP: usize = 120;

/// The title of the section of the GPUs under two or more APIs or tools.
pub const SAME_GPU_TITLE: &str = "Same GPU across APIs and tools";

/// One claim's verdicts across the reports in words: where it holds and does not, the
/// exceptions to the usual outcome, and how many reports cannot judge it.
pub(crate) fn guidance_words(v: &AcrossVerdict) -> String {
    let mut words = format!("holds on {}, does not hold on {}", v.holds, v.does_not_hold);
    if v.not_measured > 0 {
        words.push_str(&format!(", not judged on {}", v.not_measured));
    }
    if !v.exceptions.is_empty() {
        words.push_str(&format!(" (exceptions: {})", v.exceptions.join(", ")));
    }
    words
}

/// The guidance across the reports as text (nothing when no report judges a claim).
fn guidance_text(out: &mut String, cross: &CrossGpu) {
    let mut judged = cross.judged().peekable();
    if judged.peek().is_none() {
        return;
    }
    out.push_str("\nVendor guidance across GPUs:\n");
    for v in judged {
        let line = format!(
            "{}: {} — {} [{}]",
            v.vendor,
            v.claim,
            guidance_words(v),
            v.id
        );
        wrap(out, &printable(&line), "- ", "  ", WRAP);
    }
}

/// The legend: one line per column.
fn legend(out: &mut String, m: &Matrix) {
    for c in &m.columns {
        let mut line = format!("{}: {} ({}, {}", c.label, c.device, c.api, c.tool);
        if !c.driver.is_empty() {
            line.push_str(&format!(", {}", c.driver));
        }
        line.push_str(&format!("; {})", c.file));
        wrap(out, &printable(&line), "  ", "      ", WRAP);
    }
}

/// How many reports and GPUs the comparison holds, in words: `30 GPUs`, or `32 reports of 30
/// GPUs` where a GPU appears under several APIs or tools.
pub(crate) fn how_many(cross: &CrossGpu) -> String {
    let (reports, gpus) = cross.counts();
    if reports == gpus {
        format!("{gpus} GPUs")
    } else {
        format!("{reports} reports of {gpus} GPUs")
    }
}

/// The comparison as text: legend, advice, then the matrix grouped by family.
pub fn render(cross: &CrossGpu) -> String {
    let m = &cross.matrix;
    let mut out = format!(
        "Across {}: each case's throughput relative to its own GPU's \
         Buffer<RGBA8>.Load random (the original's x; higher is faster).\n",
        how_many(cross)
    );
    legend(&mut out, m);
    if !cross.advice.is_empty() {
        out.push_str("\nAdvice across GPUs:\n");
        for v in &cross.advice {
            let line = format!("{} {} [{}]", v.question, v.text, v.id);
            wrap(&mut out, &printable(&line), "- ", "  ", WRAP);
        }
    }
    same_gpu_text(&mut out, &cross.same_gpu);
    guidance_text(&mut out, cross);
    let name_width = m
        .rows
        .iter()
        .map(|r| cell_width(&printable(&r.name)))
        .max()
        .unwrap_or(4)
        .max(4);
    let widths: Vec<usize> = m
        .columns
        .iter()
        .map(|c| cell_width(&c.label).max(6))
        .collect();
    let mut family = "";
    for row in &m.rows {
        if row.family != family {
            family = &row.family;
            let title = perftest_cases::family(family).map_or(family, |f| f.title());
            out.push('\n');
            out.push_str(title);
            out.push('\n');
            push_left(&mut out, "Case", name_width);
            for (c, w) in m.columns.iter().zip(&widths) {
                out.push_str("  ");
                push_right(&mut out, &c.label, *w);
            }
            out.push('\n');
        }
        push_left(&mut out, &printable(&row.name), name_width);
        for (v, w) in row.relative.iter().zip(&widths) {
            out.push_str("  ");
            let cell = v.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
            push_right(&mut out, &cell, *w);
        }
        out.push('\n');
    }
    out
}

/// The comparison as Markdown: the legend and the advice as lists, a table per family.
pub fn markdown(cross: &CrossGpu) -> String {
    let m = &cross.matrix;
    use crate::export::formats::markdown::{cell_code_span as code, escape as cell};
    let mut out = format!(
        "Across {}: each case's throughput relative to its own GPU's \
         `Buffer<RGBA8>.Load random` (the original's x; higher is faster).\n\n",
        how_many(cross)
    );
    for c in &m.columns {
        out.push_str(&format!(
            "- **{}**: {} ({}, {}{}; {})\n",
            c.label,
            cell(&c.device),
            cell(&c.api),
            cell(&c.tool),
            if c.driver.is_empty() {
                String::new()
            } else {
                format!(", {}", cell(&c.driver))
            },
            code(&c.file)
        ));
    }
    if !cross.advice.is_empty() {
        out.push_str("\n**Advice across GPUs**\n\n");
        for v in &cross.advice {
            out.push_str(&format!(
                "- **{}** {} (`{}`)\n",
                cell(&v.question),
                cell(&v.text),
                v.id
            ));
        }
    }
    same_gpu_markdown(&mut out, &cross.same_gpu);
    let mut judged = cross.judged().peekable();
    if judged.peek().is_some() {
        out.push_str("\n**Vendor guidance across GPUs**\n\n");
        for v in judged {
            out.push_str(&format!(
                "- {}: {} — {} (`{}`)\n",
                cell(&v.vendor),
                cell(&v.claim),
                cell(&guidance_words(v)),
                v.id
            ));
        }
    }
    let mut family = "";
    for row in &m.rows {
        if row.family != family {
            family = &row.family;
            let title = perftest_cases::family(family).map_or(family, |f| f.title());
            let labels: Vec<&str> = m.columns.iter().map(|c| c.label.as_str()).collect();
            out.push_str(&format!(
                "\n**{title}**\n\n| Case | {} |\n",
                labels.join(" | ")
            ));
            out.push_str(&format!("|:---|{}\n", "---:|".repeat(labels.len())));
        }
        let values: Vec<String> = row
            .relative
            .iter()
            .map(|v| v.map_or_else(|| "-".to_string(), |v| format!("{v:.3}")))
            .collect();
        out.push_str(&format!(
            "| {} | {} |\n",
            code(&row.name),
            values.join(" | ")
        ));
    }
    out
}

/// The section of the GPUs under two or more APIs or tools, as text (nothing when none is).
fn same_gpu_text(out: &mut String, same: &[SameGpu]) {
    if same.is_empty() {
        return;
    }
    out.push_str(&format!("\n{SAME_GPU_TITLE}:\n"));
    for g in same {
        wrap(out, &printable(&g.text), "- ", "  ", WRAP);
        for d in &g.differences {
            let line = format!("{} {} [{}]", d.question, d.text, d.id);
            wrap(out, &printable(&line), "  - ", "    ", WRAP);
        }
    }
}

/// The section of the GPUs under two or more APIs or tools, as Markdown (nothing when none is).
fn same_gpu_markdown(out: &mut String, same: &[SameGpu]) {
    use crate::export::formats::markdown::escape as cell;
    if same.is_empty() {
        return;
    }
    out.push_str(&format!("\n**{SAME_GPU_TITLE}**\n\n"));
    for g in same {
        out.push_str(&format!("- {}\n", cell(&g.text)));
        for d in &g.differences {
            out.push_str(&format!(
                "  - **{}** {} (`{}`)\n",
                cell(&d.question),
                cell(&d.text),
                d.id
            ));
        }
    }
}

/// The comparison as JSON: `columns`, `rows` (each case's values relative to its GPU's
/// baseline, `null` where not measured), `advice` and `same_gpu` (the GPUs under two or more
/// APIs or tools).
pub fn json(cross: &CrossGpu) -> Result<String, String> {
    #[derive(serde::Serialize)]
    struct Json<'a> {
        columns: &'a [perftest_report::gpu_matrix::Column],
        advice: &'a [Verdict],
        same_gpu: &'a [SameGpu],
        guidance: &'a [AcrossVerdict],
        rows: &'a [perftest_report::gpu_matrix::Row],
    }
    let doc = Json {
        columns: &cross.matrix.columns,
        advice: &cross.advice,
        same_gpu: &cross.same_gpu,
        guidance: &cross.guidance,
        rows: &cross.matrix.rows,
    };
    serde_json::to_string_pretty(&doc)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| format!("cannot write the comparison as JSON: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::cross_gpu::cross_gpu;
    use perftest_report::samples::sample_report;
    use perftest_report::Report;

    #[test]
    fn ten_reports_stay_within_200_characters_a_line() {
        let mut reports = Vec::new();
        for i in 0..10 {
            let mut r = sample_report();
            r.device.name = format!("A GPU with a rather long marketing name number {i}");
            reports.push(r);
        }
        let files: Vec<String> = (0..10)
            .map(|i| format!("results/published/some-vendor-gpu-model-{i}-d3d11-perftest.txt"))
            .collect();
        let pairs: Vec<(&str, &Report)> = files.iter().map(String::as_str).zip(&reports).collect();
        let text = render(&cross_gpu(&pairs));
        assert!(text.contains("G10"), "{text}");
        for line in text.lines() {
            assert!(line.chars().count() <= 200, "{} chars: {line}", line.len());
        }
        // The legend names each file once, the matrix only the labels.
        assert_eq!(text.matches("some-vendor-gpu-model-3-").count(), 1);
    }
}
