//! End-to-end tests of the `perftest` binary, each checked for its one-line `perftest: `
//! message, its documented exit code and the absence of a panic (see `common`).
//!
//! Small real runs on the machine's device: validation, verification, listings, the
//! formats on stdout, `--all-devices`, shader statistics and the pipeline cache file.

// They send Unix signals and make FIFOs and device nodes: Unix only. The Windows build is run
// the same way under Wine by `cargo xtask windows`.
#![cfg(unix)]
// clippy.toml's test exemptions cover `#[test]` functions only, not the helpers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

#[test]
fn validation_run_reports_no_messages() {
    let run = perftest_small(&["--validation", "--filter", "raw.load"]);
    run.expect_code(SUCCESS);
    assert!(run.stderr.contains("validation: 0 messages"), "{run}");
}

#[test]
fn verify_raw_cases_pass() {
    let run = perftest(&["--verify", "--filter", "raw"]);
    run.expect_code(SUCCESS);
    let passes = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("pass "))
        .count();
    assert_eq!(passes, 18, "{run}");
    assert!(!run.stdout.contains("FAIL"), "{run}");
    assert!(
        run.stdout.contains("18 passed, 0 failed, 0 skipped"),
        "{run}"
    );
}

#[test]
fn list_prints_devices() {
    let run = perftest(&["--list"]);
    run.expect_code(SUCCESS);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(!lines.is_empty(), "{run}");
    for (i, line) in lines.iter().enumerate() {
        let (index, ..) =
            parse_device_line(line).unwrap_or_else(|| panic!("not a device line: {line:?}"));
        assert_eq!(index, i + 1, "{run}");
    }
}

#[test]
fn list_cases_prints_every_case() {
    let run = perftest(&["--list-cases"]);
    run.expect_code(SUCCESS);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), ALL_CASES, "{run}");
    let mut ids: Vec<&str> = lines
        .iter()
        .map(|l| {
            let (id, name) = l.split_once(' ').unwrap_or_else(|| panic!("{l:?}"));
            assert!(!name.trim().is_empty(), "{l:?}");
            id
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), ALL_CASES, "case ids are not unique");
}

#[test]
fn json_to_stdout() {
    let run = perftest_small(&["--filter", "cbuffer", "--format", "json"]);
    run.expect_code(SUCCESS);
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{run}"));
    assert_eq!(report["complete"], true);
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 3, "{report:#}");
    for case in cases {
        assert_eq!(case["status"], "measured", "{case:#}");
        let samples = case["measurement"]["samples_ns"].as_array().unwrap();
        // --samples 3 per measurement; a pooled case (noisy, or with levels) 2 to 6 times as
        // many (fewer when its dispatches are longer than three times the 2 ms they are sized
        // for, as lavapipe's can be under load).
        assert!(
            samples.len() == 3 || (6..=18).contains(&samples.len()),
            "{} samples: {case:#}",
            samples.len()
        );
        assert!(
            samples
                .iter()
                .all(|s| s.as_f64().is_some_and(|ns| ns.is_finite() && ns > 0.0)),
            "{case:#}"
        );
    }
}

/// The JSON report a successful `--validation --format json` run printed, once it said it
/// had no validation message.
fn validated_json(run: &Run) -> Value {
    run.expect_code(SUCCESS);
    assert!(run.stderr.contains("validation: 0 messages"), "{run}");
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{run}"))
}

