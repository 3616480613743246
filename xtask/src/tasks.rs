//! The commands that drive cargo: compiling shaders, running the benchmark, and the steps of
//! `cargo xtask test` that are one cargo command or a few.

use std::process::Command;

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

/// Builds the example `name` of the workspace's packages in the debug profile and returns a
/// command that runs it in the workspace root, as `cargo run` would. `--workspace` makes cargo resolve the dependencies' features for the whole
/// workspace, as `cargo test --workspace --all-targets` does, so the example is linked from the
/// crates the `test` step builds (`-p PACKAGE` would build about 30 of them again, with other
/// features: those of ash, gpu-allocator and the procedural macros' proc-macro2 differ).
pub fn build_example(name: &str) -> Result<Command, String> {
    succeeded(cargo().args(["build", "--quiet", "--workspace", "--example", name]))?;
    let example = workspace::target_dir()?
        .join("debug/examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let mut command = Command::new(example);
    command.current_dir(workspace::root());
    Ok(command)
}

/// The engine examples on lavapipe with validation on, and the wgpu example's guard: a
/// deliberate validation error must make it exit 3.
pub fn examples() -> Result<(), String> {
    let startup = build_example("startup_diagnostics").and_then(|mut example| {
        ran(example.args(["--validation", "--budget-ms", "10000", "llvmpipe"]))
    });
    let wgpu_engine = build_example("wgpu_engine");
    let wgpu_example = |extra: &[&str]| match &wgpu_engine {
        Ok(built) => {
            let mut command = Command::new(built.get_program());
            command
                .current_dir(workspace::root())
                .args(["--validation", "--budget-ms", "10000"])
                .args(extra)
                .arg("llvmpipe");
            Ok(command)
        }
        Err(message) => Err(message.clone()),
    };
    let wgpu = wgpu_example(&[]).and_then(|mut command| ran(&mut command));
    let guard = wgpu_example(&["--provoke-validation-error"])
        .and_then(|mut command| workspace::status(&mut command))
        .and_then(|code| match code {
            3 => Ok(()),
            code => Err(format!(
                "wgpu_engine --provoke-validation-error exited with {code}, expected 3 (the \
                 validation message was not counted)"
            )),
        });
    let mut checks = Checks::new("engine examples");
    checks.check("startup_diagnostics on lavapipe", startup);
    checks.check("wgpu_engine on lavapipe", wgpu);
    checks.check("wgpu_engine counts a deliberate validation error", guard);
    checks.finish()
}

/// `cargo doc` of the libraries with warnings as errors, then their documentation's examples.
/// The examples are those of the whole workspace, which are the libraries' (xtask has no
/// library and the wgpu example's has `doctest = false`): `--workspace` resolves features as
/// the `test` step does, so the doctests link the crates it built.
pub fn rustdoc() -> Result<(), String> {
    succeeded(
        cargo()
            .args(["doc", "--no-deps"])
            .args(LIBRARIES)
            .env("RUSTDOCFLAGS", "-D warnings"),
    )
    .and_then(|()| succeeded(cargo().args(["test", "--doc", "--workspace"])))
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

/// Runs a program that is not cargo; a non-zero exit becomes an error naming it.
fn ran(command: &mut Command) -> Result<(), String> {
    let shown = command.get_program().to_string_lossy().into_owned();
    match workspace::status(command)? {
        0 => Ok(()),
        code => Err(format!("`{shown}` exited with {code}")),
    }
}

/// Runs a cargo command; a non-zero exit becomes an error naming the command.
fn succeeded(command: &mut Command) -> Result<(), String> {
    let shown: Vec<String> = command
        .get_args()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    match workspace::status(command)? {
        0 => Ok(()),
        code => Err(format!("`cargo {}` exited with {code}", shown.join(" "))),
    }
}
