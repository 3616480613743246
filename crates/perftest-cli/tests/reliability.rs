//! What a careless or hostile invocation does to the files and streams perftest writes: a
//! closed stderr (`perftest ... 2>&1 | head -1`: the reader is gone before perftest writes)
//! loses what perftest would have printed there and nothing else (no panic, exit 101); a
//! file-size limit fails the write instead of killing perftest; `-o` naming a report the
//! command reads is refused before anything is written; a large report is read under an
//! address-space limit a JSON tree of it would not fit.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use std::process::Command;

/// Runs `perftest ARGS` with stdout discarded and stderr into a pipe whose reader exits at
/// once; the exit status perftest itself returned.
fn with_closed_stderr(args: &str) -> i32 {
    let script = format!(
        "set -o pipefail; \"$0\" {args} 2>&1 >/dev/null | true; exit \"${{PIPESTATUS[0]}}\""
    );
    let status = Command::new("bash")
        .args(["-c", &script, common::BINARY])
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
        .args(["-c", script, common::BINARY])
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

/// `-o` naming a report the command reads (directly, through a link, or as a hard link) is a
/// usage error before anything is written: the input stays as it was.
#[cfg(unix)]
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sebbbi");
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    std::fs::copy(fixtures.join("nvidia-ampere-rtx-3090.txt"), &a).unwrap();
    std::fs::copy(fixtures.join("nvidia-turing-rtx-2080-ti.txt"), &b).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&a, &link).unwrap();
    let hard = dir.path().join("hard.txt");
    std::fs::hard_link(&b, &hard).unwrap();
    let before = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let run = |args: &[&std::path::Path]| {
        let output = common::command(&[]).args(args).output().unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let render = std::path::Path::new("render");
    let compare = std::path::Path::new("compare");
    let o = std::path::Path::new("-o");
    for args in [
        vec![render, &a, o, &a],
        vec![render, &a, o, &link],
        vec![compare, &a, &b, o, &hard],
    ] {
        let (code, stderr) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("this command reads"), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    assert_eq!(
        before,
        (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap())
    );
    // Another file is written as before.
    let (code, stderr) = run(&[render, &a, o, &dir.path().join("out.txt")]);
    assert_eq!(code, Some(0), "{stderr}");
}

/// A gate that compared almost nothing fails instead of passing, with exit 7 (no verdict), not
/// 5 (slower): here one case of the 138 of A is in B.
#[test]
fn a_gate_over_almost_nothing_fails() {
    let dir = tempfile::tempdir().unwrap();
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sebbbi/nvidia-ampere-rtx-3090.txt");
    let one = dir.path().join("one.txt");
    std::fs::write(&one, "Buffer<R8>.Load uniform: 0.691ms 15.067x\n").unwrap();
    let gate = |extra: &str| {
        let output = common::command(&[])
            .arg("compare")
            .args(extra.split_whitespace())
            .arg("--")
            .arg(&full)
            .arg(&one)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    for limits in ["--fail-median 5", "--fail-above 5"] {
        let (code, stderr) = gate(limits);
        assert_eq!(code, Some(7), "{limits}: {stderr}");
        assert!(
            stderr.contains("no verdict: 1 of A's 138 measured case(s) were compared"),
            "{stderr}"
        );
    }
    // Without a gate the comparison itself is fine.
    assert_eq!(gate("").0, Some(0));
}

/// Two devices whose `{pci}` (here their UUID: a loader given the same driver twice lists one
/// GPU twice) expand to the same file name are refused before running, with one line naming
/// both devices; nothing is written. (One report used to replace the other, silently.)
#[cfg(unix)]
#[test]
fn two_devices_with_one_output_name_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let icd = std::fs::read_dir("/usr/share/vulkan/icd.d")
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("lvp_icd"))
        .expect("lavapipe's manifest");
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    std::fs::copy(&icd, &a).unwrap();
    std::fs::copy(&icd, &b).unwrap();
    let drivers = format!("{}:{}", a.display(), b.display());
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let run = |pattern: &str| {
        let output = common::command(&[])
            .args(["--all-devices", "--filter", "cbuffer", "--format", "json"])
            .args(["--target-ms", "1", "--samples", "2", "--no-verify", "-o"])
            .arg(out.join(pattern))
            .env("VK_DRIVER_FILES", &drivers)
            .env("VK_ICD_FILENAMES", &drivers)
            .env_remove("PERFTEST_VULKAN_LOADER")
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let listed = common::command(&[])
        .arg("--list")
        .env("VK_DRIVER_FILES", &drivers)
        .env("VK_ICD_FILENAMES", &drivers)
        .env_remove("PERFTEST_VULKAN_LOADER")
        .output()
        .unwrap();
    let devices = String::from_utf8_lossy(&listed.stdout).lines().count();
    assert_eq!(devices, 2, "the loader lists the driver twice");
    let (code, stderr) = run("node-{pci}.json");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("devices 1 and 2 would both write"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
}

/// Sends `signal` to the process `pid`.
#[cfg(unix)]
fn send(pid: u32, signal: i32) {
    // SAFETY: kill has no memory effects; the pid is a child this test started.
    let sent = unsafe { libc::kill(i32::try_from(pid).unwrap(), signal) };
    assert_eq!(sent, 0);
}

/// Creates a FIFO inside the test's own directory.
#[cfg(unix)]
fn make_fifo(path: &std::path::Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

/// A stop signal that arrives while the Vulkan loader blocks (here reading a driver manifest
/// that is a FIFO whose writer never writes) ends the run within the grace period, with the
/// signal's exit code and a line saying why. (The signal used to be swallowed: the flag was
/// raised, nothing checked it, and `timeout` never ended the run.)
#[cfg(unix)]
#[test]
fn a_stop_signal_while_the_loader_blocks_ends_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("driver.json");
    make_fifo(&manifest);
    let mut child = common::command(&[])
        .args(["--filter", "cbuffer", "--no-verify"])
        .env("VK_DRIVER_FILES", &manifest)
        .env("VK_ICD_FILENAMES", &manifest)
        .env_remove("PERFTEST_VULKAN_LOADER")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Opening the FIFO's writing end returns the moment the loader opens it to read; the
    // writer stays open and silent, so the loader's read blocks.
    let (opened_tx, opened_rx) = std::sync::mpsc::channel();
    let fifo = manifest.clone();
    std::thread::spawn(move || {
        let _ = opened_tx.send(std::fs::OpenOptions::new().write(true).open(&fifo));
    });
    let writer = opened_rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .ok()
        .and_then(Result::ok);
    assert!(writer.is_some(), "the loader never opened the manifest");
    send(child.id(), libc::SIGTERM);
    let mut stderr_pipe = child.stderr.take().unwrap();
    let status = common::wait_at_most(child, std::time::Duration::from_secs(60));
    drop(writer);
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut stderr_pipe, &mut stderr).unwrap();
    let status = status.unwrap_or_else(|| panic!("SIGTERM did not end a blocked run: {stderr}"));
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("SIGTERM was not answered"), "{stderr}");
}

