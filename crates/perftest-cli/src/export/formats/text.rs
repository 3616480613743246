//! The default output: an aligned table for a terminal.

use std::fmt::Write;

use crate::export::columns::{self, Cells, FIGURE_COLUMNS, TITLES};
use crate::export::exporter::{ExportError, Exporter};
use crate::output::printable::{cell_width, push_left, push_right};
use crate::report::Report;
use perftest_report::analysis::Analysis;

/// Writes an aligned table: case name, `ms` (the original's time), `x` (relative to the
/// baseline), Gload/s, GB/s, ± (how far the figures may be off), CV, and where a row has them
/// its notes (`noisy` above 5%, `unsteady`, `modal`) left-aligned in a column of their own, under
/// a device line. Skipped and failed cases show their reason instead of figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextExporter;

impl Exporter for TextExporter {
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError> {
        let rows = columns::rows(report, analysis);
        let name_width = rows
            .iter()
            .map(|r| cell_width(&r.name))
            .chain(std::iter::once("Case".len()))
            .max()
            .unwrap_or(0);
        let mut widths = TITLES.map(str::len);
        for row in &rows {
            if let Cells::Figures(cells) = &row.cells {
                for (width, cell) in widths.iter_mut().zip(cells) {
                    *width = (*width).max(cell_width(cell));
                }
            }
        }

        let mut out = String::new();
        writeln!(out, "{}", columns::device_line(report))?;
        for line in columns::memory_type_lines(report) {
            writeln!(out, "{line}")?;
        }
        writeln!(out)?;
        if let Some(section) = crate::export::findings::text(analysis) {
            out.push_str(&section);
            writeln!(out)?;
        }
        if let Some(section) = crate::export::guidance::text(analysis) {
            out.push_str(&section);
            writeln!(out)?;
        }
        // Padded by hand: names from a report may be longer than format!'s width allows.
        let shown = columns::shown_columns(&rows);
        push_left(&mut out, "Case", name_width);
        for (i, (title, width)) in TITLES.iter().zip(widths).take(shown).enumerate() {
            out.push_str("  ");
            if i < FIGURE_COLUMNS {
                push_right(&mut out, title, width);
            } else {
                out.push_str(title);
            }
        }
        out.push('\n');
        for row in &rows {
            push_left(&mut out, &row.name, name_width);
            match &row.cells {
                Cells::Figures(cells) => {
                    for (i, (cell, width)) in cells.iter().zip(widths).take(shown).enumerate() {
                        if i < FIGURE_COLUMNS {
                            out.push_str("  ");
                            push_right(&mut out, cell, width);
                        } else if !cell.is_empty() {
                            // The notes: left-aligned, and nothing after the CV when there is none.
                            out.push_str("  ");
                            out.push_str(cell);
                        }
                    }
                }
                Cells::Note(note) => {
                    out.push_str("  ");
                    out.push_str(note);
                }
            }
            out.push('\n');
        }
        let notes = columns::footnotes(report, analysis);
        if !notes.is_empty() {
            writeln!(out)?;
            for note in notes {
                writeln!(out, "{note}")?;
            }
        }
        if let Some(section) = crate::hierarchy::section(analysis) {
            writeln!(out)?;
            out.push_str(&section);
        }
        if let Some(section) = crate::export::twins::section(report) {
            writeln!(out)?;
            out.push_str(&section);
        }
        Ok(out.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{exporter, ExportFormat};
    use perftest_report::samples::sample_report;

    #[test]
    fn aligned_table() {
        let text = String::from_utf8(TextExporter.serialize(&sample_report()).unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Device: Test GPU (discrete, TestDriver 1.2.3, Vulkan 1.3.255)"
        );
        assert_eq!(lines[1], "");
        let expected = [
            "Case                                  ms      x  Gload/s    GB/s    ±     CV  Notes",
            "Buffer<R8>.Load uniform          614.400  4.000    13.11   13.11  n/a   0.0%",
            "Buffer<RGBA8>.Load random       2457.600  1.000     3.28   13.11  n/a   5.0%",
            "ByteAddressBuffer.Load4 random  1228.800  2.000     6.55  104.86  n/a  50.0%  noisy",
            "Texture2D<R8>.Load linear       skipped: R8 sampled image not supported",
            "cbuffer{float4} load uniform    failed: fence timeout",
            "",
            "Shader units: 132 SMs.",
        ];
        assert_eq!(lines[2], "Findings:");
        let table = lines.iter().position(|l| l.starts_with("Case ")).unwrap();
        assert_eq!(&lines[table..], expected);
    }

    /// With six samples or more a case gets its 95% interval: half its width in percent of the
    /// figure under `±`, the bounds in JSON and CSV, and a note that says what the column means.
    #[test]
    fn the_interval_column() {
        let mut report = sample_report();
        let m = report.cases[0].measurement.as_mut().unwrap();
        let g = m.groups as f64;
        // Per workgroup 100.0 to 100.5 ns: median 100.25, the interval the smallest to the largest.
        m.samples_ns = [100.5, 100.0, 100.2, 100.4, 100.1, 100.3]
            .iter()
            .map(|ns| ns * g)
            .collect();
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        let row = text.lines().find(|l| l.starts_with("Buffer<R8>")).unwrap();
        assert!(row.contains("  0.25%  "), "{row}"); // 0.25 / 100.25
        assert!(text.contains("±: with 95% confidence"), "{text}");
        let json: serde_json::Value =
            serde_json::from_slice(&exporter(ExportFormat::Json).serialize(&report).unwrap())
                .unwrap();
        let interval = &json["cases"][0]["derived"]["interval"];
        assert!(
            (interval["low"].as_f64().unwrap() - 100.0).abs() < 1e-9,
            "{json:#}"
        );
        assert!(
            (interval["high"].as_f64().unwrap() - 100.5).abs() < 1e-9,
            "{json:#}"
        );
        assert!(json["cases"][1]["derived"].get("interval").is_none());
        let csv =
            String::from_utf8(exporter(ExportFormat::Csv).serialize(&report).unwrap()).unwrap();
        let row = csv.lines().nth(1).unwrap();
        assert!(row.ends_with(",100.25,100,100.5,,"), "{row}");
        // Fewer than six samples: no interval, and no note about one.
        let plain = String::from_utf8(TextExporter.serialize(&sample_report()).unwrap()).unwrap();
        assert!(!plain.contains("±:"), "{plain}");
    }

    /// The memory types each kind resolved to show under the device line, only in a run with
    /// transfer-suite cases (Markdown lists them).
    #[test]
    fn memory_types_show_in_transfer_runs() {
        let mut report = sample_report();
        report.device.memory_types = vec![perftest_report::MemoryTypeEntry {
            kind: "bar".to_string(),
            index: 3,
            flags: "device-local, host-visible, host-coherent".to_string(),
            heap_bytes: 80 << 30,
        }];
        let line = "Memory device-local mapped: type 3 (device-local, host-visible, \
                    host-coherent), heap 80.0 GiB";
        let plain = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        assert!(!plain.contains("Memory "), "{plain}");
        report.cases[0].suite = Some("transfer".to_string());
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        assert_eq!(text.lines().nth(1), Some(line), "{text}");
        let md = exporter(ExportFormat::Markdown).serialize(&report).unwrap();
        let md = String::from_utf8(md).unwrap();
        assert!(md.contains(&format!("\n\n- {line}\n\n")), "{md}");
    }

    #[test]
    fn interrupted_run_without_baseline() {
        let mut report = sample_report();
        report.cases.remove(1);
        report.complete = false;
        // The last case was selected but the run stopped before it.
        let last = report.cases.len() - 1;
        report.cases[last].status = crate::report::CaseStatus::NotReached;
        assert!(report.cases[last].is_not_reached());
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        assert!(text.contains("614.400  n/a    13.11"), "{text}");
        assert!(
            text.contains(
                "Incomplete run (interrupted, or stopped by a device error): 3 of 4 case(s) ran"
            ),
            "{text}"
        );
        assert!(text.contains(crate::report::NOT_REACHED), "{text}");
        assert!(text.contains("x is n/a: the baseline typed.rgba8.random was not measured."));
    }

    #[test]
    fn unsteady_cases_are_marked() {
        let mut report = sample_report();
        if let Some(m) = report.cases[0].measurement.as_mut() {
            m.steady = false;
        }
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        assert!(text.contains("0.0%  unsteady"), "{text}");
        assert!(text.contains("unsteady: 1 case(s) whose first and second half of samples"));
        let steady = String::from_utf8(TextExporter.serialize(&sample_report()).unwrap()).unwrap();
        assert!(!steady.contains("unsteady"));
    }

    /// A case whose dispatches fall into two levels is marked `modal`, its figure is the fastest
    /// level, and the note under the table gives the levels and their shares, in every
    /// human-readable format; JSON carries them as `derived.modes`.
    #[test]
    fn modal_cases_show_their_levels() {
        let mut report = sample_report();
        let m = report.cases[0].measurement.as_mut().unwrap();
        let g = m.groups as f64;
        // 125.6 ns per workgroup in 4 dispatches, 126.6 in 6.
        m.samples_ns = [0, 1, 0, 1, 0, 1, 1, 0, 1, 1]
            .iter()
            .map(|&level| g * (125.6 + f64::from(level)))
            .collect();
        let d = crate::report::Derived::compute(&report.cases[0], None).unwrap();
        assert!((d.ns_per_group - 125.6).abs() < 1e-9, "{}", d.ns_per_group);
        let note =
            "modal: Buffer\\<R8\\>.Load uniform takes one of 2 distinct times per dispatch: \
                    125.60 (40%) / 126.60 (60%) ns per workgroup (share of dispatches); its \
                    figure is the fastest level.";
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        assert!(text.contains("0.4%  modal"), "{text}");
        assert!(text.contains(&note.replace('\\', "")), "{text}");
        for format in [ExportFormat::Markdown, ExportFormat::Html] {
            let out = String::from_utf8(exporter(format).serialize(&report).unwrap()).unwrap();
            assert!(out.contains("modal"), "{format:?}: {out}");
            assert!(
                out.contains("125.60 (40%) / 126.60 (60%)"),
                "{format:?}: {out}"
            );
        }
        let json: serde_json::Value =
            serde_json::from_slice(&exporter(ExportFormat::Json).serialize(&report).unwrap())
                .unwrap();
        let modes = &json["cases"][0]["derived"]["modes"];
        assert_eq!(modes[0]["share"], 0.4, "{json:#}");
        assert_eq!(modes[1]["share"], 0.6, "{json:#}");
        assert!(json["cases"][1]["derived"].get("modes").is_none());
    }

    /// A case that took a faster level in too few dispatches for a mode keeps its median, and
    /// says so under the table; its interval reaches down to that level, and JSON carries it as
    /// `derived.faster_level`.
    #[test]
    fn a_rare_faster_level_is_named() {
        let mut report = sample_report();
        let m = report.cases[0].measurement.as_mut().unwrap();
        let g = m.groups as f64;
        // 126.6 ns per workgroup in 34 dispatches, 125.6 in 2.
        m.samples_ns = (0..36)
            .map(|i| g * if i == 9 || i == 20 { 125.6 } else { 126.6 })
            .collect();
        m.seqs = (0..36).collect();
        let d = crate::report::Derived::compute(&report.cases[0], None).unwrap();
        assert!((d.ns_per_group - 126.6).abs() < 1e-9, "{}", d.ns_per_group);
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        let note = "faster: Buffer<R8>.Load uniform took 125.60 ns per workgroup in 6% of its \
                    dispatches, too few to be a level in this run; another run may report it, \
                    and the ± reaches down to it.";
        assert!(text.contains(note), "{text}");
        assert!(!text.contains("modal"), "{text}");
        let json: serde_json::Value =
            serde_json::from_slice(&exporter(ExportFormat::Json).serialize(&report).unwrap())
                .unwrap();
        let derived = &json["cases"][0]["derived"];
        assert_eq!(derived["faster_level"]["center"], 125.6, "{json:#}");
        assert_eq!(derived["faster_level"]["share"], 2.0 / 36.0, "{json:#}");
        let low = derived["interval"]["low"].as_f64().unwrap_or(0.0);
        assert!((low - 125.6).abs() < 1e-9, "{json:#}");
        assert!(json["cases"][1]["derived"].get("faster_level").is_none());
        let plain = String::from_utf8(TextExporter.serialize(&sample_report()).unwrap()).unwrap();
        assert!(!plain.contains("faster:"), "{plain}");
    }

    /// A case measured at the fastest of its data's places says so under the table, with how
    /// much longer its probes took at the slower places; one whose places made no difference
    /// beyond the margin, or whose samples are as noisy as a CPU driver's, says nothing.
    #[test]
    fn a_case_whose_place_mattered_is_named() {
        use crate::report::DataPlaces;
        let mut report = sample_report();
        let m = report.cases[0].measurement.as_mut().unwrap();
        let g = m.groups as f64;
        m.data_places = Some(DataPlaces {
            offsets: vec![0, 32768, 65536, 98304],
            probe_ns: [658.0, 596.0, 659.0, 597.0].iter().map(|t| t * g).collect(),
            place: 1,
        });
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        let note = "place: Buffer<R8>.Load uniform runs at a speed set by where its data lies. \
                    It was measured with its data 32 KB into its buffer, the fastest of 4 \
                    places; elsewhere its probe dispatches took longer: 10.4% at the start of \
                    it, 10.6% 64 KB into it.";
        assert!(text.contains(note), "{text}");
        let m = report.cases[0].measurement.as_mut().unwrap();
        if let Some(places) = m.data_places.as_mut() {
            places.probe_ns = [100.0, 98.0, 102.0, 99.0].iter().map(|t| t * g).collect();
            places.place = 0;
        }
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        assert!(!text.contains("place:"), "{text}");
        // At the first place, with another 9.7% slower (the H200's own probes).
        let m = report.cases[0].measurement.as_mut().unwrap();
        if let Some(places) = m.data_places.as_mut() {
            places.probe_ns = [598.0, 661.0, 598.0, 598.0].iter().map(|t| t * g).collect();
        }
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        let note = "place: Buffer<R8>.Load uniform runs at a speed set by where its data lies. \
                    It was measured with its data at the start of its buffer, the first of 4 \
                    places (no other probed over 3% faster); elsewhere its probe dispatches \
                    took longer: 10.5% 32 KB into it.";
        assert!(text.contains(note), "{text}");
        // The noisy case (a CV of 41%) with a 10% difference between its places.
        let m = report.cases[2].measurement.as_mut().unwrap();
        m.data_places = Some(DataPlaces {
            offsets: vec![0, 32768],
            probe_ns: vec![22e6, 20e6],
            place: 1,
        });
        let text = String::from_utf8(TextExporter.serialize(&report).unwrap()).unwrap();
        assert_eq!(text.matches("place:").count(), 1, "{text}");
        assert!(!text.contains("place: ByteAddressBuffer"), "{text}");
    }
}
