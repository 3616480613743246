//! End-to-end tests of the `perftest` binary, each checked for its one-line `perftest: `
//! message, its documented exit code and the absence of a panic (see `common`).
//!
//! Stop signals: SIGINT, SIGTERM and SIGHUP stop a run cleanly with a partial report and
//! 128 + the signal's number; a signal before any measurement keeps the old report; an output
//! FIFO nobody reads yields to one signal.

// They send Unix signals and make FIFOs and device nodes: Unix only. The Windows build is run
// the same way under Wine by `cargo xtask windows`.
#![cfg(unix)]
// clippy.toml's test exemptions cover `#[test]` functions only, not the helpers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

/// Starts a whole-suite timing run writing JSON to `target`, sends `signal` as soon as the run
/// prints a line containing `event` (with `-v`), and returns what the run did.
fn stopped_run(target: &Path, signal: &str, event: &'static str) -> Run {
    use std::io::BufRead;
    let mut child = command(&[
        "-v",
        "--no-verify",
        "--format",
        "json",
        "-o",
        path_str(target),
        "--target-ms",
        "20",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("cannot start the perftest binary");
    // `-v` says when the device is ready (after the signal handlers are installed) and when
    // the first measurement round is done: the signal follows the event, however slow the
    // machine.
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in stderr.lines().map_while(Result::ok) {
            if line.contains(event) {
                let _ = ready_tx.send(());
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    if ready_rx.recv_timeout(Duration::from_secs(120)).is_err() {
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "perftest never printed {event:?}:\n{}",
            reader.join().unwrap()
        );
    }
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("cannot run kill");
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let mut run = Run::from_output(output);
    run.stderr = reader.join().unwrap();
    run
}

/// SIGINT, SIGTERM and SIGHUP each stop a run cleanly: partial results printed and written,
/// exit code 128 + the signal's number. (SIGTERM and SIGHUP used to end the process with no
/// message and nothing written.)
#[test]
fn stop_signals_write_a_partial_report() {
    for (signal, code, name) in [
        ("INT", INTERRUPTED, "SIGINT"),
        ("TERM", TERMINATED, "SIGTERM"),
        ("HUP", HUNG_UP, "SIGHUP"),
    ] {
        let dir = scratch(&format!("signal-{signal}"));
        let target = dir.join("partial.json");
        // The whole suite at 20 ms takes far longer than the first of its measurement rounds:
        // the signal comes once every case had its first turn (`--no-verify` skips the
        // verification phase).
        let run = stopped_run(&target, signal, "measurement round 1 done");
        run.expect_code(code);
        assert!(
            run.stderr
                .contains(&format!("perftest: interrupted by {name}")),
            "{run}"
        );
        assert!(run.stdout.is_empty(), "the report goes to the file:\n{run}");
        assert!(
            target.exists(),
            "{name}: stopped after a measurement round, yet nothing written:\n{run}"
        );
        assert_eq!(entries(&dir), ["partial.json"]);
        let report = read_json(&target);
        assert_eq!(report["complete"], false);
        let cases = report["cases"].as_array().unwrap();
        assert!(
            cases.iter().any(|c| c["status"] == "measured"),
            "a written partial report holds a measured case: {report:#}"
        );
        // Every selected case is listed: measured (stopped during the rounds: with fewer than
        // its 10 samples, in some), or not reached.
        assert_eq!(cases.len(), ALL_CASES, "{report:#}");
        for case in cases {
            let reached = case["status"] == "measured"
                || case["reason"] == "not measured: the run stopped before it";
            assert!(reached, "{case:#}");
        }
        let short = cases.iter().any(|c| {
            c["measurement"]["samples_ns"]
                .as_array()
                .is_some_and(|s| s.len() < 10)
        });
        let not_reached = cases.iter().any(|c| c["status"] == "skipped");
        assert!(short || not_reached, "{report:#}");
        assert!(run.stderr.contains(", written to "), "{run}");
    }
}

/// A signal before anything was measured leaves an earlier report alone.
#[test]
fn a_signal_before_any_measurement_keeps_the_old_report() {
    let dir = scratch("signal-early");
    let target = real_report(&dir, "good.json");
    let before = std::fs::read(&target).unwrap();
    // Right when the device is ready: pipeline creation of the whole suite comes next.
    let run = stopped_run(&target, "TERM", "instance and device ready");
    run.expect_code(TERMINATED);
    assert!(run.stderr.contains("nothing was measured"), "{run}");
    assert!(
        run.stderr
            .contains("perftest: interrupted by SIGTERM: 0 case(s) measured"),
        "{run}"
    );
    assert_eq!(std::fs::read(&target).unwrap(), before);
    assert_eq!(entries(&dir), ["good.json"]);
}

/// An `--output` FIFO that nobody opens for reading never blocks beyond a stop signal: the run
/// finishes, waits for a reader, and one SIGINT or SIGTERM ends it with the signal's code (it
/// used to hang in `open` until a second signal), printing the table the FIFO did not take.
/// The FIFO stays a FIFO.
#[test]
fn a_fifo_without_reader_yields_to_one_stop_signal() {
    let dir = scratch("fifo-no-reader");
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    for (signal, code) in [("INT", INTERRUPTED), ("TERM", TERMINATED)] {
        let args = small(&[
            "-v",
            "--filter",
            "cbuffer",
            "--no-verify",
            "--format",
            "json",
            "-o",
            path_str(&fifo),
        ]);
        let mut child = command(&args.iter().map(String::as_str).collect::<Vec<_>>())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // `-v` gives the phases' times once the cases are measured: the run then writes the
        // report, and waits for a reader.
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut said = String::new();
        let mut line = String::new();
        while std::io::BufRead::read_line(&mut stderr, &mut line).unwrap() > 0 {
            said.push_str(&line);
            if line.contains(" ms, measurements ") {
                break;
            }
            line.clear();
        }
        assert!(said.contains(" ms, measurements "), "{said}");
        let mut stdout_pipe = child.stdout.take().unwrap();
        let pid = child.id();
        let exited = exit_of(child);
        assert!(
            exited.recv_timeout(Duration::from_millis(500)).is_err(),
            "it did not wait for a reader"
        );
        assert!(Command::new("kill")
            .args([&format!("-{signal}"), pid.to_string().as_str()])
            .status()
            .unwrap()
            .success());
        let Ok(status) = exited.recv_timeout(Duration::from_secs(10)) else {
            // Free it so the test fails instead of hanging.
            kill_now(pid);
            panic!("SIG{signal} did not end a run blocked on a FIFO");
        };
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        std::io::Read::read_to_string(&mut stderr, &mut said).unwrap();
        assert!(said.contains("waiting for a reader"), "{said}");
        // The report could not be written: the table is printed instead.
        let mut stdout = String::new();
        std::io::Read::read_to_string(&mut stdout_pipe, &mut stdout).unwrap();
        assert!(stdout.contains("cbuffer{float4} load random"), "{stdout}");
        assert!(is_fifo(&fifo), "the FIFO was replaced");
    }
}
