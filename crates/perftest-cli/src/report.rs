//! The run report: what was measured, on which device, with which settings.
//!
//! The report holds raw data only (per-dispatch GPU times); every figure printed from it is
//! derived on demand by [`Derived::compute`], so a saved JSON report can be re-rendered in any
//! format later. The schema string names the layout; readers refuse other schemas.

use std::time::{SystemTime, UNIX_EPOCH};

use perftest_cases::{Case, Family, BASELINE_CASE_ID, LOADS_PER_THREAD, THREADS_PER_GROUP};
use serde::{Deserialize, Serialize};

use crate::statistics::Summary;

/// The schema this version of perftest writes and reads.
pub const SCHEMA: &str = "perftest-report/1";

/// Above this coefficient of variation (5%) a case is marked noisy.
pub const NOISY_CV: f64 = 0.05;

/// Loads one workgroup performs: 256 threads x 256 loads (textures: 16x16 x 16x16).
pub const LOADS_PER_GROUP: u64 = THREADS_PER_GROUP as u64 * LOADS_PER_THREAD as u64;

/// Workgroups in one of the original's dispatches (4 x 1024).
pub const ORIGINAL_GROUPS_PER_DISPATCH: u64 = 4 * 1024;

/// Dispatches the original timed per case.
pub const ORIGINAL_DISPATCHES: u64 = 30;

/// One run of perftest over a list of cases.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Always [`SCHEMA`] for reports this version writes.
    pub schema: String,
    /// Version of the perftest that wrote the report.
    pub perftest_version: String,
    /// When the run started, RFC 3339 UTC (`2024-05-01T12:00:00Z`).
    pub started_at: String,
    /// When the run ended, RFC 3339 UTC; empty while it is still running.
    pub finished_at: String,
    /// False when the run was interrupted before every selected case ran.
    pub complete: bool,
    /// The device the cases ran on.
    pub device: DeviceInfo,
    /// The measurement settings.
    pub settings: Settings,
    /// Id of the case the `x` column is relative to (`Buffer<RGBA8>.Load random`).
    pub baseline_id: String,
    /// One entry per case that ran (measured, skipped or failed), in suite order.
    pub cases: Vec<CaseResult>,
}

/// The device and driver a report was measured on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// `VkPhysicalDeviceProperties::deviceName`.
    pub name: String,
    /// Device type in words (`discrete`, `integrated`, `virtual`, `cpu`, `other`).
    pub device_type: String,
    /// PCI vendor id.
    pub vendor_id: u32,
    /// Vendor-specific device id.
    pub device_id: u32,
    /// `VkPhysicalDeviceDriverProperties::driverName`.
    pub driver_name: String,
    /// `VkPhysicalDeviceDriverProperties::driverInfo`.
    pub driver_info: String,
    /// Vendor-encoded driver version, as reported.
    pub driver_version: u32,
    /// Vulkan version the device supports, `major.minor.patch` (`1.3.255`).
    pub api_version: String,
    /// Index of the queue family the dispatches ran on.
    pub queue_family: u32,
    /// Nanoseconds per timestamp tick (`timestampPeriod`).
    pub timestamp_period_ns: f32,
    /// Valid bits of the queue family's timestamps.
    pub timestamp_valid_bits: u32,
    /// Subgroup size of the compute stage.
    pub subgroup_size: u32,
    /// Workgroups of 256 threads the device runs at once, when the driver tells (NVIDIA, AMD);
    /// dispatch sizes are then whole multiples of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resident_workgroups: Option<u32>,
    /// PCI address as `nvidia-smi` prints it (`00000000:18:00.0`), when the driver reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pci_bus: Option<String>,
    /// The device's UUID (`VkPhysicalDeviceIDProperties::deviceUUID`), when reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_uuid: Option<String>,
}

/// The settings a run was measured with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Target GPU time of one measured dispatch, in milliseconds.
    pub target_ms: f64,
    /// Timed dispatches recorded per case.
    pub samples: u32,
    /// Upper bound on warm-up dispatches per case.
    pub warmup_max: u32,
    /// Whether the Vulkan validation layer was enabled.
    pub validation: bool,
    /// Whether every case's results were checked against the CPU model.
    pub verify: bool,
}

