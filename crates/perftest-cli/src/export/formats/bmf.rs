//! Bencher Metric Format (BMF), for the Bencher dashboard (`bencher run --adapter json`).

use serde_json::{json, Map, Value};

use crate::export::exporter::{ExportError, Exporter};
use crate::export::spread::throughput_spread;
use crate::report::Report;
use perftest_report::analysis::Analysis;

/// The BMF measure perftest reports: billions of loads per second (higher is better).
pub const MEASURE: &str = "gload-per-s";

/// Writes `{"<case id>": {"gload-per-s": {"value": v, "lower_value": lo, "upper_value": hi}}}`
/// for every measured case. `value` is the median's Gload/s; `lower_value` and `upper_value`
/// are the Gload/s of the slowest and the fastest sample. Skipped and failed cases have no
/// number and are left out.
#[derive(Clone, Copy, Debug, Default)]
pub struct BmfExporter;

impl Exporter for BmfExporter {
    fn render(&self, report: &Report, analysis: &Analysis) -> Result<Vec<u8>, ExportError> {
        let mut out = Map::new();
        for (case, derived) in report.cases.iter().zip(analysis.derived.iter().copied()) {
            let Some(spread) = derived.as_ref().and_then(|d| throughput_spread(case, d)) else {
                continue;
            };
            out.insert(
                case.id.clone(),
                json!({ MEASURE: {
                    "value": spread.median,
                    "lower_value": spread.lowest,
                    "upper_value": spread.highest,
                }}),
            );
        }
        let mut bytes = serde_json::to_vec_pretty(&Value::Object(out))?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_report::samples::sample_report;

    #[test]
    fn shape_matches_bmf() {
        let report = sample_report();
        let bytes = BmfExporter.serialize(&report).unwrap();
        let value: Value = serde_json::from_slice(&bytes).unwrap();
        let object = value.as_object().unwrap();
        // Three measured cases; the skipped and the failed one have no metric.
        let keys: Vec<&str> = object.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["raw.load4.random", "typed.r8.uniform", "typed.rgba8.random"]
        );
        for (id, benchmark) in object {
            let metrics = benchmark.as_object().unwrap();
            assert_eq!(metrics.len(), 1, "{id}");
            let metric = metrics[MEASURE].as_object().unwrap();
            let mut fields: Vec<&str> = metric.keys().map(String::as_str).collect();
            fields.sort_unstable();
            assert_eq!(fields, ["lower_value", "upper_value", "value"], "{id}");
            let v = |k: &str| metric[k].as_f64().unwrap();
            assert!(v("lower_value") <= v("value") && v("value") <= v("upper_value"));
        }
        // The baseline: 1000 groups x 65536 loads in 19/20/21 ms.
        let base = &object["typed.rgba8.random"][MEASURE];
        let gload = |ms: f64| 1000.0 * 65536.0 / (ms * 1e-3) / 1e9;
        assert!((base["value"].as_f64().unwrap() - gload(20.0)).abs() < 1e-9);
        assert!((base["lower_value"].as_f64().unwrap() - gload(21.0)).abs() < 1e-9);
        assert!((base["upper_value"].as_f64().unwrap() - gload(19.0)).abs() < 1e-9);
    }

    #[test]
    fn no_measured_case_gives_an_empty_object() {
        let mut report = sample_report();
        report.cases.retain(|c| c.measurement.is_none());
        let bytes = BmfExporter.serialize(&report).unwrap();
        assert_eq!(String::from_utf8(bytes).unwrap(), "{}\n");
    }
}
