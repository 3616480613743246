//! `cargo xtask cross`: the targets CI cannot run, type-checked with clippy (Windows with the
//! MSVC toolchain, macOS on Apple silicon and Intel, Android), after adding their standard
//! libraries with rustup.

use crate::workspace::{self, cargo};

/// The targets type-checked (never linked: their linkers and SDKs are not on a Linux machine),
/// each with the platform it stands for.
pub const TYPE_CHECKED: &[(&str, &str)] = &[
    ("x86_64-pc-windows-msvc", "Windows, MSVC toolchain"),
    ("aarch64-apple-darwin", "macOS, Apple silicon"),
    ("x86_64-apple-darwin", "macOS, Intel"),
    ("aarch64-linux-android", "Android, 64-bit ARM"),
];

/// The crates checked for every target: the three libraries engines embed, and the CLI.
const PACKAGES: [&str; 4] = [
    "perftest-core",
    "perftest-cases",
    "perftest-report",
    "perftest-cli",
];

/// Makes sure rustup has the standard library of `target`, adding it when missing. Without
/// rustup this fails: the check cannot run, and must not pass silently.
pub fn ensure_target(target: &str) -> Result<(), String> {
    let installed = std::process::Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| format!("cannot run rustup to add the `{target}` target: {e}"))?;
    if String::from_utf8_lossy(&installed.stdout)
        .lines()
        .any(|line| line.trim() == target)
    {
        return Ok(());
    }
    eprintln!("adding the `{target}` target with rustup");
    match workspace::status(std::process::Command::new("rustup").args(["target", "add", target]))? {
        0 => Ok(()),
        code => Err(format!("`rustup target add {target}` failed (exit {code})")),
    }
}

/// `cargo clippy -D warnings` of [`PACKAGES`] (libraries and binaries; the tests are Linux's
/// and Wine's to run) for every target of [`TYPE_CHECKED`], in one cargo invocation.
pub fn check() -> Result<(), String> {
    for (target, _) in TYPE_CHECKED {
        ensure_target(target)?;
    }
    let mut command = cargo();
    command.arg("clippy");
    for (target, _) in TYPE_CHECKED {
        command.args(["--target", target]);
    }
    for package in PACKAGES {
        command.args(["-p", package]);
    }
    command.args(["--", "-D", "warnings"]);
    match workspace::status(&mut command)? {
        0 => {
            for (target, platform) in TYPE_CHECKED {
                eprintln!("  type-checked  {target} ({platform})");
            }
            Ok(())
        }
        code => Err(format!(
            "cargo clippy for the other targets exited with {code}"
        )),
    }
}
