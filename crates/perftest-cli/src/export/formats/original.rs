//! The original perftest's output lines.

use std::fmt::Write;

use crate::export::columns;
use crate::export::exporter::{ExportError, Exporter};
use crate::output::printable::printable;
use crate::report::{CaseStatus, Report};
use perftest_report::analysis::Analysis;

/// Writes exactly one line per case, as the original printed them:
/// `NAME: X.XXXms Y.YYYx` (e.g. `Buffer<R8>.Load uniform: 0.801ms 6.443x`).
///
/// Without a measured baseline the relative figure is printed as `n/a` (no `x` suffix):
/// `NAME: X.XXXms n/a`. Cases that did not produce a time print `NAME: skipped (reason)`,
/// `NAME: failed (reason)` or `NAME: n/a (no valid samples)`. There is no header, so the
/// output can be diffed against the original's.
#[derive(Clone, Copy, Debug, Default)]
pub struct OriginalExporter;

impl Exporter for OriginalExporter {
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError> {
        let mut out = String::new();
        for (case, derived) in report.cases.iter().zip(analysis.derived.iter().copied()) {
            let name = printable(&case.name);
            match (&case.status, derived) {
                (CaseStatus::Measured, Some(d)) => {
                    let x = match d.relative {
                        Some(x) => format!("{x:.3}x"),
                        None => columns::relative(None),
                    };
                    writeln!(out, "{name}: {:.3}ms {x}", d.original_ms)?;
                }
                (CaseStatus::Measured, None) => writeln!(out, "{name}: n/a (no valid samples)")?,
                // Skipped, not reached (written as skipped) or failed: the word and why.
                (status, _) => {
                    let why = printable(status.reason().unwrap_or_default());
                    writeln!(out, "{name}: {} ({why})", status.label())?;
                }
            }
        }
        Ok(out.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::CaseResult;
    use perftest_report::samples::{case, measurement, sample_report};

    #[test]
    fn original_lines() {
        let text =
            String::from_utf8(OriginalExporter.serialize(&sample_report()).unwrap()).unwrap();
        let expected = "\
Buffer<R8>.Load uniform: 614.400ms 4.000x
Buffer<RGBA8>.Load random: 2457.600ms 1.000x
ByteAddressBuffer.Load4 random: 1228.800ms 2.000x
Texture2D<R8>.Load linear: skipped (R8 sampled image not supported)
cbuffer{float4} load uniform: failed (fence timeout)
";
        assert_eq!(text, expected);
    }

    #[test]
    fn original_scale_example() {
        // 0.801 ms for the original's 122880 groups is 6.5186 ns per group.
        let mut report = sample_report();
        report.cases.truncate(2);
        let per_group = 0.801e6 / 122_880.0;
        report.cases[0] = CaseResult::measured(
            &case("typed.r8.uniform"),
            measurement(100_000, &[per_group * 100_000.0]),
        );
        let per_group_base = per_group * 6.443;
        report.cases[1] = CaseResult::measured(
            &case("typed.rgba8.random"),
            measurement(100_000, &[per_group_base * 100_000.0]),
        );
        let text = String::from_utf8(OriginalExporter.serialize(&report).unwrap()).unwrap();
        assert_eq!(
            text.lines().next(),
            Some("Buffer<R8>.Load uniform: 0.801ms 6.443x")
        );
    }

    #[test]
    fn missing_baseline_prints_na() {
        let mut report = sample_report();
        report.cases.remove(1);
        let text = String::from_utf8(OriginalExporter.serialize(&report).unwrap()).unwrap();
        assert_eq!(
            text.lines().next(),
            Some("Buffer<R8>.Load uniform: 614.400ms n/a")
        );
    }
}
