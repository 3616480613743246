//! `cargo xtask`: the project's maintenance commands.
//!
//! `shaders` compiles `shaders/*.comp` to the SPIR-V committed in `perftest-core` (`--check`
//! verifies it is fresh without a compiler), `setup` installs the system packages, `run` runs
//! the benchmark and `test` runs everything CI runs, as the table of steps in [`steps`]. Errors are printed as messages and turned
//! into exit codes; nothing here panics on bad input.

mod book;
mod checks;
mod cross;
mod dist;
mod fleet;
mod fuzz;
mod manifest;
mod manpage;
mod outcome;
mod packages;
mod release;
mod shaders;
mod spirv_check;
mod steps;
mod structure;
mod tasks;
mod windows;
mod wine;
mod workspace;

#[cfg(feature = "compile")]
mod compile;

use std::process::ExitCode;

use outcome::Outcome;

const USAGE: &str = "\
usage: cargo xtask <command> [args]

commands:
  test [--only STEP]... [--skip STEP]... [-- CARGO-TEST-ARGS...]
                   every check CI makes, as the steps below, in order (STEP: a name or a
                   comma-separated list); each step first installs what it needs
  run [ARGS...]    run the benchmark: `perftest ARGS...` in release mode
  setup [--shaders]
                   install the runtime system packages (with --shaders: the shader build tools)
  shaders          compile shaders/*.comp to crates/perftest-core/spirv/ (builds shaderc once)
  shaders --check  verify the committed SPIR-V matches shaders/ (no compiler needed)
  docs [--check]   write (or check) the man page and shell completions in docs/
  dist [--target TARGET]...
                   release archives in the target folder's dist/ (the host's .tar.gz and,
                   on x86_64 Linux, the Windows .zip), each opened again and its binary run
  fuzz [SECONDS]   build the libFuzzer targets and run each for SECONDS (30)
  structure        the largest import cycle between the files of each package (a report;
                   never fails on it; function length is clippy's too_many_lines)
  book, cross, fleet, windows
                   one step of `test` on its own
  help             print this message

the steps of `test`:
";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let command = args.next();
    let rest: Vec<String> = args.collect();
    let outcome = match command.as_deref() {
        Some("shaders") => shaders_command(&rest),
        Some("shaders-compile") => shaders_compile(&rest),
        Some("setup") => setup_command(&rest),
        // `cargo xtask run -- --list` and `cargo xtask run --list` mean the same.
        Some("run") => tasks::run(rest.strip_prefix(&["--".to_string()]).unwrap_or(&rest)),
        Some("test") => steps::test(&rest),
        Some(step @ ("book" | "cross" | "fleet" | "windows")) => {
            no_arguments(step, &rest).and_then(|()| steps::run_one(step))
        }
        Some("dist") => dist_command(&rest).map(|()| 0),
        Some("fuzz") => fuzz::command(&rest).map(|()| 0),
        Some("structure") => structure::command(&rest).map(|()| 0),
        Some("docs") => match rest.as_slice() {
            [] => manpage::command(false).map(|()| 0),
            [flag] if flag == "--check" => manpage::command(true).map(|()| 0),
            _ => Err(format!("usage: cargo xtask docs [--check]\n\n{}", usage())),
        },
        Some("help" | "--help" | "-h") => {
            print!("{}", usage());
            Ok(0)
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{}", usage())),
        None => Err(format!("missing command\n\n{}", usage())),
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The usage text with the table of steps.
fn usage() -> String {
    format!("{USAGE}{}", steps::help())
}

/// An error for a command that takes no arguments but got some.
fn no_arguments(command: &str, args: &[String]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "unexpected arguments to `{command}`: {}\n\n{}",
            args.join(" "),
            usage()
        ))
    }
}

/// `cargo xtask shaders [--check]`.
fn shaders_command(args: &[String]) -> Outcome {
    match args {
        [] => tasks::compile_shaders(),
        [flag] if flag == "--check" => spirv_check::check(&workspace::root()).map(|()| 0),
        _ => Err(format!(
            "unexpected arguments to `shaders`: {}\n\n{}",
            args.join(" "),
            usage()
        )),
    }
}

/// `shaders-compile`: the compiling half of `cargo xtask shaders`, built with shaderc.
fn shaders_compile(args: &[String]) -> Outcome {
    if !args.is_empty() {
        return Err(format!(
            "unexpected arguments to `shaders-compile`: {}",
            args.join(" ")
        ));
    }
    #[cfg(feature = "compile")]
    {
        compile::compile_all(&workspace::root()).map(|()| 0)
    }
    #[cfg(not(feature = "compile"))]
    {
        Err(
            "this xtask was built without the `compile` feature (no shaderc); \
             run `cargo xtask shaders` instead"
                .to_string(),
        )
    }
}

/// `cargo xtask setup [--shaders]`.
fn setup_command(args: &[String]) -> Outcome {
    let mut wanted: Vec<&str> = packages::RUNTIME.to_vec();
    match args {
        [] => {}
        [flag] if flag == "--shaders" => wanted.extend_from_slice(packages::SHADER_BUILD),
        _ => {
            return Err(format!(
                "unexpected arguments to `setup`: {}\n\n{}",
                args.join(" "),
                usage()
            ))
        }
    }
    packages::ensure(&wanted).map(|()| 0)
}

/// `cargo xtask dist [--target TARGET]...`: builds, packs and checks
/// ([`dist::default_targets`] when no target is named), after installing what the step needs.
fn dist_command(args: &[String]) -> Result<(), String> {
    let mut targets = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match (arg.as_str(), rest.next()) {
            ("--target", Some(target)) => targets.push(target.clone()),
            _ => {
                return Err(format!(
                    "usage: cargo xtask dist [--target TARGET]... (got `{arg}`)"
                ))
            }
        }
    }
    if targets.is_empty() {
        targets = dist::default_targets()?;
    }
    steps::prepare(steps::find("dist")?)?;
    dist::build_and_check(&targets)
}
