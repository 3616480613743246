//! `cargo xtask windows`: perftest's Windows build, run for real under Wine on lavapipe and
//! checked beside the Linux build: devices, verification of the original suite and of a sample
//! of every other suite, a timed run writing JSON to a Windows path, `render` and `compare` of
//! Windows-made reports, reports read across the two systems with byte-identical results,
//! device names, the read-only attribute, Ctrl-C and a missing loader.

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::checks::{Checks, Ran};
use crate::wine::{without_noise, Wine};
use crate::workspace;

/// The Windows target built with mingw-w64.
pub const TARGET: &str = "x86_64-pc-windows-gnu";

/// Why the Windows build cannot be run under Wine here, if it cannot: Wine runs an x86_64
/// Windows program on an x86_64 Linux host only.
pub fn unavailable() -> Option<String> {
    match workspace::host() {
        Ok(host) if host.starts_with("x86_64-") && host.contains("-linux-") => None,
        Ok(host) => Some(format!(
            "Wine runs the {TARGET} build on an x86_64 Linux host only, and this host is {host}"
        )),
        Err(message) => Some(message),
    }
}

/// `cargo xtask windows`: builds both release CLIs (the ones the archives hold; cargo makes
/// this a no-op after `dist`) and runs the checks.
pub fn command() -> Result<(), String> {
    let exe = crate::release::build_release(TARGET)?;
    let linux = crate::release::build_release(&workspace::host()?)?;
    check(&exe, &linux)
}

/// The suites besides the original whose families the Windows build verifies a case of.
const OTHER_SUITES: &str = "modern,texture,memory,graphics";

/// Runs every check of the Windows build `exe` under Wine, beside the Linux build `linux`.
pub fn check(exe: &Path, linux: &Path) -> Result<(), String> {
    let wine = Wine::prepare(exe)?;
    let mut checks = Checks::new("Windows under Wine");
    devices_and_verification(&wine, &mut checks);
    other_suites(&wine, linux, &mut checks);
    let on = OnWine::new(&wine, linux);
    on.timed_runs(&mut checks);
    on.render_and_compare(&mut checks);
    on.across_systems(&mut checks);
    on.output_edges(&mut checks);
    on.loader(&mut checks);
    checks.finish()
}

/// Runs `perftest.exe` with `args` under `wine`.
fn run(wine: &Wine, args: &[&str]) -> Result<Ran, String> {
    let output = wine.run(args)?;
    Ok(Ran::new(&output, without_noise(&output.stderr)))
}

/// `--version`, `--list` and `--verify` of the original suite.
fn devices_and_verification(wine: &Wine, checks: &mut Checks) {
    checks.check(
        "--version",
        run(wine, &["--version"]).and_then(|r| {
            r.expect_code(0)?;
            r.expect_stdout(concat!("perftest ", env!("CARGO_PKG_VERSION")))
        }),
    );
    checks.check(
        "--list shows lavapipe",
        run(wine, &["--list"]).and_then(|r| {
            r.expect_code(0)?;
            r.expect_stdout("1: llvmpipe")
        }),
    );
    checks.check(
        "--verify: the original suite",
        run(wine, &["--verify"]).and_then(|r| {
            r.expect_code(0)?;
            r.expect_stdout("138 passed, 0 failed")
        }),
    );
}

/// `--verify` of a case of every family of the other suites.
fn other_suites(wine: &Wine, linux: &Path, checks: &mut Checks) {
    checks.check(
        "--verify: a case of every family of the other suites",
        family_sample(linux).and_then(|ids| verify_sample(wine, &ids)),
    );
}

/// Verifies the cases `ids` and checks that all passed or were skipped, one at least passed.
fn verify_sample(wine: &Wine, ids: &[String]) -> Result<(), String> {
    let mut args = vec!["--verify", "--suite", OTHER_SUITES];
    for id in ids {
        args.extend(["--filter", id.as_str()]);
    }
    let r = run(wine, &args)?;
    r.expect_code(0)?;
    let (passed, failed, skipped) =
        verify_counts(&r.stdout).ok_or_else(|| format!("no verification summary\n{}", r.stdout))?;
    if failed == 0 && passed > 0 && passed + skipped >= ids.len() {
        eprintln!(
            "          {} families: {passed} passed, {skipped} skipped",
            ids.len()
        );
        Ok(())
    } else {
        Err(format!(
            "{passed} passed, {failed} failed, {skipped} skipped of {} families",
            ids.len()
        ))
    }
}

/// The Windows build under Wine, the Linux build beside it, and the reports' folder.
struct OnWine<'a> {
    wine: &'a Wine,
    linux: &'a Path,
    /// The reports' folder, in `C:\` under a name with a space.
    reports: PathBuf,
    /// Whether the reports' folder was made and handed to the user Wine runs as.
    made: Result<(), String>,
}

