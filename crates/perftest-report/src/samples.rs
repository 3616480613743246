//! Reports for tests and examples: a made-up device, settings and a five-case report (built
//! with the `samples` feature, or in this crate's tests).

use perftest_cases::{find_case, original_cases, Case, BASELINE_CASE_ID};

use crate::schema::{CaseResult, DeviceInfo, FailureKind, Measurement, Report, Settings, SCHEMA};

/// A device description for tests.
pub fn device() -> DeviceInfo {
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
        shader_units: Some(132),
        peak_per_unit: None,
        pci_bus: Some("00000000:18:00.0".to_string()),
        device_uuid: None,
        memory_types: Vec::new(),
    }
}

/// Settings for tests.
pub fn settings() -> Settings {
    Settings {
        target_ms: 20.0,
        samples: 3,
        dispatch_ms: None,
        warmup_max: 50,
        validation: false,
        verify: true,
        suites: vec!["original".to_string()],
        clock_mhz: None,
        shader_units: None,
        placements: None,
    }
}

/// The case `id` (of the original suite, else of any suite); panics when there is none (a
/// mistyped id in a test).
pub fn case(id: &str) -> Case {
    find_case(&original_cases(), id)
        .cloned()
        .or_else(|| perftest_cases::case_for_id(id))
        .unwrap_or_else(|| unreachable!("{id}"))
}

/// A steady measurement of `groups` workgroups with these samples.
pub fn measurement(groups: u64, samples_ns: &[f64]) -> Measurement {
    Measurement {
        groups,
        dims: [u32::try_from(groups).unwrap_or(u32::MAX), 1, 1],
        samples_ns: samples_ns.to_vec(),
        sample_placements: Vec::new(),
        warmup_dispatches: 4,
        steady: true,
        short: None,
        seqs: Vec::new(),
        data_places: None,
    }
}

/// A report with a measured case four times faster than the baseline, the baseline, a
/// noisy case twice as fast, a skipped and a failed case.
pub fn sample_report() -> Report {
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
        clock: None,
        source: None,
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
        FailureKind::Timeout,
        "fence timeout",
    ));
    report
}

/// A report of `(id, ns per workgroup)` pairs, six samples of 1000 workgroups each (so the
/// cases have intervals), `spread` apart around the figure.
pub fn spread_report(cases: &[(&str, f64)], spread: f64) -> Report {
    let mut r = sample_report();
    r.cases = cases
        .iter()
        .map(|&(id, ns)| {
            let samples: Vec<f64> = (0..6)
                .map(|i| 1000.0 * ns * (1.0 + spread * (f64::from(i) - 2.5) / 2.5))
                .collect();
            CaseResult::measured(&case(id), measurement(1000, &samples))
        })
        .collect();
    r
}

/// `report` made to look read from a published table of `file`: one figure (sample) per case
/// and a source, so no noise estimate.
pub fn as_published(report: &mut Report, file: &str) {
    for c in &mut report.cases {
        if let Some(m) = &mut c.measurement {
            m.samples_ns.truncate(1);
        }
    }
    report.source = Some(crate::schema::ReportSource {
        tool: "sebbbi/perftest".to_string(),
        api: "Direct3D 11".to_string(),
        file: file.to_string(),
    });
}

/// Two reports to compare: in B (`Other GPU`) the R8 case twice as fast, the baseline 20%
/// slower, `raw.load4.random` only in A and a structured case only in B.
pub fn changed_pair() -> (Report, Report) {
    let a = sample_report();
    let mut b = sample_report();
    b.device.name = "Other GPU".to_string();
    b.cases[0].measurement = Some(measurement(4000, &[10e6, 10e6, 10e6]));
    b.cases[1].measurement = Some(measurement(1000, &[24e6, 24e6]));
    b.cases.remove(2);
    b.cases.push(CaseResult::measured(
        &case("structured.float.linear"),
        measurement(10, &[1e6]),
    ));
    (a, b)
}

/// Two sample reports whose first case took two levels: one run reported it by its faster
/// level (14 of its samples there), the other, which took that level too rarely (5), by its
/// slower one.
pub fn other_levels_pair() -> (Report, Report) {
    let mut a = sample_report();
    let mut b = sample_report();
    a.cases[0].measurement = Some(two_levels(14));
    b.cases[0].measurement = Some(two_levels(5));
    (a, b)
}

/// [`changed_pair`] with six samples a side on its first two cases: the R8 case moves from
/// 20.000-20.005 ms to 20.006-20.011 ms (beyond the noise), the RGBA8 case within it.
pub fn six_sample_pair() -> (Report, Report) {
    let (mut a, mut b) = changed_pair();
    let six = |ns: f64| [0.0, 1.0, 2.0, 3.0, 4.0, 5.0].map(|i| ns + i * 1e3);
    a.cases[0].measurement = Some(measurement(4000, &six(20.000e6)));
    b.cases[0].measurement = Some(measurement(4000, &six(20.006e6)));
    a.cases[1].measurement = Some(measurement(1000, &six(20.000e6)));
    b.cases[1].measurement = Some(measurement(1000, &six(20.005e6)));
    (a, b)
}

/// A modal case's measurement: 36 samples at two levels, `fast` of them at the faster one
/// (125.7 ms against 126.7 ms).
pub fn two_levels(fast: usize) -> Measurement {
    let samples: Vec<f64> = (0..36)
        .map(|i| if i < fast { 125.7e6 } else { 126.7e6 })
        .collect();
    measurement(1_000_000, &samples)
}

/// A steady measurement of a case whose data was measured at four places, the second (10%
/// faster than the first) chosen.
pub fn placed() -> Measurement {
    let steady: Vec<f64> = (0..6).map(|i| 18e6 + f64::from(i) * 1e3).collect();
    let mut placed = measurement(4000, &steady);
    placed.data_places = Some(crate::schema::DataPlaces {
        offsets: vec![0, 32768, 65536, 98304],
        probe_ns: vec![20e6, 18e6, 20e6, 18e6],
        place: 1,
    });
    placed
}