/// GNU `timeout` sends its signal to perftest and then to perftest's process group: the copy
/// of the same SIGTERM is one request, so the run still stops cleanly (its message, its
/// partial report) instead of taking the copy for a second request and exiting at once.
#[cfg(unix)]
#[test]
fn a_copy_of_the_same_signal_is_one_request() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("partial.json");
    let mut child = common::command(&[])
        .args([
            "-v",
            "--no-verify",
            "--format",
            "json",
            "--target-ms",
            "20",
            "-o",
        ])
        .arg(&out)
        .env_remove("PERFTEST_VULKAN_LOADER")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        said.push_str(&line);
        if line.contains("instance and device ready") {
            break;
        }
        line.clear();
    }
    assert!(said.contains("instance and device ready"), "{said}");
    let pid = child.id();
    send(pid, libc::SIGTERM);
    // The copy is sent once the first is delivered (no longer pending), as a second kill
    // from `timeout` may be: `-v` says when the run has received it.
    line.clear();
    while stderr.read_line(&mut line).unwrap() > 0 {
        said.push_str(&line);
        if line.contains("SIGTERM received") {
            break;
        }
        line.clear();
    }
    assert!(
        said.contains("perftest: SIGTERM received, stopping"),
        "{said}"
    );
    send(pid, libc::SIGTERM);
    let status = common::wait_at_most(child, std::time::Duration::from_secs(60));
    std::io::Read::read_to_string(&mut stderr, &mut said).unwrap();
    let status = status.unwrap_or_else(|| panic!("the run did not stop: {said}"));
    assert_eq!(status.code(), Some(143), "{said}");
    assert!(said.contains("perftest: interrupted by SIGTERM"), "{said}");
}

/// `-o` naming a Unix socket is a usage error at once (opening a socket fails like a FIFO
/// without a reader, and the wait for a reader never ended).
#[cfg(unix)]
#[test]
fn an_output_socket_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("report.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let table = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sebbbi/nvidia-ampere-rtx-3090.txt");
    let mut child = common::command(&[])
        .arg("render")
        .arg(&table)
        .arg("-o")
        .arg(&socket)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr_pipe = child.stderr.take().unwrap();
    let status = common::wait_at_most(child, std::time::Duration::from_secs(60));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut stderr_pipe, &mut stderr).unwrap();
    let status = status.unwrap_or_else(|| panic!("-o SOCKET hung: {stderr}"));
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is a socket"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// `--all-devices` when no thread can be started (here every new thread asks for a 1 TB stack,
/// as a container's pids limit refuses threads): each device is timed on the main thread
/// instead, with a note, its pipelines built and its results verified there too, and the
/// run succeeds. (It panicked, exit 101.)
#[test]
fn all_devices_without_threads_times_each_device_in_turn() {
    let output = common::command(&[])
        .args(["--all-devices", "--filter", "cbuffer"])
        .args(["--target-ms", "2", "--samples", "3"])
        .env("RUST_MIN_STACK", "1099511627776")
        .env_remove("PERFTEST_VULKAN_LOADER")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("no thread could be started for it"),
        "{stderr}"
    );
    assert!(stdout.contains("Node summary: "), "{stdout}");
}

