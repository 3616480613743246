//! `cargo xtask`: the project's maintenance commands.
//!
//! `shaders` compiles `shaders/*.comp` to the SPIR-V committed in `perftest-core` (`--check`
//! verifies it is fresh without a compiler), `setup` installs the system packages, `run` runs
//! the benchmark and `test` runs everything CI runs. Errors are printed as messages and turned
//! into exit codes; nothing here panics on bad input.

mod book;
mod checks;
mod cross;
mod dist;
mod fleet;
mod fuzz;
mod manifest;
mod manpage;
mod packages;
mod shaders;
mod tasks;
mod windows;
mod wine;
mod workspace;

#[cfg(feature = "compile")]
mod compile;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command> [args]

commands:
  shaders          compile shaders/*.comp to crates/perftest-core/spirv/ (builds shaderc once)
  shaders --check  verify the committed SPIR-V matches shaders/ (no compiler needed)
  setup [--shaders]
                   install the runtime system packages (with --shaders: the shader build tools)
  run [ARGS...]    run the benchmark: `perftest ARGS...` in release mode
  test [ARGS...]   packages, shader check, tests with validation layers, rustfmt, clippy,
                   the other targets, the release archives and the Windows build under Wine;
                   ARGS go to `cargo test`
  cross            clippy for the targets that cannot run here (Windows MSVC, macOS, Android)
  windows          build the Windows CLI (mingw-w64) and check it under Wine on lavapipe
  dist [--target TARGET]...
                   release archives in target/dist/ (Linux .tar.gz and Windows .zip by
                   default), each opened again and its binary run
  docs [--check]   write (or check) the man page and shell completions in docs/
  book             build the manual (docs/, mdBook) into target/book/ and check its links
  fleet            the Slurm scripts on a local slurmctld/slurmd, the Kubernetes manifests
                   validated against the schemas
  fuzz [SECONDS]   build the libFuzzer targets (report, pipeline cache, command line) and
                   run each for SECONDS (30)
  help             print this message
";

/// What a command ends with: success, a pass-through exit status, or an error message.
pub type Outcome = Result<u8, String>;

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
        Some("test") => tasks::test(&rest),
        Some("cross") => no_arguments("cross", &rest)
            .and_then(|()| cross::check())
            .map(|()| 0),
        Some("windows") => no_arguments("windows", &rest)
            .and_then(|()| windows::command())
            .map(|()| 0),
        Some("dist") => dist::command(&rest).map(|()| 0),
        Some("fuzz") => fuzz::command(&rest).map(|()| 0),
        Some("fleet") => no_arguments("fleet", &rest)
            .and_then(|()| fleet::command(&workspace::root()))
            .map(|()| 0),
        Some("book") => no_arguments("book", &rest)
            .and_then(|()| book::command(&workspace::root()))
            .map(|()| 0),
        Some("docs") => match rest.as_slice() {
            [] => manpage::command(&workspace::root(), false).map(|()| 0),
            [flag] if flag == "--check" => manpage::command(&workspace::root(), true).map(|()| 0),
            _ => Err(format!("usage: cargo xtask docs [--check]\n\n{USAGE}")),
        },
        Some("help" | "--help" | "-h") => {
            print!("{USAGE}");
            Ok(0)
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{USAGE}")),
        None => Err(format!("missing command\n\n{USAGE}")),
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// An error for a command that takes no arguments but got some.
fn no_arguments(command: &str, args: &[String]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "unexpected arguments to `{command}`: {}\n\n{USAGE}",
            args.join(" ")
        ))
    }
}

/// `cargo xtask shaders [--check]`.
fn shaders_command(args: &[String]) -> Outcome {
    match args {
        [] => tasks::compile_shaders(),
        [flag] if flag == "--check" => shaders::check(&workspace::root()).map(|()| 0),
        _ => Err(format!(
            "unexpected arguments to `shaders`: {}\n\n{USAGE}",
            args.join(" ")
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
                "unexpected arguments to `setup`: {}\n\n{USAGE}",
                args.join(" ")
            ))
        }
    }
    packages::ensure(&wanted).map(|()| 0)
}
