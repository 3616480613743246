//! End-to-end tests of the `perftest` binary, each checked for its one-line `perftest: `
//! message, its documented exit code and the absence of a panic (see `common`).
//!
//! Output files: what `--output` names is checked before the run and written as what it
//! is (a file through links, a FIFO, a device, standard output); a late write failure still
//! prints the table; reports are read from regular files only; a closed stdout ends quietly.

// They send Unix signals and make FIFOs and device nodes: Unix only. The Windows build is run
// the same way under Wine by `cargo xtask windows`.
#![cfg(unix)]
// clippy.toml's test exemptions cover `#[test]` functions only, not the helpers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

/// A path that can never name a file is a usage error before any GPU work (it used to pass the
/// start-up check, run everything and fail at the end, losing the table).
#[test]
fn output_paths_that_cannot_be_files_fail_before_running() {
    let dir = scratch("unwritable");
    let missing = dir.join("missing").join("x.json");
    let slash = format!("{}/", dir.join("newdir").display());
    for (target, needle) in [
        (path_str(&missing), "is not an existing directory"),
        (slash.as_str(), "is a directory"),
    ] {
        let run = perftest_small(&["--filter", "raw.load4", "-o", target]);
        run.expect_one_line_error(USAGE, &[target, needle]);
        assert!(run.stdout.is_empty(), "nothing should have run:\n{run}");
    }
    assert!(entries(&dir).is_empty(), "left behind: {:?}", entries(&dir));
    // The same check for `render --output`, before the report is read.
    let run = perftest(&["render", "no-such-report.json", "-o", &slash]);
    run.expect_one_line_error(USAGE, &["is a directory"]);
}

#[test]
fn output_that_is_a_directory_is_refused() {
    let dir = scratch("outdir");
    std::fs::create_dir(dir.join("taken")).unwrap();
    let target = dir.join("taken");
    perftest_small(&["--filter", "raw.load4", "-o", path_str(&target)])
        .expect_one_line_error(USAGE, &[path_str(&target), "is a directory"]);
    assert_eq!(entries(&dir), ["taken"]);
    assert!(entries(&target).is_empty());
}

#[test]
fn output_file_is_valid_json_and_nothing_else_is_left() {
    let dir = scratch("output");
    let target = dir.join("run.json");
    let run = perftest_small(&[
        "--filter",
        "raw.load4",
        "--format",
        "json",
        "-o",
        path_str(&target),
    ]);
    run.expect_code(SUCCESS);
    // The report went to the file instead of stdout; stderr says where.
    assert!(run.stdout.is_empty(), "nothing on stdout expected:\n{run}");
    assert!(
        run.stderr.contains(&format!(
            "perftest: report written to {}",
            path_str(&target)
        )),
        "{run}"
    );
    assert_eq!(entries(&dir), ["run.json"]);
    let report = read_json(&target);
    assert_eq!(report["schema"], "perftest-report/1");
    assert_eq!(report["complete"], true);
    assert_eq!(report["cases"].as_array().unwrap().len(), 6);
}

