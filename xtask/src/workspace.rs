//! Where things are in the workspace, and how child commands are started.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

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
