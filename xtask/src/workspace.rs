//! Where things are in the workspace, and how child commands are started.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Shader sources, relative to the workspace root.
pub const SHADERS_DIR: &str = "shaders";

/// Compiled SPIR-V and its manifest, relative to the workspace root.
pub const SPIRV_DIR: &str = "crates/perftest-core/spirv";

/// The workspace root: the parent of this crate's directory.
pub fn root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// A `cargo` command (the one running us, from `$CARGO`) working in the workspace root.
pub fn cargo() -> Command {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut command = Command::new(program);
    command.current_dir(root());
    command
}

/// Runs `command` to completion with inherited stdio and returns its exit status as a byte
/// (1 when it was killed by a signal).
pub fn status(command: &mut Command) -> Result<u8, String> {
    let name = command.get_program().to_string_lossy().into_owned();
    let status = command
        .status()
        .map_err(|error| format!("cannot start `{name}`: {error}"))?;
    Ok(match status.code() {
        Some(code) => u8::try_from(code).unwrap_or(1),
        None => 1,
    })
}

/// Whether `program args...` can be started and exits successfully (output discarded).
pub fn succeeds(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// `cargo metadata --no-deps` of the workspace, as JSON (asked once per run).
pub fn metadata() -> Result<&'static serde_json::Value, String> {
    static METADATA: OnceLock<Result<serde_json::Value, String>> = OnceLock::new();
    METADATA
        .get_or_init(|| {
            let output = cargo()
                .args([
                    "metadata",
                    "--format-version",
                    "1",
                    "--no-deps",
                    "--offline",
                ])
                .stderr(std::process::Stdio::inherit())
                .output()
                .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
            if !output.status.success() {
                return Err("cargo metadata failed".into());
            }
            serde_json::from_slice(&output.stdout)
                .map_err(|e| format!("cargo metadata printed no JSON: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The directory cargo builds into: `CARGO_TARGET_DIR`, `build.target-dir` or `target/`, as
/// `cargo metadata` reports it.
pub fn target_dir() -> Result<PathBuf, String> {
    metadata()?["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "cargo metadata names no target_directory".to_string())
}

/// The host's target triple (`rustc -vV`'s `host:` line, asked once per run), e.g.
/// `x86_64-unknown-linux-gnu`.
pub fn host() -> Result<String, String> {
    static HOST: OnceLock<Result<String, String>> = OnceLock::new();
    HOST.get_or_init(|| {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
        let output = Command::new(rustc)
            .arg("-vV")
            .output()
            .map_err(|e| format!("cannot run rustc -vV: {e}"))?;
        host_of(&String::from_utf8_lossy(&output.stdout))
            .map(str::to_string)
            .ok_or_else(|| "rustc -vV names no host triple".to_string())
    })
    .clone()
}

/// The triple on the `host:` line of `rustc -vV`'s output.
fn host_of(version: &str) -> Option<&str> {
    version
        .lines()
        .find_map(|line| line.strip_prefix("host:"))
        .map(str::trim)
        .filter(|host| !host.is_empty())
}

/// Makes sure the rustup `component` (`rustfmt`, `clippy`) is installed, adding it when its
/// cargo subcommand does not run.
pub fn ensure_component(component: &str) -> Result<(), String> {
    let subcommand = match component {
        "rustfmt" => "fmt",
        other => other,
    };
    let works = || {
        cargo()
            .args([subcommand, "--version"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    };
    if works() {
        return Ok(());
    }
    if !succeeds("rustup", &["--version"]) {
        return Err(format!(
            "`cargo {subcommand}` is not available and there is no rustup to add `{component}`"
        ));
    }
    eprintln!("adding the `{component}` component with rustup");
    match status(Command::new("rustup").args(["component", "add", component]))? {
        0 if works() => Ok(()),
        _ => Err(format!("could not add the `{component}` component")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_triple_is_read_from_rustc() {
        let version = "rustc 1.95.0 (59807616e 2026-04-14)\nbinary: rustc\n\
                       host: aarch64-unknown-linux-gnu\nrelease: 1.95.0\n";
        assert_eq!(host_of(version), Some("aarch64-unknown-linux-gnu"));
        assert_eq!(host_of("rustc 1.95.0\nhost: \n"), None);
        assert_eq!(host_of(""), None);
    }
}
