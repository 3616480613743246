//! The HTML pages open in a real browser: headless Chromium renders the report of the committed
//! H200 run and a comparison to PNG screenshots, which must show the charts (many colours, the
//! heatmap's dark blue, the comparison's green and red bars), not a blank or error page; and
//! the committed H200 memory run as HTML and as SVG, which must show the sweep's latency and
//! bandwidth curves (their purple and orange lines) over the levels' shades.
//!
//! Chromium comes from the Debian package `chromium` (`cargo xtask test` installs it). Without
//! it the test fails in CI (`CI` or `PERFTEST_VALIDATION` set) and is skipped, loudly,
//! elsewhere. `PERFTEST_CHROMIUM` names another Chromium binary.

// clippy.toml's test exemptions cover `#[test]` functions only, not this file's helpers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::{committed_report, path_str, scratch};

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Size of the browser window, and so of the screenshot.
const WINDOW: (u32, u32) = (1400, 2000);

/// Longest a screenshot may take.
const CHROMIUM_TIMEOUT: Duration = Duration::from_secs(120);

/// The Chromium binary, or `None` (after saying so) when the test should be skipped.
fn chromium() -> Option<String> {
    let binary = std::env::var("PERFTEST_CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
    let found = Command::new(&binary)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        return Some(binary);
    }
    let message = format!(
        "`{binary}` is not installed (Debian package `chromium`; `cargo xtask test` installs it)"
    );
    if std::env::var_os("CI").is_some() || std::env::var_os("PERFTEST_VALIDATION").is_some() {
        panic!("{message}");
    }
    eprintln!("SKIPPED: the HTML browser test needs Chromium: {message}");
    None
}

/// Runs the perftest binary and requires success.
fn perftest(args: &[&str]) {
    let run = common::perftest(args);
    assert!(
        run.code == Some(0),
        "perftest {args:?} failed:\n{}",
        run.stderr
    );
}

/// A memory-suite report with the sweep (`tests/fixtures/reports/`).
fn committed_memory_report() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reports/nvidia-h200-memory.json")
}

/// The sweep charts' colours (`export/curves.rs`): the latency line, the bandwidth line and
/// the two level shades.
const LATENCY_LINE: [u8; 3] = [0x7b, 0x32, 0x94];
const BANDWIDTH_LINE: [u8; 3] = [0xe6, 0x61, 0x01];
const LEVEL_FILLS: [[u8; 3]; 2] = [[0xec, 0xe2, 0xf4], [0xfc, 0xe8, 0xd6]];

/// Screenshots `page` with headless Chromium into `dir/NAME.png`; returns the RGBA pixels.
fn screenshot(chromium: &str, dir: &Path, page: &Path, name: &str) -> Vec<[u8; 4]> {
    let shot = dir.join(format!("{name}.png"));
    let profile = dir.join(format!("{name}-profile"));
    let child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", path_str(&profile)))
        .arg(format!("--screenshot={}", path_str(&shot)))
        .arg(format!("--window-size={},{}", WINDOW.0, WINDOW.1))
        .arg(format!("file://{}", path_str(page)))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let Some(status) = common::wait_at_most(child, CHROMIUM_TIMEOUT) else {
        panic!("chromium did not finish within {CHROMIUM_TIMEOUT:?}");
    };
    assert!(status.success(), "chromium failed: {status}");
    let mut decoder = png::Decoder::new(std::fs::File::open(&shot).unwrap());
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buffer).unwrap();
    assert_eq!((info.width, info.height), WINDOW, "{name}");
    let channels = info.color_type.samples();
    buffer[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|p| match p {
            [r, g, b, a] => [*r, *g, *b, *a],
            [r, g, b] => [*r, *g, *b, 255],
            [l, a] => [*l, *l, *l, *a],
            _ => [p[0], p[0], p[0], 255],
        })
        .collect()
}

