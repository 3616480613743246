//! End-to-end tests of the `perftest` binary: bad inputs, missing loader or driver, a hung
//! submission, Ctrl-C and small real runs, each checked for its one-line `perftest: ` message
//! (usage errors from clap too), its documented exit code and the absence of a panic.
//!
//! Every file they write is inside their own temporary directory; the device nodes, FIFOs and
//! links they write through are created there too.
//!
//! They run the real binary on the machine's Vulkan device (lavapipe in CI); every timing run
//! is small (`--target-ms 2 --samples 3` and a filter) so the file finishes in seconds.

// They send Unix signals and make FIFOs and device nodes: Unix only. The Windows build is run
// the same way under Wine by `cargo xtask windows`.
#![cfg(unix)]
// clippy.toml's test exemptions cover `#[test]` functions only, not this file's helpers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

/// The documented exit codes (the book's "Exit codes" chapter).
const SUCCESS: i32 = 0;
const FAILURE: i32 = 1;
const USAGE: i32 = 2;
const VALIDATION: i32 = 3;
const VERIFICATION: i32 = 4;
const REGRESSION: i32 = 5;
const INTERRUPTED: i32 = 130;
const TERMINATED: i32 = 143;
const HUNG_UP: i32 = 129;
const OUTLIER: i32 = 6;

/// Cases of the original suite.
const ALL_CASES: usize = 138;

/// Arguments of a small, fast timing run.
const SMALL: [&str; 4] = ["--target-ms", "2", "--samples", "3"];

