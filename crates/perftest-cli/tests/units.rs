//! `--shader-units`: the count of shader units where the driver tells none (lavapipe reports
//! none), used for the rates per clock and unit in every format and for the findings.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::process::{Command, Stdio};

use serde_json::Value;

fn perftest(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_perftest"))
        .args(args)
        .env_remove("PERFTEST_VULKAN_LOADER")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SMALL: [&str; 6] = ["--target-ms", "2", "--samples", "3", "--dispatch-ms", "0.5"];

#[test]
fn given_units_give_rates_per_clock_and_unit() {
    let mut args = vec![
        "llvmpipe",
        "--filter",
        "structured.float4.linear",
        "--shader-units",
        "4",
        "--clock-mhz",
        "1000",
        "--format",
        "json",
    ];
    args.extend(SMALL);
    let (code, stdout, stderr) = perftest(&args);
    assert_eq!(code, 0, "{stderr}");
    let r: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(r["settings"]["shader_units"], 4);
    // lavapipe reports no units: the given count is the only one.
    assert!(r["device"]["shader_units"].is_null());
    let case = &r["cases"][0];
    let bytes_per_s = case["derived"]["bytes_per_s"].as_f64().unwrap();
    let best = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "best.bytes_per_clock")
        .unwrap();
    let expected = bytes_per_s / 1e9 / 4.0;
    let value = best["value"].as_f64().unwrap();
    assert!((value / expected - 1.0).abs() < 1e-9, "{value} {expected}");
    assert!(
        case["per_clock"]["bytes_per_clock_per_unit"].is_f64(),
        "{case}"
    );
    let mut text_args = args.clone();
    text_args.retain(|a| *a != "--format" && *a != "json");
    let (_, text, _) = perftest(&text_args);
    assert!(
        text.contains("Shader units: 4 units as given (--shader-units)"),
        "{text}"
    );
    let (code, _, stderr) = perftest(&["--shader-units", "0"]);
    assert_eq!(code, 2, "{stderr}");
}