/// The Slurm health check with a stand-in for perftest that ends as `body` says; its exit
/// status and its one line.
#[cfg(unix)]
fn health_check(body: &str, timeout_s: u32) -> (Option<i32>, String) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("perftest");
    std::fs::write(&fake, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../deploy/slurm/perftest-healthcheck.sh");
    let output = Command::new("bash")
        .arg(script)
        .env("PERFTEST", &fake)
        .env("WORK_DIR", dir.path().join("work"))
        .env("BASELINE_DIR", dir.path().join("baselines"))
        .env("TIMEOUT", timeout_s.to_string())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// A GPU that returns wrong results (perftest's exit 4), is lost, or hangs past the check's
/// time limit fails the health check with exit 5, which drains the node; it used to be exit
/// 1, "the check could not run", which leaves a broken node in service.
#[cfg(unix)]
#[test]
fn the_health_check_drains_a_wrong_lost_or_hung_gpu() {
    let wrong = "echo 'perftest: device 1: typed.r8.uniform: 12 of 4096 values differ' >&2; exit 4";
    let lost = "echo 'perftest: device 1: the device was lost during vkQueueSubmit \
                (VK_ERROR_DEVICE_LOST); results so far are kept' >&2; exit 1";
    // The stand-in hangs until the check's one-second limit ends it.
    let hung = "exec sleep 600";
    for (body, limit, words) in [
        (wrong, 60, "wrong results"),
        (lost, 60, "lost or hung"),
        (hung, 1, "did not finish within 1s"),
    ] {
        let (code, line) = health_check(body, limit);
        assert_eq!(code, Some(5), "{body}: {line}");
        assert!(line.starts_with("perftest-health FAIL "), "{line}");
        assert!(line.contains(words), "{line}");
    }
    // Any other error is still "could not run".
    let (code, line) = health_check("echo 'perftest: no Vulkan loader' >&2; exit 1", 60);
    assert_eq!(code, Some(1), "{line}");
    assert!(line.starts_with("perftest-health ERROR "), "{line}");
}

/// A newline in a value quoted by an error (a filter, a baseline, a device name, the loader's
/// path) is escaped, so the error stays on one line (the device error then lists the devices
/// on the lines after it); an empty device name, which every device's name contains, is a
/// usage error; `-o -` into a closed pipe is no error, as without `--output`.
#[test]
fn errors_quoting_a_newline_stay_on_one_line() {
    let run = |args: &[&str], env: Option<(&str, &str)>| {
        let mut command = common::command(&[]);
        command.args(args).env_remove("PERFTEST_VULKAN_LOADER");
        if let Some((key, value)) = env {
            command.env(key, value);
        }
        let output = command.output().unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    for (args, env, code, words) in [
        (&["--filter", "a\nb"][..], None, 2, "'a\\nb'"),
        (
            &["--baseline", "a\nb", "--filter", "cbuffer"][..],
            None,
            2,
            "'a\\nb'",
        ),
        (&["gpu\nx", "--filter", "cbuffer"][..], None, 2, "'gpu\\nx'"),
        (
            &["--list"][..],
            Some(("PERFTEST_VULKAN_LOADER", "/no\nwhere.so")),
            1,
            "/no\\nwhere.so",
        ),
    ] {
        let (got, stderr) = run(args, env);
        assert_eq!(got, Some(code), "{args:?}: {stderr}");
        let first = stderr.lines().next().unwrap_or_default();
        assert!(first.contains(words), "{args:?}: {stderr}");
    }
    let (code, stderr) = run(&["", "--filter", "cbuffer"], None);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("an empty device name"), "{stderr}");
    let script = "\"$0\" --filter cbuffer --target-ms 2 --samples 3 --no-verify -o - | true; \
                  exit \"${PIPESTATUS[0]}\"";
    let status = Command::new("bash")
        .args(["-c", script, common::BINARY])
        .env_remove("PERFTEST_VULKAN_LOADER")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert_eq!(status.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}

/// Writes a report of `cases` measured cases (the sample report's first case under new ids)
/// to `path`, with its first case repeated at the end: a report that is read to the end and
/// then refused ("the id appears twice"), so reading it costs what reading a report costs and
/// nothing is rendered. Returns the file's size in bytes.
fn write_large_report(path: &std::path::Path, cases: usize) -> u64 {
    use std::io::Write;
    let mut report = perftest_report::samples::sample_report();
    let first = report.cases[0].clone();
    report.cases = (0..cases)
        .map(|i| {
            let mut case = first.clone();
            case.id = format!("{}.{i}", first.id);
            case
        })
        .collect();
    report.cases.push(report.cases[0].clone());
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    serde_json::to_writer(&mut file, &report).unwrap();
    file.flush().unwrap();
    drop(file);
    std::fs::metadata(path).unwrap().len()
}

/// Reading a report costs a few times its size in address space (the bytes, then the typed
/// report: about 190 MB for this 35 MB report), not a JSON tree of it first (about 470 MB):
/// under a limit of 64 MiB plus six times the report's size, the report is read to the end and
/// refused with its one-line message, where building the tree first aborted on a failed
/// allocation. A small report under the same limit shows the limit leaves room for perftest.
#[cfg(unix)]
#[test]
fn reading_a_report_builds_no_json_tree_first() {
    let dir = tempfile::tempdir().unwrap();
    let large = dir.path().join("large.json");
    let size = write_large_report(&large, 125_000);
    assert!(size > 32 << 20, "{size} bytes");
    let small = dir.path().join("small.json");
    write_large_report(&small, 10);
    let limit_kib = (64 << 10) + 6 * size / 1024;
    let script = "ulimit -v \"$1\" && exec \"$0\" render \"$2\"";
    let read = |path: &std::path::Path| {
        let output = Command::new("sh")
            .args(["-c", script, common::BINARY])
            .arg(limit_kib.to_string())
            .arg(path)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    for path in [&small, &large] {
        let (code, stderr) = read(path);
        assert_eq!(code, Some(1), "{}: {stderr}", path.display());
        assert!(stderr.contains("the id appears twice"), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// Runs `perftest ARGS` in `dir` with `env` set (and no other loader chosen); its exit status
/// and stderr.
fn run_in(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = common::command(args);
    command.current_dir(dir);
    for var in ["VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES"] {
        command.env_remove(var);
    }
    command.envs(env.iter().copied());
    let output = command.output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A second device name after an option is one name too many, not a "subcommand"; `--filter`
/// takes a TEXT that starts with a dash, in either form.
#[test]
fn usage_messages_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["-v", "llvm", "llvm2"][..], &["llvm", "-v", "llvm2"][..]] {
        let (code, stderr) = run_in(dir.path(), args, &[]);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("perftest: unexpected argument 'llvm2': give one device NAME"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("subcommand"), "{args:?}: {stderr}");
    }
    for args in [&["--filter", "-x"][..], &["--filter=-x"][..]] {
        let (code, stderr) = run_in(dir.path(), args, &[]);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("perftest: no case matches the filter '-x'"),
            "{args:?}: {stderr}"
        );
    }
}

/// `PERFTEST_VULKAN_LOADER` holding a bare name is the file of that name in the current
/// folder, for the check and for the load alike (the load searched the library path instead
/// and found nothing, or another file than the one checked).
#[cfg(target_os = "linux")]
#[test]
fn a_bare_loader_name_is_the_file_checked_and_loaded() {
    let system = [
        "/usr/lib/x86_64-linux-gnu/libvulkan.so.1",
        "/usr/lib/aarch64-linux-gnu/libvulkan.so.1",
        "/usr/lib/libvulkan.so.1",
        "/usr/lib64/libvulkan.so.1",
    ]
    .iter()
    .map(std::path::Path::new)
    .find(|p| p.is_file())
    .expect("the Vulkan loader the tests run on");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(system, dir.path().join("libvulkan-copy.so")).unwrap();
    let loader = [("PERFTEST_VULKAN_LOADER", "libvulkan-copy.so")];
    let (code, stderr) = run_in(dir.path(), &["--list"], &loader);
    assert_eq!(code, Some(0), "{stderr}");
    // A bare name with no such file in the folder is not looked up elsewhere.
    let loader = [("PERFTEST_VULKAN_LOADER", "libvulkan.so.1")];
    let (code, stderr) = run_in(dir.path(), &["--list"], &loader);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("./libvulkan.so.1"), "{stderr}");
    assert!(
        stderr.contains("a bare name is a file in the current folder"),
        "{stderr}"
    );
}

/// A driver manifest that is not valid JSON makes the loader answer "out of host memory";
/// perftest says the loader or a driver failed to initialise and names the variable that
/// chose the manifest.
#[test]
fn a_broken_driver_manifest_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("broken_icd.json");
    std::fs::write(&manifest, "{\"file_format_version\": \"1.0.0\", \"ICD\": {").unwrap();
    let manifest = manifest.to_str().unwrap();
    for var in ["VK_DRIVER_FILES", "VK_ICD_FILENAMES"] {
        let (code, stderr) = run_in(dir.path(), &["--list"], &[(var, manifest)]);
        assert_eq!(code, Some(1), "{var}: {stderr}");
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            first.contains("the Vulkan loader or a driver failed to initialise"),
            "{var}: {stderr}"
        );
        assert!(
            first.contains(&format!("{var}={manifest}")),
            "{var}: {stderr}"
        );
        assert!(!first.contains("host memory allocation"), "{var}: {stderr}");
    }
}

/// A copy of the committed H200 report with each measured case's samples multiplied by
/// `slower` (1.05: 5% slower) and `edit` applied to its JSON, written as `dir/name` with the
/// top-level keys in the report's own order (a health check reads the device name by line).
fn edited_h200(
    dir: &std::path::Path,
    name: &str,
    slower: f64,
    edit: impl Fn(&mut serde_json::Value),
) -> std::path::PathBuf {
    let path = common::committed_report();
    let mut report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    for case in report["cases"].as_array_mut().unwrap() {
        if let Some(samples) = case["measurement"]["samples_ns"].as_array_mut() {
            for s in samples {
                *s = serde_json::Value::from(s.as_f64().unwrap() * slower);
            }
        }
    }
    edit(&mut report);
    let keys = [
        "schema",
        "perftest_version",
        "started_at",
        "finished_at",
        "complete",
        "device",
        "settings",
        "baseline_id",
        "cases",
    ];
    let object = report.as_object().unwrap();
    let fields: Vec<String> = keys
        .iter()
        .filter_map(|k| {
            let value = serde_json::to_string_pretty(object.get(*k)?).unwrap();
            Some(format!("  {k:?}: {value}"))
        })
        .collect();
    let out = dir.join(name);
    std::fs::write(&out, format!("{{\n{}\n}}\n", fields.join(",\n"))).unwrap();
    out
}

/// `compare` of a fleet judges each GPU model's reports with the outlier rule, whatever their
/// drivers and perftest versions: a node after a driver update stays in its model's group,
/// and a report of another GPU model is named as not judged instead of turning the whole
/// comparison into the cross-GPU matrix (exit 0, no verdict).
#[test]
fn a_fleet_is_judged_per_gpu_model_whatever_its_drivers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let same = |_: &mut serde_json::Value| {};
    let updated = |r: &mut serde_json::Value| {
        r["device"]["api_version"] = "1.4.999".into();
        r["device"]["driver_info"] = "999.1".into();
        r["perftest_version"] = "0.2.0".into();
    };
    let other_model = |r: &mut serde_json::Value| r["device"]["name"] = "NVIDIA B200".into();
    let healthy = [
        edited_h200(d, "node1.json", 1.0, same),
        edited_h200(d, "node2.json", 1.0001, updated),
        edited_h200(d, "node3.json", 0.9999, same),
    ];
    let slow = edited_h200(d, "node4.json", 1.05, updated);
    let stray = edited_h200(d, "node5.json", 1.0, other_model);
    let compare = |files: &[&std::path::PathBuf]| {
        let output = common::command(&["compare", "--"])
            .args(files)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let [a, b, c] = &healthy;
    // The slow node is flagged although its driver and perftest differ from the others'.
    let (code, stdout, stderr) = compare(&[a, b, c, &slow]);
    assert_eq!(code, Some(6), "{stdout}{stderr}");
    assert!(stdout.contains("OUTLIER "), "{stdout}");
    assert!(stdout.contains("node4.json"), "{stdout}");
    assert!(stdout.contains("differ in API version, driver"), "{stdout}");
    // With a GPU of another model in the folder: still flagged, the stray one not judged.
    let (code, stdout, stderr) = compare(&[a, b, &stray, c, &slow]);
    assert_eq!(code, Some(6), "{stdout}{stderr}");
    assert!(stdout.contains("OUTLIER "), "{stdout}");
    assert!(stdout.contains("NOT JUDGED "), "{stdout}");
    // A healthy fleet beside a stray report: no outlier, but no pass either (exit 7).
    let (code, stdout, stderr) = compare(&[a, b, c, &stray]);
    assert_eq!(code, Some(7), "{stdout}{stderr}");
    assert!(stdout.contains("NOT JUDGED "), "{stdout}");
    assert!(stderr.starts_with("perftest: no verdict"), "{stderr}");
    // The healthy fleet alone passes.
    let (code, stdout, stderr) = compare(&[a, b, c]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
}

/// A health check whose gate could not judge (the run shares no case with the baseline) says
/// so and exits 1, which leaves the node in service; it used to be exit 5, "slower than its
/// baseline", which drains it.
#[cfg(unix)]
#[test]
fn a_health_check_that_could_not_judge_does_not_drain() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let baselines = d.join("baselines");
    std::fs::create_dir(&baselines).unwrap();
    // The baseline has the first half of the cases, the run the second half.
    let half = |first: bool| {
        move |r: &mut serde_json::Value| {
            let cases = r["cases"].as_array_mut().unwrap();
            let cut = cases.len() / 2;
            if first {
                cases.truncate(cut);
            } else {
                cases.drain(..cut);
            }
        }
    };
    edited_h200(&baselines, "NVIDIA_H200.json", 1.0, half(true));
    let run = edited_h200(d, "run.json", 1.0, half(false));
    // The stand-in writes `run` for the timing run and is the real perftest for `compare`.
    let fake = d.join("perftest");
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = compare ]; then exec '{binary}' \"$@\"; fi\n\
         while [ $# -gt 0 ]; do\n  if [ \"$1\" = --output ]; then out=$2; fi\n  shift\ndone\n\
         cp '{run}' \"$(echo \"$out\" | sed 's/{{pci}}/gpu0/')\"\n",
        binary = common::BINARY,
        run = run.display()
    );
    std::fs::write(&fake, script).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let output = Command::new("bash")
        .arg(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../deploy/slurm/perftest-healthcheck.sh"),
        )
        .env("PERFTEST", &fake)
        .env("WORK_DIR", d.join("work"))
        .env("BASELINE_DIR", &baselines)
        .output()
        .unwrap();
    let line = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{line}");
    assert!(line.starts_with("perftest-health ERROR "), "{line}");
    assert!(line.contains("could not judge"), "{line}");
    assert!(line.contains("no verdict"), "{line}");
}