/// `--placements 3` under validation: every round binds the next set of the resources, each
/// sample says which (every set takes its turn), the settings record
/// the count, and the figures are measured like any run's.
#[test]
fn placements_take_turns_and_are_recorded() {
    let run = perftest_small(&[
        "--filter",
        "cbuffer",
        "--placements",
        "3",
        "--validation",
        "--format",
        "json",
    ]);
    let report = validated_json(&run);
    assert_eq!(report["settings"]["placements"], 3, "{report:#}");
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 3, "{report:#}");
    for case in cases {
        assert_eq!(case["status"], "measured", "{case:#}");
        let m = &case["measurement"];
        let samples = m["samples_ns"].as_array().unwrap().len();
        let places: Vec<u64> = m["sample_placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        assert_eq!(places.len(), samples, "{case:#}");
        // A first dispatch off its size is not kept, so the first sample may come later.
        let mut seen = places.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen, [0, 1, 2], "{case:#}");
    }
    // One set (the default): no placements recorded.
    let plain = perftest_small(&["--filter", "cbuffer", "--format", "json"]);
    plain.expect_code(SUCCESS);
    assert!(!plain.stdout.contains("placements"), "{plain}");
}

/// The timeline-semaphore launches timed under validation end, with no message: the host
/// signal is measured, or skipped with the reason where the validation layer deadlocks on it
/// (before 1.3.296; such a run used to stop only at its timeout).
#[test]
fn timeline_launches_under_validation_end_cleanly() {
    let run = perftest(&[
        "--suite",
        "transfer",
        "--filter",
        "timeline semaphore",
        "--validation",
        "--format",
        "json",
    ]);
    let report = validated_json(&run);
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2, "{report:#}");
    let host = cases
        .iter()
        .find(|c| c["id"] == "xfer.launch.host_signal")
        .unwrap_or_else(|| panic!("no host-signal case: {report:#}"));
    let skipped_for_the_layer = host["status"] == "skipped"
        && host["reason"]
            .as_str()
            .is_some_and(|r| r.contains("deadlocks"));
    assert!(
        host["status"] == "measured" || skipped_for_the_layer,
        "{host:#}"
    );
}

#[test]
fn csv_to_stdout() {
    let run = perftest_small(&["--filter", "cbuffer", "--format", "csv"]);
    run.expect_code(SUCCESS);
    let mut reader = csv::Reader::from_reader(run.stdout.as_bytes());
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no {name} column:\n{run}"))
    };
    let (id, status) = (column("id"), column("status"));
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 3, "{run}");
    for row in &rows {
        assert_eq!(row.len(), header.len(), "{run}");
        assert!(row[id].starts_with("cbuffer."), "{run}");
        assert_eq!(&row[status], "measured", "{run}");
    }
}

/// `N.NNN`: digits, a point, exactly three digits.
fn is_fixed3(text: &str) -> bool {
    text.split_once('.').is_some_and(|(int, frac)| {
        !int.is_empty()
            && int.bytes().all(|b| b.is_ascii_digit())
            && frac.len() == 3
            && frac.bytes().all(|b| b.is_ascii_digit())
    })
}

#[test]
fn original_format_to_stdout() {
    let run = perftest_small(&["--filter", "cbuffer", "--format", "original"]);
    run.expect_code(SUCCESS);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{run}");
    for line in lines {
        // NAME: N.NNNms (N.NNNx | n/a)
        let (left, ratio) = line.rsplit_once(' ').unwrap_or_else(|| panic!("{line:?}"));
        let (name, ms) = left.rsplit_once(": ").unwrap_or_else(|| panic!("{line:?}"));
        assert!(!name.is_empty(), "{line:?}");
        assert!(ms.strip_suffix("ms").is_some_and(is_fixed3), "{line:?}");
        assert!(
            ratio == "n/a" || ratio.strip_suffix('x').is_some_and(is_fixed3),
            "{line:?}"
        );
    }
}

