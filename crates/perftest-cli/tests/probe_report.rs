//! The engine probe's report in the command's schema: a probe on lavapipe (validation on) is
//! turned into a `perftest-report/1` JSON file, which `perftest render` and `perftest compare`
//! then read like any report of the command. Files are written in the test's own directory.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use perftest_cases::quick_cases;
use perftest_core::{
    compute_targets, select, Bench, Context, DeviceChoice, Instance, InstanceOptions, ProbeSettings,
};

#[test]
fn a_probe_report_reads_back_like_a_run_report() {
    let instance = Arc::new(
        Instance::new(&InstanceOptions {
            validation: true,
            ..Default::default()
        })
        .unwrap(),
    );
    let targets = compute_targets(instance.handle(), instance.api_version()).unwrap();
    let summaries: Vec<_> = targets.iter().map(|t| t.summary.clone()).collect();
    let choice = DeviceChoice {
        index: None,
        name: Some("llvmpipe".into()),
    };
    let i = select(&summaries, &choice).expect("lavapipe (llvmpipe) must be installed");
    let mut bench = Bench::new(Context::new(instance.clone(), &targets[i]).unwrap()).unwrap();
    let cases: Vec<_> = quick_cases().into_iter().take(6).collect();
    let settings = ProbeSettings {
        budget: Duration::from_secs(30),
        ..Default::default()
    };
    let probe = bench.probe(&cases, &settings).unwrap();
    drop(bench);
    assert!(instance.validation_messages().is_empty());
    assert!(!probe.measured.is_empty());

    let report = probe.to_report();
    assert_eq!(report.schema, "perftest-report/1");
    assert_eq!(report.cases.len(), cases.len());
    assert!(
        report.device.name.contains("llvmpipe"),
        "{}",
        report.device.name
    );
    for (case, measured) in report.cases.iter().zip(&probe.measured) {
        let m = case.measurement.as_ref().unwrap();
        assert_eq!(m.samples_ns.len(), measured.samples.len());
        assert_eq!(m.groups, measured.groups);
    }

    let dir = common::scratch("probe-report");
    let path = dir.join("probe.json");
    std::fs::write(&path, report.to_json()).unwrap();
    let render = common::command(&[])
        .arg("render")
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&render.stdout);
    assert!(
        render.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&render.stderr)
    );
    for case in &probe.measured {
        assert!(
            text.contains(&case.case.name),
            "{} missing:\n{text}",
            case.case.name
        );
    }
    let compare = common::command(&[])
        .arg("compare")
        .arg(&path)
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&compare.stdout);
    assert!(compare.status.success(), "{text}");
    assert!(
        text.contains(&format!("Measured in both: {}", probe.measured.len())),
        "{text}"
    );
}
