//! One CSV row per case.

use crate::export::exporter::{ExportError, Exporter};
use crate::output::printable::printable;
use crate::report::Report;
use perftest_report::analysis::Analysis;

/// Writes a header and one row per case. Figures are unrounded (shortest round-trip decimal);
/// a figure that does not apply (a skipped case, no baseline) is an empty cell. The device and
/// driver columns repeat on every row so that files from several devices can be concatenated.
///
/// Columns: `id, name, status, bytes_per_load, groups, median_ns, min_ns, max_ns, cv,
/// loads_per_s, bytes_per_s, original_ms, relative, reason, device, device_type, driver_name,
/// driver_info, driver_version, api_version, ns_per_group, ns_per_group_low,
/// ns_per_group_high, clock_mhz, throttled`: then the reported time per workgroup and its 95%
/// confidence interval, and the shader clock while the case was measured with whether that
/// was more than 2% below the run's median (empty where the run measured no clock). For a table
/// read from another tool, `cv` is the one that tool reported, empty where it gives none. Control characters in text cells are escaped
/// (`\n`, `\u{1b}`), so every row is one line, and a text cell that a spreadsheet would take
/// for a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading
/// `'`, as the usual guidance for CSV export says (OWASP, "CSV Injection"). Figures are
/// written by perftest itself and never quoted.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsvExporter;

/// The header row.
const HEADER: [&str; 25] = [
    "id",
    "name",
    "status",
    "bytes_per_load",
    "groups",
    "median_ns",
    "min_ns",
    "max_ns",
    "cv",
    "loads_per_s",
    "bytes_per_s",
    "original_ms",
    "relative",
    "reason",
    "device",
    "device_type",
    "driver_name",
    "driver_info",
    "driver_version",
    "api_version",
    "ns_per_group",
    "ns_per_group_low",
    "ns_per_group_high",
    "clock_mhz",
    "throttled",
];

/// What a spreadsheet may read as the start of a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A text cell: control characters escaped, and a cell that could run as a formula in a
/// spreadsheet neutralised with a leading `'`.
fn text(value: &str) -> String {
    let shown = printable(value);
    if shown.starts_with(FORMULA_STARTS) {
        format!("'{shown}")
    } else {
        shown.into_owned()
    }
}

/// A figure as a cell: empty when absent.
fn cell<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

