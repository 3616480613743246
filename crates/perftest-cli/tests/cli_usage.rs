//! End-to-end tests of the `perftest` binary, each checked for its one-line `perftest: `
//! message, its documented exit code and the absence of a panic (see `common`).
//!
//! Usage errors: arguments, options and device choices the command refuses, each with
//! its one-line `perftest: ` message and exit code 2; help and version; the exit codes against
//! the book's page.

// They send Unix signals and make FIFOs and device nodes: Unix only. The Windows build is run
// the same way under Wine by `cargo xtask windows`.
#![cfg(unix)]
// clippy.toml's test exemptions cover `#[test]` functions only, not the helpers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

/// The rows of the book's exit-codes table (`docs/src/exit-codes.md`): each code with the
/// meaning of its row (`143, 129` gives both codes that row's meaning).
fn documented_exit_codes() -> Vec<(i32, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/exit-codes.md");
    let page = std::fs::read_to_string(&path).unwrap();
    let mut rows = Vec::new();
    for line in page.lines() {
        let Some(row) = line.strip_prefix('|') else {
            continue;
        };
        let Some((codes, meaning)) = row.split_once('|') else {
            continue;
        };
        let codes: Vec<i32> = codes
            .split(',')
            .filter_map(|code| code.trim().parse().ok())
            .collect();
        for code in codes {
            rows.push((code, meaning.trim_end_matches('|').trim().to_string()));
        }
    }
    rows
}

/// Every exit code the command can end with is on the book's page with its meaning, and the
/// page lists no other (Windows' own codes aside); the codes these tests expect are the same.
#[test]
fn exit_codes_match_the_documentation() {
    use perftest_cli::output::exit_code as code;
    use perftest_cli::platform::STOP_EVENTS;
    assert_eq!(
        [
            code::SUCCESS,
            code::FAILURE,
            code::USAGE,
            code::VALIDATION,
            code::VERIFICATION,
            code::REGRESSION,
            code::INTERRUPTED,
            code::OUTLIER,
            code::NO_VERDICT
        ],
        [
            SUCCESS,
            FAILURE,
            USAGE,
            VALIDATION,
            VERIFICATION,
            REGRESSION,
            INTERRUPTED,
            OUTLIER,
            NO_VERDICT
        ]
    );
    let documented = documented_exit_codes();
    let meaning = |wanted: i32| {
        let rows: Vec<&String> = documented
            .iter()
            .filter(|(code, _)| *code == wanted)
            .map(|(_, meaning)| meaning)
            .collect();
        assert_eq!(rows.len(), 1, "exit code {wanted}: {} rows", rows.len());
        rows[0].clone()
    };
    // Each of the code's exit codes, with words its row must hold.
    let mut expected: Vec<(i32, &str)> = vec![
        (code::SUCCESS, "success"),
        (code::FAILURE, "runtime failure"),
        (code::USAGE, "usage error"),
        (code::VALIDATION, "--validation"),
        (code::VERIFICATION, "CPU model"),
        (code::REGRESSION, "--fail-above"),
        (code::OUTLIER, "outlier"),
        (code::NO_VERDICT, "no verdict"),
    ];
    for event in STOP_EVENTS {
        // `SIGINT (Ctrl-C)`: the row names the signal.
        let signal = event.name.split(' ').next().unwrap();
        expected.push((event.exit_code, signal));
    }
    for (code, words) in &expected {
        let row = meaning(*code);
        assert!(
            row.contains(words),
            "exit code {code}: {row:?} lacks {words:?}"
        );
    }
    // The page lists nothing else, but for the codes only Windows has.
    for (code, row) in &documented {
        assert!(
            expected.iter().any(|(c, _)| c == code) || row.starts_with("Windows:"),
            "the page documents exit code {code}, which perftest does not use here: {row:?}"
        );
    }
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

/// A subcommand after a run's options is a usage error that says where it goes.
#[test]
fn a_subcommand_after_options_is_told_to_come_first() {
    let run = perftest(&["--filter", "cbuffer", "compare", "a.json", "b.json"]);
    run.expect_code(USAGE);
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("perftest: 'compare' is a command and must come first"),
        "{run}"
    );
}

/// The subcommands take `-h` and `--help` too (the top level's own help flag must not take
/// theirs away), wherever they stand among the subcommand's arguments.
#[test]
fn the_subcommands_give_their_help() {
    for args in [
        &["compare", "--help"][..],
        &["compare", "a.json", "b.json", "-h"][..],
        &["render", "-h"][..],
        &["render", "--help"][..],
    ] {
        let help = perftest(args);
        help.expect_code(SUCCESS);
        let usage = format!("Usage: perftest {}", args[0]);
        assert!(help.stdout.contains(&usage), "{args:?}: {help}");
        assert!(help.stdout.contains("--output"), "{args:?}: {help}");
    }
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
