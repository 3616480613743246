//! Output formats of a run report.
//!
//! Each format is one small file implementing the one-method [`Exporter`] trait; [`exporter`]
//! picks the implementation for an [`ExportFormat`]. Exporters only turn a
//! [`Report`](crate::report::Report) into bytes; an [`OutputTarget`] puts them where
//! `--output` says.

// The formats, one file each.
pub(crate) mod formats;
// What every format implements, in a file of its own so the formats need not import
// this one.
mod exporter;
// Where the bytes go: the output-file rule.
mod file;
// What the formats share: tables, charts, curves, findings and markup.
pub(crate) mod chart;
mod columns;
mod curves;
mod findings;
mod guidance;
mod heatmap;
pub(crate) mod markup;
mod spread;
mod twins;

pub use self::exporter::{ExportError, Exporter};
pub use self::file::{remove_temporary_files, OutputError, OutputTarget};
pub use self::formats::{
    BenchmarkActionExporter, BmfExporter, CsvExporter, HtmlExporter, JsonExporter,
    MarkdownExporter, OriginalExporter, SvgExporter, TextExporter,
};

/// The output formats perftest can write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Aligned table with time, relative speed, throughput and spread per case.
    #[default]
    Text,
    /// The original perftest's lines: `NAME: X.XXXms Y.YYYx`.
    Original,
    /// The full report with derived figures, as pretty-printed JSON (`perftest compare` reads
    /// it back).
    Json,
    /// One row per case, for spreadsheets.
    Csv,
    /// A GitHub Markdown table.
    Markdown,
    /// A self-contained HTML page: per family a heatmap, a bar chart and the table; with sweep
    /// cases, the cache hierarchy's latency and bandwidth curves and levels.
    Html,
    /// One SVG chart: the sweep's curves (when the report has sweep cases) and the families'
    /// heatmaps, stacked.
    Svg,
    /// Bencher Metric Format (JSON), for the Bencher dashboard.
    Bmf,
    /// github-action-benchmark's `customBiggerIsBetter` JSON.
    BenchmarkAction,
}

impl ExportFormat {
    /// The usual file extension of the format, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Text | ExportFormat::Original => "txt",
            ExportFormat::Json | ExportFormat::Bmf | ExportFormat::BenchmarkAction => "json",
            ExportFormat::Html => "html",
            ExportFormat::Svg => "svg",
            ExportFormat::Csv => "csv",
            ExportFormat::Markdown => "md",
        }
    }
}

/// The exporter for `format`.
pub fn exporter(format: ExportFormat) -> Box<dyn Exporter> {
    match format {
        ExportFormat::Text => Box::new(TextExporter),
        ExportFormat::Original => Box::new(OriginalExporter),
        ExportFormat::Json => Box::new(JsonExporter),
        ExportFormat::Csv => Box::new(CsvExporter),
        ExportFormat::Markdown => Box::new(MarkdownExporter),
        ExportFormat::Html => Box::new(HtmlExporter),
        ExportFormat::Svg => Box::new(SvgExporter),
        ExportFormat::Bmf => Box::new(BmfExporter),
        ExportFormat::BenchmarkAction => Box::new(BenchmarkActionExporter),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;
    use perftest_report::samples::sample_report;

    /// A report crafted to amplify (one 200,000-character name among 2,000 cases, and ids that
    /// make every case a row and a column of its own) renders in every format to at most a
    /// small multiple of its own JSON size. (The text table used to pad every row to the
    /// longest name, and the heatmaps drew rows x columns cells.)
    #[test]
    fn output_is_bounded_by_a_multiple_of_the_input() {
        let mut report = sample_report();
        let template = report.cases[0].clone();
        report.cases = (0..2000)
            .map(|i| {
                let mut case = template.clone();
                case.id = format!("row{i}.column{i}");
                case.name = format!("Case {i}");
                case
            })
            .collect();
        report.cases[0].name = "N".repeat(200_000);
        let input = serde_json::to_vec(&report).unwrap().len();
        for format in ExportFormat::value_variants() {
            let output = exporter(*format).serialize(&report).unwrap().len();
            assert!(
                output <= 12 * input,
                "{format:?}: {output} bytes from a {input}-byte report"
            );
        }
    }

    #[test]
    fn every_format_serializes_every_case() {
        let report = sample_report();
        for format in ExportFormat::value_variants() {
            let bytes = exporter(*format).serialize(&report).unwrap();
            let text = String::from_utf8(bytes).unwrap();
            for case in &report.cases {
                let expected = match format {
                    ExportFormat::Html | ExportFormat::Svg => markup::escape(&case.name),
                    ExportFormat::Bmf => case.id.clone(),
                    _ => case.name.clone(),
                };
                let listed = text.contains(&expected);
                // The dashboard formats hold numbers only: measured cases.
                let dashboard = matches!(format, ExportFormat::Bmf | ExportFormat::BenchmarkAction);
                let wanted = !dashboard || case.measurement.is_some();
                assert_eq!(listed, wanted, "{format:?} and {}:\n{text}", case.name);
            }
            let words = text.split(|c: char| !c.is_ascii_alphanumeric());
            for word in words {
                assert!(
                    !["NaN", "inf", "Infinity"].contains(&word),
                    "{format:?}: {text}"
                );
            }
        }
    }

    #[test]
    fn format_names() {
        let names: Vec<String> = ExportFormat::value_variants()
            .iter()
            .filter_map(|f| f.to_possible_value().map(|v| v.get_name().to_string()))
            .collect();
        assert_eq!(
            names,
            [
                "text",
                "original",
                "json",
                "csv",
                "markdown",
                "html",
                "svg",
                "bmf",
                "benchmark-action"
            ]
        );
        assert_eq!(ExportFormat::Markdown.extension(), "md");
    }
}