/// What one run of the binary did.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn from_output(output: Output) -> Run {
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Asserts the exit code and that nothing panicked.
    fn expect_code(&self, code: i32) -> &Run {
        assert!(
            !self.stderr.contains("panicked") && !self.stdout.contains("panicked"),
            "perftest panicked:\n{self}"
        );
        assert_eq!(self.code, Some(code), "wrong exit code:\n{self}");
        self
    }

    /// Asserts a failure with a single `perftest: ` line on stderr containing every needle.
    fn expect_one_line_error(&self, code: i32, needles: &[&str]) -> &Run {
        self.expect_code(code);
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "expected a one-line message:\n{self}");
        assert!(lines[0].starts_with("perftest: "), "{self}");
        for needle in needles {
            assert!(lines[0].contains(needle), "missing {needle:?}:\n{self}");
        }
        self
    }

    /// Asserts a usage error (exit 2) from the argument parser: one `perftest: ` line holding
    /// the message and every needle, then only the parser's indented hints; nothing on stdout.
    fn expect_usage_error(&self, needles: &[&str]) -> &Run {
        self.expect_code(USAGE);
        let mut lines = self.stderr.lines();
        let first = lines.next().unwrap_or_default();
        assert!(first.starts_with("perftest: "), "{self}");
        for needle in needles {
            assert!(first.contains(needle), "missing {needle:?}:\n{self}");
        }
        assert!(
            lines.all(|l| l.starts_with("  ")),
            "hints are indented:\n{self}"
        );
        assert!(!self.stderr.contains("error:"), "{self}");
        assert!(self.stdout.is_empty(), "{self}");
        self
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit code: {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// The binary, with a clean environment as far as perftest's own variable goes.
fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_perftest"));
    cmd.args(args)
        .env_remove("PERFTEST_VULKAN_LOADER")
        .stdin(Stdio::null());
    cmd
}

fn perftest(args: &[&str]) -> Run {
    perftest_with(command(args))
}

fn perftest_with(mut cmd: Command) -> Run {
    Run::from_output(cmd.output().expect("cannot start the perftest binary"))
}

/// `SMALL` followed by `extra`.
fn small(extra: &[&str]) -> Vec<String> {
    SMALL.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn perftest_small(extra: &[&str]) -> Run {
    let args = small(extra);
    perftest(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("perftest-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON ({e}):\n{text}", path.display()))
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8 here")
}

/// Writes a real report of the six raw.load4 cases to `dir/NAME`.
fn real_report(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    perftest_small(&[
        "--filter",
        "raw.load4",
        "--format",
        "json",
        "-o",
        path_str(&path),
    ])
    .expect_code(SUCCESS);
    path
}

/// Parses `N: NAME (compute queue: Q, type: TYPE)` into `(N, NAME, Q, TYPE)`.
fn parse_device_line(line: &str) -> Option<(usize, &str, u32, &str)> {
    let (index, rest) = line.split_once(": ")?;
    let rest = rest.strip_suffix(')')?;
    let (name, details) = rest.rsplit_once(" (compute queue: ")?;
    let (queue, device_type) = details.split_once(", type: ")?;
    if name.is_empty() || device_type.is_empty() {
        return None;
    }
    Some((index.parse().ok()?, name, queue.parse().ok()?, device_type))
}

/// Asserts a device-selection usage error: a one-line summary, then the device list.
fn expect_selection_error(run: &Run, summary: &[&str]) {
    run.expect_code(USAGE);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(lines.len() >= 3, "expected summary and device list:\n{run}");
    assert!(lines[0].starts_with("perftest: "), "{run}");
    for needle in summary {
        assert!(lines[0].contains(needle), "missing {needle:?}:\n{run}");
    }
    assert_eq!(lines[1], "available devices:", "{run}");
    for (i, line) in lines[2..].iter().enumerate() {
        let (index, ..) =
            parse_device_line(line).unwrap_or_else(|| panic!("not a device line: {line:?}\n{run}"));
        assert_eq!(index, i + 1, "{run}");
    }
    assert!(run.stdout.is_empty(), "{run}");
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

/// True when `text` contains a `NaN` or `inf` word (what a non-finite float prints as).
fn has_non_finite(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| ["nan", "inf", "infinity"].contains(&w.to_ascii_lowercase().as_str()))
}

#[test]
fn exit_codes_match_the_documentation() {
    use perftest_cli::output::exit_code as code;
    assert_eq!(
        [
            code::SUCCESS,
            code::FAILURE,
            code::USAGE,
            code::VALIDATION,
            code::VERIFICATION,
            code::REGRESSION,
            code::INTERRUPTED,
            code::OUTLIER
        ],
        [
            SUCCESS,
            FAILURE,
            USAGE,
            VALIDATION,
            VERIFICATION,
            REGRESSION,
            INTERRUPTED,
            OUTLIER
        ]
    );
}

#[test]
fn help_and_version_succeed() {
    let help = perftest(&["--help"]);
    help.expect_code(SUCCESS);
    assert!(help.stdout.contains("--target-ms"), "{help}");
    let version = perftest(&["--version"]);
    version.expect_code(SUCCESS);
    assert!(version.stdout.starts_with("perftest "), "{version}");
}

#[test]
fn device_index_zero_is_a_usage_error() {
    expect_selection_error(&perftest(&["-0"]), &["device index 0", "numbered from 1"]);
}

#[test]
fn device_index_out_of_range_is_a_usage_error() {
    expect_selection_error(&perftest(&["-99"]), &["device index 99", "out of range"]);
}

#[test]
fn unknown_device_name_is_a_usage_error() {
    expect_selection_error(
        &perftest(&["no-such-gpu"]),
        &["no device name contains 'no-such-gpu'"],
    );
}

#[test]
fn name_and_index_out_of_range_is_a_usage_error() {
    expect_selection_error(
        &perftest(&["llvm", "-5"]),
        &["device index 5", "out of range", "'llvm'"],
    );
}

#[test]
fn clap_errors_are_usage_errors() {
    for (args, needle) in [
        (&["--frobnicate"][..], "unexpected argument '--frobnicate'"),
        (&["--verify", "--no-verify"][..], "cannot be used with"),
        (&["--samples", "ten"][..], "--samples"),
        (&["--format", "xml"][..], "'xml'"),
        (&["compare", "only-one.json"][..], "required"),
    ] {
        let run = perftest(args);
        run.expect_code(USAGE);
        // The documented promise: the first line starts with `perftest:` and says what is wrong.
        let first = run.stderr.lines().next().unwrap_or_default();
        assert!(first.starts_with("perftest: "), "{args:?}:\n{run}");
        assert!(first.contains(needle), "{args:?}: no {needle:?}:\n{run}");
        assert!(!run.stderr.contains("error:"), "{args:?}:\n{run}");
        assert!(run.stdout.is_empty(), "{args:?}:\n{run}");
    }
}

/// Values out of range are refused as the command line is read, each naming its option and
/// its range.
#[test]
fn out_of_range_values_are_usage_errors() {
    for (args, needles) in [
        (
            &["--target-ms", "0"][..],
            &["'--target-ms <MS>'", "0.5..=1000 ms"][..],
        ),
        (
            &["--target-ms", "-5"][..],
            &["'--target-ms <MS>'", "0.5..=1000 ms"][..],
        ),
        (&["--target-ms", "1e9"][..], &["'--target-ms <MS>'"][..]),
        (&["--target-ms", "NaN"][..], &["'--target-ms <MS>'"][..]),
        (&["--samples", "0"][..], &["'--samples <N>'", "1..=256"][..]),
        (
            &["--samples", "257"][..],
            &["'--samples <N>'", "1..=256"][..],
        ),
        (
            &["--dispatch-ms", "0.01"][..],
            &["'--dispatch-ms <MS>'", "0.05..=100 ms"][..],
        ),
        (
            &["--warmup-max", "-1"][..],
            &["'--warmup-max <N>'", "0..=100"][..],
        ),
        (
            &["--warmup-max", "101"][..],
            &["'--warmup-max <N>'", "0..=100"][..],
        ),
        (
            &["--fence-timeout-ms", "0"][..],
            &["'--fence-timeout-ms <MS>'"][..],
        ),
        (
            &["--clock-mhz", "0"][..],
            &["'--clock-mhz <MHZ>'", "1..=100000 MHz"][..],
        ),
        (
            &["--max-working-set", "0"][..],
            &["'--max-working-set <SIZE>'"][..],
        ),
        (
            &["--filter", ""][..],
            &["'--filter <TEXT>'", "select every case"][..],
        ),
        (
            &["--filter", "raw", "--filter", " "][..],
            &["'--filter <TEXT>'"][..],
        ),
        (&["--baseline", " "][..], &["'--baseline <ID>'"][..]),
        (
            &["--device", "-1"][..],
            &["'--device <N>'", "numbered from 1"][..],
        ),
    ] {
        perftest(args).expect_usage_error(&[&["invalid value"][..], needles].concat());
    }
    // A rule that ties two values together: one measurement must fit the fence timeout.
    let run = perftest(&["--fence-timeout-ms", "10", "--target-ms", "20"]);
    run.expect_one_line_error(USAGE, &["invalid value for --fence-timeout-ms"]);
}

/// A value that starts with a dash stays its option's value: `--dispatch-ms -2` used to be
/// read as `--dispatch-ms --device 2` ("invalid value '--device' for '--dispatch-ms <MS>'"),
/// as the options that take a value were a list kept by hand that lacked it.
#[test]
fn negative_values_are_their_options_own() {
    for (args, option) in [
        (&["--dispatch-ms", "-2"][..], "'--dispatch-ms <MS>'"),
        (&["--target-ms", "-2"][..], "'--target-ms <MS>'"),
        (&["--samples", "-2"][..], "'--samples <N>'"),
        (&["--warmup-max", "-2"][..], "'--warmup-max <N>'"),
        (
            &["--fence-timeout-ms", "-2"][..],
            "'--fence-timeout-ms <MS>'",
        ),
        (&["--clock-mhz", "-2"][..], "'--clock-mhz <MHZ>'"),
        (
            &["--max-working-set", "-2"][..],
            "'--max-working-set <SIZE>'",
        ),
    ] {
        let run = perftest(args);
        run.expect_usage_error(&["invalid value '-2' for ", option]);
        assert!(!run.stderr.contains("--device"), "{args:?}:\n{run}");
    }
    perftest(&["--dispatch-ms", "-2"]).expect_usage_error(&["-2 is outside 0.05..=100 ms"]);
}

/// The original's device shorthand still reads as a device index, alone and after a name.
#[test]
fn dash_digits_still_pick_a_device() {
    perftest(&["--verify", "--filter", "raw.load4.linear", "-1"]).expect_code(SUCCESS);
    let run = perftest(&["llvm", "-1", "--verify", "--filter", "raw.load4.linear"]);
    run.expect_code(SUCCESS);
    assert!(run.stdout.contains("1 passed, 0 failed"), "{run}");
    expect_selection_error(&perftest(&["RTX", "-2", "--verify"]), &["'RTX'"]);
}

/// Two modes, or a mode with an option it would ignore, are refused before anything runs.
/// `--list --list-cases` used to list devices, `--list-cases --verify` cases, and
/// `--list-cases --format json` printed text.
#[test]
fn contradicting_options_are_usage_errors() {
    let modes = ["--list", "--list-cases", "--verify", "--all-devices"];
    for (i, a) in modes.iter().enumerate() {
        for b in &modes[i + 1..] {
            perftest(&[a, b]).expect_usage_error(&[a, b, "cannot be used with"]);
        }
    }
    for (args, named) in [
        (&["--list-cases", "--format", "json"][..], "--format"),
        (&["--list-cases", "-o", "cases.txt"][..], "--output"),
        (&["--list-cases", "--samples", "3"][..], "--samples"),
        (&["--list-cases", "--target-ms", "5"][..], "--target-ms"),
        (&["--list-cases", "-2"][..], "--device"),
        (&["--list", "--format", "json"][..], "--format"),
        (&["--list", "--suite", "memory"][..], "--suite"),
        (&["--list", "-99"][..], "--device"),
        (&["--list", "llvm"][..], "[NAME]"),
        (&["--verify", "--format", "json"][..], "--format"),
        (&["--verify", "-o", "v.json"][..], "--output"),
        (&["--verify", "--shader-stats"][..], "--shader-stats"),
        (&["--verify", "--samples", "3"][..], "--samples"),
        (&["--all-devices", "-2"][..], "--device"),
        (
            &["--all-devices", "--dump-shaders", "dir"][..],
            "--dump-shaders",
        ),
    ] {
        perftest(args).expect_usage_error(&[args[0], named, "cannot be used with"]);
    }
}

/// `-h` fits a screen: under 60 lines, none over 100 characters (or the terminal's width, when
/// narrower); `--help` keeps the details.
#[test]
fn short_help_fits_and_long_help_has_the_details() {
    // A detail of --all-devices, one word so that no wrapping splits it.
    let detail = "perftest-device-N.EXT";
    for columns in [None, Some("100"), Some("80"), Some("200")] {
        let mut cmd = command(&["-h"]);
        match columns {
            Some(c) => cmd.env("COLUMNS", c),
            None => cmd.env_remove("COLUMNS"),
        };
        let run = perftest_with(cmd);
        run.expect_code(SUCCESS);
        let lines: Vec<&str> = run.stdout.lines().collect();
        // A narrower terminal wraps more lines; at 100 columns and more they fit a screen.
        if columns != Some("80") {
            assert!(
                lines.len() < 60,
                "{columns:?}: {} lines:\n{run}",
                lines.len()
            );
        }
        let width = columns.map_or(100, |c| c.parse::<usize>().unwrap().min(100));
        for line in &lines {
            assert!(line.chars().count() <= width, "{columns:?}: {line:?}");
        }
        for heading in [
            "Device:",
            "Cases:",
            "Measurement:",
            "Output:",
            "Diagnostics:",
        ] {
            assert!(lines.contains(&heading), "{columns:?}: no {heading}\n{run}");
        }
        assert!(!run.stdout.contains(detail), "{run}");
    }
    let long = perftest(&["--help"]);
    long.expect_code(SUCCESS);
    assert!(long.stdout.contains(detail), "{long}");
    assert!(long.stdout.lines().count() > 60, "{long}");
}

#[test]
fn filter_matching_nothing_is_a_usage_error() {
    perftest(&["--filter", "nothing-matches-this"])
        .expect_one_line_error(USAGE, &["nothing-matches-this", "--list-cases"]);
}

/// Arguments are quoted in messages with control characters escaped.
#[test]
fn messages_escape_control_characters() {
    for args in [
        &["--filter", "\u{1b}[31mred"][..],
        &["gpu\u{1b}]0;x\u{7}"][..],
    ] {
        let run = perftest(args);
        run.expect_code(USAGE);
        assert!(run.stderr.contains("\\u{1b}"), "{args:?}:\n{run}");
        assert!(!run.stderr.contains('\u{1b}'), "{args:?}:\n{run}");
    }
}

#[test]
fn unknown_baseline_is_a_usage_error() {
    perftest(&["--baseline", "no.such.case"]).expect_one_line_error(USAGE, &["no.such.case"]);
}

/// A path that can never name a file is a usage error before any GPU work (it used to pass the
/// start-up check, run everything and fail at the end, losing the table).
#[test]
fn output_paths_that_cannot_be_files_fail_before_running() {
    let dir = scratch("unwritable");
    let missing = dir.join("missing").join("x.json");
    let slash = format!("{}/", dir.join("newdir").display());
    for (target, needle) in [
        (path_str(&missing), "is not an existing directory"),
        (slash.as_str(), "is a directory"),
    ] {
        let run = perftest_small(&["--filter", "raw.load4", "-o", target]);
        run.expect_one_line_error(USAGE, &[target, needle]);
        assert!(run.stdout.is_empty(), "nothing should have run:\n{run}");
    }
    assert!(entries(&dir).is_empty(), "left behind: {:?}", entries(&dir));
    // The same check for `render --output`, before the report is read.
    let run = perftest(&["render", "no-such-report.json", "-o", &slash]);
    run.expect_one_line_error(USAGE, &["is a directory"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_that_is_a_directory_is_refused() {
    let dir = scratch("outdir");
    std::fs::create_dir(dir.join("taken")).unwrap();
    let target = dir.join("taken");
    perftest_small(&["--filter", "raw.load4", "-o", path_str(&target)])
        .expect_one_line_error(USAGE, &[path_str(&target), "is a directory"]);
    assert_eq!(entries(&dir), ["taken"]);
    assert!(entries(&target).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_file_is_valid_json_and_nothing_else_is_left() {
    let dir = scratch("output");
    let target = dir.join("run.json");
    let run = perftest_small(&[
        "--filter",
        "raw.load4",
        "--format",
        "json",
        "-o",
        path_str(&target),
    ]);
    run.expect_code(SUCCESS);
    // The report went to the file instead of stdout; stderr says where.
    assert!(run.stdout.is_empty(), "nothing on stdout expected:\n{run}");
    assert!(
        run.stderr.contains(&format!(
            "perftest: report written to {}",
            path_str(&target)
        )),
        "{run}"
    );
    assert_eq!(entries(&dir), ["run.json"]);
    let report = read_json(&target);
    assert_eq!(report["schema"], "perftest-report/1");
    assert_eq!(report["complete"], true);
    assert_eq!(report["cases"].as_array().unwrap().len(), 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_missing_file_names_it() {
    let dir = scratch("cmp-missing");
    let missing = dir.join("missing.json");
    let sample = &real_report(&dir, "a.json");
    perftest(&["compare", path_str(&missing), path_str(sample)])
        .expect_one_line_error(FAILURE, &[path_str(&missing), "no such file"]);
    perftest(&["compare", path_str(sample), path_str(&missing)])
        .expect_one_line_error(FAILURE, &[path_str(&missing), "no such file"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_malformed_file_names_it() {
    let dir = scratch("cmp-malformed");
    let sample = &real_report(&dir, "a.json");
    for (name, content) in [
        ("garbage.json", "{not json"),
        ("empty.json", ""),
        ("partial.json", r#"{"schema": "perftest-report/1"}"#),
    ] {
        let bad = dir.join(name);
        std::fs::write(&bad, content).unwrap();
        let run = perftest(&["compare", path_str(sample), path_str(&bad)]);
        run.expect_one_line_error(FAILURE, &[path_str(&bad), "not a valid perftest report"]);
        assert!(run.stdout.is_empty(), "{run}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_other_schema_names_it() {
    let dir = scratch("cmp-schema");
    let sample = &real_report(&dir, "a.json");
    let mut report = read_json(sample);
    report["schema"] = Value::from("perftest-report/999");
    let other = dir.join("other.json");
    std::fs::write(&other, serde_json::to_vec(&report).unwrap()).unwrap();
    let run = perftest(&["compare", path_str(&other), path_str(sample)]);
    run.expect_one_line_error(
        FAILURE,
        &[path_str(&other), "perftest-report/999", "perftest-report/1"],
    );
    assert!(run.stdout.is_empty(), "{run}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_two_real_runs() {
    let dir = scratch("cmp-ok");
    let first = real_report(&dir, "a.json");
    let second = real_report(&dir, "b.json");
    let run = perftest(&["compare", path_str(&first), path_str(&second)]);
    run.expect_code(SUCCESS);
    assert!(run.stderr.is_empty(), "{run}");
    assert!(run.stdout.contains("B/A"), "{run}");
    assert!(run.stdout.contains("Matched cases: 6"), "{run}");
    assert!(run.stdout.contains("Measured in both: 6"), "{run}");
    let rows = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("ByteAddressBuffer.Load4"))
        .count();
    assert_eq!(rows, 6, "{run}");
    assert!(!has_non_finite(&run.stdout), "{run}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_vulkan_loader_is_a_runtime_failure() {
    let mut cmd = command(&["--filter", "raw.load4"]);
    cmd.env("PERFTEST_VULKAN_LOADER", "/nonexistent/libvulkan.so.1");
    let run = perftest_with(cmd);
    run.expect_one_line_error(
        FAILURE,
        &[
            "cannot load the Vulkan loader",
            "/nonexistent/libvulkan.so.1",
            "libvulkan1",
        ],
    );
    assert!(run.stdout.is_empty(), "{run}");
}

/// `PERFTEST_VULKAN_LOADER` naming a FIFO (which would block the dynamic loader's `open`
/// forever) or a truncated library (which died with SIGBUS inside `dlopen`) is a one-line
/// error; set but empty, it means unset.
#[test]
fn a_loader_that_cannot_be_loaded_is_checked_first() {
    let dir = scratch("loader-files");
    let fifo = dir.join("libvulkan.so.1");
    make_fifo(&fifo);
    let system = [
        "/usr/lib/x86_64-linux-gnu/libvulkan.so.1",
        "/usr/lib/libvulkan.so.1",
    ]
    .iter()
    .map(Path::new)
    .find(|p| p.exists())
    .expect("the system's libvulkan.so.1");
    let bytes = std::fs::read(system).unwrap();
    let truncated = dir.join("truncated.so");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    for (path, why) in [(&fifo, "not a regular file"), (&truncated, "truncated")] {
        let mut cmd = command(&["--list"]);
        cmd.env("PERFTEST_VULKAN_LOADER", path);
        let run = perftest_with(cmd);
        run.expect_one_line_error(FAILURE, &["cannot load the Vulkan loader", why]);
    }
    assert!(is_fifo(&fifo));
    let mut cmd = command(&["--list"]);
    cmd.env("PERFTEST_VULKAN_LOADER", "");
    perftest_with(cmd).expect_code(SUCCESS);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_driver_is_a_runtime_failure() {
    for args in [&["--filter", "raw.load4"][..], &["--list"][..]] {
        let mut cmd = command(args);
        cmd.env("VK_DRIVER_FILES", "/nonexistent.json")
            .env("VK_ICD_FILENAMES", "/nonexistent.json");
        let run = perftest_with(cmd);
        run.expect_one_line_error(FAILURE, &["no Vulkan device", "install a driver"]);
        assert!(run.stdout.is_empty(), "{args:?}:\n{run}");
    }
}

/// Arguments under which a submission cannot finish in time, however fast the CPU: the clock
/// warm-up submits `--samples` (16) dispatches of at least one workgroup of software-sampled
/// bilinear RGBA32F each (65,536 samples per workgroup, about 0.5 ms on a fast core), while the
/// fence timeout is 1 ms (accepted: 16 dispatches of 0.05 ms are sized to take 0.8 ms).
const HANGS: [&str; 11] = [
    "--fence-timeout-ms",
    "1",
    "--target-ms",
    "0.5",
    "--dispatch-ms",
    "0.05",
    "--samples",
    "16",
    "--no-verify",
    "--filter",
    "tex.sample.bilinear.rgba32f.random",
];

#[test]
fn hung_submission_is_a_runtime_failure() {
    let run = perftest(&HANGS);
    run.expect_code(FAILURE);
    assert!(
        run.stderr.starts_with("perftest: ") && run.stderr.contains("did not finish within 1ms"),
        "{run}"
    );
    assert!(!has_non_finite(&run.stdout), "{run}");
    assert!(!has_non_finite(&run.stderr), "{run}");
    // The table still says which case failed and why.
    assert!(
        run.stdout
            .contains("Texture2D<RGBA32F>.Sample(bilinear) random  failed: "),
        "{run}"
    );
}

/// A run that measured nothing (a hung first case) used to replace a good report with an
/// empty, failed one.
#[test]
fn a_run_that_measured_nothing_keeps_the_old_report() {
    let dir = scratch("keep-old");
    let target = real_report(&dir, "good.json");
    let before = std::fs::read(&target).unwrap();
    let mut args = HANGS.to_vec();
    args.extend(["--format", "json", "-o", path_str(&target)]);
    let run = perftest(&args);
    run.expect_code(FAILURE);
    assert!(
        run.stderr.contains(&format!(
            "nothing was measured, so {} was not written",
            path_str(&target)
        )),
        "{run}"
    );
    assert_eq!(std::fs::read(&target).unwrap(), before);
    assert_eq!(entries(&dir), ["good.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts a whole-suite timing run writing JSON to `target`, sends `signal` after `wait_ms`,
/// and returns what the run did.
fn stopped_run(target: &Path, signal: &str, wait_ms: u64) -> Run {
    use std::io::BufRead;
    let mut child = command(&[
        "-v",
        "--no-verify",
        "--format",
        "json",
        "-o",
        path_str(target),
        "--target-ms",
        "20",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("cannot start the perftest binary");
    // `-v` says when the device is ready, which is after the signal handlers are installed:
    // the wait starts there, so a slow start on a loaded machine cannot make the signal early.
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in stderr.lines().map_while(Result::ok) {
            if line.contains("instance and device ready") {
                let _ = ready_tx.send(());
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    ready_rx
        .recv_timeout(Duration::from_secs(60))
        .expect("perftest never said the device was ready");
    std::thread::sleep(Duration::from_millis(wait_ms));
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("cannot run kill");
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let mut run = Run::from_output(output);
    run.stderr = reader.join().unwrap();
    run
}

/// SIGINT, SIGTERM and SIGHUP each stop a run cleanly: partial results printed and written,
/// exit code 128 + the signal's number. (SIGTERM and SIGHUP used to end the process with no
/// message and nothing written.)
#[test]
fn stop_signals_write_a_partial_report() {
    for (signal, code, name) in [
        ("INT", INTERRUPTED, "SIGINT"),
        ("TERM", TERMINATED, "SIGTERM"),
        ("HUP", HUNG_UP, "SIGHUP"),
    ] {
        let dir = scratch(&format!("signal-{signal}"));
        let target = dir.join("partial.json");
        // The whole suite at 20 ms takes far longer than any of these waits. `--no-verify`
        // skips the verification phase, so measurements start after the clock warm-up (about
        // 1 s). A loaded machine may need a longer wait before a case is measured: retry with
        // a longer one, checking everything else each time.
        let mut measured = false;
        for wait_ms in [2500, 6000, 12000] {
            let run = stopped_run(&target, signal, wait_ms);
            run.expect_code(code);
            assert!(
                run.stderr
                    .contains(&format!("perftest: interrupted by {name}")),
                "{run}"
            );
            assert!(run.stdout.is_empty(), "the report goes to the file:\n{run}");
            if !target.exists() {
                assert!(run.stderr.contains("nothing was measured"), "{run}");
                continue;
            }
            assert_eq!(entries(&dir), ["partial.json"]);
            let report = read_json(&target);
            assert_eq!(report["complete"], false);
            let cases = report["cases"].as_array().unwrap();
            assert!(
                cases.iter().any(|c| c["status"] == "measured"),
                "a written partial report holds a measured case: {report:#}"
            );
            // Stopped before the end: cases missing, or (stopped during the measurement
            // rounds) cases with fewer than their 10 samples.
            let short = cases.iter().any(|c| {
                c["measurement"]["samples_ns"]
                    .as_array()
                    .is_some_and(|s| s.len() < 10)
            });
            assert!(cases.len() < ALL_CASES || short, "{report:#}");
            assert!(run.stderr.contains(", written to "), "{run}");
            measured = true;
            break;
        }
        assert!(
            measured,
            "{name}: no run lasted long enough to measure a case"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A signal before anything was measured leaves an earlier report alone.
#[test]
fn a_signal_before_any_measurement_keeps_the_old_report() {
    let dir = scratch("signal-early");
    let target = real_report(&dir, "good.json");
    let before = std::fs::read(&target).unwrap();
    // Right when the device is ready: pipeline creation of the whole suite comes next.
    let run = stopped_run(&target, "TERM", 0);
    run.expect_code(TERMINATED);
    assert!(run.stderr.contains("nothing was measured"), "{run}");
    assert!(
        run.stderr
            .contains("perftest: interrupted by SIGTERM: 0 case(s) measured"),
        "{run}"
    );
    assert_eq!(std::fs::read(&target).unwrap(), before);
    assert_eq!(entries(&dir), ["good.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

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

/// Creates a device node (`mknod NAME c MAJOR MINOR`) inside the test's own directory; false
/// when this process may not (not root), in which case the caller says so and skips.
fn make_device(path: &Path, major: u32, minor: u32) -> bool {
    Command::new("mknod")
        .arg(path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Creates a FIFO (`mkfifo`) inside the test's own directory.
fn make_fifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// `--output` writes to what the path names: through a symbolic link (the link stays), into a
/// FIFO and into a character device (neither is replaced by a regular file), and into the
/// process's own stdout. All of them used to be replaced by a renamed regular file.
#[test]
fn output_goes_to_what_the_path_names() {
    use std::os::unix::fs::symlink;
    let dir = scratch("output-kinds");
    let report_args = |target: &Path| {
        let mut args = small(&["--filter", "cbuffer", "--format", "json", "-o"]);
        args.push(path_str(target).to_string());
        args
    };
    let run_to = |target: &Path| {
        let args = report_args(target);
        perftest(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };

    // A symbolic link: its target gets the report, the link stays a link.
    let real = dir.join("real.json");
    std::fs::write(&real, b"old").unwrap();
    let link = dir.join("link.json");
    symlink("real.json", &link).unwrap();
    run_to(&link).expect_code(SUCCESS);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read_json(&real)["cases"].as_array().unwrap().len(), 3);

    // A FIFO: written directly, read by the other end.
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let run = run_to(&fifo);
    if !reader.is_finished() {
        // Unblocks the reader should perftest never have opened the FIFO (the test then fails
        // below instead of hanging).
        drop(std::fs::OpenOptions::new().write(true).open(&fifo));
    }
    run.expect_code(SUCCESS);
    let received: Value = serde_json::from_slice(&reader.join().unwrap()).unwrap();
    assert_eq!(received["cases"].as_array().unwrap().len(), 3);
    assert!(is_fifo(&fifo), "the FIFO was replaced");

    // The process's own stdout: the report alone.
    let on_stdout = |run: &Run| {
        run.expect_code(SUCCESS);
        let report: Value = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("stdout is not the report ({e}):\n{run}"));
        assert_eq!(report["cases"].as_array().unwrap().len(), 3);
    };
    on_stdout(&run_to(Path::new("/proc/self/fd/1")));
    // The same through a link to it, and with stdout a pipe (it used to fail with "No such
    // file or directory": the link was followed on to `pipe:[N]`).
    let to_stdout = dir.join("to-stdout.json");
    symlink("/proc/self/fd/1", &to_stdout).unwrap();
    on_stdout(&run_to(&to_stdout));
    assert!(std::fs::symlink_metadata(&to_stdout)
        .unwrap()
        .file_type()
        .is_symlink());
    // `-o -` is stdout too.
    on_stdout(&run_to(Path::new("-")));

    // A character device made here (the null device): written, still a device.
    let null = dir.join("null");
    if make_device(&null, 1, 3) {
        run_to(&null).expect_code(SUCCESS);
        assert!(is_char_device(&null), "the device node was replaced");
    } else {
        eprintln!("not root: the character-device part of this test is skipped");
    }
    let mut left = entries(&dir);
    left.retain(|n| n != "null");
    assert_eq!(left, ["fifo", "link.json", "real.json", "to-stdout.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A write that fails after the run (here a full device, as a full disk would) prints the text
/// table instead, so nothing measured is lost, and says where the report could not be written.
#[test]
fn a_late_write_failure_still_prints_the_table() {
    let dir = scratch("full");
    let full = dir.join("full");
    if !make_device(&full, 1, 7) {
        eprintln!("not root: cannot make a full device; test skipped");
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    }
    let run = perftest_small(&[
        "--filter",
        "cbuffer",
        "--format",
        "json",
        "-o",
        path_str(&full),
    ]);
    run.expect_one_line_error(
        FAILURE,
        &[path_str(&full), "the results are in the table above"],
    );
    assert!(run.stdout.starts_with("Device: "), "{run}");
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.starts_with("cbuffer{float4}"))
            .count(),
        3,
        "{run}"
    );
    assert!(is_char_device(&full));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Reports are read from regular files only: a FIFO without a writer used to block forever.
#[test]
fn render_refuses_what_is_not_a_regular_file() {
    let dir = scratch("render-kinds");
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    perftest(&["render", path_str(&fifo)])
        .expect_one_line_error(FAILURE, &[path_str(&fifo), "not a regular file (a FIFO)"]);
    perftest(&["compare", path_str(&dir), path_str(&fifo)])
        .expect_one_line_error(FAILURE, &["not a regular file (a directory)"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Hostile strings in a report: a 70,000-character name (format! padding used to panic at
/// 65,536), escape sequences and newlines (used to reach the terminal raw), a duplicated id
/// and impossible samples (used to be accepted).
#[test]
fn hostile_reports_are_escaped_or_refused() {
    let dir = scratch("hostile");
    let good = real_report(&dir, "good.json");
    let mut report = read_json(&good);
    let long = format!(
        "\u{1b}[2J\u{1b}]0;owned\u{7}{}\nfake line",
        "x".repeat(70_000)
    );
    report["cases"][0]["name"] = Value::from(long);
    report["device"]["name"] = Value::from("GPU\r\u{1b}[31m");
    let hostile = dir.join("hostile.json");
    std::fs::write(&hostile, serde_json::to_vec(&report).unwrap()).unwrap();
    for args in [
        vec!["render", path_str(&hostile)],
        vec!["render", path_str(&hostile), "--format", "original"],
        vec!["render", path_str(&hostile), "--format", "markdown"],
        vec!["render", path_str(&hostile), "--format", "csv"],
        vec!["compare", path_str(&good), path_str(&hostile)],
        vec!["compare", path_str(&hostile), path_str(&hostile)],
    ] {
        let run = perftest(&args);
        run.expect_code(SUCCESS);
        assert!(
            !run.stdout.chars().any(|c| c.is_control() && c != '\n'),
            "{args:?}: a control character reached stdout"
        );
        assert!(
            !run.stdout.lines().any(|l| l.starts_with("fake line")),
            "{args:?}: a newline in a name broke a row"
        );
    }

    let mut twice = read_json(&good);
    let first = twice["cases"][0].clone();
    twice["cases"].as_array_mut().unwrap().push(first);
    let dup = dir.join("dup.json");
    std::fs::write(&dup, serde_json::to_vec(&twice).unwrap()).unwrap();
    perftest(&["compare", path_str(&good), path_str(&dup)])
        .expect_one_line_error(FAILURE, &[path_str(&dup), "the id appears twice"]);

    let mut negative = read_json(&good);
    negative["cases"][2]["measurement"]["samples_ns"][0] = Value::from(-1.0);
    let neg = dir.join("negative.json");
    std::fs::write(&neg, serde_json::to_vec(&negative).unwrap()).unwrap();
    perftest(&["render", path_str(&neg)])
        .expect_one_line_error(FAILURE, &[path_str(&neg), "case 3", "sample 1 is -1 ns"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A closed stdout (`perftest render big.json | head -1`) is not an error: no message, and the
/// exit code of the work itself.
#[test]
fn a_closed_stdout_ends_quietly() {
    let dir = scratch("sigpipe");
    let good = real_report(&dir, "good.json");
    let mut report = read_json(&good);
    let template = report["cases"][0].clone();
    let cases = report["cases"].as_array_mut().unwrap();
    for i in 0..20_000 {
        let mut case = template.clone();
        case["id"] = Value::from(format!("copy.{i}"));
        cases.push(case);
    }
    let big = dir.join("big.json");
    std::fs::write(&big, serde_json::to_vec(&report).unwrap()).unwrap();
    let mut child = command(&["render", path_str(&big)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe while perftest still has megabytes to write.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
    assert!(line.starts_with("Device: "), "{line}");
    drop(stdout);
    let run = Run::from_output(child.wait_with_output().unwrap());
    run.expect_code(SUCCESS);
    assert!(run.stderr.is_empty(), "{run}");
    std::fs::remove_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `compare` of three or more reports: a column per report and the outlier rule; a report 3%
/// slower on every case than three agreeing ones is flagged with exit code 6.
#[test]
fn compare_many_reports_flags_an_outlier() {
    let dir = scratch("cmp-many");
    let base = read_json(&real_report(&dir, "base.json"));
    let mut paths = Vec::new();
    for (i, scale) in [1.0, 1.0002, 0.9999, 1.03].iter().enumerate() {
        let mut report = base.clone();
        for case in report["cases"].as_array_mut().unwrap() {
            if let Some(samples) = case["measurement"]["samples_ns"].as_array_mut() {
                for s in samples {
                    *s = Value::from(s.as_f64().unwrap() * scale);
                }
            }
        }
        let path = dir.join(format!("node{i}.json"));
        std::fs::write(&path, serde_json::to_vec(&report).unwrap()).unwrap();
        paths.push(path);
    }
    let args: Vec<&str> = std::iter::once("compare")
        .chain(paths.iter().map(|p| path_str(p)))
        .collect();
    let run = perftest(&args);
    run.expect_code(OUTLIER);
    assert!(
        run.stdout.contains(&format!(
            "OUTLIER {}: 6 case(s) flagged",
            path_str(&paths[3])
        )),
        "{run}"
    );
    // Without the slow one: no outlier.
    let run = perftest(&args[..4]);
    run.expect_code(SUCCESS);
    assert!(run.stdout.contains("No outlier"), "{run}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The H200 report committed in `results/`.
fn committed_report() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/nvidia-h200.json")
}

/// Writes a copy of the committed report with every sample of the cases for which
/// `factor(id)` is given divided by it (0.95: 5% lower throughput), and returns its path.
fn scaled_report(dir: &Path, name: &str, factor: impl Fn(&str) -> Option<f64>) -> PathBuf {
    let mut report = read_json(&committed_report());
    for case in report["cases"].as_array_mut().unwrap() {
        let Some(f) = factor(case["id"].as_str().unwrap()) else {
            continue;
        };
        for sample in case["measurement"]["samples_ns"].as_array_mut().unwrap() {
            *sample = Value::from(sample.as_f64().unwrap() / f);
        }
    }
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(&report).unwrap()).unwrap();
    path
}

#[test]
fn fail_above_exits_5_and_lists_the_offenders() {
    let dir = scratch("gate-above");
    let a = committed_report();
    let b = scaled_report(&dir, "b.json", |id| {
        (id == "raw.load4.linear").then_some(0.95)
    });
    let run = perftest(&["compare", path_str(&a), path_str(&b), "--fail-above", "2"]);
    run.expect_code(REGRESSION);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "perftest: regression: 1 case(s) got slower by more than 2%:",
            "  -5.00%  ByteAddressBuffer.Load4 linear (raw.load4.linear)"
        ],
        "{run}"
    );
    assert!(run.stdout.contains("Matched cases: 138"), "{run}");
    // Within the limit, and without a limit: success.
    for extra in [
        &["--fail-above", "5.5"][..],
        &["--fail-median", "1"][..],
        &[][..],
    ] {
        let mut args = vec!["compare", path_str(&a), path_str(&b)];
        args.extend_from_slice(extra);
        let run = perftest(&args);
        run.expect_code(SUCCESS);
        assert!(run.stderr.is_empty(), "{run}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fail_median_exits_5_when_most_cases_got_slower() {
    let dir = scratch("gate-median");
    let a = committed_report();
    let b = scaled_report(&dir, "b.json", |_| Some(0.9));
    let run = perftest(&["compare", path_str(&a), path_str(&b), "--fail-median", "5"]);
    run.expect_code(REGRESSION);
    assert_eq!(
        run.stderr.trim_end(),
        "perftest: regression: the median change is -10.00%, a slowdown of more than 5%",
        "{run}"
    );
    // The same change the other way is an improvement.
    let run = perftest(&[
        "compare",
        path_str(&b),
        path_str(&a),
        "--fail-median",
        "0",
        "--fail-above",
        "0",
    ]);
    run.expect_code(SUCCESS);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gate_limits_are_validated() {
    let a = committed_report();
    for (option, value) in [
        ("--fail-above", "-1"),
        ("--fail-above", "nan"),
        ("--fail-median", "inf"),
        ("--fail-median", "-0.5"),
    ] {
        perftest(&["compare", path_str(&a), path_str(&a), option, value])
            .expect_usage_error(&[option, "finite and at least 0"]);
    }
    perftest(&["compare", path_str(&a), path_str(&a), "--fail-above", "x"]).expect_code(USAGE);
}

#[test]
fn render_writes_every_report_format() {
    let dir = scratch("render-formats");
    let report = committed_report();
    for (format, check) in [
        ("html", "<!DOCTYPE html>"),
        ("svg", "<svg xmlns=\"http://www.w3.org/2000/svg\""),
        ("bmf", "\"gload-per-s\""),
        ("benchmark-action", "\"unit\": \"Gload/s\""),
    ] {
        let out = dir.join(format!("out.{format}"));
        let run = perftest(&[
            "render",
            path_str(&report),
            "--format",
            format,
            "-o",
            path_str(&out),
        ]);
        run.expect_code(SUCCESS);
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.starts_with(check) || text.contains(check),
            "{format}: {text}"
        );
    }
    let bmf = read_json(&dir.join("out.bmf"));
    let object = bmf.as_object().unwrap();
    assert_eq!(object.len(), ALL_CASES);
    for (id, metrics) in object {
        let m = &metrics["gload-per-s"];
        let (lo, v, hi) = (
            m["lower_value"].as_f64().unwrap(),
            m["value"].as_f64().unwrap(),
            m["upper_value"].as_f64().unwrap(),
        );
        assert!(0.0 < lo && lo <= v && v <= hi, "{id}: {m}");
    }
    let action = read_json(&dir.join("out.benchmark-action"));
    let entries = action.as_array().unwrap();
    assert_eq!(entries.len(), ALL_CASES);
    for e in entries {
        assert!(
            e["name"].is_string() && e["range"].is_string() && e["value"].is_f64(),
            "{e}"
        );
        assert!(e["extra"].as_str().unwrap().contains("NVIDIA H200"), "{e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_writes_html() {
    let dir = scratch("compare-html");
    let a = committed_report();
    let b = scaled_report(&dir, "b.json", |id| id.starts_with("typed.").then_some(1.1));
    let out = dir.join("cmp.html");
    let run = perftest(&[
        "compare",
        path_str(&a),
        path_str(&b),
        "--format",
        "html",
        "-o",
        path_str(&out),
    ]);
    run.expect_code(SUCCESS);
    assert!(run.stdout.is_empty() && run.stderr.is_empty(), "{run}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("<!DOCTYPE html>"), "{text}");
    assert!(text.contains("+10.00%"), "{text}");
    assert_eq!(entries(&dir), ["b.json", "cmp.html"]);
    std::fs::remove_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dump_shaders_into_a_file_fails_before_running() {
    let dir = scratch("dump-file");
    let file = dir.join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    perftest_small(&[
        "--filter",
        "raw.load4.linear",
        "--dump-shaders",
        path_str(&file),
    ])
    .expect_one_line_error(FAILURE, &["--dump-shaders", "not-a-dir"]);
    perftest(&["--verify", "--shader-stats"]).expect_usage_error(&["--verify", "--shader-stats"]);
    assert_eq!(entries(&dir), ["not-a-dir"]);
    std::fs::remove_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An `--output` FIFO that nobody opens for reading never blocks beyond a stop signal: the run
/// finishes, waits for a reader, and one SIGINT or SIGTERM ends it with the signal's code (it
/// used to hang in `open` until a second signal), printing the table the FIFO did not take.
/// The FIFO stays a FIFO.
#[test]
fn a_fifo_without_reader_yields_to_one_stop_signal() {
    let dir = scratch("fifo-no-reader");
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    for (signal, code) in [("INT", INTERRUPTED), ("TERM", TERMINATED)] {
        let args = small(&[
            "-v",
            "--filter",
            "cbuffer",
            "--no-verify",
            "--format",
            "json",
            "-o",
            path_str(&fifo),
        ]);
        let mut child = command(&args.iter().map(String::as_str).collect::<Vec<_>>())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // `-v` gives the phases' times once the cases are measured: the run then writes the
        // report, and waits for a reader.
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut said = String::new();
        let mut line = String::new();
        while std::io::BufRead::read_line(&mut stderr, &mut line).unwrap() > 0 {
            said.push_str(&line);
            if line.contains(" ms, measurements ") {
                break;
            }
            line.clear();
        }
        assert!(said.contains(" ms, measurements "), "{said}");
        std::thread::sleep(std::time::Duration::from_millis(500));
        assert!(
            child.try_wait().unwrap().is_none(),
            "it did not wait for a reader"
        );
        let pid = child.id().to_string();
        assert!(Command::new("kill")
            .args([&format!("-{signal}"), pid.as_str()])
            .status()
            .unwrap()
            .success());
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > std::time::Duration::from_secs(10) {
                // Free it so the test fails instead of hanging.
                drop(std::fs::File::open(&fifo));
                let _ = child.kill();
                panic!("SIG{signal} did not end a run blocked on a FIFO");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        std::io::Read::read_to_string(&mut stderr, &mut said).unwrap();
        assert!(said.contains("waiting for a reader"), "{said}");
        // The report could not be written: the table is printed instead.
        let mut stdout = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
        assert!(stdout.contains("cbuffer{float4} load random"), "{stdout}");
        assert!(is_fifo(&fifo), "the FIFO was replaced");
    }
    std::fs::remove_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn suite_original_is_the_default() {
    let default = perftest(&["--list-cases"]);
    default.expect_code(SUCCESS);
    let explicit = perftest(&["--list-cases", "--suite", "original"]);
    explicit.expect_code(SUCCESS);
    assert_eq!(default.stdout, explicit.stdout);
    assert_eq!(default.stdout.lines().count(), ALL_CASES);
}

#[test]
fn suite_all_lists_each_case_with_its_suite() {
    for args in [
        &["--list-cases", "--suite", "all"][..],
        &[
            "--list-cases",
            "--suite",
            "original,modern",
            "--suite",
            "memory",
        ][..],
    ] {
        let run = perftest(args);
        run.expect_code(SUCCESS);
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert!(lines.len() >= ALL_CASES, "{args:?}:\n{run}");
        let suites: Vec<&str> = lines
            .iter()
            .map(|l| l.split_whitespace().next().unwrap_or(""))
            .collect();
        assert!(
            suites
                .iter()
                .all(|s| ["original", "modern", "texture", "memory", "graphics"].contains(s)),
            "{args:?}:\n{run}"
        );
        assert_eq!(
            suites.iter().filter(|s| **s == "original").count(),
            ALL_CASES
        );
        assert!(lines[0].contains("typed.r8.uniform"), "{run}");
    }
}

#[test]
fn filter_works_within_the_suites() {
    let run = perftest(&["--list-cases", "--suite", "original", "--filter", "cbuffer"]);
    run.expect_code(SUCCESS);
    assert_eq!(run.stdout.lines().count(), 3, "{run}");
    perftest(&[
        "--list-cases",
        "--suite",
        "all",
        "--filter",
        "nothing-matches-this",
    ])
    .expect_one_line_error(USAGE, &["nothing-matches-this"]);
}

#[test]
fn unknown_suite_is_a_usage_error_listing_the_names() {
    for args in [
        &["--suite", "orignal"][..],
        &["--suite", "original,bogus", "--list-cases"][..],
        &["--suite", ""][..],
    ] {
        perftest(args).expect_usage_error(&[
            "'--suite <SUITE>'",
            "original, modern, texture, memory, graphics, all",
        ]);
    }
}

/// Every suite holds cases now: listing one alone succeeds and lists only its own cases.
#[test]
fn every_suite_lists_its_own_cases() {
    for (suite, prefix) in [
        ("original", ""),
        ("modern", "modern."),
        ("Texture", "tex."),
        ("memory", "mem."),
    ] {
        let run = perftest(&["--list-cases", "--suite", suite]);
        run.expect_code(SUCCESS);
        let ids: Vec<&str> = run
            .stdout
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert!(!ids.is_empty(), "{suite}:\n{run}");
        assert!(
            ids.iter().all(|id| id.starts_with(prefix)),
            "{suite}:\n{run}"
        );
    }
}

#[test]
fn reports_record_the_suites_and_each_case_suite() {
    // The original's three cbuffer cases (the memory suite's cbuffer cases have other ids).
    let run = perftest_small(&[
        "--filter",
        "cbuffer.float4",
        "--format",
        "json",
        "--suite",
        "all",
    ]);
    run.expect_code(SUCCESS);
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{run}"));
    assert_eq!(report["schema"], "perftest-report/1");
    assert_eq!(
        report["settings"]["suites"],
        serde_json::json!(["original", "modern", "texture", "memory", "graphics"])
    );
    let cases = report["cases"].as_array().unwrap();
    // The three original cases, then their fragment-shader twins in the graphics suite.
    assert_eq!(cases.len(), 6, "{run}");
    assert!(cases[..3].iter().all(|c| c["suite"] == "original"), "{run}");
    assert!(cases[3..].iter().all(|c| c["suite"] == "graphics"), "{run}");
    for (original, fragment) in cases[..3].iter().zip(&cases[3..]) {
        assert_eq!(fragment["twin"], original["id"], "{run}");
    }
}

#[test]
fn the_sweep_runs_on_lavapipe_within_a_small_working_set() {
    // The memory suite's sweep up to 256 KB: latency and bandwidth rows, the cache-hierarchy
    // section with cycles at the given clock, and nothing above the limit.
    let run = perftest_small(&[
        "--suite",
        "memory",
        "--filter",
        "mem.sweep",
        "--max-working-set",
        "256KB",
        "--clock-mhz",
        "1000",
    ]);
    run.expect_code(SUCCESS);
    let out = &run.stdout;
    assert!(out.contains("Latency 4KB (pointer chase)"), "{run}");
    assert!(out.contains("Latency 256KB (pointer chase)"), "{run}");
    assert!(
        out.contains("Bandwidth 8KB (StructuredBuffer<uint4>.Load linear)"),
        "{run}"
    );
    assert!(!out.contains("512KB"), "{run}");
    assert!(!out.contains("failed"), "{run}");
    let section = out
        .split("Cache hierarchy")
        .nth(1)
        .unwrap_or_else(|| panic!("no cache-hierarchy section:\n{run}"));
    assert!(section.contains("cycles@1000MHz"), "{run}");
    // One row per working set, 4 KB to 256 KB, each with a latency in ns; the refined sweep
    // may add sizes between levels (on lavapipe, whatever the CPU's caches show), never
    // beyond --max-working-set.
    let rows: Vec<&str> = section
        .lines()
        .filter(|l| l.trim_start().starts_with(char::is_numeric))
        .collect();
    for size in [
        "4 KB", "8 KB", "16 KB", "32 KB", "64 KB", "128 KB", "256 KB",
    ] {
        assert!(
            rows.iter().any(|r| r.trim_start().starts_with(size)),
            "{size}:\n{run}"
        );
    }
    assert!(rows.len() >= 7, "{run}");
    let sizes: Vec<f64> = rows
        .iter()
        .map(|r| {
            let words: Vec<&str> = r.split_whitespace().collect();
            let scale = if words[1] == "MB" { 1024.0 } else { 1.0 };
            words[0].parse::<f64>().unwrap() * scale
        })
        .collect();
    assert!(
        sizes.windows(2).all(|w| w[0] < w[1]),
        "rows in order of size:\n{run}"
    );
    assert!(sizes.iter().all(|&kb| kb <= 256.0), "{run}");
    for row in &rows {
        let latency: f64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!(latency > 0.0, "{row}");
    }
    assert!(section.contains("Latency levels:"), "{run}");
    // --no-refine keeps the doubling grid.
    let plain = perftest_small(&[
        "--suite",
        "memory",
        "--filter",
        "mem.sweep.latency",
        "--max-working-set",
        "256KB",
        "--no-refine",
    ]);
    plain.expect_code(SUCCESS);
    let cases = plain
        .stdout
        .lines()
        .filter(|l| {
            l.strip_prefix("Latency ")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count();
    assert_eq!(cases, 7, "{plain}");
    assert!(section.contains("Bandwidth levels:"), "{run}");
    // The latency rows show ns in the table, not loads per second.
    let table_row = out.lines().find(|l| l.starts_with("Latency 4KB")).unwrap();
    assert!(table_row.contains(" ns "), "{table_row}");
}

#[test]
fn max_working_set_and_clock_are_checked() {
    let run = perftest(&["--suite", "memory", "--max-working-set", "lots"]);
    run.expect_code(USAGE);
    assert!(run.stderr.contains("--max-working-set"), "{run}");
    let run = perftest(&["--clock-mhz", "-5"]);
    run.expect_code(USAGE);
    assert!(run.stderr.contains("--clock-mhz"), "{run}");
    // A limit below every selected case's working set leaves nothing to run.
    let run = perftest(&[
        "--suite",
        "memory",
        "--filter",
        "mem.sweep",
        "--max-working-set",
        "1KB",
    ]);
    run.expect_code(USAGE);
    assert!(run.stderr.contains("leaves no case"), "{run}");
    // The original suite's cases read 16 KB: a smaller limit leaves none of them (it used to
    // leave all 138, and exit 0).
    let run = perftest(&["--max-working-set", "1KB", "--list-cases"]);
    run.expect_code(USAGE);
    assert!(run.stderr.contains("leaves no case"), "{run}");
    let run = perftest(&["--max-working-set", "16KB", "--list-cases"]);
    run.expect_code(SUCCESS);
    assert_eq!(run.stdout.lines().count(), ALL_CASES, "{run}");
}

/// Negative and non-finite numbers reach the option's own check and get its one-line message
/// (they used to be taken for unknown options, with a tip that made things worse).
#[test]
fn negative_numbers_get_the_options_own_message() {
    for (args, option) in [
        (&["--target-ms", "-inf"][..], "--target-ms"),
        (&["--target-ms", "-1"][..], "--target-ms"),
        (&["--max-working-set", "-1"][..], "--max-working-set"),
        (&["--clock-mhz", "-nan"][..], "--clock-mhz"),
    ] {
        let run = perftest(args);
        run.expect_usage_error(&[option]);
        assert!(!run.stderr.contains("tip:"), "{run}");
    }
    let run = perftest(&["compare", "a.json", "b.json", "--fail-above", "-inf"]);
    run.expect_code(USAGE);
    assert!(run.stderr.contains("--fail-above"), "{run}");
    assert!(!run.stderr.contains("unexpected argument"), "{run}");
}
