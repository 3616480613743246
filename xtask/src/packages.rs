//! System packages (Debian/Ubuntu names): detection with `dpkg-query`, installation with
//! `apt-get` when running as root.

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::workspace;

/// Packages needed to run the benchmark and its tests: the Vulkan loader, Mesa's drivers
/// (lavapipe on machines without a GPU) and the Khronos validation layer.
pub const RUNTIME: &[&str] = &[
    "libvulkan1",
    "mesa-vulkan-drivers",
    "vulkan-validationlayers",
];

/// Packages the tests need: [`RUNTIME`], and Chromium, which renders the HTML report to a PNG
/// in headless mode (`tests/html_browser.rs`), proving the page opens in a real browser.
pub const TEST: [&str; 4] = concat(RUNTIME, &["chromium"]);

/// Packages the fleet checks need (`cargo xtask fleet`): [`RUNTIME`], Slurm and munge,
/// started on localhost by the Slurm test, and Python's venv, for the Kubernetes schema
/// validator.
pub const FLEET: [&str; 7] = concat(RUNTIME, &["slurm-wlm", "munge", "python3", "python3-venv"]);

/// The mingw-w64 C toolchain (with its `dlltool`), which links the Windows build.
pub const MINGW: &str = "gcc-mingw-w64-x86-64";

/// Packages for building the Windows CLI and running it under Wine on lavapipe: [`RUNTIME`]
/// (Wine's Vulkan uses the host's), mingw-w64, Wine and an X server for it (`xvfb-run`).
pub const WINDOWS: [&str; 8] = concat(RUNTIME, &[MINGW, "wine", "wine64", "xvfb", "xauth"]);

/// Packages the fuzz targets need: libFuzzer, which they link, is C++.
pub const FUZZ: &[&str] = &["g++"];

/// Packages needed to build shaderc from source for `cargo xtask shaders`.
pub const SHADER_BUILD: &[&str] = &["cmake", "python3", "g++"];

/// `first` followed by `second`, as an array of `N` names (a compile error unless `N` is the
/// sum of their lengths).
const fn concat<const N: usize>(
    first: &[&'static str],
    second: &[&'static str],
) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < first.len() {
        out[i] = first[i];
        i += 1;
    }
    let mut j = 0;
    while j < second.len() {
        out[i + j] = second[j];
        j += 1;
    }
    assert!(i + j == N, "the array's length is not the sum of its parts");
    out
}

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

/// Makes sure every package in `wanted` is installed: installs the missing ones with apt-get
/// when running as root (after one `apt-get update` per xtask run), otherwise fails with the
/// command to run. Without dpkg it fails too, naming what is needed, unless
/// `PERFTEST_XTASK_NO_PACKAGES` is set (a machine whose tools were installed another way).
pub fn ensure(wanted: &[&str]) -> Result<(), String> {
    if wanted.is_empty() || std::env::var_os(NO_PACKAGES_ENV).is_some() {
        return Ok(());
    }
    if !workspace::succeeds("dpkg-query", &["--version"]) {
        return Err(format!(
            "no dpkg/apt-get here, so these Debian packages cannot be checked or installed: {}. \
             perftest needs a GPU driver with Vulkan and the Vulkan loader ({LOADER}); the tests \
             also need the Khronos validation layer (the Vulkan SDK has it). Install the \
             equivalents, then set {NO_PACKAGES_ENV}=1, or leave the step out with --skip",
            wanted.join(" ")
        ));
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
    if !UPDATED.swap(true, Ordering::SeqCst) {
        run_apt(&mut apt_get(&["update"]))?;
    }
    let mut install = apt_get(&["install", "-y", "--no-install-recommends"]);
    install.args(&missing);
    run_apt(&mut install)?;
    match missing.iter().find(|package| !is_installed(package)) {
        Some(package) => Err(format!("`{package}` is still not installed after apt-get")),
        None => Ok(()),
    }
}

/// Like [`ensure`], but a machine without dpkg only gets a note: `cargo xtask run` goes on and
/// perftest itself says what is missing.
pub fn ensure_or_note(wanted: &[&str]) -> Result<(), String> {
    if workspace::succeeds("dpkg-query", &["--version"]) {
        ensure(wanted)
    } else {
        eprintln!(
            "note: no apt-get/dpkg here, so nothing is installed. perftest needs a GPU driver \
             with Vulkan and the Vulkan loader ({LOADER})"
        );
        Ok(())
    }
}

/// Set (to anything) on a machine without dpkg whose needed tools were installed another way.
const NO_PACKAGES_ENV: &str = "PERFTEST_XTASK_NO_PACKAGES";

/// Whether this run already ran `apt-get update`.
static UPDATED: AtomicBool = AtomicBool::new(false);

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
