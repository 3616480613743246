//! The shader clock on lavapipe (validation on): a timing run measures the subgroup clock
//! between its cases and writes the readings and the figures derived from them; the memory
//! suite's clock case verifies; `--clock-mhz` wins over the measured clock and is printed
//! beside it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

fn perftest(args: &[&str]) -> (i32, String, String) {
    common::perftest(args).into_parts()
}

/// A short timing run on lavapipe of the cases `filters` select, then `extra`.
fn timed(filters: &[&str], extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["llvmpipe", "--target-ms", "6", "--dispatch-ms", "1"];
    for filter in filters {
        args.extend(["--filter", filter]);
    }
    args.extend_from_slice(extra);
    perftest(&args)
}

/// A short timing run of two cases on lavapipe, validation on, as JSON on stdout.
fn short_run(extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--validation", "--format", "json"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = timed(&["typed.r8.uniform", "typed.rgba8.random"], &args);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}\n{stdout}"))
}

#[test]
fn a_run_measures_the_clock_between_its_cases() {
    let report = short_run(&[]);
    let clock = &report["clock"];
    let samples = clock["samples_ns"]
        .as_array()
        .expect("the run's clock samples");
    let seqs = clock["seqs"].as_array().unwrap();
    assert!(samples.len() >= 6, "{clock}");
    assert_eq!(samples.len(), seqs.len());
    assert!(clock["ticks_per_dispatch"].as_u64().unwrap() >= 4096);
    assert_eq!(clock["ticks_per_group"].as_u64(), Some(4096));
    assert!(clock["alone"]["short"]["samples_ns"].is_array(), "{clock}");
    let derived = &report["clock_derived"];
    assert_eq!(derived["source"], "measured");
    let mhz = derived["mhz"].as_f64().unwrap();
    assert!(mhz.is_finite() && mhz > 0.0, "{derived}");
    let (min, median, max) = (
        derived["min_mhz"].as_f64().unwrap(),
        derived["median_mhz"].as_f64().unwrap(),
        derived["max_mhz"].as_f64().unwrap(),
    );
    assert!(min <= median && median <= max, "{derived}");
    // Every case of the rounds has the reading nearest its samples, and places in the run
    // that the clock's places interleave with.
    for case in report["cases"].as_array().unwrap() {
        let case_mhz = case["per_clock"]["clock_mhz"]
            .as_f64()
            .expect("a case's clock");
        assert!(
            case_mhz >= min && case_mhz <= max,
            "{case_mhz} outside {min}..{max}"
        );
        let case_seqs = case["measurement"]["seqs"].as_array().unwrap();
        assert_eq!(
            case_seqs.len(),
            case["measurement"]["samples_ns"].as_array().unwrap().len()
        );
    }
    let all: Vec<u64> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["measurement"]["seqs"].as_array().unwrap().clone())
        .chain(seqs.iter().cloned())
        .map(|v| v.as_u64().unwrap())
        .collect();
    let mut unique = all.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), all.len(), "one place per dispatch: {all:?}");
}

#[test]
fn a_given_clock_wins_and_the_measured_one_is_printed_beside_it() {
    let report = short_run(&["--clock-mhz", "1234"]);
    assert_eq!(report["clock_derived"]["source"], "given");
    assert_eq!(report["clock_derived"]["mhz"].as_f64(), Some(1234.0));
    let measured = report["clock_derived"]["measured_mhz"].as_f64().unwrap();
    assert!(measured > 0.0 && measured != 1234.0, "{measured}");
    let (code, text, stderr) = timed(&["typed.r8.uniform"], &["--clock-mhz", "1234"]);
    assert_eq!(code, 0, "{stderr}");
    let line = text
        .lines()
        .find(|l| l.starts_with("Shader clock: 1234 MHz as given (--clock-mhz); measured"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("MHz ("), "{line}");
}

#[test]
fn the_clock_case_verifies_under_validation() {
    let (code, stdout, stderr) = perftest(&[
        "llvmpipe",
        "--validation",
        "--verify",
        "--suite",
        "memory",
        "--filter",
        "mem.clock",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("pass  mem.clock.subgroup"), "{stdout}");
    assert!(stdout.contains("1 passed, 0 failed, 0 skipped"), "{stdout}");
}

#[test]
fn csv_rows_carry_each_case_clock_and_flag() {
    let (code, csv, stderr) = timed(&["typed.r8.uniform"], &["--format", "csv"]);
    assert_eq!(code, 0, "{stderr}");
    let mut lines = csv.lines();
    assert!(
        lines.next().unwrap().ends_with(",clock_mhz,throttled"),
        "{csv}"
    );
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mhz: f64 = row[row.len() - 2].parse().unwrap();
    assert!(mhz > 0.0, "{csv}");
    assert!(["true", "false"].contains(&row[row.len() - 1]), "{csv}");
}

/// lavapipe leaves a loop after 65,535 iterations, so a spin sized for 13 ms is cut short and
/// its time stops growing with its blocks: the run still completes, without a clock of its own
/// (it used to size the spin past 2^32 blocks and end the run on a device error).
#[test]
fn a_clock_spin_the_driver_cuts_short_leaves_the_run_without_a_clock() {
    let args = [
        "llvmpipe",
        "--filter",
        "typed.r8.uniform",
        "--dispatch-ms",
        "13",
        "--validation",
        "--format",
        "json",
    ];
    let (code, stdout, stderr) = perftest(&args);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["complete"], true, "{stderr}");
    assert!(report["clock"].is_null(), "{}", report["clock"]);
    let case = &report["cases"][0];
    assert_eq!(case["status"], "measured", "{case}");
    assert!(case.get("per_clock").is_none(), "{case}");
}

/// The most iterations lavapipe runs of a loop before it leaves it: a chase's dispatch walks one
/// block per iteration of its outer loop.
const LAVAPIPE_LOOP_LIMIT: u64 = 65_535;

/// A pointer chase long enough for lavapipe to cut short is never reported as a clean figure
/// (it read 0.9 ns per load, exit 0): it fails with the reason, or, where the machine's other
/// work makes its dispatches vary by over 5% so that the check cannot tell, its figure is
/// marked noisy.
#[test]
fn a_chase_the_driver_cuts_short_is_never_a_clean_figure() {
    let args = [
        "llvmpipe",
        "--suite",
        "memory",
        "--filter",
        "mem.sweep.latency.4kb",
        "--no-refine",
        "--dispatch-ms",
        "20",
        "--validation",
        "--format",
        "json",
    ];
    let (code, stdout, stderr) = perftest(&args);
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}\n{stderr}"));
    let case = &report["cases"][0];
    assert_eq!(case["id"], "mem.sweep.latency.4kb", "{case}");
    match case["status"].as_str() {
        Some("failed") => {
            let why = case["reason"].as_str().unwrap_or_default();
            assert!(why.contains("cut the walk short"), "{case}");
        }
        // On a machine slow enough that 20 ms covers fewer blocks than lavapipe's loop limit,
        // nothing is cut and a clean figure is right; past the limit, only a noisy one is.
        _ if case["measurement"]["groups"].as_u64().unwrap_or(0) < LAVAPIPE_LOOP_LIMIT => {
            assert_eq!(case["status"], "measured", "{case}");
        }
        _ => assert_eq!(case["derived"]["noisy"], true, "{case}\n{stderr}"),
    }
    // One case failing leaves the run complete: the table and the report say which.
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(report["complete"], true);
}
