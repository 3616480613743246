//! The commands of the `perftest` binary, one module each: the benchmark run ([`run`]),
//! `compare` and `render`; and what they share: the failure type that carries an exit code,
//! and printing to a standard output that may be closed.

use std::io::Write;
use std::path::Path;

use perftest_cli::export::OutputError;
use perftest_cli::output::exit_code;
use perftest_cli::output::printable::printable_path;
use perftest_core::Error;

pub(crate) mod compare;
pub(crate) mod render;
pub(crate) mod run;

/// A failure with the exit code it maps to.
pub(crate) struct Failure {
    pub(crate) code: i32,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(code: i32, message: impl std::fmt::Display) -> Failure {
        Failure {
            code,
            message: message.to_string(),
        }
    }
}

/// Refuses an `--output` that names one of the reports the command reads: writing it would
/// replace the input (a usage error, before anything is read or written).
pub(crate) fn refuse_input_as_output(
    output: Option<&Path>,
    inputs: &[&Path],
) -> Result<(), Failure> {
    let Some(output) = output else {
        return Ok(());
    };
    match inputs
        .iter()
        .find(|input| perftest_cli::platform::same_file(output, input))
    {
        Some(input) => Err(Failure::new(
            exit_code::USAGE,
            format!(
                "--output {} is the report {} this command reads; writing it would replace it",
                printable_path(output),
                printable_path(input)
            ),
        )),
        None => Ok(()),
    }
}

/// An unusable `--output` path: a usage error when it can never name a file.
pub(crate) fn output_failure(e: OutputError) -> Failure {
    let code = if e.is_usage() {
        exit_code::USAGE
    } else {
        exit_code::FAILURE
    };
    Failure::new(code, format!("--output {e}"))
}

pub(crate) fn core_failure(e: Error) -> Failure {
    let code = match e {
        Error::Selection(_) => exit_code::USAGE,
        _ => exit_code::FAILURE,
    };
    Failure::new(code, e)
}

/// When the process started, for `--verbose`'s share of recorded GPU time in the wall time.
pub(crate) static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Prints `text` (and a final newline if it lacks one) on stdout. A closed stdout (a broken
/// pipe: `perftest | head`) is not an error: nobody reads the rest, so it is dropped quietly.
pub(crate) fn print_stdout(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_all(text.as_bytes())
        .and_then(|()| {
            if text.ends_with('\n') {
                Ok(())
            } else {
                out.write_all(b"\n")
            }
        })
        .and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::new(
            exit_code::FAILURE,
            format!("cannot write to stdout: {e}"),
        )),
        _ => Ok(()),
    }
}
