//! `cargo xtask test` as a table of steps. Each step names the Debian packages, rustup
//! components and Rust targets it needs; they are ensured right before the step runs, so no
//! step can depend on another step having installed something. Steps run in table order, each
//! one even after another failed, and the run ends with a summary of every step and its time.

use std::time::Instant;

use crate::outcome::Outcome;
use crate::{cross, dist, fleet, fuzz, packages, tasks, windows, workspace};

/// One check of `cargo xtask test`.
pub struct Step {
    /// The name `--only` and `--skip` take.
    pub name: &'static str,
    /// One line on what the step checks.
    pub summary: &'static str,
    /// Debian packages the step needs.
    pub packages: &'static [&'static str],
    /// rustup components the step needs (`rustfmt`, `clippy`).
    pub components: &'static [&'static str],
    /// Rust targets whose standard library the step needs, besides the host's.
    pub targets: fn() -> Vec<&'static str>,
    /// Why the step cannot run on this host, if it cannot (e.g. Wine needs an x86_64 host).
    pub unavailable: fn() -> Option<String>,
    /// The step itself.
    pub run: fn(&Run) -> Result<(), String>,
}

/// What the steps share: the arguments for `cargo test`.
pub struct Run {
    /// Passed to `cargo test` after `--workspace --all-targets --no-fail-fast`.
    pub test_args: Vec<String>,
}

/// No Rust target besides the host's.
fn host_only() -> Vec<&'static str> {
    Vec::new()
}

/// Every step can run on every host.
fn always() -> Option<String> {
    None
}

/// The steps of `cargo xtask test`, in the order they run: the cheap checks first (`shaders`
/// and `fmt` take seconds, `clippy` a minute), so that a formatting or lint mistake fails at
/// once rather than after the tests. The order costs no build: clippy's check builds are its
/// own whatever runs before it, and the build scripts and procedural macros it compiles are the
/// ones the later debug builds use. Then the steps of the debug build (`docs` builds the CLI's
/// example, whose crates `test` reuses), and last those of the release builds, where `dist`
/// builds the two release binaries that `windows` and `fleet` then find current.
pub const STEPS: &[Step] = &[
    Step {
        name: "shaders",
        summary: "the committed SPIR-V matches shaders/ (no compiler needed)",
        packages: &[],
        components: &[],
        targets: host_only,
        unavailable: always,
        run: |_| crate::spirv_check::check(&workspace::root()),
    },
    Step {
        name: "fmt",
        summary: "cargo fmt --check",
        packages: &[],
        components: &["rustfmt"],
        targets: host_only,
        unavailable: always,
        run: |_| tasks::fmt(),
    },
    Step {
        name: "clippy",
        summary: "cargo clippy --all-targets, warnings are errors",
        packages: &[],
        components: &["clippy"],
        targets: host_only,
        unavailable: always,
        run: |_| tasks::clippy(),
    },
    Step {
        name: "docs",
        summary: "the man page and shell completions are current",
        packages: &[],
        components: &[],
        targets: host_only,
        unavailable: always,
        run: |_| crate::manpage::command(true),
    },
    Step {
        name: "book",
        summary: "the manual builds with mdBook, no warning, every link leads somewhere",
        packages: &[],
        components: &[],
        targets: host_only,
        unavailable: always,
        run: |_| crate::book::command(&workspace::root()),
    },
    Step {
        name: "test",
        summary: "cargo test of the workspace on lavapipe, validation layer on",
        packages: &packages::TEST,
        components: &[],
        targets: host_only,
        unavailable: always,
        run: |run| tasks::cargo_test(&run.test_args),
    },
    Step {
        name: "examples",
        summary: "the engine examples on lavapipe, and their validation-message guard",
        packages: packages::RUNTIME,
        components: &[],
        targets: host_only,
        unavailable: always,
        run: |_| tasks::examples(),
    },
    Step {
        name: "rustdoc",
        summary: "cargo doc with warnings as errors, and the documentation's examples",
        packages: &[],
        components: &[],
        targets: host_only,
        unavailable: always,
        run: |_| tasks::rustdoc(),
    },
    Step {
        name: "cross",
        summary: "clippy for Windows (MSVC), macOS and Android",
        packages: &[],
        components: &["clippy"],
        targets: || cross::TYPE_CHECKED.iter().map(|(t, _)| *t).collect(),
        unavailable: always,
        run: |_| cross::check(),
    },
    Step {
        name: "fuzz",
        summary: "the libFuzzer targets built and run 10 s each",
        packages: packages::FUZZ,
        components: &[],
        targets: host_only,
        unavailable: always,
        run: |_| fuzz::run(tasks::CI_FUZZ_SECONDS),
    },
    Step {
        name: "dist",
        summary: "release archives built, opened and their binaries run",
        packages: &packages::WINDOWS,
        components: &[],
        targets: dist::extra_targets,
        unavailable: always,
        run: |_| dist::build_and_check(&dist::default_targets()?),
    },
    Step {
        name: "windows",
        summary: "the Windows build checked under Wine on lavapipe",
        packages: &packages::WINDOWS,
        components: &[],
        targets: || vec![windows::TARGET],
        unavailable: windows::unavailable,
        run: |_| windows::command(),
    },
    Step {
        name: "fleet",
        summary: "the Slurm scripts on a local cluster, the Kubernetes manifests validated",
        packages: &packages::FLEET,
        components: &[],
        targets: host_only,
        unavailable: always,
        run: |_| fleet::command(&workspace::root()),
    },
];

