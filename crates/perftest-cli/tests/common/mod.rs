//! What the tests of the `perftest` binary share: running it (on the machine's Vulkan device,
//! lavapipe in CI) and reading what it did, the documented exit codes, temporary directories,
//! and the FIFOs, device nodes and reports they write through.
//!
//! Every file they write is inside their own temporary directory; the device nodes, FIFOs and
//! links they write through are created there too. Every timing run is small (`--target-ms 2
//! --samples 3` and a filter) unless a test needs a long one.

// Each test file uses a part of these.
#![allow(dead_code, unused_imports)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub use std::path::{Path, PathBuf};
pub use std::process::{Command, Output, Stdio};
pub use std::time::Duration;

pub use serde_json::Value;

/// The binary under test.
pub const BINARY: &str = env!("CARGO_BIN_EXE_perftest");

/// The documented exit codes (the book's "Exit codes" chapter).
pub const SUCCESS: i32 = 0;
pub const FAILURE: i32 = 1;
pub const USAGE: i32 = 2;
pub const VALIDATION: i32 = 3;
pub const VERIFICATION: i32 = 4;
pub const REGRESSION: i32 = 5;
pub const INTERRUPTED: i32 = 130;
pub const TERMINATED: i32 = 143;
pub const HUNG_UP: i32 = 129;
pub const OUTLIER: i32 = 6;
pub const NO_VERDICT: i32 = 7;

/// Cases of the original suite.
pub const ALL_CASES: usize = 138;

/// Arguments of a small, fast timing run.
pub const SMALL: [&str; 4] = ["--target-ms", "2", "--samples", "3"];

/// What one run of the binary did.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The exit code (-1 when a signal ended it), stdout and stderr.
    pub fn into_parts(self) -> (i32, String, String) {
        (self.code.unwrap_or(-1), self.stdout, self.stderr)
    }

    pub fn from_output(output: Output) -> Run {
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Asserts the exit code and that nothing panicked.
    pub fn expect_code(&self, code: i32) -> &Run {
        assert!(
            !self.stderr.contains("panicked") && !self.stdout.contains("panicked"),
            "perftest panicked:\n{self}"
        );
        assert_eq!(self.code, Some(code), "wrong exit code:\n{self}");
        self
    }

    /// Asserts a failure with a single `perftest: ` line on stderr containing every needle.
    pub fn expect_one_line_error(&self, code: i32, needles: &[&str]) -> &Run {
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
    pub fn expect_usage_error(&self, needles: &[&str]) -> &Run {
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
pub fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(BINARY);
    cmd.args(args)
        .env_remove("PERFTEST_VULKAN_LOADER")
        .stdin(Stdio::null());
    cmd
}

pub fn perftest(args: &[&str]) -> Run {
    perftest_with(command(args))
}

pub fn perftest_with(mut cmd: Command) -> Run {
    Run::from_output(cmd.output().expect("cannot start the perftest binary"))
}

/// `SMALL` followed by `extra`.
pub fn small(extra: &[&str]) -> Vec<String> {
    SMALL.iter().chain(extra).map(|s| s.to_string()).collect()
}

pub fn perftest_small(extra: &[&str]) -> Run {
    let args = small(extra);
    perftest(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// A fresh, empty directory for one test, removed when it is dropped (also when the test
/// fails); it reads as the `Path` it is.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// A fresh, empty directory for one test, named after it.
pub fn scratch(name: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("perftest-{name}-"))
        .tempdir()
        .expect("cannot create a temporary directory");
    Scratch(dir)
}

/// The names in `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON ({e}):\n{text}", path.display()))
}

pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8 here")
}

/// Writes a real report of the six raw.load4 cases to `dir/NAME`.
pub fn real_report(dir: &Path, name: &str) -> PathBuf {
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
pub fn parse_device_line(line: &str) -> Option<(usize, &str, u32, &str)> {
    let (index, rest) = line.split_once(": ")?;
    let rest = rest.strip_suffix(')')?;
    let (name, details) = rest.rsplit_once(" (compute queue: ")?;
    let (queue, device_type) = details.split_once(", type: ")?;
    if name.is_empty() || device_type.is_empty() {
        return None;
    }
    Some((index.parse().ok()?, name, queue.parse().ok()?, device_type))
}

/// True when `text` contains a `NaN` or `inf` word (what a non-finite float prints as).
pub fn has_non_finite(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| ["nan", "inf", "infinity"].contains(&w.to_ascii_lowercase().as_str()))
}

#[cfg(unix)]
/// Creates a device node (`mknod NAME c MAJOR MINOR`) inside the test's own directory; false
/// when this process may not (not root), in which case the caller says so and skips.
pub fn make_device(path: &Path, major: u32, minor: u32) -> bool {
    Command::new("mknod")
        .arg(path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(unix)]
/// Creates a FIFO (`mkfifo`) inside the test's own directory.
pub fn make_fifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

/// True when `path` is a FIFO (not followed if it is a link).
#[cfg(unix)]
pub fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// True when `path` is a character device (not followed if it is a link).
#[cfg(unix)]
pub fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// Waits for `child` on a thread of its own: the receiver gets its exit status the moment it
/// ends (no polling).
pub fn exit_of(
    mut child: std::process::Child,
) -> std::sync::mpsc::Receiver<std::process::ExitStatus> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        if let Ok(status) = child.wait() {
            let _ = sender.send(status);
        }
    });
    receiver
}

/// Ends the process `pid` (a child that outlived its test's limit) with SIGKILL.
pub fn kill_now(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status();
}

/// The exit status of `child` once it ends, or `None` (and the child killed) when it is still
/// running after `limit`.
pub fn wait_at_most(
    child: std::process::Child,
    limit: Duration,
) -> Option<std::process::ExitStatus> {
    let pid = child.id();
    let exited = exit_of(child);
    match exited.recv_timeout(limit) {
        Ok(status) => Some(status),
        Err(_) => {
            kill_now(pid);
            let _ = exited.recv();
            None
        }
    }
}

/// A complete report of the original suite (`tests/fixtures/reports/`).
pub fn committed_report() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reports/nvidia-h200.json")
}

/// The published tables of the original perftest (`tests/fixtures/sebbbi/`, from its README).
pub fn published_tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sebbbi")
}