impl Exporter for CsvExporter {
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError> {
        let mut writer = ::csv::Writer::from_writer(Vec::new());
        writer.write_record(HEADER)?;
        let device = &report.device;
        let figures = analysis.derived.iter().zip(&analysis.per_clock);
        for (case, (derived, per_clock)) in report.cases.iter().zip(figures) {
            let derived = *derived;
            // The case's own clock reading, where the rounds took one.
            let clock = per_clock.and_then(|p| p.clock_mhz.map(|mhz| (p.throttled, mhz)));
            let summary = derived.map(|d| d.summary);
            let groups = case.measurement.as_ref().map(|m| m.groups);
            let row: [String; 25] = [
                text(&case.id),
                text(&case.name),
                case.status.label().to_string(),
                case.bytes_per_load.to_string(),
                cell(groups),
                cell(summary.map(|s| s.median)),
                cell(summary.map(|s| s.min)),
                cell(summary.map(|s| s.max)),
                // A published table's spread is its source's, or none: not one sample's 0.
                match report.source {
                    Some(_) => cell(case.source_cv),
                    None => cell(summary.map(|s| s.cv)),
                },
                cell(derived.and_then(|d| d.loads_per_s)),
                cell(derived.and_then(|d| d.bytes_per_s)),
                cell(derived.map(|d| d.original_ms)),
                cell(derived.and_then(|d| d.relative)),
                text(case.status.reason().unwrap_or_default()),
                text(&device.name),
                text(&device.device_type),
                text(&device.driver_name),
                text(&device.driver_info),
                device.driver_version.to_string(),
                text(&device.api_version),
                cell(derived.map(|d| d.ns_per_group)),
                cell(derived.and_then(|d| d.interval).map(|i| i.low)),
                cell(derived.and_then(|d| d.interval).map(|i| i.high)),
                cell(clock.map(|(_, mhz)| mhz)),
                cell(clock.map(|(throttled, _)| throttled)),
            ];
            writer.write_record(&row)?;
        }
        writer
            .into_inner()
            .map_err(|e| ExportError::Io(e.into_error()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::samples::sample_report;

    #[test]
    fn formula_cells_are_neutralised() {
        for (input, cell) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+1+1", "'+1+1"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("Buffer<R8>.Load uniform", "Buffer<R8>.Load uniform"),
            ("a=b", "a=b"),
            ("", ""),
        ] {
            assert_eq!(text(input), cell, "{input:?}");
        }
        // Tab and carriage return are escaped as text first, so they cannot start a formula.
        assert!(!text("\t=1").starts_with(FORMULA_STARTS));
        assert!(!text("\r=1").starts_with(FORMULA_STARTS));
        let mut report = sample_report();
        report.cases[0].name = "=cmd|' /C calc'!A0".into();
        report.device.driver_info = "@evil".into();
        let bytes = CsvExporter.serialize(&report).unwrap();
        let mut reader = ::csv::Reader::from_reader(bytes.as_slice());
        let row = reader.records().next().unwrap().unwrap();
        let col = |name: &str| HEADER.iter().position(|h| *h == name).unwrap();
        assert_eq!(&row[col("name")], "'=cmd|' /C calc'!A0");
        assert_eq!(&row[col("driver_info")], "'@evil");
    }

    #[test]
    fn rows_and_cells() {
        let bytes = CsvExporter.serialize(&sample_report()).unwrap();
        let mut reader = ::csv::Reader::from_reader(bytes.as_slice());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(header, HEADER);
        let rows: Vec<::csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
        assert_eq!(rows.len(), 5);
        let col = |name: &str| HEADER.iter().position(|h| *h == name).unwrap();

        let fast = &rows[0];
        assert_eq!(&fast[col("id")], "typed.r8.uniform");
        assert_eq!(&fast[col("name")], "Buffer<R8>.Load uniform");
        assert_eq!(&fast[col("status")], "measured");
        assert_eq!(&fast[col("groups")], "4000");
        assert_eq!(&fast[col("median_ns")], "20000000");
        assert_eq!(&fast[col("loads_per_s")], "13107200000");
        assert_eq!(&fast[col("relative")], "4");
        assert_eq!(&fast[col("reason")], "");
        assert_eq!(&fast[col("device")], "Test GPU");
        assert_eq!(&fast[col("driver_version")], "4202496");
        let original_ms: f64 = fast[col("original_ms")].parse().unwrap();
        assert!((original_ms - 614.4).abs() < 1e-9);

        let noisy = &rows[2];
        assert_eq!(&noisy[col("min_ns")], "10000000");
        assert_eq!(&noisy[col("max_ns")], "30000000");
        assert_eq!(&noisy[col("cv")], "0.5");
        assert_eq!(&noisy[col("bytes_per_load")], "16");

        let skipped = &rows[3];
        assert_eq!(&skipped[col("status")], "skipped");
        assert_eq!(&skipped[col("reason")], "R8 sampled image not supported");
        assert_eq!(&skipped[col("median_ns")], "");
        assert_eq!(&skipped[col("groups")], "");
        assert_eq!(&rows[4][col("status")], "failed");
    }

    #[test]
    fn quotes_awkward_text() {
        let mut report = sample_report();
        report.device.name = "GPU, \"fast\" edition".to_string();
        let bytes = CsvExporter.serialize(&report).unwrap();
        let mut reader = ::csv::Reader::from_reader(bytes.as_slice());
        let first = reader.records().next().unwrap().unwrap();
        assert_eq!(&first[14], "GPU, \"fast\" edition");
    }
}