/// Positions of `c` in `text` not escaped by a backslash.
fn unescaped(text: &str, c: char) -> usize {
    let mut count = 0;
    let mut backslashes = 0;
    for ch in text.chars() {
        if ch == c && backslashes % 2 == 0 {
            count += 1;
        }
        backslashes = if ch == '\\' { backslashes + 1 } else { 0 };
    }
    count
}

/// A published table's GPU name is data in the book: the gallery writes it escaped in each
/// page's heading, the index and the book's summary (raw, `<img onerror>` ran in the built
/// book and a `[` broke the build), and the book's include command in it is not read as one.
/// The same name stays data in `render`'s Markdown, HTML and SVG.
#[test]
fn a_contributed_table_cannot_inject_into_the_book() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let sebbbi = root.join("sebbbi");
    let published = root.join("published");
    std::fs::create_dir_all(&sebbbi).unwrap();
    std::fs::create_dir_all(&published).unwrap();
    std::fs::copy(common::committed_report(), root.join("report.json")).unwrap();
    let hostile = "<img src=x onerror=alert(1)> [RTX](javascript:x) {{#include /etc/passwd}}";
    let table =
        std::fs::read_to_string(common::published_tables().join("nvidia-ampere-rtx-3090.txt"))
            .unwrap();
    let body: String = table.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let evil = sebbbi.join("evil [x] `y`.txt");
    std::fs::write(&evil, format!("### {hostile}\n{body}")).unwrap();
    let csv = std::fs::read_to_string(
        repo.join("results/published/intel-arc-b580-vulkan-perftest-vk-dxc.csv"),
    )
    .unwrap()
    .replace("Intel(R) Arc(TM) B580 Graphics", &hostile.replace('"', "'"));
    std::fs::write(published.join("evil.csv"), csv).unwrap();
    let sources = perftest_cli::gallery::Sources {
        reports: vec!["report.json".into()],
        folders: vec!["sebbbi".into(), "published".into()],
        answers: Vec::new(),
    };
    let pages = perftest_cli::gallery::pages(root, &sources).unwrap();
    assert!(pages.iter().filter(|p| p.title.contains("<img")).count() >= 2);
    let summary = perftest_cli::gallery::summary_lines(&pages);
    for text in pages
        .iter()
        .map(|p| p.text.as_str())
        .chain([summary.as_str()])
    {
        for line in text.lines() {
            let raw_html =
                unescaped(line, '<') > 0 && !line.contains("`<") && line.contains("<img");
            assert!(!raw_html, "raw HTML: {line}");
            assert!(!line.contains("{{#"), "an include command: {line}");
        }
    }
    for line in summary.lines() {
        // `- [TITLE](PATH)`: one link, its text without a bracket of its own.
        assert_eq!(unescaped(line, '['), 1, "{line}");
        assert_eq!(unescaped(line, ']'), 1, "{line}");
        let path = line.rsplit_once("](").unwrap().1.trim_end_matches(')');
        assert!(
            path.chars()
                .all(|c| c.is_ascii_alphanumeric() || "/.-_".contains(c)),
            "{line}"
        );
    }
    // `render` and the cross-GPU `compare` write the name as data in every markup format.
    let others = ["amd-navi-rx-5700-xt.txt", "nvidia-volta-titan-v.txt"]
        .map(|name| common::published_tables().join(name));
    for (command, format) in [
        ("render", "markdown"),
        ("render", "html"),
        ("render", "svg"),
        ("compare", "markdown"),
        ("compare", "html"),
    ] {
        let mut run = common::command(&[command, "--format", format]);
        run.arg(&evil);
        if command == "compare" {
            run.args(&others);
        }
        let output = run.output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{command} {format}");
        let text = String::from_utf8_lossy(&output.stdout);
        if format == "markdown" {
            assert!(text.contains("\\<img"), "{text}");
            assert!(!text.contains("{{#"), "{text}");
        } else {
            assert!(!text.contains("<img"), "{format}: {text}");
        }
    }
}

