//! github-action-benchmark's `customBiggerIsBetter` input.

use serde::Serialize;

use crate::export::exporter::{ExportError, Exporter};
use crate::export::spread::throughput_spread;
use crate::report::Report;
use perftest_report::analysis::Analysis;

/// Unit of every entry.
pub const UNIT: &str = "Gload/s";

/// Writes `[{"name", "unit", "value", "range", "extra"}]`, one entry per measured case, for
/// [github-action-benchmark](https://github.com/benchmark-action/github-action-benchmark)
/// with `tool: customBiggerIsBetter`. `name` is the case's display name, `value` its median
/// Gload/s, `range` `± h` with h half the Gload/s difference between the fastest and the
/// slowest sample, and `extra` names the device, driver and settings (the action shows it in
/// the chart's tooltip).
#[derive(Clone, Copy, Debug, Default)]
pub struct BenchmarkActionExporter;

/// One entry of the action's JSON array.
#[derive(Serialize)]
struct Entry {
    name: String,
    unit: &'static str,
    value: f64,
    range: String,
    extra: String,
}

impl Exporter for BenchmarkActionExporter {
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError> {
        let d = &report.device;
        let extra = format!(
            "device: {} ({})\ndriver: {} {} (version {:#x})\nVulkan {}\ncase: ",
            d.name, d.device_type, d.driver_name, d.driver_info, d.driver_version, d.api_version
        );
        let entries: Vec<Entry> = report
            .cases
            .iter()
            .zip(analysis.derived.iter().copied())
            .filter_map(|(case, derived)| {
                let spread = throughput_spread(case, derived.as_ref()?)?;
                Some(Entry {
                    name: case.name.clone(),
                    unit: UNIT,
                    value: spread.median,
                    range: format!("± {:.3}", (spread.highest - spread.lowest) / 2.0),
                    extra: format!("{extra}{}", case.id),
                })
            })
            .collect();
        let mut bytes = serde_json::to_vec_pretty(&entries)?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::samples::sample_report;
    use serde_json::Value;

    #[test]
    fn shape_matches_custom_bigger_is_better() {
        let report = sample_report();
        let bytes = BenchmarkActionExporter.serialize(&report).unwrap();
        let value: Value = serde_json::from_slice(&bytes).unwrap();
        let entries = value.as_array().unwrap();
        assert_eq!(entries.len(), 3);
        for entry in entries {
            let object = entry.as_object().unwrap();
            let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(keys, ["extra", "name", "range", "unit", "value"]);
            assert!(entry["name"].is_string() && entry["range"].is_string());
            assert_eq!(entry["unit"], UNIT);
            assert!(entry["value"].as_f64().unwrap() > 0.0);
            let extra = entry["extra"].as_str().unwrap();
            assert!(extra.contains("device: Test GPU (discrete)"), "{extra}");
            assert!(extra.contains("driver: TestDriver 1.2.3"), "{extra}");
        }
        let base = &entries[1];
        assert_eq!(base["name"], "Buffer<RGBA8>.Load random");
        let gload = |ms: f64| 1000.0 * 65536.0 / (ms * 1e-3) / 1e9;
        assert!((base["value"].as_f64().unwrap() - gload(20.0)).abs() < 1e-9);
        let half = (gload(19.0) - gload(21.0)) / 2.0;
        assert_eq!(base["range"], format!("± {half:.3}"));
        assert!(base["extra"]
            .as_str()
            .unwrap()
            .ends_with("typed.rgba8.random"));
    }
}
