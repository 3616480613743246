//! The `perftest` command.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use clap::Parser;
use perftest_cases::{find_case, original_cases, select_cases};
use perftest_cli::benchmark::suite::{run_timing, RunEnd};
use perftest_cli::benchmark::verify::{verdict_line, verify_case, Verdict};
use perftest_cli::cli::{normalize_args, Cli, Command, CompareFormat};
use perftest_cli::compare::{compare, load_report, render};
use perftest_cli::export::{comparison_html, exporter, write_atomically, ExportFormat};
use perftest_cli::gate::{judge, GateLimits};
use perftest_cli::options::{Mode, Options};
use perftest_cli::output::exit_code;
use perftest_cli::output::progress::Progress;
use perftest_cli::shader_stats;
use perftest_core::{
    compute_targets, listing, select, Bench, Context, Error, Instance, InstanceOptions,
};

/// Environment variable naming the Vulkan loader library to use instead of the system's.
const LOADER_ENV: &str = "PERFTEST_VULKAN_LOADER";

/// A failure with the exit code it maps to.
struct Failure {
    code: i32,
    message: String,
}

impl Failure {
    fn new(code: i32, message: impl std::fmt::Display) -> Failure {
        Failure {
            code,
            message: message.to_string(),
        }
    }
}

fn core_failure(e: Error) -> Failure {
    let code = match e {
        Error::Selection(_) => exit_code::USAGE,
        _ => exit_code::FAILURE,
    };
    Failure::new(code, e)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(normalize_args(std::env::args_os())) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                exit_code::USAGE
            } else {
                exit_code::SUCCESS
            };
            let _ = e.print();
            return ExitCode::from(code as u8);
        }
    };
    let result = match &cli.command {
        Some(Command::Compare {
            a,
            b,
            format,
            output,
            fail_above,
            fail_median,
        }) => GateLimits::new(*fail_above, *fail_median)
            .map_err(|e| Failure::new(exit_code::USAGE, e))
            .and_then(|limits| run_compare(a, b, *format, output.as_deref(), &limits)),
        Some(Command::Render {
            report,
            format,
            output,
        }) => run_render(report, *format, output.as_deref()),
        None => Options::from_args(&cli.run)
            .map_err(|e| Failure::new(exit_code::USAGE, e))
            .and_then(|o| run(&o)),
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(f) => {
            eprintln!("perftest: {}", f.message);
            ExitCode::from(f.code as u8)
        }
    }
}

fn run_compare(
    a: &Path,
    b: &Path,
    format: CompareFormat,
    output: Option<&Path>,
    limits: &GateLimits,
) -> Result<i32, Failure> {
    let ra = load_report(a).map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    let rb = load_report(b).map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    let comparison = compare(&ra, &rb);
    let (a_label, b_label) = (a.display().to_string(), b.display().to_string());
    let text = match format {
        CompareFormat::Text => render(&comparison, &a_label, &b_label),
        CompareFormat::Html => comparison_html(&comparison, &a_label, &b_label)
            .map_err(|e| Failure::new(exit_code::FAILURE, e))?,
    };
    match output {
        Some(path) => write_atomically(path, text.as_bytes()).map_err(|e| {
            Failure::new(
                exit_code::FAILURE,
                format!("cannot write {}: {e}", path.display()),
            )
        })?,
        None => print_stdout(&text)?,
    }
    let verdict = judge(&comparison, limits);
    if verdict.failed() {
        for line in verdict.describe(limits) {
            // Offender lines are indented under their "perftest: regression: ..." heading.
            let prefix = if line.starts_with(' ') {
                ""
            } else {
                "perftest: "
            };
            eprintln!("{prefix}{line}");
        }
        return Ok(exit_code::REGRESSION);
    }
    Ok(exit_code::SUCCESS)
}

fn run_render(report: &Path, format: ExportFormat, output: Option<&Path>) -> Result<i32, Failure> {
    let report = load_report(report).map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    let bytes = exporter(format)
        .serialize(&report)
        .map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    match output {
        Some(path) => write_atomically(path, &bytes).map_err(|e| {
            Failure::new(
                exit_code::FAILURE,
                format!("cannot write {}: {e}", path.display()),
            )
        })?,
        None => print_stdout(&String::from_utf8_lossy(&bytes))?,
    }
    Ok(exit_code::SUCCESS)
}

fn print_stdout(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| {
            if text.ends_with('\n') {
                Ok(())
            } else {
                out.write_all(b"\n")
            }
        })
        .and_then(|()| out.flush())
        .map_err(|e| Failure::new(exit_code::FAILURE, format!("cannot write to stdout: {e}")))
}

