//! Running perftest's Windows build under Wine on lavapipe: the tools it needs, a private Wine
//! prefix in a temporary directory, the test-only `bcryptprimitives.dll` beside the `.exe`,
//! and an X server for Wine's Vulkan (`xvfb-run`).
//!
//! Run as root (as CI does), the Windows program runs as the unprivileged user `nobody`
//! (`setpriv`), so that Windows file permissions such as the read-only attribute are enforced
//! the way they are for a Windows user (Wine grants root every write).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::packages;
use crate::workspace;

/// The mingw-w64 C compiler that builds the test-only DLL.
const MINGW_GCC: &str = "x86_64-w64-mingw32-gcc";

/// The user id and group id of `nobody`, which the Windows program runs as when we are root.
const NOBODY: u32 = 65534;

/// A Wine prefix with perftest's Windows build in it, removed on drop.
pub struct Wine {
    dir: PathBuf,
    /// Removes `dir` when dropped, after [`Drop`] stopped the prefix's wineserver.
    _temp: tempfile::TempDir,
    exe: PathBuf,
    as_nobody: bool,
}

impl Wine {
    /// Makes a fresh directory with a copy of `exe`, the test-only DLL and a Wine prefix.
    /// Fails, never skips, when a tool is missing (the steps that use Wine install
    /// [`packages::WINDOWS`] first).
    pub fn prepare(exe: &Path) -> Result<Wine, String> {
        for tool in [MINGW_GCC, "wine", "wineserver", "xvfb-run"] {
            if !tool_exists(tool) {
                return Err(format!(
                    "`{tool}` is not available: install the Debian packages {}",
                    packages::WINDOWS.join(" ")
                ));
            }
        }
        let as_nobody = packages::is_root();
        if as_nobody && !workspace::succeeds("setpriv", &["--version"]) {
            return Err(
                "running as root needs `setpriv` (util-linux) to run Wine as nobody".into(),
            );
        }
        let temp = tempfile::Builder::new()
            .prefix("perftest-wine-")
            .tempdir()
            .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let dir = temp.path().to_path_buf();
        let wine = Wine {
            exe: dir.join("perftest.exe"),
            dir,
            _temp: temp,
            as_nobody,
        };
        fs::copy(exe, &wine.exe)
            .map_err(|e| format!("cannot copy {} into the Wine directory: {e}", exe.display()))?;
        wine.build_prng_dll()?;
        if wine.as_nobody {
            wine.give_to_nobody(&wine.dir)?;
        }
        Ok(wine)
    }

    /// Builds `bcryptprimitives.dll` from `xtask/wine/bcryptprimitives.c` beside the `.exe`.
    fn build_prng_dll(&self) -> Result<(), String> {
        let source = workspace::root().join("xtask/wine/bcryptprimitives.c");
        let mut gcc = Command::new(MINGW_GCC);
        gcc.args(["-shared", "-O2", "-Wall", "-Werror", "-o"])
            .arg(self.dir.join("bcryptprimitives.dll"))
            .arg(&source)
            .arg("-Wl,--kill-at");
        match workspace::status(&mut gcc)? {
            0 => Ok(()),
            code => Err(format!(
                "{MINGW_GCC} failed to build the test DLL (exit {code})"
            )),
        }
    }

    /// Makes `path` (recursively) belong to `nobody`, so the Windows program can write there.
    pub fn give_to_nobody(&self, path: &Path) -> Result<(), String> {
        if !self.as_nobody {
            return Ok(());
        }
        let owner = format!("{NOBODY}:{NOBODY}");
        match workspace::status(Command::new("chown").args(["-R", &owner]).arg(path))? {
            0 => Ok(()),
            code => Err(format!("chown {} failed (exit {code})", path.display())),
        }
    }

    /// The directory Windows sees as `C:\`.
    pub fn drive_c(&self) -> PathBuf {
        self.dir.join("prefix").join("drive_c")
    }

    /// The working directory of the Windows program (where the `.exe` is).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `perftest.exe ARGS...` under Wine, in its directory, with an X server, ready to run.
    pub fn perftest(&self, args: &[&str]) -> Command {
        let mut command = if self.as_nobody {
            let mut c = Command::new("setpriv");
            c.args([
                "--reuid",
                &NOBODY.to_string(),
                "--regid",
                &NOBODY.to_string(),
                "--clear-groups",
                "--",
                "xvfb-run",
            ]);
            c
        } else {
            Command::new("xvfb-run")
        };
        command
            .args(["-a", "wine"])
            .arg(&self.exe)
            .args(args)
            .current_dir(&self.dir)
            .env("HOME", &self.dir)
            .env("WINEPREFIX", self.dir.join("prefix"))
            .env("WINEDEBUG", "-all")
            .env_remove("PERFTEST_VULKAN_LOADER")
            .stdin(Stdio::null());
        command
    }

    /// Runs `perftest.exe ARGS...` to completion.
    pub fn run(&self, args: &[&str]) -> Result<Output, String> {
        let mut tries = 0;
        loop {
            let output = self
                .perftest(args)
                .output()
                .map_err(|e| format!("cannot start Wine: {e}"))?;
            tries += 1;
            if tries >= WINE_TRIES || !wine_failed_to_start(&output) {
                return Ok(output);
            }
        }
    }
}

impl Drop for Wine {
    fn drop(&mut self) {
        // Stop this prefix's wineserver before removing its directory.
        let _ = Command::new("wineserver")
            .arg("-k")
            .env("WINEPREFIX", self.dir.join("prefix"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// What Wine and Xvfb print that is not the program's (an X server going away at the end).
pub fn without_noise(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter(|line| {
            !line.starts_with("X connection to ")
                && !line.contains(":err:")
                && !line.contains(":fixme:")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// How often [`Wine::run`] starts a command whose Wine failed before perftest said anything.
const WINE_TRIES: u32 = 3;

/// Whether `output` is Wine (or its X server) failing to start the program rather than
/// perftest's own result: a failure with nothing on standard output and nothing but Wine's
/// and the X server's noise on standard error (perftest never fails without a message). Seen
/// now and then under `xvfb-run` on a busy 2-core machine, where the next start succeeds.
fn wine_failed_to_start(output: &Output) -> bool {
    !output.status.success()
        && output.stdout.is_empty()
        && without_noise(&output.stderr).trim().is_empty()
}

/// Whether a program is on the `PATH`.
fn tool_exists(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    fn output(code: i32, stdout: &str, stderr: &str) -> Output {
        Output {
            status: std::process::ExitStatus::from_raw(code << 8),
            stdout: stdout.as_bytes().to_vec(),
            stderr: stderr.as_bytes().to_vec(),
        }
    }

    #[test]
    fn only_a_silent_failure_is_wine_failing_to_start() {
        let noise = "0024:err:module:import_dll Library x.dll not found\n";
        assert!(wine_failed_to_start(&output(1, "", noise)));
        assert!(wine_failed_to_start(&output(1, "", "")));
        // perftest's own failures say something; successes are never retried.
        assert!(!wine_failed_to_start(&output(
            1,
            "",
            "perftest: error: cannot load the Vulkan loader\n"
        )));
        assert!(!wine_failed_to_start(&output(2, "usage", "")));
        assert!(!wine_failed_to_start(&output(0, "", "")));
    }
}
