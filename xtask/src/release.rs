//! The release build of the CLI for a target, which `dist` packs and `windows` runs.

use std::path::PathBuf;

use crate::workspace::{self, cargo};

/// The binary's file name on `target`.
pub fn binary_name(target: &str) -> &'static str {
    if target.contains("windows") {
        "perftest.exe"
    } else {
        "perftest"
    }
}

/// Builds the release CLI for `target` (`cargo build --release --locked`) and returns the
/// binary's path.
pub fn build_release(target: &str) -> Result<PathBuf, String> {
    crate::cross::ensure_target(target)?;
    let status = workspace::status(cargo().args([
        "build",
        "--release",
        "--locked",
        "-p",
        "perftest-cli",
        "--target",
        target,
    ]))?;
    if status != 0 {
        return Err(format!(
            "the release build for {target} failed (exit {status})"
        ));
    }
    let built = workspace::target_dir()?;
    Ok(built.join(target).join("release").join(binary_name(target)))
}
