//! System packages (Debian/Ubuntu names): detection with `dpkg-query`, installation with
//! `apt-get` when running as root.

use std::process::{Command, Stdio};

use crate::workspace;

/// Packages needed to run the benchmark and its tests: the Vulkan loader, Mesa's drivers
/// (lavapipe on machines without a GPU) and the Khronos validation layer.
pub const RUNTIME: &[&str] = &[
    "libvulkan1",
    "mesa-vulkan-drivers",
    "vulkan-validationlayers",
];

/// Packages the tests need besides [`RUNTIME`]: Chromium renders the HTML report to a PNG in
/// headless mode (`tests/html_browser.rs`), proving the page opens in a real browser.
pub const TEST: &[&str] = &["chromium"];

/// Packages the fleet checks need (`cargo xtask fleet`): Slurm and munge, started on
/// localhost by the Slurm test, and Python's venv, for the Kubernetes schema validator.
pub const FLEET: &[&str] = &["slurm-wlm", "munge", "python3", "python3-venv"];

/// Packages needed to build shaderc from source for `cargo xtask shaders`.
pub const SHADER_BUILD: &[&str] = &["cmake", "python3", "g++"];

/// The Vulkan loader's file on this platform, for the message of a machine without apt-get.
const LOADER: &str = if cfg!(windows) {
    "vulkan-1.dll, installed with the GPU driver"
} else if cfg!(target_os = "macos") {
    "libvulkan.1.dylib, with MoltenVK"
} else {
    "libvulkan.so.1"
};

/// What `dpkg-query -W -f='${Status}'` prints for an installed package.
const INSTALLED_STATUS: &str = "install ok installed";

/// Makes sure every package in `wanted` is installed: installs the missing ones when running
/// as root, otherwise fails with the command to run. Without dpkg, only warns.
pub fn ensure(wanted: &[&str]) -> Result<(), String> {
    if !workspace::succeeds("dpkg-query", &["--version"]) {
        // Windows, macOS, or a Linux without Debian's tools: nothing is installed; say what
        // is needed and go on.
        eprintln!(
            "note: no apt-get/dpkg here, so nothing is installed. perftest needs a GPU driver \
             with Vulkan and the Vulkan loader ({}); the tests also need the Khronos \
             validation layer (the Vulkan SDK has it). On Debian or Ubuntu these are the \
             packages: {}",
            LOADER,
            wanted.join(" ")
        );
        return Ok(());
    }
    let missing: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|package| !is_installed(package))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let list = missing.join(" ");
    if !is_root() {
        return Err(format!(
            "missing system packages: {list}\ninstall them with:\n  \
             sudo apt-get install -y --no-install-recommends {list}"
        ));
    }
    eprintln!("installing system packages: {list}");
    run_apt(&mut apt_get(&["update"]))?;
    let mut install = apt_get(&["install", "-y", "--no-install-recommends"]);
    install.args(&missing);
    run_apt(&mut install)?;
    match missing.iter().find(|package| !is_installed(package)) {
        Some(package) => Err(format!("`{package}` is still not installed after apt-get")),
        None => Ok(()),
    }
}

/// Whether dpkg reports `package` as installed.
fn is_installed(package: &str) -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", package])
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|output| {
            output.status.success() && status_is_installed(&String::from_utf8_lossy(&output.stdout))
        })
}

/// Whether a dpkg `${Status}` string means "installed".
fn status_is_installed(status: &str) -> bool {
    status.trim() == INSTALLED_STATUS
}

/// Whether this process runs as root (`id -u` prints 0).
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// A non-interactive `apt-get` command.
fn apt_get(args: &[&str]) -> Command {
    let mut command = Command::new("apt-get");
    command.args(args).env("DEBIAN_FRONTEND", "noninteractive");
    command
}

/// Runs an `apt-get` command and turns a failure into a message.
fn run_apt(command: &mut Command) -> Result<(), String> {
    let args: Vec<String> = command
        .get_args()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    match workspace::status(command)? {
        0 => Ok(()),
        code => Err(format!("`apt-get {}` failed (exit {code})", args.join(" "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installed_status_is_recognised() {
        assert!(status_is_installed("install ok installed"));
        assert!(status_is_installed("install ok installed\n"));
    }

    #[test]
    fn other_statuses_are_not_installed() {
        assert!(!status_is_installed("deinstall ok config-files"));
        assert!(!status_is_installed("install ok unpacked"));
        assert!(!status_is_installed("unknown ok not-installed"));
        assert!(!status_is_installed(""));
    }
}
