//! The commands that drive cargo: compiling shaders, running the benchmark, running the tests.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::workspace::{self, cargo};
use crate::{packages, shaders, Outcome};

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
    packages::ensure(packages::RUNTIME)?;
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

/// `cargo xtask test ARGS...`: every check CI makes, in order, continuing past failures and
/// ending with a summary. `ARGS` go to `cargo test`.
pub fn test(args: &[String]) -> Outcome {
    let root = workspace::root();
    let mut summary = Summary::start();

    step("system packages");
    let wanted: Vec<&str> = packages::RUNTIME
        .iter()
        .chain(packages::TEST)
        .copied()
        .collect();
    summary.record(("system packages", packages::ensure(&wanted)));

    step("cargo xtask shaders --check");
    let check = shaders::check(&root);
    if let Err(message) = &check {
        eprintln!("{message}");
    }
    summary.record(("cargo xtask shaders --check", check));

    step("cargo xtask docs --check (man page and completions)");
    summary.record((
        "man page and completions",
        crate::manpage::command(&root, true),
    ));

    step("cargo xtask book (the manual: mdBook, links and anchors)");
    let book = crate::book::command(&root);
    if let Err(message) = &book {
        eprintln!("{message}");
    }
    summary.record(("the book", book));

    step("cargo test (validation layers on)");
    let mut test = cargo();
    test.args(["test", "--workspace", "--all-targets", "--no-fail-fast"])
        .args(args);
    if std::env::var_os(VALIDATION_ENV).is_none() {
        test.env(VALIDATION_ENV, "1");
    }
    summary.record(("cargo test", succeeded(&mut test)));

    step("startup_diagnostics example on lavapipe (validation on)");
    let example = succeeded(cargo().args([
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
    summary.record(("startup_diagnostics example", example));

    step("wgpu_engine example on lavapipe (validation on)");
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
    summary.record(("wgpu_engine example", succeeded(&mut wgpu_example(&[]))));

    step("wgpu_engine counts validation messages (a deliberate error must exit 3)");
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
    summary.record(("wgpu_engine validation guard", guard));

    step("cargo doc (warnings are errors) and the documentation's examples");
    let docs = succeeded(
        cargo()
            .args(["doc", "--no-deps"])
            .args(LIBRARIES)
            .env("RUSTDOCFLAGS", "-D warnings"),
    )
    .and_then(|()| succeeded(cargo().args(["test", "--doc"]).args(LIBRARIES)));
    summary.record(("cargo doc and doc tests", docs));

    step("cargo fmt --check");
    let fmt = ensure_component("fmt", "rustfmt")
        .and_then(|()| succeeded(cargo().args(["fmt", "--all", "--", "--check"])));
    summary.record(("cargo fmt --check", fmt));

    step("cargo clippy");
    let clippy = ensure_component("clippy", "clippy").and_then(|()| {
        succeeded(cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))
    });
    summary.record(("cargo clippy", clippy));

    step("other targets: clippy for Windows (MSVC), macOS and Android");
    summary.record(("other targets", crate::cross::check()));

    step("fuzzing: the report reader, the pipeline-cache reader and the command line");
    summary.record(("fuzzing", crate::fuzz::run(CI_FUZZ_SECONDS)));

    step("release archives: Linux .tar.gz and Windows .zip, opened and run");
    let archives = [crate::dist::LINUX, crate::windows::TARGET]
        .iter()
        .map(|target| crate::dist::build_and_pack(target))
        .collect::<Result<Vec<_>, _>>();
    summary.record((
        "release archives",
        archives.and_then(|archives| crate::dist::check(&archives)),
    ));

    step("fleet: Slurm on localhost and the Kubernetes manifests");
    let fleet = crate::fleet::command(&root);
    if let Err(message) = &fleet {
        eprintln!("{message}");
    }
    summary.record(("fleet (Slurm, Kubernetes)", fleet));

    step("the Windows build under Wine on lavapipe");
    let release = root.join("target");
    summary.record((
        "Windows under Wine",
        crate::windows::check(
            &release
                .join(crate::windows::TARGET)
                .join("release/perftest.exe"),
            &release.join(crate::dist::LINUX).join("release/perftest"),
        ),
    ));

    summary.finish()
}

/// The crates whose documentation is built and whose examples are tested.
const LIBRARIES: [&str; 6] = [
    "-p",
    "perftest-core",
    "-p",
    "perftest-cases",
    "-p",
    "perftest-cli",
];

/// Seconds each fuzz target runs in `cargo xtask test`.
const CI_FUZZ_SECONDS: u32 = 10;

/// The steps' results and how long each took.
struct Summary {
    steps: Vec<(&'static str, Result<(), String>, Duration)>,
    since: Instant,
}

impl Summary {
    /// An empty summary whose first step starts now.
    fn start() -> Summary {
        Summary {
            steps: Vec::new(),
            since: Instant::now(),
        }
    }

    /// Records a step's result; its time runs from the previous record (or the start).
    fn record(&mut self, (name, result): (&'static str, Result<(), String>)) {
        let now = Instant::now();
        self.steps.push((name, result, now - self.since));
        self.since = now;
    }

    /// Prints every step with its time; an error naming the failed steps.
    fn finish(self) -> Outcome {
        eprintln!("\nsummary:");
        let mut failed = Vec::new();
        for (name, result, took) in &self.steps {
            let time = format!("{:>6.1} s", took.as_secs_f64());
            match result {
                Ok(()) => eprintln!("  ok      {time}  {name}"),
                Err(message) => {
                    eprintln!("  FAILED  {time}  {name}: {}", first_line(message));
                    failed.push(*name);
                }
            }
        }
        if failed.is_empty() {
            Ok(0)
        } else {
            Err(format!("failed: {}", failed.join(", ")))
        }
    }
}

/// Prints a step banner.
fn step(name: &str) {
    eprintln!("\n==> {name}");
}

/// The first line of a possibly multi-line message.
fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or("")
}

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

/// Makes sure `cargo SUBCOMMAND` works, adding the rustup `component` when it does not.
fn ensure_component(subcommand: &str, component: &str) -> Result<(), String> {
    let works = |subcommand: &str| {
        cargo()
            .args([subcommand, "--version"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    };
    if works(subcommand) {
        return Ok(());
    }
    if !workspace::succeeds("rustup", &["--version"]) {
        return Err(format!(
            "`cargo {subcommand}` is not available and there is no rustup to install `{component}`"
        ));
    }
    eprintln!("installing the `{component}` component with rustup");
    match workspace::status(std::process::Command::new("rustup").args([
        "component",
        "add",
        component,
    ]))? {
        0 if works(subcommand) => Ok(()),
        _ => Err(format!("could not install the `{component}` component")),
    }
}
