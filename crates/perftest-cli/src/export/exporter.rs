//! The one-method trait every output format implements, and its error.

use perftest_report::analysis::Analysis;

use crate::report::Report;

/// Why a report could not be turned into bytes.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// JSON serialization failed.
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// CSV serialization failed.
    #[error("cannot write CSV: {0}")]
    Csv(#[from] ::csv::Error),
    /// Writing into the output buffer failed.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
    /// Formatting text failed.
    #[error("cannot format output: {0}")]
    Fmt(#[from] std::fmt::Error),
}

/// Turns a report into the bytes of one output format.
pub trait Exporter {
    /// Renders `report` with its `analysis` ([`Analysis::of`] of the same report): a format
    /// prints the analysis and never derives it again.
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError>;

    /// Serializes the whole report: its analysis once, then [`Exporter::render`].
    fn serialize(&self, report: &Report) -> Result<Vec<u8>, ExportError> {
        self.render(report, &Analysis::of(report))
    }
}