/// `--all-devices` end to end on this machine's devices (one on lavapipe): one report per
/// device at the `{device}` path, a table per device, the node summary.
#[test]
fn all_devices_runs_every_device_and_summarizes() {
    let dir = scratch("all-devices");
    let pattern = dir.join("node-{device}.json");
    let run = perftest_small(&[
        "--all-devices",
        "--filter",
        "cbuffer",
        "--format",
        "json",
        "-o",
        path_str(&pattern),
    ]);
    run.expect_code(SUCCESS);
    let devices = perftest(&["--list"]).stdout.lines().count();
    // The reports went to their files: stdout holds the node summary only, stderr names each
    // file written.
    assert!(run.stdout.starts_with("Node summary: "), "{run}");
    assert!(!run.stdout.contains("== device "), "{run}");
    let written = run.stderr.matches(": report written to ").count();
    assert!(written >= 1 && written <= devices, "{run}");
    let files = entries(&dir);
    assert_eq!(files.len(), written, "{files:?}");
    for file in files {
        assert!(
            file.starts_with("node-") && file.ends_with(".json"),
            "{file}"
        );
        let report = read_json(&dir.join(&file));
        assert_eq!(report["cases"].as_array().unwrap().len(), 3);
        assert!(
            report["device"]["device_uuid"].is_string() || report["device"]["pci_bus"].is_string()
        );
    }
    // Without --output: a text table per device under its heading, then the summary.
    let run = perftest_small(&["--all-devices", "--filter", "cbuffer"]);
    run.expect_code(SUCCESS);
    let headers = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("== device "))
        .count();
    assert_eq!(headers, written, "{run}");
    assert!(run.stdout.contains("Node summary: "), "{run}");
    // An output path that would give every device the same file is refused before running.
    let same = dir.join("same.json");
    perftest_small(&[
        "--all-devices",
        "--filter",
        "cbuffer",
        "-o",
        path_str(&same),
    ])
    .expect_one_line_error(USAGE, &["{device}"]);
}

#[test]
fn shader_stats_on_this_device() {
    let dir = scratch("shader-stats");
    let json = dir.join("run.json");
    let dump = dir.join("dump");
    let run = perftest_small(&[
        "--filter",
        "raw.load4.linear",
        "--validation",
        "--shader-stats",
        "--dump-shaders",
        path_str(&dump),
        "--format",
        "json",
        "-o",
        path_str(&json),
    ]);
    run.expect_code(SUCCESS);
    assert!(dump.is_dir(), "--dump-shaders creates its directory");
    let report = read_json(&json);
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 1);
    let notes = run
        .stderr
        .matches("does not offer VK_KHR_pipeline_executable_properties")
        .count();
    if notes > 0 {
        // Lavapipe: the extension is absent. One note, no statistics, no dumps.
        assert_eq!(notes, 1, "{run}");
        assert!(cases[0].get("shader_stats").is_none(), "{run}");
        assert!(!run.stdout.contains("Shader statistics"), "{run}");
        assert!(entries(&dump).is_empty(), "{run}");
    } else {
        // A driver with the extension: statistics in the JSON and on stdout.
        let stats = cases[0]["shader_stats"].as_array().unwrap();
        assert!(!stats.is_empty(), "{run}");
        assert!(stats.iter().all(|s| s["name"].is_string()), "{run}");
        assert!(
            run.stdout
                .contains("ByteAddressBuffer.Load4 linear (raw.load4.linear): "),
            "{run}"
        );
    }
}

/// `--pipeline-cache FILE`: written after the first run, read back without a warning by the
/// next; a damaged perftest cache is ignored with a one-line warning and replaced by a good
/// one, keeping the file's private mode.
#[test]
fn pipeline_cache_file_is_saved_reused_and_repaired() {
    let dir = scratch("pipeline-cache");
    let cache = dir.join("pipelines.cache");
    let args = |extra: &[&str]| {
        let mut a = small(&["--filter", "cbuffer", "--pipeline-cache", path_str(&cache)]);
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run_with = |a: Vec<String>| perftest(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let first = run_with(args(&[]));
    first.expect_code(SUCCESS);
    assert!(!first.stderr.contains("warning"), "{first}");
    let saved = std::fs::read(&cache).expect("the cache file is written");
    assert!(saved.len() > 32, "{} bytes", saved.len());
    let second = run_with(args(&["--validation"]));
    second.expect_code(SUCCESS);
    assert!(!second.stderr.contains("warning"), "{second}");
    let mut damaged = saved.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0xff;
    std::fs::write(&cache, &damaged).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let repaired = run_with(args(&[]));
    repaired.expect_code(SUCCESS);
    let warnings: Vec<&str> = repaired
        .stderr
        .lines()
        .filter(|l| l.starts_with("perftest: warning: pipeline cache"))
        .collect();
    assert_eq!(warnings.len(), 1, "{repaired}");
    assert!(warnings[0].contains("checksum"), "{repaired}");
    let rewritten = std::fs::read(&cache).unwrap();
    assert!(rewritten.starts_with(b"PTPCACHE") && rewritten != damaged);
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&cache).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the private mode was widened");
    }
    assert_eq!(entries(&dir), ["pipelines.cache"]);
}

