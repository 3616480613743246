//! The output formats: each one file implementing [`Exporter`](super::Exporter) (the HTML
//! page's start and end are shared with the comparison and node pages).

mod benchmark_action;
mod bmf;
mod csv;
pub(crate) mod html;
mod json;
pub(crate) mod markdown;
mod original;
mod svg;
mod text;

pub use self::benchmark_action::BenchmarkActionExporter;
pub use self::bmf::BmfExporter;
pub use self::csv::CsvExporter;
pub use self::html::HtmlExporter;
pub use self::json::JsonExporter;
pub use self::markdown::MarkdownExporter;
pub use self::original::OriginalExporter;
pub use self::svg::SvgExporter;
pub use self::text::TextExporter;