/// What happened to one case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// Stable case id (`typed.rgba8.random`).
    pub id: String,
    /// The original's display name (`Buffer<RGBA8>.Load random`).
    pub name: String,
    /// Resource family, see [`family_label`].
    pub family: String,
    /// Bytes one load reads.
    pub bytes_per_load: u32,
    /// Measured, skipped or failed (serialized inline: `"status": "skipped", "reason": ...`).
    #[serde(flatten)]
    pub status: CaseStatus,
    /// The timing data; present for measured cases.
    pub measurement: Option<Measurement>,
    /// Statistics of the case's compiled shader, from the driver
    /// (`VK_KHR_pipeline_executable_properties`); empty where the driver offers none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shader_stats: Vec<ShaderStat>,
}

/// One statistic the driver reports about a compiled shader (register count, binary size, ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShaderStat {
    /// The driver's short name (`Register Count`).
    pub name: String,
    /// The driver's description of it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Its value.
    pub value: StatValue,
}

/// The value of a [`ShaderStat`]: a yes/no, or a number (integer or finite real, kept exactly
/// as the driver gave it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StatValue {
    /// A yes/no statistic.
    Bool(bool),
    /// A count, a size or a real number.
    Number(serde_json::Number),
}

impl std::fmt::Display for StatValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StatValue::Bool(b) => write!(f, "{b}"),
            StatValue::Number(n) => write!(f, "{n}"),
        }
    }
}

/// Outcome of one case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum CaseStatus {
    /// Timed; the case's `measurement` holds the samples.
    Measured,
    /// Not run: the device lacks something the case needs.
    Skipped {
        /// What is missing, e.g. `R8 texel buffer not supported`.
        reason: String,
    },
    /// Ran but failed (device error, timeout, wrong results).
    Failed {
        /// What went wrong.
        reason: String,
    },
}

/// The raw timing data of one measured case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Workgroups per dispatch (the product of `dims`).
    pub groups: u64,
    /// Dispatch dimensions X, Y, Z.
    pub dims: [u32; 3],
    /// GPU time of each timed dispatch, in nanoseconds.
    pub samples_ns: Vec<f64>,
    /// Dispatches run before the recorded ones: sizing probes, and first dispatches that were
    /// off target and re-sized.
    pub warmup_dispatches: u32,
    /// True when the size was confirmed on target and the medians of the first and second half
    /// of the samples agree within 2%.
    pub steady: bool,
}

/// Figures derived from a measured case (and the baseline case, for `relative`).
///
/// Everything that could be infinite or NaN (division by a zero time) is an `Option`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Derived {
    /// Statistics of the per-dispatch times, in nanoseconds.
    pub summary: Summary,
    /// Median nanoseconds per workgroup.
    pub ns_per_group: f64,
    /// Loads per second: `groups * 65536 / median`.
    pub loads_per_s: Option<f64>,
    /// Bytes loaded per second: `loads_per_s * bytes_per_load`.
    pub bytes_per_s: Option<f64>,
    /// The original's `ms` column: the time its 30 dispatches of 4x1024 groups would take at
    /// the measured per-group time.
    pub original_ms: f64,
    /// The original's `x` column: baseline `original_ms` / this case's `original_ms`
    /// (higher is faster). `None` when the baseline was not measured.
    pub relative: Option<f64>,
    /// CV above [`NOISY_CV`].
    pub noisy: bool,
}

impl Derived {
    /// Derives the figures of `case`, relative to `baseline` when given.
    ///
    /// `None` when the case was not measured, has no samples, no groups, or samples that
    /// [`Summary::of`] refuses.
    pub fn compute(case: &CaseResult, baseline: Option<&CaseResult>) -> Option<Derived> {
        let baseline_ms = baseline
            .and_then(|b| Derived::compute(b, None))
            .map(|b| b.original_ms);
        Derived::against(case, baseline_ms)
    }

    /// Derives the figures of `case`, relative to a baseline whose `original_ms` is given (so
    /// the baseline's own figures are computed once per report, not once per case).
    fn against(case: &CaseResult, baseline_ms: Option<f64>) -> Option<Derived> {
        if case.status != CaseStatus::Measured {
            return None;
        }
        let measurement = case.measurement.as_ref()?;
        if measurement.groups == 0 {
            return None;
        }
        let summary = Summary::of(&measurement.samples_ns)?;
        let groups = measurement.groups as f64;
        let ns_per_group = summary.median / groups;
        let loads_per_s =
            finite_positive(groups * LOADS_PER_GROUP as f64 / (summary.median * 1e-9));
        let bytes_per_s = loads_per_s
            .map(|l| l * f64::from(case.bytes_per_load))
            .and_then(finite_positive);
        let original_ms =
            ns_per_group * (ORIGINAL_GROUPS_PER_DISPATCH * ORIGINAL_DISPATCHES) as f64 / 1e6;
        let relative = baseline_ms.and_then(|b| finite_positive(b / original_ms));
        Some(Derived {
            summary,
            ns_per_group,
            loads_per_s,
            bytes_per_s,
            original_ms,
            relative,
            noisy: summary.cv > NOISY_CV,
        })
    }
}

