//! A closed stderr (`perftest ... 2>&1 | head -1`: the reader is gone before perftest writes)
//! loses what perftest would have printed there, and nothing else: no panic (exit 101), the
//! run's own exit status.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::process::Command;

/// Runs `perftest ARGS` with stdout discarded and stderr into a pipe whose reader exits at
/// once; the exit status perftest itself returned.
fn with_closed_stderr(args: &str) -> i32 {
    let script = format!(
        "set -o pipefail; \"$0\" {args} 2>&1 >/dev/null | true; exit \"${{PIPESTATUS[0]}}\""
    );
    let status = Command::new("bash")
        .args(["-c", &script, env!("CARGO_BIN_EXE_perftest")])
        .env_remove("PERFTEST_VULKAN_LOADER")
        .status()
        .unwrap();
    status.code().unwrap_or(-1)
}

#[test]
fn a_closed_stderr_is_no_panic() {
    // `--validation` ends with a line on stderr; `render` of a table writes its note there too.
    assert_eq!(with_closed_stderr("--list --validation"), 0);
    assert_eq!(
        with_closed_stderr("--verify --filter typed.r8.uniform --validation"),
        0
    );
    let missing = with_closed_stderr("render /nonexistent/report.json");
    assert_eq!(missing, 1, "a missing report is exit 1, not a panic");
}

/// A file-size limit (`ulimit -f`, which Slurm passes to jobs) makes a write fail with a
/// message and no file left behind, instead of killing perftest with SIGXFSZ and no word.
#[cfg(unix)]
#[test]
fn a_file_size_limit_is_an_error_not_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let table = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sebbbi/nvidia-ampere-rtx-3090.txt");
    let out = dir.path().join("big.html");
    // 1 block of 512 bytes: the HTML page is far larger.
    let script = "ulimit -f 1; \"$0\" render \"$1\" --format html -o \"$2\"";
    let output = Command::new("bash")
        .args(["-c", script, env!("CARGO_BIN_EXE_perftest")])
        .arg(&table)
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("perftest: "), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}
