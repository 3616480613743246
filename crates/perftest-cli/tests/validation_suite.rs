//! The whole original suite — verification and timing paths — under the Khronos validation
//! layer with synchronization validation on, on lavapipe. Any validation message fails it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

#[test]
fn full_suite_is_validation_clean() {
    let dir = common::scratch("validated");
    let report = dir.join("validated.json");
    let out = common::command(&[])
        .args([
            "llvmpipe",
            "--validation",
            "--target-ms",
            "1",
            "--samples",
            "2",
            "--warmup-max",
            "0",
        ])
        .args(["--format", "json", "--output"])
        .arg(&report)
        .output()
        .expect("run perftest");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr:\n{stderr}");
    assert!(
        stderr.contains("validation: 0 messages"),
        "stderr:\n{stderr}"
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).expect("report written"))
            .expect("valid JSON");
    let cases = json["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 138);
    assert!(
        cases.iter().all(|c| c["status"] == "measured"),
        "every case verified and timed"
    );
    assert_eq!(json["settings"]["validation"], true);
    assert_eq!(json["settings"]["verify"], true);
}