/// `Some(value)` for a finite, positive value.
fn finite_positive(value: f64) -> Option<f64> {
    (value.is_finite() && value > 0.0).then_some(value)
}

impl Report {
    /// An empty report for a run starting now: current schema and version, the original's
    /// baseline case, not yet complete.
    pub fn begin(device: DeviceInfo, settings: Settings) -> Report {
        Report {
            schema: SCHEMA.to_string(),
            perftest_version: env!("CARGO_PKG_VERSION").to_string(),
            started_at: now_rfc3339(),
            finished_at: String::new(),
            complete: false,
            device,
            settings,
            baseline_id: BASELINE_CASE_ID.to_string(),
            cases: Vec::new(),
        }
    }

    /// Stamps the end time; `complete` is false when the run was interrupted.
    pub fn finish(&mut self, complete: bool) {
        self.finished_at = now_rfc3339();
        self.complete = complete;
    }

    /// The baseline case's result, when it is in the report.
    pub fn baseline(&self) -> Option<&CaseResult> {
        self.cases.iter().find(|c| c.id == self.baseline_id)
    }

    /// The derived figures of `case` against this report's baseline.
    pub fn derived(&self, case: &CaseResult) -> Option<Derived> {
        Derived::compute(case, self.baseline())
    }

    /// The derived figures of every case, in order (`None` for cases not measured), in time
    /// linear in the number of cases and samples.
    pub fn derived_all(&self) -> Vec<Option<Derived>> {
        let baseline_ms = self
            .baseline()
            .and_then(|b| Derived::compute(b, None))
            .map(|b| b.original_ms);
        self.cases
            .iter()
            .map(|c| Derived::against(c, baseline_ms))
            .collect()
    }
}

impl CaseResult {
    /// A measured case.
    pub fn measured(case: &Case, measurement: Measurement) -> CaseResult {
        CaseResult::with_status(case, CaseStatus::Measured, Some(measurement))
    }

    /// A case skipped because the device lacks something it needs.
    pub fn skipped(case: &Case, reason: impl Into<String>) -> CaseResult {
        let status = CaseStatus::Skipped {
            reason: reason.into(),
        };
        CaseResult::with_status(case, status, None)
    }

    /// A case that failed while running.
    pub fn failed(case: &Case, reason: impl Into<String>) -> CaseResult {
        let status = CaseStatus::Failed {
            reason: reason.into(),
        };
        CaseResult::with_status(case, status, None)
    }

    fn with_status(
        case: &Case,
        status: CaseStatus,
        measurement: Option<Measurement>,
    ) -> CaseResult {
        CaseResult {
            id: case.id.clone(),
            name: case.name.clone(),
            family: family_label(case.family).to_string(),
            bytes_per_load: case.bytes_per_load(),
            status,
            measurement,
            shader_stats: Vec::new(),
        }
    }
}

impl CaseStatus {
    /// The lowercase word used in reports (`measured`, `skipped`, `failed`).
    pub fn label(&self) -> &'static str {
        match self {
            CaseStatus::Measured => "measured",
            CaseStatus::Skipped { .. } => "skipped",
            CaseStatus::Failed { .. } => "failed",
        }
    }

    /// Why the case was skipped or failed; `None` for measured cases.
    pub fn reason(&self) -> Option<&str> {
        match self {
            CaseStatus::Measured => None,
            CaseStatus::Skipped { reason } | CaseStatus::Failed { reason } => Some(reason),
        }
    }
}

/// The report's word for a resource family (`typed_buffer`, `raw_buffer`, `structured_buffer`,
/// `uniform_buffer`, `texture_load`, `texture_sample`).
pub fn family_label(family: Family) -> &'static str {
    match family {
        Family::TypedBuffer { .. } => "typed_buffer",
        Family::RawBuffer { .. } => "raw_buffer",
        Family::StructuredBuffer { .. } => "structured_buffer",
        Family::UniformBuffer => "uniform_buffer",
        Family::TextureLoad { .. } => "texture_load",
        Family::TextureSample { .. } => "texture_sample",
    }
}

/// The current time as RFC 3339 UTC with whole seconds (`2024-05-01T12:00:00Z`).
pub fn now_rfc3339() -> String {
    rfc3339_utc(SystemTime::now())
}