/// A `--dump-shaders` folder that cannot be made (its parent is a file) is refused before any
/// GPU work: no table, one line. It used to be found only after the whole run.
#[test]
fn a_dump_folder_that_cannot_be_made_is_refused_first() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let output = common::command(&["--filter", "cbuffer", "--dump-shaders"])
        .arg(file.join("shaders"))
        .args(common::SMALL)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.is_empty(), "the run went ahead: {stdout}");
    assert!(
        stderr.starts_with("perftest: cannot create --dump-shaders"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// A shader dump that fails after a run stopped by SIGTERM is told, and the run still exits
/// 143: the dump's exit 1 used to replace the signal's code. (The folder is free when the run
/// starts; a file takes its place once the device is ready.)
#[cfg(unix)]
#[test]
fn a_late_dump_failure_keeps_the_signal_code() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let shaders = dir.path().join("shaders");
    let mut child = common::command(&["--filter", "typed", "--verbose", "--dump-shaders"])
        .arg(&shaders)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            panic!("the run ended before its device was ready: {seen}");
        }
        seen.push_str(&line);
        if line.contains("instance and device ready") {
            break;
        }
    }
    std::fs::write(&shaders, "not a folder").unwrap();
    send(child.id(), libc::SIGTERM);
    let status = common::wait_at_most(child, std::time::Duration::from_secs(120));
    std::io::Read::read_to_string(&mut stderr, &mut seen).unwrap();
    let status = status.unwrap_or_else(|| panic!("SIGTERM did not end the run: {seen}"));
    assert_eq!(status.code(), Some(143), "{seen}");
    assert!(seen.contains("--dump-shaders"), "{seen}");
}