/// `--output` naming the `--pipeline-cache` file, by the same path or another, whether the cache
/// exists yet or not, is refused before any GPU work (exit 2): the report would replace the
/// cache, and the next run would refuse the file. The cache is left as it was.
#[test]
fn the_report_is_never_written_over_the_pipeline_cache() {
    let dir = scratch("pipeline-cache-output");
    let cache = dir.join("pipelines.cache");
    let other_path = dir.join(".").join("pipelines.cache");
    let run = |output: &std::path::Path| {
        let args = small(&[
            "--filter",
            "cbuffer.float4.uniform",
            "--pipeline-cache",
            path_str(&cache),
            "-o",
            path_str(output),
        ]);
        perftest(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    for output in [&cache, &other_path] {
        let refused = run(output);
        refused.expect_code(USAGE);
        assert!(
            refused.stderr.contains("is the --pipeline-cache file"),
            "{refused}"
        );
        assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));
    }
    // Once the cache exists, a second path to it is refused the same way.
    let args = small(&[
        "--filter",
        "cbuffer.float4.uniform",
        "--pipeline-cache",
        path_str(&cache),
    ]);
    perftest(&args.iter().map(String::as_str).collect::<Vec<_>>()).expect_code(SUCCESS);
    let saved = std::fs::read(&cache).unwrap();
    let refused = run(&other_path);
    refused.expect_code(USAGE);
    assert_eq!(
        std::fs::read(&cache).unwrap(),
        saved,
        "the cache is left as it was"
    );
}

/// `--pipeline-cache` never destroys what it names: a file that is not a perftest cache (a
/// report given by mistake), a FIFO (which must not block the run either), a device node and a
/// directory are refused before any GPU work with exit 2 and left exactly as they were. (They
/// used to be replaced by a 60-byte cache, with only a warning.)
#[test]
fn pipeline_cache_never_overwrites_what_is_not_a_cache() {
    let dir = scratch("pipeline-cache-foreign");
    let report = dir.join("report.json");
    let run = perftest(
        &small(&[
            "--filter",
            "cbuffer",
            "--format",
            "json",
            "-o",
            path_str(&report),
        ])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
    );
    run.expect_code(SUCCESS);
    let before = std::fs::read(&report).unwrap();
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    let device = dir.join("null");
    let have_device = make_device(&device, 1, 3);
    let subdir = dir.join("sub");
    std::fs::create_dir(&subdir).unwrap();
    let mut targets = vec![
        (report.clone(), "is not a perftest pipeline cache"),
        (fifo.clone(), "a device, FIFO or socket"),
        (subdir.clone(), "a directory"),
    ];
    if have_device {
        targets.push((device.clone(), "a device, FIFO or socket"));
    } else {
        eprintln!("not root: the device-node case is not run");
    }
    for (target, why) in targets {
        let run = perftest(
            &small(&["--filter", "cbuffer", "--pipeline-cache", path_str(&target)])
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        run.expect_one_line_error(USAGE, &["--pipeline-cache", why]);
    }
    assert_eq!(std::fs::read(&report).unwrap(), before);
    assert!(is_fifo(&fifo), "the FIFO was replaced");
    if have_device {
        assert!(is_char_device(&device), "the device node was replaced");
    }
    assert!(subdir.is_dir());
}