/// Fails early (before any GPU work) when `path` cannot be written.
fn check_writable(path: &Path) -> Result<(), Failure> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let probe = dir.join(format!(".perftest-probe-{}", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            if path.is_dir() {
                return Err(Failure::new(
                    exit_code::USAGE,
                    format!("--output {} is a directory", path.display()),
                ));
            }
            Ok(())
        }
        Err(e) => Err(Failure::new(
            exit_code::FAILURE,
            format!("cannot write --output {}: {e}", path.display()),
        )),
    }
}

fn run(options: &Options) -> Result<i32, Failure> {
    let all = original_cases();
    if options.mode == Mode::ListCases {
        let lines: Vec<String> = all
            .iter()
            .map(|c| format!("{:<40} {}", c.id, c.name))
            .collect();
        print_stdout(&lines.join("\n"))?;
        return Ok(exit_code::SUCCESS);
    }
    let cases =
        select_cases(&all, &options.filters).map_err(|e| Failure::new(exit_code::USAGE, e))?;
    if find_case(&all, &options.baseline).is_none() {
        return Err(Failure::new(
            exit_code::USAGE,
            format!(
                "--baseline '{}' is not a case id (see --list-cases)",
                options.baseline
            ),
        ));
    }
    if let Some(path) = &options.output {
        check_writable(path)?;
    }
    if let Some(dir) = &options.dump_shaders {
        shader_stats::prepare_dump_dir(dir).map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    }

    let instance_options = InstanceOptions {
        validation: options.validation,
        synchronization_validation: options.validation,
        loader_path: std::env::var_os(LOADER_ENV).map(Into::into),
    };
    let instance = Arc::new(Instance::new(&instance_options).map_err(core_failure)?);
    let targets =
        compute_targets(instance.handle(), instance.api_version()).map_err(core_failure)?;
    let summaries: Vec<_> = targets.iter().map(|t| t.summary.clone()).collect();
    if options.mode == Mode::ListDevices {
        if summaries.is_empty() {
            return Err(core_failure(Error::NoComputeTarget));
        }
        print_stdout(&listing(&summaries))?;
        return Ok(validation_code(&instance, exit_code::SUCCESS));
    }
    if summaries.is_empty() {
        return Err(core_failure(Error::NoComputeTarget));
    }
    let chosen = select(&summaries, &options.device).map_err(|e| core_failure(e.into()))?;
    let target = &targets[chosen];
    let result = (|| {
        let mut context = Context::new(instance.clone(), target).map_err(core_failure)?;
        context.set_fence_timeout(options.fence_timeout);
        let mut bench = Bench::new(context).map_err(core_failure)?;
        match options.mode {
            Mode::Verify => run_verify(&mut bench, &cases),
            Mode::Time { verify_first } => run_time(&mut bench, &cases, options, verify_first),
            Mode::ListCases | Mode::ListDevices => Ok(exit_code::SUCCESS),
        }
        // `bench` drops here, before the validation messages are collected.
    })();
    // Validation messages are reported on every path; a failure keeps its own exit code.
    match result {
        Ok(code) => Ok(validation_code(&instance, code)),
        Err(failure) => {
            validation_code(&instance, failure.code);
            Err(failure)
        }
    }
}

/// Reports validation messages on stderr; turns a success into [`exit_code::VALIDATION`]
/// (any other code — a failure, a verification mismatch, an interrupt — takes precedence).
fn validation_code(instance: &Instance, code: i32) -> i32 {
    if !instance.validation_enabled() {
        return code;
    }
    let messages = instance.validation_messages();
    if messages.is_empty() {
        eprintln!("perftest: validation: 0 messages");
        return code;
    }
    eprintln!("perftest: validation: {} message(s)", messages.len());
    for m in messages.iter().take(20) {
        eprintln!("  {:?} {}: {}", m.severity, m.id, m.text);
    }
    if code == exit_code::SUCCESS {
        exit_code::VALIDATION
    } else {
        code
    }
}