/// `render FILE`'s exit code and stderr.
fn render_file(path: &std::path::Path) -> (Option<i32>, String) {
    let output = common::command(&["render"]).arg(path).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// An error quotes a bounded, escaped excerpt of what it read: a 1 MB malformed line gives a
/// short message, and a CSV cell holding a newline cannot split the message or forge a second
/// `perftest:` line.
#[test]
fn an_error_quotes_a_bounded_escaped_excerpt() {
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("long.txt");
    std::fs::write(&long, format!("{}: 1.0ms\n", "A".repeat(1 << 20))).unwrap();
    let csv = dir.path().join("forged.csv");
    let header = "suite,test,total_ms,ratio,median_ms,min_ms,cv_pct,status,device,vendor_id,\
                  device_id,driver,vulkan";
    std::fs::write(
        &csv,
        format!(
            "{header}\noriginal,\"x\nperftest: all reports are fine\",1,1,1,1,1,ok,G,0,0,d,1\n"
        ),
    )
    .unwrap();
    let malformed = dir.path().join("malformed.txt");
    std::fs::write(
        &malformed,
        format!("not a case line {}\n", "B".repeat(1 << 20)),
    )
    .unwrap();
    for path in [&long, &csv, &malformed] {
        let (code, stderr) = render_file(path);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stderr.starts_with("perftest: "), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.len() < 400, "a message of {} bytes", stderr.len());
    }
}