impl<'a> OnWine<'a> {
    /// Makes the reports' folder: its name has a space, and the runs give it with backslashes
    /// and with slashes.
    fn new(wine: &'a Wine, linux: &'a Path) -> OnWine<'a> {
        let reports = wine.drive_c().join("perftest reports");
        let made = fs::create_dir_all(&reports)
            .map_err(|e| e.to_string())
            .and_then(|()| wine.give_to_nobody(&reports));
        OnWine {
            wine,
            linux,
            reports,
            made,
        }
    }

    /// Runs `perftest.exe` with `args`.
    fn run(&self, args: &[&str]) -> Result<Ran, String> {
        run(self.wine, args)
    }

    /// A short timed run writing its JSON report to `windows_path`.
    fn timed(&self, windows_path: &str) -> Result<(), String> {
        self.made.clone()?;
        let r = self.run(&short_run(windows_path))?;
        r.expect_code(0)
    }

    /// Two timed runs writing JSON, to a path with backslashes and to one with slashes.
    fn timed_runs(&self, checks: &mut Checks) {
        checks.check(
            "a timed run writes JSON to C:\\perftest reports\\run 1.json",
            self.timed("C:\\perftest reports\\run 1.json")
                .and_then(|()| valid_report(&self.reports.join("run 1.json"), true)),
        );
        checks.check(
            "a timed run writes JSON to C:/perftest reports/run 2.json",
            self.timed("C:/perftest reports/run 2.json")
                .and_then(|()| valid_report(&self.reports.join("run 2.json"), true)),
        );
    }

    /// `render` and `compare` of the Windows-made reports.
    fn render_and_compare(&self, checks: &mut Checks) {
        checks.check("render of a Windows-made report", {
            self.run(&[
                "render",
                "C:\\perftest reports\\run 1.json",
                "--format",
                "markdown",
            ])
            .and_then(|r| {
                r.expect_code(0)?;
                r.expect_stdout("| `Buffer<R8>.Load uniform` |")
            })
        });
        checks.check("compare of Windows-made reports", {
            self.run(&[
                "compare",
                "C:\\perftest reports\\run 1.json",
                "C:/perftest reports/run 2.json",
            ])
            .and_then(|r| {
                r.expect_code(0)?;
                r.expect_stdout("Buffer<R8>.Load uniform")?;
                r.expect_stdout("Median |change|")
            })
        });
    }

    /// A Windows report read on Linux and a Linux report read on Windows, byte-identical.
    fn across_systems(&self, checks: &mut Checks) {
        let (wine, linux) = (self.wine, self.linux);
        checks.check(
            "Linux reads a Windows report: `render --format json` is byte-identical on both",
            same_render(
                wine,
                linux,
                &self.reports.join("run 1.json"),
                "C:\\perftest reports\\run 1.json",
            ),
        );
        checks.check(
            "Windows reads a Linux report: `render --format json` is byte-identical on both",
            {
                let from_linux = self.reports.join("linux.json");
                linux_report(linux, &from_linux)
                    .and_then(|()| wine.give_to_nobody(&from_linux))
                    .and_then(|()| {
                        same_render(wine, linux, &from_linux, "C:\\perftest reports\\linux.json")
                    })
            },
        );
    }

    /// `--output NUL`, a read-only output file and Ctrl-C.
    fn output_edges(&self, checks: &mut Checks) {
        checks.check(
            "--output NUL is written in place, never replaced",
            self.output_nul(),
        );
        checks.check(
            "a read-only file is not replaced (exit 1)",
            self.read_only_output(),
        );
        checks.check(
            "Ctrl-C stops a run: partial JSON written, exit 130",
            ctrl_c(self.wine, &self.reports),
        );
    }

    /// A run writing to `NUL` creates no file of that name.
    fn output_nul(&self) -> Result<(), String> {
        let wine = self.wine;
        self.run(&short_run("NUL")).and_then(|r| {
            r.expect_code(0)?;
            let stray: Vec<String> = [wine.dir(), &wine.drive_c()]
                .iter()
                .flat_map(|d| fs::read_dir(d).into_iter().flatten().flatten())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.eq_ignore_ascii_case("nul"))
                .collect();
            if stray.is_empty() {
                Ok(())
            } else {
                Err(format!("a file named {stray:?} was created"))
            }
        })
    }

    /// A run writing to a read-only file fails with exit 1 and leaves the file as it was.
    fn read_only_output(&self) -> Result<(), String> {
        let locked = self.reports.join("locked.json");
        fs::write(&locked, b"old")
            .map_err(|e| e.to_string())
            .and_then(|()| self.wine.give_to_nobody(&locked))
            .and_then(|()| set_read_only(&locked))
            .and_then(|()| self.run(&short_run("C:\\perftest reports\\locked.json")))
            .and_then(|r| {
                r.expect_code(1)?;
                r.expect_stderr("read-only")?;
                match fs::read(&locked) {
                    Ok(bytes) if bytes == b"old" => Ok(()),
                    _ => Err("the read-only file changed".into()),
                }
            })
    }

    /// `PERFTEST_VULKAN_LOADER` naming the loader, and naming a missing one.
    fn loader(&self, checks: &mut Checks) {
        checks.check(
            "PERFTEST_VULKAN_LOADER naming vulkan-1.dll by its path loads it",
            list_with_loader(self.wine, "C:\\windows\\system32\\vulkan-1.dll").and_then(|r| {
                r.expect_code(0)?;
                r.expect_stdout("1: llvmpipe")
            }),
        );
        checks.check(
            "a missing vulkan-1.dll is a one-line error (exit 1)",
            list_with_loader(self.wine, "C:\\nowhere\\vulkan-1.dll").and_then(|r| {
                r.expect_code(1)?;
                r.expect_stderr("cannot load the Vulkan loader")?;
                r.expect_stderr("vulkan-1.dll comes with every GPU driver")
            }),
        );
    }
}

