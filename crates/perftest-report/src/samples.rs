//! Reports for tests and examples: a made-up device, settings and a five-case report (built
//! with the `samples` feature, or in this crate's tests).

use perftest_cases::{find_case, original_cases, Case, BASELINE_CASE_ID};

use crate::schema::{CaseResult, DeviceInfo, Measurement, Report, Settings, SCHEMA};

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
    }
}

/// The original case `id`; panics when there is none (a mistyped id in a test).
pub fn case(id: &str) -> Case {
    find_case(&original_cases(), id)
        .cloned()
        .unwrap_or_else(|| unreachable!("{id}"))
}

/// A steady measurement of `groups` workgroups with these samples.
pub fn measurement(groups: u64, samples_ns: &[f64]) -> Measurement {
    Measurement {
        groups,
        dims: [u32::try_from(groups).unwrap_or(u32::MAX), 1, 1],
        samples_ns: samples_ns.to_vec(),
        warmup_dispatches: 4,
        steady: true,
        short: None,
        seqs: Vec::new(),
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
        "fence timeout",
    ));
    report
}

/// Synthetic latency curves (cost by working set) of known hierarchies, for the hierarchy's
/// tests and the command's.
pub mod curves {
    use crate::hierarchy::Point;

    /// A kilobyte, as a working-set size.
    pub const KB: f64 = 1024.0;
    /// A megabyte.
    pub const MB: f64 = 1024.0 * 1024.0;

    /// Sizes from 4 KB to 512 MB, `per_octave` per doubling, rounded to 128 bytes.
    pub fn grid(per_octave: u32) -> Vec<u64> {
        let steps = 17 * per_octave;
        (0..=steps)
            .map(|i| {
                let bytes = 4096.0 * 2f64.powf(f64::from(i) / f64::from(per_octave));
                ((bytes / 128.0).round() as u64) * 128
            })
            .collect()
    }

    /// The points of `model` at `sizes`.
    pub fn sample(sizes: &[u64], model: impl Fn(f64) -> f64) -> Vec<Point> {
        sizes
            .iter()
            .map(|&bytes| Point {
                bytes,
                cost: model(bytes as f64),
            })
            .collect()
    }

    /// A step curve: `steps` are (capacity, cost) up to that capacity, then `last` beyond.
    pub fn steps(steps: &[(f64, f64)], last: f64) -> impl Fn(f64) -> f64 + '_ {
        move |w| {
            steps
                .iter()
                .find(|(capacity, _)| w <= *capacity)
                .map_or(last, |(_, cost)| *cost)
        }
    }

    /// The H200 in cycles: L1 35 up to 200 KB, near L2 283 up to 30 MB, far L2 1.8x that up
    /// to 60 MB, memory 690.
    pub fn h200(w: f64) -> f64 {
        steps(
            &[
                (200.0 * KB, 35.0),
                (30.0 * MB, 283.0),
                (60.0 * MB, 283.0 * 1.8),
            ],
            690.0,
        )(w)
    }

    /// The H100 in cycles: L1 to 224 KB, 50 MB of L2 in two partitions, memory 680.
    pub fn h100(w: f64) -> f64 {
        steps(
            &[
                (224.0 * KB, 33.0),
                (25.0 * MB, 277.0),
                (50.0 * MB, 277.0 * 1.8),
            ],
            680.0,
        )(w)
    }

    /// A CPU under lavapipe: L1 48 KB, L2 1.25 MB, L3 32 MB, each step spread over about an
    /// octave (a set of `w` keeps `(capacity / w)^4` of itself in a cache too small for it).
    pub fn cpu(w: f64) -> f64 {
        let levels = [(48.0 * KB, 1.2), (1.25 * MB, 4.0), (32.0 * MB, 12.0)];
        let mut cost = 0.0;
        let mut left = 1.0;
        for (capacity, latency) in levels {
            let hit = (capacity / w).min(1.0).powi(4) * left;
            cost += hit * latency;
            left -= hit;
        }
        cost + left * 90.0
    }

    /// A deterministic noise factor in 1 +- `amount`, different for every size.
    pub fn noise(bytes: f64, amount: f64) -> f64 {
        let x = (bytes.log2() * 12.9898).sin() * 43758.5453;
        1.0 + amount * (2.0 * (x - x.floor()) - 1.0)
    }
}
