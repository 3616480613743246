//! A GitHub Markdown table.

use std::fmt::Write;

use crate::export::columns::{self, Cells, FIGURE_COLUMNS, TITLES};
use crate::export::exporter::{ExportError, Exporter};
use crate::output::printable::printable;
use crate::report::Report;
use perftest_report::analysis::Analysis;

/// Writes the device line and a GitHub-flavoured table with the text table's columns. Case
/// names are code spans (they contain `<` and `>`); in free text (the device line, reasons,
/// notes) every character Markdown could read as markup or raw HTML is backslash-escaped.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarkdownExporter;

/// The characters escaped in free text: the table separator, emphasis, links and images, code,
/// raw HTML and entities, and the escape itself.
const MARKUP: &[char] = &['\\', '|', '`', '*', '_', '[', ']', '<', '>', '&', '~', '!'];

/// Escapes control characters and Markdown markup (so that no raw HTML, link or emphasis from
/// a report's strings reaches the page) in free text. The second brace of `{{` is escaped too:
/// the book's tool reads `{{#include ...}}` in a page's text as a command, anywhere.
///
/// The rule for every report's text written as Markdown (the reports, the comparisons, the
/// gallery's pages, titles and summary entries): free text through this function, names
/// through [`code_span`], preformatted sections through [`preformatted`].
pub(crate) fn escape(text: &str) -> String {
    let shown = printable(text);
    let mut out = String::with_capacity(shown.len() + 8);
    let mut previous = '\0';
    for c in shown.chars() {
        if MARKUP.contains(&c) || (c == '{' && previous == '{') {
            out.push('\\');
        }
        out.push(c);
        previous = c;
    }
    out
}

/// `name` as a code span that no backtick inside it can end early (CommonMark: a delimiter
/// longer than any backtick run in the text, padded with spaces when the text touches one),
/// its control characters escaped. A name holding `{{`, which nothing inside a code span can
/// escape from the book's include command, is written as escaped free text instead.
pub(crate) fn code_span(name: &str) -> String {
    let name = printable(name);
    if name.contains("{{") {
        return escape(&name);
    }
    let longest_run = name.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run + 1);
    if longest_run == 0 {
        format!("{fence}{name}{fence}")
    } else {
        format!("{fence} {name} {fence}")
    }
}

/// [`code_span`] for a table cell: a `|` inside the span is escaped too, so the table keeps its
/// columns (GitHub's tables split cells before reading code spans).
pub(crate) fn cell_code_span(name: &str) -> String {
    let name = printable(name);
    if name.contains("{{") {
        return escape(&name);
    }
    code_span(&name.replace('|', "\\|"))
}

/// Writes `text` (lines ending in a newline) as a preformatted block: a fenced `text` block,
/// or, when the text holds a backtick fence that would end it or `{{` that the book would read
/// as a command, an HTML `<pre>` block with the text escaped for HTML and every brace an
/// entity.
pub(crate) fn preformatted(out: &mut String, text: &str) {
    if !text.contains("```") && !text.contains("{{") {
        out.push_str("```text\n");
        out.push_str(text);
        out.push_str("```\n");
        return;
    }
    out.push_str("<pre>");
    let escaped = crate::export::markup::escape(text);
    out.push_str(&escaped.replace('{', "&#123;").replace('}', "&#125;"));
    out.push_str("</pre>\n");
}

impl Exporter for MarkdownExporter {
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError> {
        let mut out = String::new();
        writeln!(out, "{}", escape(&columns::device_line(report)))?;
        let memory = columns::memory_type_lines(report);
        if !memory.is_empty() {
            writeln!(out)?;
            for line in memory {
                writeln!(out, "- {}", escape(&line))?;
            }
        }
        writeln!(out)?;
        write_findings(&mut out, analysis)?;
        write_guidance(&mut out, analysis)?;
        let rows = columns::rows(report, analysis);
        let shown = columns::shown_columns(&rows);
        writeln!(out, "| Case | {} |", TITLES[..shown].join(" | "))?;
        writeln!(
            out,
            "|:---|{}{}",
            "---:|".repeat(FIGURE_COLUMNS),
            ":---|".repeat(shown - FIGURE_COLUMNS)
        )?;
        for row in rows {
            let name = cell_code_span(&row.name);
            match row.cells {
                Cells::Figures(cells) => {
                    writeln!(out, "| {name} | {} |", cells[..shown].join(" | "))?;
                }
                Cells::Note(note) => {
                    let empty = " |".repeat(shown - 1);
                    writeln!(out, "| {name} | {} |{empty}", escape(&note))?;
                }
            }
        }
        let notes = columns::footnotes(report, analysis);
        // Each note its own paragraph: lines in a row would run together into one.
        for note in notes {
            writeln!(out)?;
            writeln!(out, "{}", escape(&note))?;
        }
        if let Some(section) = crate::export::twins::section(report) {
            writeln!(out)?;
            preformatted(&mut out, &section);
        }
        if let Some(section) = crate::hierarchy::section(analysis) {
            // A preformatted block: the section's columns line up as in the terminal.
            writeln!(out)?;
            preformatted(&mut out, &section);
        }
        Ok(out.into_bytes())
    }
}

