//! `cargo xtask fuzz [SECONDS]`: builds the libFuzzer targets in `crates/perftest-cli/fuzz`
//! with coverage instrumentation (the flags `cargo fuzz` passes, without a sanitizer, so a
//! stable toolchain builds them) and runs each for SECONDS (30 by default) from its seed corpus,
//! all of them side by side (each is one process on one thread).
//! A crash, a panic or a failed assertion fails the step and leaves the input in
//! `target/fuzz/artifacts/TARGET/`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::checks::Checks;
use crate::workspace::{self, cargo};

/// The fuzz targets, each with what it reads.
pub const TARGETS: [(&str, &str); 4] = [
    ("report", "a saved JSON report (render, compare)"),
    (
        "published_table",
        "a published table in any encoding (render, compare)",
    ),
    ("pipeline_cache", "a pipeline-cache file"),
    ("arguments", "the command line"),
];

/// SanitizerCoverage as libFuzzer wants it (what `cargo fuzz build --sanitizer none` passes).
const COVERAGE_FLAGS: &str = "-Cpasses=sancov-module \
    -Cllvm-args=-sanitizer-coverage-level=4 \
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
    -Cllvm-args=-sanitizer-coverage-pc-table \
    -Cllvm-args=-sanitizer-coverage-trace-compares \
    --cfg fuzzing -Cdebug-assertions -Coverflow-checks";

/// `cargo xtask fuzz [SECONDS]`.
pub fn command(args: &[String]) -> Result<(), String> {
    let seconds = match args {
        [] => 30,
        [n] => n
            .parse()
            .ok()
            .filter(|&n: &u32| n > 0)
            .ok_or_else(|| format!("usage: cargo xtask fuzz [SECONDS] (got `{n}`)"))?,
        _ => return Err("usage: cargo xtask fuzz [SECONDS]".into()),
    };
    crate::packages::ensure(crate::packages::FUZZ)?;
    run(seconds)
}

/// Builds the targets and runs each for `seconds`, all at once.
pub fn run(seconds: u32) -> Result<(), String> {
    let root = workspace::root();
    let fuzz = root.join("crates/perftest-cli/fuzz");
    // Naming the host triple keeps the instrumentation off build scripts and procedural macros.
    let host = workspace::host()?;
    let target_dir = workspace::target_dir()?.join("fuzz");
    let mut build = cargo();
    build
        .args([
            "build",
            "--release",
            "--bins",
            "--target",
            &host,
            "--manifest-path",
        ])
        .arg(fuzz.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .env("RUSTFLAGS", COVERAGE_FLAGS);
    match workspace::status(&mut build)? {
        0 => {}
        code => return Err(format!("building the fuzz targets failed (exit {code})")),
    }
    let (fuzz, target_dir) = (&fuzz, &target_dir);
    let results: Vec<Result<u64, String>> = std::thread::scope(|scope| {
        let runs: Vec<_> = TARGETS
            .iter()
            .map(|&(name, _)| {
                let binary = target_dir.join(&host).join("release").join(name);
                let seeds = fuzz.join("seeds").join(name);
                scope.spawn(move || run_target(&binary, &seeds, target_dir, name, seconds))
            })
            .collect();
        runs.into_iter()
            .map(|run| {
                run.join()
                    .unwrap_or_else(|_| Err("the thread running it panicked".to_string()))
            })
            .collect()
    });
    let mut checks = Checks::new("fuzzing");
    for ((name, what), result) in TARGETS.iter().zip(results) {
        let label = format!("{name} ({what}), {seconds} s");
        checks.check(
            &label,
            result.map(|runs| eprintln!("          {runs} inputs run, no crash")),
        );
    }
    checks.finish()
}

/// Runs one target for `seconds` over a fresh corpus seeded from `seeds`; the number of inputs
/// it ran, or why it failed.
fn run_target(
    binary: &Path,
    seeds: &Path,
    target_dir: &Path,
    name: &str,
    seconds: u32,
) -> Result<u64, String> {
    let corpus = target_dir.join("corpus").join(name);
    let artifacts = target_dir.join("artifacts").join(name);
    let _ = fs::remove_dir_all(&corpus);
    for dir in [&corpus, &artifacts] {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut prefix = artifacts.clone().into_os_string();
    prefix.push("/");
    let output = Command::new(binary)
        .arg(&corpus)
        .arg(seeds)
        .arg(format!("-max_total_time={seconds}"))
        .arg("-rss_limit_mb=4096")
        .arg("-max_len=65536")
        .arg("-print_final_stats=1")
        .arg({
            let mut a = std::ffi::OsString::from("-artifact_prefix=");
            a.push(&prefix);
            a
        })
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let log = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        let crash: Vec<PathBuf> = fs::read_dir(&artifacts)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        let tail: Vec<&str> = log.lines().rev().take(25).collect();
        return Err(format!(
            "{} ({}); inputs kept: {crash:?}\n{}",
            output.status,
            binary.display(),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        ));
    }
    executed_units(&log).ok_or_else(|| format!("no run count in libFuzzer's output:\n{log}"))
}

/// The `stat::number_of_executed_units` libFuzzer prints at the end.
fn executed_units(log: &str) -> Option<u64> {
    log.lines()
        .find_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
        .and_then(|n| n.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_count_is_read() {
        let log = "#2\tINITED\nDone 1234 runs in 3 second(s)\nstat::number_of_executed_units: 1234\nstat::average_exec_per_sec:     411\n";
        assert_eq!(executed_units(log), Some(1234));
        assert_eq!(executed_units("crash"), None);
    }
}
