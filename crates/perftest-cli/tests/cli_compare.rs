//! End-to-end tests of the `perftest` binary, each checked for its one-line `perftest: `
//! message, its documented exit code and the absence of a panic (see `common`).
//!
//! `compare` and `render`: missing, malformed and foreign reports, two and many reports,
//! the regression gates, every report format and the HTML comparison; hostile reports are
//! escaped or refused.

// They send Unix signals and make FIFOs and device nodes: Unix only. The Windows build is run
// the same way under Wine by `cargo xtask windows`.
#![cfg(unix)]
// clippy.toml's test exemptions cover `#[test]` functions only, not the helpers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

#[test]
fn compare_missing_file_names_it() {
    let dir = scratch("cmp-missing");
    let missing = dir.join("missing.json");
    let sample = &real_report(&dir, "a.json");
    perftest(&["compare", path_str(&missing), path_str(sample)])
        .expect_one_line_error(FAILURE, &[path_str(&missing), "no such file"]);
    perftest(&["compare", path_str(sample), path_str(&missing)])
        .expect_one_line_error(FAILURE, &[path_str(&missing), "no such file"]);
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
}

/// A wide (CJK) case name takes two terminal columns a character: the text table pads it by
/// its display width, so every line is as wide as with an ASCII name of the same width.
#[test]
fn wide_characters_keep_the_text_table_aligned() {
    use unicode_width::UnicodeWidthStr;
    let dir = scratch("wide-names");
    let good = real_report(&dir, "good.json");
    let render = |name: &str, file: &str| {
        let mut report = read_json(&good);
        report["cases"][0]["name"] = Value::from(name);
        let path = dir.join(file);
        std::fs::write(&path, serde_json::to_vec(&report).unwrap()).unwrap();
        let (code, stdout, stderr) = perftest(&["render", path_str(&path)]).into_parts();
        assert_eq!(code, SUCCESS, "{stderr}");
        stdout
    };
    let wide = render("\u{6f22}\u{5b57}\u{8868} kernel", "wide.json");
    let ascii = render("abcdef kernel", "ascii.json");
    assert!(wide.contains("\u{6f22}\u{5b57}\u{8868} kernel"), "{wide}");
    assert_eq!(wide.lines().count(), ascii.lines().count());
    for (w, a) in wide.lines().zip(ascii.lines()) {
        assert_eq!(w.width(), a.width(), "\n{w}\n{a}");
    }
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
}
