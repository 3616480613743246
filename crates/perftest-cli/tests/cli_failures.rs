//! End-to-end tests of the `perftest` binary, each checked for its one-line `perftest: `
//! message, its documented exit code and the absence of a panic (see `common`).
//!
//! Runtime failures: a missing or unloadable Vulkan loader, a missing driver and a hung
//! submission, each a one-line message and exit code 1; a run that measured nothing keeps the
//! old report.

// They send Unix signals and make FIFOs and device nodes: Unix only. The Windows build is run
// the same way under Wine by `cargo xtask windows`.
#![cfg(unix)]
// clippy.toml's test exemptions cover `#[test]` functions only, not the helpers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

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
}