/// Pixels within 6 per channel of `colour`.
fn count_near(pixels: &[[u8; 4]], colour: [u8; 3]) -> usize {
    pixels
        .iter()
        .filter(|p| (0..3).all(|i| p[i].abs_diff(colour[i]) <= 6))
        .count()
}

/// The screenshot is not blank: many colours, a good share of non-white pixels.
fn assert_not_blank(pixels: &[[u8; 4]], name: &str) {
    let distinct: HashSet<[u8; 4]> = pixels.iter().copied().collect();
    let non_white = pixels
        .iter()
        .filter(|p| p[0] < 240 || p[1] < 240 || p[2] < 240)
        .count();
    let share = non_white as f64 / pixels.len() as f64;
    assert!(
        distinct.len() >= 30,
        "{name}: only {} colours",
        distinct.len()
    );
    assert!(share > 0.05, "{name}: only {:.1}% non-white", share * 100.0);
}

#[test]
fn html_report_and_comparison_render_in_chromium() {
    let Some(chromium) = chromium() else { return };
    let dir = scratch("render");
    let report = committed_report();
    let page = dir.join("report.html");
    perftest(&[
        "render",
        path_str(&report),
        "--format",
        "html",
        "-o",
        path_str(&page),
    ]);
    let pixels = screenshot(&chromium, &dir, &page, "report");
    assert_not_blank(&pixels, "report");
    // Heatmap cells at the family's best are the palette's darkest blue, #0c2c84.
    let dark = count_near(&pixels, [0x0c, 0x2c, 0x84]);
    assert!(
        dark > 2000,
        "report: {dark} pixels of the heatmap's dark blue"
    );

    // A comparison with one family faster and one slower shows green and red bars.
    let mut b: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    for case in b["cases"].as_array_mut().unwrap() {
        let id = case["id"].as_str().unwrap().to_string();
        let factor = if id.starts_with("typed.") {
            0.8
        } else if id.starts_with("raw.") {
            1.25
        } else {
            continue;
        };
        for s in case["measurement"]["samples_ns"].as_array_mut().unwrap() {
            *s = serde_json::Value::from(s.as_f64().unwrap() * factor);
        }
    }
    let b_path = dir.join("b.json");
    std::fs::write(&b_path, serde_json::to_vec(&b).unwrap()).unwrap();
    let compare_page = dir.join("compare.html");
    perftest(&[
        "compare",
        path_str(&report),
        path_str(&b_path),
        "--format",
        "html",
        "-o",
        path_str(&compare_page),
    ]);
    let pixels = screenshot(&chromium, &dir, &compare_page, "compare");
    assert_not_blank(&pixels, "compare");
    let green = count_near(&pixels, [0x2e, 0x7d, 0x32]);
    let red = count_near(&pixels, [0xc6, 0x28, 0x28]);
    assert!(
        green > 1000 && red > 1000,
        "compare: {green} green, {red} red pixels"
    );
}

#[test]
fn sweep_curves_render_in_chromium_as_html_and_svg() {
    let Some(chromium) = chromium() else { return };
    let dir = scratch("curves");
    let report = committed_memory_report();
    for format in ["html", "svg"] {
        let page = dir.join(format!("memory.{format}"));
        perftest(&[
            "render",
            path_str(&report),
            "--format",
            format,
            "-o",
            path_str(&page),
        ]);
        let pixels = screenshot(&chromium, &dir, &page, &format!("memory-{format}"));
        assert_not_blank(&pixels, format);
        let latency = count_near(&pixels, LATENCY_LINE);
        let bandwidth = count_near(&pixels, BANDWIDTH_LINE);
        assert!(
            latency > 800 && bandwidth > 800,
            "{format}: {latency} latency-line and {bandwidth} bandwidth-line pixels"
        );
        let shades: Vec<usize> = LEVEL_FILLS
            .iter()
            .map(|c| count_near(&pixels, *c))
            .collect();
        assert!(
            shades.iter().all(|s| *s > 5000),
            "{format}: level shades {shades:?}"
        );
    }
}