/// `perftest.exe --list` with `PERFTEST_VULKAN_LOADER` set to `loader`.
fn list_with_loader(wine: &Wine, loader: &str) -> Result<Ran, String> {
    let output = wine
        .perftest(&["--list"])
        .env("PERFTEST_VULKAN_LOADER", loader)
        .output()
        .map_err(|e| e.to_string())?;
    Ok(Ran::new(&output, without_noise(&output.stderr)))
}

/// The arguments of a short timed run of three cases writing its JSON report to `output`.
fn short_run(output: &str) -> Vec<&str> {
    short_run_of("Buffer<R8>.Load", output)
}

/// The arguments of a short timed run of the cases `filter` selects, writing JSON to `output`.
fn short_run_of<'a>(filter: &'a str, output: &'a str) -> Vec<&'a str> {
    vec![
        "--filter",
        filter,
        "--target-ms",
        "2",
        "--samples",
        "3",
        "--no-verify",
        "--format",
        "json",
        "--output",
        output,
    ]
}

/// The first case id of each family (the first three parts of the id) of the [`OTHER_SUITES`],
/// from the Linux build's `--list-cases`.
fn family_sample(linux: &Path) -> Result<Vec<String>, String> {
    let output = Command::new(linux)
        .args(["--suite", OTHER_SUITES, "--list-cases"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", linux.display()))?;
    let mut ids: Vec<String> = Vec::new();
    let mut families: Vec<String> = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Some(id) = line.split_whitespace().nth(1) else {
            continue;
        };
        let family: String = id.split('.').take(3).collect::<Vec<_>>().join(".");
        if !families.contains(&family) {
            families.push(family);
            ids.push(id.to_string());
        }
    }
    if ids.len() < 20 {
        return Err(format!("only {} families listed", ids.len()));
    }
    Ok(ids)
}

/// `(passed, failed, skipped)` from a `--verify` summary line.
fn verify_counts(stdout: &str) -> Option<(usize, usize, usize)> {
    let line = stdout.lines().rev().find(|l| l.contains(" passed, "))?;
    let tail = line.rsplit(": ").next()?;
    let mut numbers = tail
        .split(", ")
        .map(|part| part.split_whitespace().next().and_then(|n| n.parse().ok()));
    Some((
        numbers.next()??,
        numbers.next()??,
        numbers.next().flatten().unwrap_or(0),
    ))
}

/// Checks that `path` holds a perftest JSON report, written with `\n` line ends only.
fn valid_report(path: &Path, complete: bool) -> Result<(), String> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.contains(&b'\r') {
        return Err(format!("{} has carriage returns", path.display()));
    }
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let schema = value["schema"].as_str().unwrap_or_default();
    let cases = value["cases"].as_array().map_or(0, Vec::len);
    if schema != "perftest-report/1" || cases == 0 || value["complete"] != complete {
        return Err(format!(
            "{}: schema {schema:?}, {cases} cases, complete {}",
            path.display(),
            value["complete"]
        ));
    }
    Ok(())
}

/// A short report made by the Linux build.
fn linux_report(linux: &Path, path: &Path) -> Result<(), String> {
    let output = path
        .to_str()
        .ok_or_else(|| format!("{} is not UTF-8", path.display()))?;
    let status = Command::new(linux)
        .args(short_run_of("Buffer<RG8>.Load", output))
        .stdout(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("the Linux build exited with {status}"));
    }
    valid_report(path, true)
}