/// A byte-order mark is accepted; UTF-16 text and a Latin-1 byte are named as an encoding
/// problem, not as the wrong format.
#[test]
fn encodings_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let table =
        std::fs::read(common::published_tables().join("nvidia-ampere-rtx-3090.txt")).unwrap();
    let json = std::fs::read(common::committed_report()).unwrap();
    for (name, body) in [("table.txt", &table), ("report.json", &json)] {
        let path = dir.path().join(format!("bom-{name}"));
        std::fs::write(&path, [b"\xEF\xBB\xBF".as_slice(), body].concat()).unwrap();
        let (code, stderr) = render_file(&path);
        assert_eq!(code, Some(0), "{name} with a BOM: {stderr}");
    }
    let text = String::from_utf8(table.clone()).unwrap();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let path = dir.path().join("utf16.txt");
    std::fs::write(&path, utf16).unwrap();
    let (code, stderr) = render_file(&path);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("not UTF-8 text") && stderr.contains("UTF-16"),
        "{stderr}"
    );
    let latin1 = text.replacen("NVidia", "NVidi\u{e4}", 1);
    let latin1: Vec<u8> = latin1.chars().map(|c| c as u8).collect();
    let path = dir.path().join("latin1.txt");
    std::fs::write(&path, latin1).unwrap();
    let (code, stderr) = render_file(&path);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("byte 0xE4 on line 1 is not UTF-8"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Whether process `pid` catches SIGTERM (its handler is installed), from `/proc`.
#[cfg(target_os = "linux")]
fn catches_sigterm(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGTERM - 1)) != 0)
}

/// A stop signal during `render` ends it at once with the signal's code and says so; it used
/// to be answered only after the 5 s grace a device run gets, by a message blaming the Vulkan
/// loader. (A report of 20,000 cases keeps `render` busy long enough to be stopped.)
#[cfg(target_os = "linux")]
#[test]
fn a_stop_signal_during_render_is_answered_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::committed_report();
    let mut report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let cases = report["cases"].as_array().unwrap().clone();
    let many: Vec<serde_json::Value> = (0..20_000)
        .map(|k| {
            let mut case = cases[k % cases.len()].clone();
            let id = format!("{}.n{k}", case["id"].as_str().unwrap());
            case["id"] = id.into();
            case
        })
        .collect();
    report["cases"] = many.into();
    let big = dir.path().join("big.json");
    std::fs::write(&big, serde_json::to_vec(&report).unwrap()).unwrap();
    let mut child = common::command(&["render", "--format", "html"])
        .arg(&big)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !catches_sigterm(child.id()) {
        assert!(std::time::Instant::now() < deadline, "no SIGTERM handler");
        std::thread::yield_now();
    }
    send(child.id(), libc::SIGTERM);
    let mut stderr_pipe = child.stderr.take().unwrap();
    let status = common::wait_at_most(child, std::time::Duration::from_secs(60));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut stderr_pipe, &mut stderr).unwrap();
    let status = status.unwrap_or_else(|| panic!("SIGTERM did not end render: {stderr}"));
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(
        stderr.contains("perftest: interrupted by SIGTERM"),
        "{stderr}"
    );
    assert!(!stderr.contains("Vulkan loader"), "{stderr}");
}

