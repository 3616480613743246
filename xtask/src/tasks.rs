//! The commands that drive cargo: compiling shaders, running the benchmark, and the steps of
//! `cargo xtask test` that are one cargo command or a few.

use crate::checks::Checks;
use crate::outcome::Outcome;
use crate::packages;
use crate::workspace::{self, cargo};

/// Environment variable the tests read to enable the Khronos validation layer.
const VALIDATION_ENV: &str = "PERFTEST_VALIDATION";

/// `cargo xtask shaders`: installs the shader build tools, then re-runs this xtask built with
/// the `compile` feature (shaderc, built from source once and cached in `target/release`).
pub fn compile_shaders() -> Outcome {
    packages::ensure(packages::SHADER_BUILD)?;
    eprintln!(
        "compiling shaders with shaderc (building shaderc from source the first time takes \
         several minutes)"
    );
    // The inner command prints its own errors; only its exit status is passed on.
    workspace::status(cargo().args([
        "run",
        "--release",
        "--quiet",
        "-p",
        "xtask",
        "--features",
        "compile",
        "--",
        "shaders-compile",
    ]))
}

/// `cargo xtask run ARGS...`: the benchmark in release mode; its exit status is passed through.
pub fn run(args: &[String]) -> Outcome {
    packages::ensure_or_note(packages::RUNTIME)?;
    workspace::status(
        cargo()
            .args([
                "run",
                "--release",
                "-p",
                "perftest-cli",
                "--bin",
                "perftest",
                "--",
            ])
            .args(args),
    )
}

/// `cargo test --workspace --all-targets --no-fail-fast ARGS...` with the validation layer on
/// (unless `PERFTEST_VALIDATION` is already set).
pub fn cargo_test(args: &[String]) -> Result<(), String> {
    let mut test = cargo();
    test.args(["test", "--workspace", "--all-targets", "--no-fail-fast"])
        .args(args);
    if std::env::var_os(VALIDATION_ENV).is_none() {
        test.env(VALIDATION_ENV, "1");
    }
    succeeded(&mut test)
}

/// The engine examples on lavapipe with validation on, and the wgpu example's guard: a
/// deliberate validation error must make it exit 3.
pub fn examples() -> Result<(), String> {
    let startup = succeeded(cargo().args([
        "run",
        "--quiet",
        "-p",
        "perftest-core",
        "--example",
        "startup_diagnostics",
        "--",
        "--validation",
        "--budget-ms",
        "10000",
        "llvmpipe",
    ]));
    let wgpu_example = |extra: &[&str]| {
        let mut command = cargo();
        command
            .args([
                "run",
                "--quiet",
                "-p",
                "perftest-wgpu-engine",
                "--example",
                "wgpu_engine",
                "--",
                "--validation",
                "--budget-ms",
                "10000",
            ])
            .args(extra)
            .arg("llvmpipe");
        command
    };
    let wgpu = succeeded(&mut wgpu_example(&[]));
    let guard =
        workspace::status(&mut wgpu_example(&["--provoke-validation-error"])).and_then(|code| {
            match code {
                3 => Ok(()),
                code => Err(format!(
                    "wgpu_engine --provoke-validation-error exited with {code}, expected 3 (the \
                     validation message was not counted)"
                )),
            }
        });
    let mut checks = Checks::new("engine examples");
    checks.check("startup_diagnostics on lavapipe", startup);
    checks.check("wgpu_engine on lavapipe", wgpu);
    checks.check("wgpu_engine counts a deliberate validation error", guard);
    checks.finish()
}

/// `cargo doc` of the libraries with warnings as errors, then their documentation's examples.
pub fn rustdoc() -> Result<(), String> {
    succeeded(
        cargo()
            .args(["doc", "--no-deps"])
            .args(LIBRARIES)
            .env("RUSTDOCFLAGS", "-D warnings"),
    )
    .and_then(|()| succeeded(cargo().args(["test", "--doc"]).args(LIBRARIES)))
}

/// `cargo fmt --all -- --check`.
pub fn fmt() -> Result<(), String> {
    succeeded(cargo().args(["fmt", "--all", "--", "--check"]))
}

/// `cargo clippy --workspace --all-targets -- -D warnings`.
pub fn clippy() -> Result<(), String> {
    succeeded(cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))
}

/// The crates whose documentation is built and whose examples are tested.
const LIBRARIES: [&str; 8] = [
    "-p",
    "perftest-core",
    "-p",
    "perftest-cases",
    "-p",
    "perftest-report",
    "-p",
    "perftest-cli",
];

/// Seconds each fuzz target runs in `cargo xtask test`.
pub const CI_FUZZ_SECONDS: u32 = 10;

/// Runs a command; a non-zero exit becomes an error naming the command.
fn succeeded(command: &mut std::process::Command) -> Result<(), String> {
    let shown: Vec<String> = command
        .get_args()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    match workspace::status(command)? {
        0 => Ok(()),
        code => Err(format!("`cargo {}` exited with {code}", shown.join(" "))),
    }
}