fn run_verify(bench: &mut Bench, cases: &[perftest_cases::Case]) -> Result<i32, Failure> {
    let progress = Progress::new(cases.len());
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut lines = Vec::new();
    let mut fatal = None;
    for (i, case) in cases.iter().enumerate() {
        progress.case(i, &case.name);
        let verdict = verify_case(bench, case);
        match &verdict {
            Verdict::Pass { .. } => passed += 1,
            Verdict::Fail(_) => failed += 1,
            Verdict::Skip(_) => skipped += 1,
            Verdict::Error { message, fatal: f } => {
                failed += 1;
                if *f {
                    fatal = Some(message.clone());
                }
            }
        }
        lines.push(verdict_line(case, &verdict));
        if fatal.is_some() {
            break; // the device cannot be trusted for the remaining cases
        }
    }
    progress.finish();
    let device = &bench.context().target().summary;
    lines.push(format!(
        "verified on {}: {passed} passed, {failed} failed, {skipped} skipped",
        device.describe()
    ));
    print_stdout(&lines.join("\n"))?;
    if let Some(e) = fatal {
        return Err(Failure::new(exit_code::FAILURE, e));
    }
    Ok(if failed > 0 {
        exit_code::VERIFICATION
    } else {
        exit_code::SUCCESS
    })
}

fn install_interrupt_handler() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let presses = Arc::new(AtomicU32::new(0));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        flag.store(true, Ordering::SeqCst);
        if presses.fetch_add(1, Ordering::SeqCst) >= 1 {
            std::process::exit(exit_code::INTERRUPTED);
        }
    });
    stop
}

fn run_time(
    bench: &mut Bench,
    cases: &[perftest_cases::Case],
    options: &Options,
    verify_first: bool,
) -> Result<i32, Failure> {
    let stop = install_interrupt_handler();
    let progress = Progress::new(cases.len());
    let (report, end, phases) = run_timing(
        bench,
        cases,
        options,
        verify_first,
        &stop,
        &mut |i, _, case| progress.case(i, &case.name),
    );
    progress.finish();
    if options.verbose {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        eprintln!(
            "perftest: pipelines {:.0} ms, verification {:.0} ms, clock warm-up {:.0} ms, measurements {:.0} ms",
            ms(phases.pipelines),
            ms(phases.verification),
            ms(phases.warmup),
            ms(phases.measurement)
        );
    }

    let render = |format: ExportFormat| {
        exporter(format)
            .serialize(&report)
            .map_err(|e| Failure::new(exit_code::FAILURE, e))
    };
    match &options.output {
        Some(path) => {
            let bytes = render(options.format)?;
            write_atomically(path, &bytes).map_err(|e| {
                Failure::new(
                    exit_code::FAILURE,
                    format!("cannot write {}: {e}", path.display()),
                )
            })?;
            print_stdout(&String::from_utf8_lossy(&render(ExportFormat::Text)?))?;
        }
        None => print_stdout(&String::from_utf8_lossy(&render(options.format)?))?,
    }
    shader_outputs(bench, cases, &report, options)?;
    let verification_failed = report.cases.iter().any(|c| {
        c.status
            .reason()
            .is_some_and(|r| r.starts_with("verification failed"))
    });
    match end {
        RunEnd::Interrupted => {
            eprintln!(
                "perftest: interrupted; {} case(s) were written",
                report.cases.len()
            );
            Ok(exit_code::INTERRUPTED)
        }
        RunEnd::Fatal(e) => Err(Failure::new(exit_code::FAILURE, e)),
        RunEnd::Complete if verification_failed => Ok(exit_code::VERIFICATION),
        RunEnd::Complete => Ok(exit_code::SUCCESS),
    }
}

/// `--shader-stats` and `--dump-shaders`: the statistics block on stdout and one file per
/// case, or a note (once) where the driver offers neither.
fn shader_outputs(
    bench: &Bench,
    cases: &[perftest_cases::Case],
    report: &perftest_cli::report::Report,
    options: &Options,
) -> Result<(), Failure> {
    if !options.shader_stats && options.dump_shaders.is_none() {
        return Ok(());
    }
    if !bench.context().shader_statistics_available() {
        eprintln!(
            "perftest: {}",
            shader_stats::unavailable_note(&report.device.name)
        );
        return Ok(());
    }
    if options.shader_stats {
        print_stdout(&shader_stats::text_block(report))?;
    }
    if let Some(dir) = &options.dump_shaders {
        let mut written = 0;
        for case in cases {
            let executables = bench.pipeline_executables_of(case);
            written +=
                usize::from(shader_stats::dump(dir, &case.id, executables).map_err(|e| {
                    Failure::new(
                        exit_code::FAILURE,
                        format!("cannot write into --dump-shaders {}: {e}", dir.display()),
                    )
                })?);
        }
        if written == 0 {
            eprintln!(
                "perftest: note: the driver gave no internal shader representations; nothing was written to {}",
                dir.display()
            );
        }
    }
    Ok(())
}