/// Writes a valid report of the sample report's cases plus `extra` measured copies of its first
/// case under ids no catalog has, its device named `device`; returns its size in bytes.
fn write_padded_report(path: &std::path::Path, device: &str, extra: usize) -> u64 {
    use std::io::Write;
    let mut report = perftest_report::samples::sample_report();
    report.device.name = device.to_string();
    let first = report.cases[0].clone();
    report.cases.extend((0..extra).map(|i| {
        let mut case = first.clone();
        case.id = format!("{}.copy{i}", first.id);
        case
    }));
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    serde_json::to_writer(&mut file, &report).unwrap();
    file.flush().unwrap();
    drop(file);
    std::fs::metadata(path).unwrap().len()
}

/// `perftest ARGS` under an address-space limit of `limit_kib`: exit code, stdout and stderr.
#[cfg(unix)]
fn under_limit(limit_kib: u64, args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let output = Command::new("sh")
        .args([
            "-c",
            "ulimit -v \"$1\" && shift && exec \"$0\" \"$@\"",
            common::BINARY,
        ])
        .arg(limit_kib.to_string())
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A report too large for the memory left is one `perftest:` line naming it, not an abort
/// in the middle of parsing; and a cross-GPU comparison keeps of each report only the cases it
/// reads, so three reports that fit one at a time are compared under a limit that could not
/// hold the three whole (both used to abort with SIGABRT and no `perftest:` line).
#[cfg(unix)]
#[test]
fn memory_that_runs_out_is_a_message_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<std::path::PathBuf> = (0..3)
        .map(|i| dir.path().join(format!("r{i}.json")))
        .collect();
    let mut size = 0;
    for (path, name) in paths.iter().zip(["GPU A", "GPU B", "GPU C"]) {
        size = write_padded_report(path, name, 100_000);
    }
    assert!(size > 24 << 20, "{size} bytes");
    let render = std::ffi::OsStr::new("render");
    let (code, _, stderr) = under_limit(
        (64 << 10) + 2 * size / 1024,
        &[render, paths[0].as_os_str()],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("not enough memory to read it"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let mut args = vec![std::ffi::OsStr::new("compare")];
    args.extend(paths.iter().map(|p| p.as_os_str()));
    // Room for one report read whole beside what the node pass keeps of each (its ids and
    // figures), and far from the three whole.
    let (code, stdout, stderr) = under_limit((64 << 10) + 9 * size / 1024, &args);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("Across 3 GPUs"), "{stdout}");
}

/// A transfer case whose host buffer cannot be allocated is skipped with its reason; it used to
/// end the process with SIGABRT. The address-space limits tried start one 64 MiB step above
/// the lowest at which a small transfer case runs (at that lowest limit the driver itself may
/// run out, which is not the fault under test) and go up in 64 MiB steps past what the 256 MB
/// case needs, so the first of them cannot hold its 256 MiB host buffer.
#[cfg(unix)]
#[test]
fn a_host_transfer_buffer_that_cannot_be_allocated_skips_the_case() {
    let run = |limit_kib: u64, case: &str| {
        let words = [
            "--suite",
            "transfer",
            "--filter",
            case,
            "--target-ms",
            "2",
            "--samples",
            "2",
            "--no-verify",
        ];
        let args: Vec<&std::ffi::OsStr> = words.iter().map(std::ffi::OsStr::new).collect();
        under_limit(limit_kib, &args)
    };
    let step = 64 << 10;
    let base = (4..64)
        .map(|k| k * step)
        .find(|&limit| run(limit, "xfer.copy.upload.mapped_write.4kb").0 == Some(0))
        .expect("no limit under 4 GiB runs a small transfer case");
    let mut skipped = false;
    for k in 1..12 {
        let limit = base + k * step;
        let (code, stdout, stderr) = run(limit, "xfer.copy.upload.mapped_write.256mb");
        assert!(
            code.is_some_and(|c| c == 0 || c == 1),
            "under {limit} KiB (the small case ran under {base}) it ended by a signal: {stderr}"
        );
        assert!(
            stderr
                .lines()
                .all(|l| l.starts_with("perftest: ") || l.starts_with("  ")),
            "{stderr}"
        );
        skipped |= stdout.contains("skipped: the host cannot allocate its 256 MiB");
    }
    assert!(skipped);
}