/// The findings as a list, the advice as a numbered list, then what the report lacks.
fn write_findings(out: &mut String, analysis: &Analysis) -> std::fmt::Result {
    let Some(f) = crate::export::findings::of(analysis) else {
        return Ok(());
    };
    // Bold labels, not headings: the gallery includes these tables under its own headings.
    writeln!(out, "**Findings**")?;
    writeln!(out)?;
    if let Some(note) = crate::export::findings::source_note(f) {
        writeln!(out, "{}", escape(&format!("Figures {note}.")))?;
        writeln!(out)?;
    }
    for finding in &f.findings {
        writeln!(
            out,
            "- `{}`: {}{}",
            finding.id,
            escape(&finding.statement),
            crate::export::findings::noise_note(finding.beyond_noise)
        )?;
    }
    if !f.advice.is_empty() {
        writeln!(out)?;
        writeln!(out, "**Advice**")?;
        writeln!(out)?;
        for (n, advice) in f.advice.iter().enumerate() {
            let ids: Vec<String> = advice.findings.iter().map(|id| format!("`{id}`")).collect();
            writeln!(
                out,
                "{}. {} ({})",
                n + 1,
                escape(&advice.text),
                ids.join(", ")
            )?;
        }
    }
    if let Some(line) = crate::export::findings::missing_line(f) {
        writeln!(out)?;
        writeln!(out, "{}", escape(&line))?;
    }
    writeln!(out)
}

/// The vendor claims the report judges, one line each, and how many it cannot judge.
fn write_guidance(out: &mut String, analysis: &Analysis) -> std::fmt::Result {
    let judged = crate::export::guidance::measured(analysis);
    if judged.is_empty() {
        return Ok(());
    }
    writeln!(out, "**Vendor guidance, judged on this GPU**")?;
    writeln!(out)?;
    for v in judged {
        writeln!(
            out,
            "- `{}`: {}",
            v.id,
            escape(&crate::export::guidance::sentence(v))
        )?;
    }
    if let Some(line) = crate::export::guidance::not_measured_line(analysis) {
        writeln!(out)?;
        writeln!(out, "{}", escape(&line))?;
    }
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::samples::sample_report;

    /// Contributed text is data in each Markdown context: no raw HTML, link or include command
    /// survives, and a code span or preformatted block cannot be ended from inside.
    #[test]
    fn each_markdown_context_keeps_text_as_data() {
        assert_eq!(
            escape("<b>[x]{{#include y}}"),
            "\\<b\\>\\[x\\]{\\{#include y}}"
        );
        assert_eq!(code_span("a`b"), "`` a`b ``");
        assert_eq!(code_span("{{#include y}}"), "{\\{#include y}}");
        assert_eq!(cell_code_span("a|b"), "`a\\|b`");
        assert_eq!(code_span("a\nb"), "`a\\nb`");
        let mut out = String::new();
        preformatted(&mut out, "plain\n");
        assert_eq!(out, "```text\nplain\n```\n");
        let mut out = String::new();
        preformatted(&mut out, "```\n{{#include y}} <i>\n");
        assert_eq!(
            out,
            "<pre>```\n&#123;&#123;#include y&#125;&#125; &lt;i&gt;\n</pre>\n"
        );
    }

    #[test]
    fn table() {
        let mut report = sample_report();
        report.device.driver_info = "a|b".to_string();
        let text = String::from_utf8(MarkdownExporter.serialize(&report).unwrap()).unwrap();
        let expected = "\
Device: Test GPU (discrete, TestDriver a\\|b, Vulkan 1.3.255)

**Findings**

- `best.bytes`: The most bytes per second: ByteAddressBuffer.Load4 random (104.9 GB/s).
- `best.type.typed`: The most bytes of typed buffers per lane: Buffer\\<RGBA8\\>.Load random (13.1 GB/s).
- `best.type.raw`: The most bytes of raw buffers per lane: ByteAddressBuffer.Load4 random (104.9 GB/s).

Not in this report (their cases were not measured): typed.width, typed.width64, typed.channels, \
raw.wide, raw.wide\\_random, raw.unaligned, raw.load3\\_random, structured.width, texture.width, \
texture.random\\_wide, structured.vs\\_raw, cbuffer.divergent, sample.vs\\_load, sample.bilinear, \
sample.nearest\\_wide, sample.bilinear\\_wide, uniform.typed, uniform.raw, uniform.structured, \
uniform.texture, typed.coalescing, raw.coalescing, raw.vs\\_typed, texture.vs\\_typed, \
cbuffer.vs\\_typed, cbuffer.vs\\_structured.

| Case | ms | x | Gload/s | GB/s | ± | CV | Notes |
|:---|---:|---:|---:|---:|---:|---:|:---|
| `Buffer<R8>.Load uniform` | 614.400 | 4.000 | 13.11 | 13.11 | n/a | 0.0% |  |
| `Buffer<RGBA8>.Load random` | 2457.600 | 1.000 | 3.28 | 13.11 | n/a | 5.0% |  |
| `ByteAddressBuffer.Load4 random` | 1228.800 | 2.000 | 6.55 | 104.86 | n/a | 50.0% | noisy |
| `Texture2D<R8>.Load linear` | skipped: R8 sampled image not supported | | | | | | |
| `cbuffer{float4} load uniform` | failed: fence timeout | | | | | | |

Shader units: 132 SMs.
";
        assert_eq!(text, expected);
        // Every row has as many cells as the header.
        for line in text.lines().filter(|l| l.starts_with('|')) {
            let cells = line.replace("\\|", "").matches('|').count();
            assert_eq!(cells, TITLES.len() + 2, "{line}");
        }
    }
}