/// The step named `name`, or an error listing the names.
pub fn find(name: &str) -> Result<&'static Step, String> {
    STEPS.iter().find(|step| step.name == name).ok_or_else(|| {
        format!(
            "no step `{name}`; the steps are: {}",
            STEPS
                .iter()
                .map(|step| step.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// The lines of `cargo xtask help` that list the steps.
pub fn help() -> String {
    STEPS
        .iter()
        .map(|step| format!("  {:<10} {}\n", step.name, step.summary))
        .collect()
}

/// Makes sure everything `step` needs is here: its packages, components and targets.
pub fn prepare(step: &Step) -> Result<(), String> {
    packages::ensure(step.packages)?;
    for component in step.components {
        workspace::ensure_component(component)?;
    }
    for target in (step.targets)() {
        cross::ensure_target(target)?;
    }
    Ok(())
}

/// Prepares and runs one step on its own (`cargo xtask fleet`, `cargo xtask windows`).
pub fn run_one(name: &str) -> Outcome {
    let step = find(name)?;
    if let Some(reason) = (step.unavailable)() {
        return Err(format!("`{name}` cannot run here: {reason}"));
    }
    prepare(step)?;
    (step.run)(&Run {
        test_args: Vec::new(),
    })
    .map(|()| 0)
}

/// Which steps a `cargo xtask test` runs: all, less `--skip`, or only `--only`.
#[derive(Debug, PartialEq, Eq)]
pub struct Selection {
    /// The chosen steps' names, in table order.
    pub names: Vec<&'static str>,
    /// The arguments after `--`, for `cargo test`.
    pub test_args: Vec<String>,
}

/// Parses `[--only STEP]... [--skip STEP]... [-- CARGO-TEST-ARGS...]` (STEP may be a
/// comma-separated list).
pub fn select(args: &[String]) -> Result<Selection, String> {
    let mut only: Vec<&'static str> = Vec::new();
    let mut skip: Vec<&'static str> = Vec::new();
    let mut rest = args.iter();
    let mut test_args = Vec::new();
    while let Some(arg) = rest.next() {
        let list = match arg.as_str() {
            "--only" => &mut only,
            "--skip" => &mut skip,
            "--" => {
                test_args = rest.cloned().collect();
                break;
            }
            other => {
                return Err(format!(
                    "unexpected argument `{other}` to `test`: it takes --only STEP, --skip STEP \
                     and, after `--`, arguments for `cargo test`"
                ))
            }
        };
        let value = rest
            .next()
            .ok_or_else(|| format!("`{arg}` needs a step name"))?;
        for name in value.split(',').filter(|n| !n.is_empty()) {
            list.push(find(name)?.name);
        }
    }
    let names: Vec<&'static str> = STEPS
        .iter()
        .map(|step| step.name)
        .filter(|name| (only.is_empty() || only.contains(name)) && !skip.contains(name))
        .collect();
    if names.is_empty() {
        return Err("--only and --skip leave no step to run".into());
    }
    Ok(Selection { names, test_args })
}

/// How one step of `cargo xtask test` ended.
enum Ended {
    /// It passed.
    Passed,
    /// It cannot run on this host (the reason), which is said, not counted as a failure.
    Skipped(String),
    /// It failed (the message).
    Failed(String),
}

/// `cargo xtask test`: the selected steps in order, each prepared and run even after another
/// failed, then the summary.
pub fn test(args: &[String]) -> Outcome {
    let selection = select(args)?;
    let run = Run {
        test_args: selection.test_args,
    };
    let mut results: Vec<(&str, Ended, f64)> = Vec::new();
    for step in STEPS.iter().filter(|s| selection.names.contains(&s.name)) {
        eprintln!("\n==> {}: {}", step.name, step.summary);
        let since = Instant::now();
        let ended = match (step.unavailable)() {
            Some(reason) => Ended::Skipped(reason),
            None => match prepare(step).and_then(|()| (step.run)(&run)) {
                Ok(()) => Ended::Passed,
                Err(message) => Ended::Failed(message),
            },
        };
        if let Ended::Skipped(message) | Ended::Failed(message) = &ended {
            eprintln!("{message}");
        }
        results.push((step.name, ended, since.elapsed().as_secs_f64()));
    }
    summary(&results)
}

/// Prints every step with its time; an error naming the failed steps.
fn summary(results: &[(&str, Ended, f64)]) -> Outcome {
    eprintln!("\nsummary:");
    let mut failed = Vec::new();
    for (name, ended, seconds) in results {
        match ended {
            Ended::Passed => eprintln!("  ok      {seconds:>6.1} s  {name}"),
            Ended::Skipped(why) => eprintln!("  skipped {seconds:>6.1} s  {name}: {why}"),
            Ended::Failed(message) => {
                let first = message.lines().next().unwrap_or("");
                eprintln!("  FAILED  {seconds:>6.1} s  {name}: {first}");
                failed.push(*name);
            }
        }
    }
    let total: f64 = results.iter().map(|(_, _, s)| s).sum();
    eprintln!("  total   {total:>6.1} s");
    if failed.is_empty() {
        Ok(0)
    } else {
        Err(format!("failed: {}", failed.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_are_unique_and_plain() {
        for (i, step) in STEPS.iter().enumerate() {
            assert!(
                step.name.bytes().all(|b| b.is_ascii_lowercase()),
                "{}",
                step.name
            );
            assert!(
                STEPS[i + 1..].iter().all(|other| other.name != step.name),
                "{} twice",
                step.name
            );
        }
    }

    #[test]
    fn no_arguments_select_every_step() {
        let all = select(&[]).unwrap();
        assert_eq!(all.names.len(), STEPS.len());
        assert!(all.test_args.is_empty());
    }

    #[test]
    fn only_and_skip_keep_table_order() {
        let chosen = select(&args(&["--only", "windows,shaders", "--only", "fmt"])).unwrap();
        assert_eq!(chosen.names, ["shaders", "fmt", "windows"]);
        let chosen = select(&args(&["--skip", "windows", "--skip", "fuzz,dist"])).unwrap();
        assert_eq!(chosen.names.len(), STEPS.len() - 3);
        assert!(!chosen.names.contains(&"windows"));
        let chosen = select(&args(&["--only", "test", "--", "--test", "cli"])).unwrap();
        assert_eq!(chosen.names, ["test"]);
        assert_eq!(chosen.test_args, ["--test", "cli"]);
    }

    #[test]
    fn bad_selections_are_refused() {
        let unknown = select(&args(&["--only", "wine"])).unwrap_err();
        assert!(unknown.contains("no step `wine`") && unknown.contains("windows"));
        assert!(select(&args(&["--skip"])).is_err());
        assert!(select(&args(&["--only", "fmt", "--skip", "fmt"])).is_err());
        assert!(select(&args(&["fmt"])).is_err());
    }

    /// A step that builds or runs the Windows binary declares mingw-w64 (and Wine to run it):
    /// the fresh-machine failure where `dist` ran before the step that installed mingw-w64.
    #[test]
    fn windows_builds_declare_their_tools() {
        for name in ["dist", "windows"] {
            let step = find(name).unwrap();
            for package in [packages::MINGW, "wine64", "xvfb"] {
                assert!(step.packages.contains(&package), "{name}: {package}");
            }
        }
        assert!(find("fuzz").unwrap().packages.contains(&"g++"));
        assert!(find("test")
            .unwrap()
            .packages
            .contains(&"vulkan-validationlayers"));
    }
}