/// `--output` writes to what the path names: through a symbolic link (the link stays), into a
/// FIFO and into a character device (neither is replaced by a regular file), and into the
/// process's own stdout. All of them used to be replaced by a renamed regular file.
#[test]
fn output_goes_to_what_the_path_names() {
    use std::os::unix::fs::symlink;
    let dir = scratch("output-kinds");
    let report_args = |target: &Path| {
        let mut args = small(&["--filter", "cbuffer", "--format", "json", "-o"]);
        args.push(path_str(target).to_string());
        args
    };
    let run_to = |target: &Path| {
        let args = report_args(target);
        perftest(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };

    // A symbolic link: its target gets the report, the link stays a link.
    let real = dir.join("real.json");
    std::fs::write(&real, b"old").unwrap();
    let link = dir.join("link.json");
    symlink("real.json", &link).unwrap();
    run_to(&link).expect_code(SUCCESS);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read_json(&real)["cases"].as_array().unwrap().len(), 3);

    // A FIFO: written directly, read by the other end.
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let run = run_to(&fifo);
    if !reader.is_finished() {
        // Unblocks the reader should perftest never have opened the FIFO (the test then fails
        // below instead of hanging).
        drop(std::fs::OpenOptions::new().write(true).open(&fifo));
    }
    run.expect_code(SUCCESS);
    let received: Value = serde_json::from_slice(&reader.join().unwrap()).unwrap();
    assert_eq!(received["cases"].as_array().unwrap().len(), 3);
    assert!(is_fifo(&fifo), "the FIFO was replaced");

    // The process's own stdout: the report alone.
    let on_stdout = |run: &Run| {
        run.expect_code(SUCCESS);
        let report: Value = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("stdout is not the report ({e}):\n{run}"));
        assert_eq!(report["cases"].as_array().unwrap().len(), 3);
    };
    on_stdout(&run_to(Path::new("/proc/self/fd/1")));
    // The same through a link to it, and with stdout a pipe (it used to fail with "No such
    // file or directory": the link was followed on to `pipe:[N]`).
    let to_stdout = dir.join("to-stdout.json");
    symlink("/proc/self/fd/1", &to_stdout).unwrap();
    on_stdout(&run_to(&to_stdout));
    assert!(std::fs::symlink_metadata(&to_stdout)
        .unwrap()
        .file_type()
        .is_symlink());
    // `-o -` is stdout too.
    on_stdout(&run_to(Path::new("-")));

    // A character device made here (the null device): written, still a device.
    let null = dir.join("null");
    if make_device(&null, 1, 3) {
        run_to(&null).expect_code(SUCCESS);
        assert!(is_char_device(&null), "the device node was replaced");
    } else {
        eprintln!("not root: the character-device part of this test is skipped");
    }
    let mut left = entries(&dir);
    left.retain(|n| n != "null");
    assert_eq!(left, ["fifo", "link.json", "real.json", "to-stdout.json"]);
}

/// A write that fails after the run (here a full device, as a full disk would) prints the text
/// table instead, so nothing measured is lost, and says where the report could not be written.
#[test]
fn a_late_write_failure_still_prints_the_table() {
    let dir = scratch("full");
    let full = dir.join("full");
    if !make_device(&full, 1, 7) {
        eprintln!("not root: cannot make a full device; test skipped");
        return;
    }
    let run = perftest_small(&[
        "--filter",
        "cbuffer",
        "--format",
        "json",
        "-o",
        path_str(&full),
    ]);
    run.expect_one_line_error(
        FAILURE,
        &[path_str(&full), "the results are in the table above"],
    );
    assert!(run.stdout.starts_with("Device: "), "{run}");
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.starts_with("cbuffer{float4}"))
            .count(),
        3,
        "{run}"
    );
    assert!(is_char_device(&full));
}

/// Reports are read from regular files only: a FIFO without a writer used to block forever.
#[test]
fn render_refuses_what_is_not_a_regular_file() {
    let dir = scratch("render-kinds");
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    perftest(&["render", path_str(&fifo)])
        .expect_one_line_error(FAILURE, &[path_str(&fifo), "not a regular file (a FIFO)"]);
    perftest(&["compare", path_str(&dir), path_str(&fifo)])
        .expect_one_line_error(FAILURE, &["not a regular file (a directory)"]);
}

/// A closed stdout (`perftest render big.json | head -1`) is not an error: no message, and the
/// exit code of the work itself.
#[test]
fn a_closed_stdout_ends_quietly() {
    let dir = scratch("sigpipe");
    let good = real_report(&dir, "good.json");
    let mut report = read_json(&good);
    let template = report["cases"][0].clone();
    let cases = report["cases"].as_array_mut().unwrap();
    for i in 0..20_000 {
        let mut case = template.clone();
        case["id"] = Value::from(format!("copy.{i}"));
        cases.push(case);
    }
    let big = dir.join("big.json");
    std::fs::write(&big, serde_json::to_vec(&report).unwrap()).unwrap();
    let mut child = command(&["render", path_str(&big)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe while perftest still has megabytes to write.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
    assert!(line.starts_with("Device: "), "{line}");
    drop(stdout);
    let run = Run::from_output(child.wait_with_output().unwrap());
    run.expect_code(SUCCESS);
    assert!(run.stderr.is_empty(), "{run}");
}

#[test]
fn dump_shaders_into_a_file_fails_before_running() {
    let dir = scratch("dump-file");
    let file = dir.join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    perftest_small(&[
        "--filter",
        "raw.load4.linear",
        "--dump-shaders",
        path_str(&file),
    ])
    .expect_one_line_error(FAILURE, &["--dump-shaders", "not-a-dir"]);
    perftest(&["--verify", "--shader-stats"]).expect_usage_error(&["--verify", "--shader-stats"]);
    assert_eq!(entries(&dir), ["not-a-dir"]);
}