/// Formats `time` as RFC 3339 UTC with whole seconds (`2024-05-01T12:00:00Z`), rounding down.
pub fn rfc3339_utc(time: SystemTime) -> String {
    let seconds: i64 = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
        Err(before) => {
            let before = before.duration();
            let whole = i64::try_from(before.as_secs()).unwrap_or(i64::MAX);
            let partial = i64::from(before.subsec_nanos() > 0);
            whole.saturating_neg().saturating_sub(partial)
        }
    };
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days.saturating_add(719_468);
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365], from March 1st
    let mp = (5 * doy + 2) / 153; // [0, 11], March = 0
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use perftest_cases::{find_case, original_cases};
    use std::time::Duration;

    /// A device description for tests.
    pub(crate) fn device() -> DeviceInfo {
        DeviceInfo {
            name: "Test GPU".to_string(),
            device_type: "discrete".to_string(),
            vendor_id: 0x10de,
            device_id: 0x2684,
            driver_name: "TestDriver".to_string(),
            driver_info: "1.2.3".to_string(),
            driver_version: 0x0040_2000,
            api_version: "1.3.255".to_string(),
            queue_family: 0,
            timestamp_period_ns: 1.0,
            timestamp_valid_bits: 64,
            subgroup_size: 32,
            resident_workgroups: Some(1056),
            pci_bus: Some("00000000:18:00.0".to_string()),
            device_uuid: None,
        }
    }

    /// Settings for tests.
    pub(crate) fn settings() -> Settings {
        Settings {
            target_ms: 20.0,
            samples: 3,
            warmup_max: 50,
            validation: false,
            verify: true,
        }
    }

    pub(crate) fn case(id: &str) -> Case {
        find_case(&original_cases(), id)
            .cloned()
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    pub(crate) fn measurement(groups: u64, samples_ns: &[f64]) -> Measurement {
        Measurement {
            groups,
            dims: [u32::try_from(groups).unwrap(), 1, 1],
            samples_ns: samples_ns.to_vec(),
            warmup_dispatches: 4,
            steady: true,
        }
    }

    /// A report with a measured case four times faster than the baseline, the baseline, a
    /// noisy case twice as fast, a skipped and a failed case.
    pub(crate) fn sample_report() -> Report {
        let mut report = Report {
            schema: SCHEMA.to_string(),
            perftest_version: "0.1.0".to_string(),
            started_at: "2024-05-01T12:00:00Z".to_string(),
            finished_at: "2024-05-01T12:01:00Z".to_string(),
            complete: true,
            device: device(),
            settings: settings(),
            baseline_id: BASELINE_CASE_ID.to_string(),
            cases: Vec::new(),
        };
        // 4000 groups in 20 ms: 5 us per group; original_ms = 5e3 * 122880 / 1e6 = 614.4.
        report.cases.push(CaseResult::measured(
            &case("typed.r8.uniform"),
            measurement(4000, &[20e6, 20e6, 20e6]),
        ));
        // The baseline: 20 us per group, original_ms = 2457.6.
        report.cases.push(CaseResult::measured(
            &case("typed.rgba8.random"),
            measurement(1000, &[19e6, 20e6, 21e6]),
        ));
        report.cases.push(CaseResult::measured(
            &case("raw.load4.random"),
            measurement(2000, &[10e6, 20e6, 30e6]),
        ));
        report.cases.push(CaseResult::skipped(
            &case("tex.load.r8.linear"),
            "R8 sampled image not supported",
        ));
        report.cases.push(CaseResult::failed(
            &case("cbuffer.float4.uniform"),
            "fence timeout",
        ));
        report
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
    }

    #[test]
    fn derived_figures() {
        let report = sample_report();
        let baseline = report.derived(&report.cases[1]).unwrap();
        assert_eq!(baseline.ns_per_group, 20_000.0);
        assert!(
            close(baseline.original_ms, 2457.6),
            "{}",
            baseline.original_ms
        );
        assert_eq!(baseline.relative, Some(1.0));
        let loads = baseline.loads_per_s.unwrap();
        assert!(close(loads, 1000.0 * 65536.0 / 0.02), "{loads}");
        assert!(close(baseline.bytes_per_s.unwrap(), loads * 4.0));
        assert!(!baseline.noisy); // CV = 1e6 / 20e6 = 0.05, not above

        let fast = report.derived(&report.cases[0]).unwrap();
        assert_eq!(fast.ns_per_group, 5_000.0);
        assert!(close(fast.original_ms, 614.4), "{}", fast.original_ms);
        assert!(close(fast.relative.unwrap(), 4.0));
        assert!(close(fast.bytes_per_s.unwrap(), fast.loads_per_s.unwrap()));
        assert!(!fast.noisy);

        let noisy = report.derived(&report.cases[2]).unwrap();
        assert!(close(noisy.summary.cv, 0.5));
        assert!(noisy.noisy);
        assert!(close(noisy.relative.unwrap(), 2.0));
        assert!(close(
            noisy.bytes_per_s.unwrap(),
            noisy.loads_per_s.unwrap() * 16.0
        ));

        assert_eq!(report.derived(&report.cases[3]), None);
        assert_eq!(report.derived(&report.cases[4]), None);
        assert_eq!(
            report.derived_all().iter().filter(|d| d.is_some()).count(),
            3
        );
    }

    #[test]
    fn relative_needs_a_measured_baseline() {
        let mut report = sample_report();
        report.cases[1] = CaseResult::skipped(&case("typed.rgba8.random"), "no RGBA8");
        let fast = report.derived(&report.cases[0]).unwrap();
        assert_eq!(fast.relative, None);
        assert!(close(fast.original_ms, 614.4));
        report.cases.remove(1);
        assert_eq!(report.derived(&report.cases[0]).unwrap().relative, None);
    }

    #[test]
    fn degenerate_measurements_give_no_nan() {
        let c = case("typed.r8.uniform");
        let zero_time = CaseResult::measured(&c, measurement(10, &[0.0, 0.0]));
        let d = Derived::compute(&zero_time, Some(&zero_time)).unwrap();
        assert_eq!((d.ns_per_group, d.original_ms), (0.0, 0.0));
        assert_eq!(
            (d.loads_per_s, d.bytes_per_s, d.relative),
            (None, None, None)
        );
        let no_groups = CaseResult::measured(&c, measurement(0, &[5.0]));
        assert_eq!(Derived::compute(&no_groups, None), None);
        let no_samples = CaseResult::measured(&c, measurement(10, &[]));
        assert_eq!(Derived::compute(&no_samples, None), None);
        let nan = CaseResult::measured(&c, measurement(10, &[f64::NAN]));
        assert_eq!(Derived::compute(&nan, None), None);
        let mut missing = CaseResult::measured(&c, measurement(10, &[5.0]));
        missing.measurement = None;
        assert_eq!(Derived::compute(&missing, None), None);
    }

    #[test]
    fn json_layout_and_round_trip() {
        let report = sample_report();
        let text = serde_json::to_string(&report).unwrap();
        assert!(text.contains(r#""schema":"perftest-report/1""#), "{text}");
        assert!(text.contains(r#""status":"measured""#), "{text}");
        assert!(
            text.contains(r#""status":"skipped","reason":"R8 sampled image not supported""#),
            "{text}"
        );
        assert!(text.contains(r#""family":"texture_load""#), "{text}");
        let back: Report = serde_json::from_str(&text).unwrap();
        assert_eq!(back, report);
    }

    #[test]
    fn constructors() {
        let mut report = Report::begin(device(), settings());
        assert_eq!(report.schema, SCHEMA);
        assert_eq!(report.baseline_id, "typed.rgba8.random");
        assert!(!report.complete);
        assert_eq!(report.started_at.len(), 20);
        assert!(report.finished_at.is_empty());
        report.finish(true);
        assert!(report.complete);
        assert!(report.finished_at.ends_with('Z'));
        let r = CaseResult::skipped(&case("raw.load3.linear"), "x");
        assert_eq!((r.family.as_str(), r.bytes_per_load), ("raw_buffer", 12));
        assert_eq!(
            (r.status.label(), r.status.reason()),
            ("skipped", Some("x"))
        );
        assert_eq!(CaseStatus::Measured.reason(), None);
    }

    #[test]
    fn rfc3339() {
        let at = |s: i64| {
            let t = if s >= 0 {
                UNIX_EPOCH + Duration::from_secs(s.unsigned_abs())
            } else {
                UNIX_EPOCH - Duration::from_secs(s.unsigned_abs())
            };
            rfc3339_utc(t)
        };
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
        assert_eq!(at(253_402_300_799), "9999-12-31T23:59:59Z");
        assert_eq!(at(-1), "1969-12-31T23:59:59Z");
        assert_eq!(at(-31_622_400), "1968-12-31T00:00:00Z");
        let half = UNIX_EPOCH - Duration::from_millis(500);
        assert_eq!(rfc3339_utc(half), "1969-12-31T23:59:59Z");
        let later = UNIX_EPOCH + Duration::from_millis(1_999);
        assert_eq!(rfc3339_utc(later), "1970-01-01T00:00:01Z");
    }
}