/// `render REPORT --format json` by both builds gives the same bytes.
fn same_render(wine: &Wine, linux: &Path, host: &Path, windows: &str) -> Result<(), String> {
    let on_linux = Command::new(linux)
        .arg("render")
        .arg(host)
        .args(["--format", "json"])
        .output()
        .map_err(|e| e.to_string())?;
    let on_windows = wine.run(&["render", windows, "--format", "json"])?;
    if !on_linux.status.success() || !on_windows.status.success() {
        return Err(format!(
            "render exited with {} on Linux, {} on Windows: {}",
            on_linux.status,
            on_windows.status,
            without_noise(&on_windows.stderr)
        ));
    }
    if on_linux.stdout != on_windows.stdout {
        let at = on_linux
            .stdout
            .iter()
            .zip(&on_windows.stdout)
            .position(|(a, b)| a != b)
            .unwrap_or(on_linux.stdout.len().min(on_windows.stdout.len()));
        return Err(format!(
            "the renders differ from byte {at} ({} and {} bytes)",
            on_linux.stdout.len(),
            on_windows.stdout.len()
        ));
    }
    Ok(())
}

/// Removes every write permission, which Wine shows as the read-only attribute.
fn set_read_only(path: &Path) -> Result<(), String> {
    let mut permissions = fs::metadata(path).map_err(|e| e.to_string())?.permissions();
    permissions.set_readonly(true);
    fs::set_permissions(path, permissions).map_err(|e| e.to_string())
}

/// Starts a long run, sends SIGINT to the Windows process once it says it has measured every
/// case once (Wine turns the signal into the console's CTRL_C_EVENT), and checks the partial
/// report.
fn ctrl_c(wine: &Wine, reports: &Path) -> Result<(), String> {
    let partial = reports.join("partial.json");
    let _ = fs::remove_file(&partial);
    let mut child = wine
        .perftest(&[
            "-v",
            "--no-verify",
            "--format",
            "json",
            "--output",
            "C:\\perftest reports\\partial.json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    // The interrupt goes in once `-v` says every case has been measured once, so the partial
    // report holds measured cases.
    let stderr = child.stderr.take().ok_or("no stderr from perftest.exe")?;
    let (first_round, first_round_seen) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        for line in BufReader::new(stderr).split(b'\n').map_while(Result::ok) {
            if String::from_utf8_lossy(&line).contains(FIRST_ROUND) {
                let _ = first_round.send(());
            }
            all.extend(line);
            all.push(b'\n');
        }
        all
    });
    let measured = first_round_seen.recv_timeout(FIRST_ROUND_WAIT).is_ok();
    let pid = find_process("partial.json");
    match pid.filter(|_| measured) {
        Some(pid) => {
            let _ = Command::new("kill")
                .args(["-INT", &pid.to_string()])
                .status();
        }
        None => {
            let _ = child.kill();
        }
    }
    let mut stdout = Vec::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_end(&mut stdout);
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let stderr = reader.join().unwrap_or_default();
    let output = Output {
        status,
        stdout,
        stderr,
    };
    let r = Ran::new(&output, without_noise(&output.stderr));
    if !measured {
        return Err(format!(
            "perftest.exe did not print `{FIRST_ROUND}` within {} s\n{}",
            FIRST_ROUND_WAIT.as_secs(),
            without_noise(&output.stderr)
        ));
    }
    pid.ok_or_else(|| "the perftest.exe process was not found".to_string())
        .and_then(|_| r.expect_code(130))
        .and_then(|()| r.expect_stderr("interrupted by Ctrl-C"))
        .and_then(|()| valid_report(&partial, false))
        // What the run said (how many cases it measured, whether it wrote) tells why.
        .map_err(|e| format!("{e}\n{}", without_noise(&output.stderr)))
}

/// What `perftest -v` prints once every case has been measured once.
const FIRST_ROUND: &str = "measurement round 1 done";

/// The longest the Ctrl-C check waits for [`FIRST_ROUND`]; it goes on as soon as the line
/// comes.
const FIRST_ROUND_WAIT: Duration = Duration::from_secs(120);

/// The process id of the running `perftest.exe` whose command line mentions `marker`.
fn find_process(marker: &str) -> Option<u32> {
    let entries = fs::read_dir("/proc").ok()?;
    entries.flatten().find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let cmdline =
            fs::read(PathBuf::from("/proc").join(pid.to_string()).join("cmdline")).ok()?;
        let text = String::from_utf8_lossy(&cmdline);
        let first = text.split('\0').next().unwrap_or_default();
        (first.ends_with("perftest.exe") && text.contains(marker)).then_some(pid)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_summaries_are_read() {
        let out = "Buffer<R8>.Load uniform: pass\nverified on llvmpipe (x, y): 138 passed, 0 failed, 0 skipped\n";
        assert_eq!(verify_counts(out), Some((138, 0, 0)));
        assert_eq!(
            verify_counts("a: 5 passed, 2 failed, 7 skipped"),
            Some((5, 2, 7))
        );
        assert_eq!(verify_counts("nothing"), None);
    }
}
