//! The `perftest` command: arguments are parsed here and handed to a command module.

mod commands;

use std::process::ExitCode;

use clap::Parser;
use perftest_cli::cli::{
    misplaced_subcommand, normalize_args, own_usage_message, usage_error_text, Cli, Command,
};
use perftest_cli::options::Options;
use perftest_cli::output::exit_code;
use perftest_cli::output::printable::printable;
use perftest_report::gate::GateLimits;

use commands::{Failure, STARTED};

fn main() -> ExitCode {
    STARTED.get_or_init(std::time::Instant::now);
    perftest_cli::platform::report_file_size_limits();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(normalize_args(args.clone())) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // One line starting with `perftest:`, then clap's hints (see the book's "Exit codes" chapter).
            let text = misplaced_subcommand(&args)
                .or_else(|| own_usage_message(&e))
                .unwrap_or_else(|| usage_error_text(&e.render().to_string()));
            perftest_cli::stderr_part!("{text}");
            return ExitCode::from(exit_code::USAGE as u8);
        }
        Err(e) => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::from(exit_code::SUCCESS as u8);
        }
    };
    // `render` and `compare` stop like a run does: an output under way is dropped, the old
    // file left, and the process ends with the signal's code (see stop_signals).
    let signals = match &cli.command {
        Some(_) => perftest_cli::stop_signals::StopSignals::install_for(
            perftest_cli::stop_signals::Work::Files,
        )
        .unwrap_or_default(),
        None => perftest_cli::stop_signals::StopSignals::default(),
    };
    let result = match &cli.command {
        Some(Command::Compare {
            reports,
            format,
            output,
            fail_above,
            fail_median,
            ..
        }) => {
            let limits = GateLimits {
                fail_above: *fail_above,
                fail_median: *fail_median,
            };
            commands::compare::run_compare(reports, *format, output.as_deref(), &limits)
        }
        Some(Command::Render {
            report,
            format,
            output,
            ..
        }) => commands::render::run_render(report, *format, output.as_deref()),
        None => Options::from_args(&cli.run)
            .map_err(|e| Failure::new(exit_code::USAGE, e))
            .and_then(|o| commands::run::run(&o)),
    };
    // A run reports its own stop; `render` and `compare` end with the signal's code.
    let result = match (signals.received(), result) {
        (Some(_), Ok(_)) if cli.command.is_some() => Err(Failure::new(
            signals.exit_code(),
            format!("interrupted by {}", signals.name()),
        )),
        (Some(_), Err(f)) if cli.command.is_some() => {
            Err(Failure::new(signals.exit_code(), f.message))
        }
        (_, result) => result,
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(f) => {
            // Messages quote arguments and file contents: control characters are escaped
            // (line by line, as device-selection errors list the devices on further lines).
            let lines: Vec<_> = f.message.lines().map(printable).collect();
            perftest_cli::stderr_line!("perftest: {}", lines.join("\n"));
            ExitCode::from(f.code as u8)
        }
    }
}
