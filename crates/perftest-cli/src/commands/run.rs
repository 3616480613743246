//! The benchmark run (`perftest [-N] [NAME] [OPTIONS]`): the cases chosen, the device set up,
//! then `--list`, `--list-cases`, `--verify` or a timed run on one device or on every device.

use std::path::Path;
use std::sync::Arc;

use perftest_cases::{all_cases, cases_in, find_case, select_cases, Suite};
use perftest_cli::benchmark::settings::RunSettings;
use perftest_cli::benchmark::suite::{run_timing, PhaseTimes, RunEnd};
use perftest_cli::benchmark::verify::{verdict_line, verify_case, Verdict};
use perftest_cli::export::{exporter, ExportFormat, OutputError, OutputTarget};
use perftest_cli::options::{Action, Options};
use perftest_cli::outliers::{self, fleet, DEVICE_PLACEHOLDER, PCI_PLACEHOLDER};
use perftest_cli::output::exit_code;
use perftest_cli::output::printable::{printable, printable_path};
use perftest_cli::output::progress::Follow;
use perftest_cli::output::progress::Progress;
use perftest_cli::report::{CaseStatus, Report};
use perftest_cli::shader_stats;
use perftest_cli::stop_signals::StopSignals;
use perftest_core::pipeline_cache::{check_cache_path, CacheFileError};
use perftest_core::{
    compute_targets, first_family_per_device, listing, select, Bench, ComputeTarget, Context,
    Error, Instance, InstanceOptions,
};
use perftest_report::fleet::{Fleet, Member, Verdict as FleetVerdict};
use perftest_report::outliers::{CaseNames, OutlierRule};

use super::{core_failure, output_failure, print_stdout, Failure, STARTED};

/// Environment variable naming the Vulkan loader library to use instead of the system's.
pub(crate) const LOADER_ENV: &str = "PERFTEST_VULKAN_LOADER";

pub(crate) fn run(options: &Options) -> Result<i32, Failure> {
    let cases = selected_cases(options)?;
    if options.action == Action::ListCases {
        return list_cases(&cases, options);
    }
    let output = check_before_device_work(options)?;
    // Installed before the device is set up, so a stop signal at any point ends the run
    // cleanly (a failure to install them only loses that comfort).
    let signals = match options.action {
        Action::Time { .. } => StopSignals::install().unwrap_or_default(),
        _ => StopSignals::default(),
    };
    if options.verbose {
        perftest_cli::stop_signals::announce_requests();
    }

    let instance_options = InstanceOptions {
        validation: options.validation,
        synchronization_validation: options.validation,
        // Set but empty means unset, as for the loader's own variables.
        loader_path: std::env::var_os(LOADER_ENV)
            .filter(|path| !path.is_empty())
            .map(Into::into),
        max_api_version: None,
    };
    let instance = Arc::new(Instance::new(&instance_options).map_err(core_failure)?);
    let targets =
        compute_targets(instance.handle(), instance.api_version()).map_err(core_failure)?;
    let summaries: Vec<_> = targets.iter().map(|t| t.summary.clone()).collect();
    if options.action == Action::ListDevices {
        if summaries.is_empty() {
            return Err(core_failure(Error::NoComputeTarget));
        }
        // Driver strings are printed with control characters escaped.
        let shown: Vec<_> = summaries
            .iter()
            .cloned()
            .map(|mut s| {
                s.name = printable(&s.name).into_owned();
                s
            })
            .collect();
        print_stdout(&listing(&shown))?;
        return Ok(validation_code(&instance, exit_code::SUCCESS));
    }
    if summaries.is_empty() {
        return Err(core_failure(Error::NoComputeTarget));
    }
    if let (true, Action::Time { verify_first }) = (options.all_devices, options.action) {
        let code = run_all_devices(&instance, &targets, &cases, options, verify_first, &signals);
        return match code {
            Ok(code) => Ok(validation_code(&instance, code)),
            Err(failure) => {
                validation_code(&instance, failure.code);
                Err(failure)
            }
        };
    }
    let chosen = select(&summaries, &options.device).map_err(|e| core_failure(e.into()))?;
    let target = &targets[chosen];
    let result = (|| {
        let mut context = Context::new(instance.clone(), target).map_err(core_failure)?;
        context.set_fence_timeout(options.fence_timeout);
        let mut bench = Bench::new(context).map_err(core_failure)?;
        match options.action {
            Action::Verify => run_verify(&mut bench, &cases),
            Action::Time { verify_first } => run_time(
                &mut bench,
                &cases,
                options,
                verify_first,
                output.as_ref(),
                &signals,
            ),
            Action::ListCases | Action::ListDevices => Ok(exit_code::SUCCESS),
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

/// The cases of the chosen suites that `--filter` and `--max-working-set` select.
fn selected_cases(options: &Options) -> Result<Vec<perftest_cases::Case>, Failure> {
    let in_suites = chosen_cases(options);
    if in_suites.is_empty() {
        return Err(Failure::new(
            exit_code::USAGE,
            no_cases_message(&options.suites),
        ));
    }
    let mut cases = select_cases(&in_suites, &options.filters)
        .map_err(|e| Failure::new(exit_code::USAGE, e))?;
    if let Some(max) = options.max_working_set {
        cases.retain(|c| c.footprint() <= max);
        if cases.is_empty() {
            return Err(Failure::new(
                exit_code::USAGE,
                format!("--max-working-set {max} bytes leaves no case to run"),
            ));
        }
    }
    Ok(cases)
}

/// The cases of the suites chosen whole, and with `--suite answers` the cases the answers
/// read, in run order.
fn chosen_cases(options: &Options) -> Vec<perftest_cases::Case> {
    if !options.answers {
        return cases_in(&options.suites);
    }
    let all = perftest_cases::all_cases();
    let read: std::collections::HashSet<String> = perftest_report::answers::answer_cases(&all)
        .into_iter()
        .map(|c| c.id)
        .collect();
    all.into_iter()
        .filter(|c| options.suites.contains(&c.suite) || read.contains(&c.id))
        .collect()
}

/// `--list-cases`: one suite (the default) gives `id name`, as before suites existed; several,
/// or `answers`, put the suite first.
fn list_cases(cases: &[perftest_cases::Case], options: &Options) -> Result<i32, Failure> {
    let several = options.suites.len() > 1 || options.answers;
    let lines: Vec<String> = cases
        .iter()
        .map(|c| match several {
            true => format!("{:<9} {:<40} {}", c.suite.name(), c.id, c.name),
            false => format!("{:<40} {}", c.id, c.name),
        })
        .collect();
    print_stdout(&lines.join("\n"))?;
    Ok(exit_code::SUCCESS)
}

/// What can be checked before any device work, so that a run is refused before it starts
/// rather than failing at its end: the baseline, the `--output` path (per device later, for
/// `--all-devices`), the pipeline cache and the shader dump directory.
fn check_before_device_work(options: &Options) -> Result<Option<OutputTarget>, Failure> {
    if find_case(&all_cases(), &options.baseline).is_none() {
        return Err(Failure::new(
            exit_code::USAGE,
            format!(
                "--baseline '{}' is not a case id (see --list-cases)",
                perftest_cases::one_line(&options.baseline)
            ),
        ));
    }
    // Before any GPU work: a path that can never be written is reported now, not after the run.
    let output = match options.output.as_deref() {
        // Checked per device once the devices are known (the path holds {device}).
        Some(_) if options.all_devices => None,
        Some(path) => Some(OutputTarget::check(path).map_err(output_failure)?),
        None => None,
    };
    // A pipeline-cache path that is not a perftest cache is never overwritten: refused now.
    if let Some(cache) = &options.pipeline_cache {
        check_cache_path(cache).map_err(|e| {
            let code = match e {
                CacheFileError::Unreadable { .. } => exit_code::FAILURE,
                _ => exit_code::USAGE,
            };
            // A newline in the path must not split the one-line message.
            Failure::new(
                code,
                format!("--pipeline-cache {}", printable(&e.to_string())),
            )
        })?;
        // The report written over the cache would lose the cache, and the next run would
        // refuse the file as not a cache.
        let cache_target = OutputTarget::check(cache).ok();
        if let (Some(out), Some(cache)) = (&output, &cache_target) {
            if out.same_destination(cache) {
                return Err(Failure::new(
                    exit_code::USAGE,
                    format!(
                        "--output {} is the --pipeline-cache file; the report would replace the cache",
                        printable(&out.path().display().to_string())
                    ),
                ));
            }
        }
    }
    // Checked now, created only when shaders are written (not for --list or a refused run).
    if let Some(dir) = &options.dump_shaders {
        shader_stats::check_dump_dir(dir).map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    }

    Ok(output)
}

/// The usage error for suites that hold no case yet.
pub(crate) fn no_cases_message(suites: &[Suite]) -> String {
    let names: Vec<&str> = suites.iter().map(|s| s.name()).collect();
    let with_cases: Vec<&str> = Suite::ALL
        .into_iter()
        .filter(|&s| !cases_in(&[s]).is_empty())
        .map(Suite::name)
        .collect();
    format!(
        "--suite {}: {} no cases yet; suites with cases: {}",
        names.join(","),
        if names.len() == 1 {
            "this suite has"
        } else {
            "these suites have"
        },
        with_cases.join(", ")
    )
}

/// Reports validation messages on stderr; turns a success into [`exit_code::VALIDATION`]
/// (any other code — a failure, a verification mismatch, an interrupt — takes precedence).
pub(crate) fn validation_code(instance: &Instance, code: i32) -> i32 {
    if !instance.validation_enabled() {
        return code;
    }
    let messages = instance.validation_messages();
    if messages.is_empty() {
        perftest_cli::stderr_line!("perftest: validation: 0 messages");
        return code;
    }
    perftest_cli::stderr_line!("perftest: validation: {} message(s)", messages.len());
    for m in messages.iter().take(20) {
        perftest_cli::stderr_line!("  {:?} {}: {}", m.severity, m.id, m.text);
    }
    if code == exit_code::SUCCESS {
        exit_code::VALIDATION
    } else {
        code
    }
}

pub(crate) fn run_verify(
    bench: &mut Bench,
    cases: &[perftest_cases::Case],
) -> Result<i32, Failure> {
    let progress = Progress::new(cases.len());
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut lines = Vec::new();
    let mut fatal = None;
    let mut code = exit_code::SUCCESS;
    for (i, case) in cases.iter().enumerate() {
        progress.case(i, &case.name);
        let verdict = verify_case(bench, case);
        match &verdict {
            Verdict::Pass { .. } => passed += 1,
            Verdict::Skip(_) => skipped += 1,
            Verdict::Fail(_) => failed += 1,
            Verdict::Error { message, kind } => {
                failed += 1;
                if kind.stops_the_run() {
                    fatal = Some(message.clone());
                }
            }
        }
        if let Some(kind) = verdict.failure_kind() {
            code = exit_code::worse(code, exit_code::of_unverified(kind));
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
        printable(&device.describe())
    ));
    print_stdout(&lines.join("\n"))?;
    // A failure that stopped the run is told with its message (its code is the run's, 1).
    match fatal {
        Some(e) => Err(Failure::new(code, e)),
        None => Ok(code),
    }
}

pub(crate) fn run_time(
    bench: &mut Bench,
    cases: &[perftest_cases::Case],
    options: &Options,
    verify_first: bool,
    output: Option<&OutputTarget>,
    signals: &StopSignals,
) -> Result<i32, Failure> {
    if options.verbose {
        let setup = STARTED
            .get()
            .map_or(0.0, |t| t.elapsed().as_secs_f64() * 1e3);
        perftest_cli::stderr_line!("perftest: instance and device ready after {setup:.0} ms");
    }
    let progress = Progress::new(cases.len());
    let (report, end, phases) = run_timing(
        bench,
        cases,
        &RunSettings::from_options(options, verify_first),
        signals.flag(),
        &mut Follow {
            progress: Some(&progress),
            verbose: options.verbose,
        },
    );
    progress.finish();
    if options.verbose {
        print_phases("", &phases);
        print_recorded_share(&report);
    }
    let delivered = deliver(
        &report,
        &end,
        options.format,
        output,
        &Stdout::Plain,
        signals,
    )?;
    let code = run_exit_code(&report, end, delivered, signals);
    // The shader outputs come after the report: their failure is told, and the run's own code
    // is kept when it is worse (or a stop signal's, which always is).
    if let Err(failure) = shader_outputs(bench, cases, &report, options) {
        perftest_cli::stderr_line!("perftest: {}", printable(&failure.message));
        return match code {
            Ok(c) if signals.received().is_some() => Ok(c),
            Ok(c) => Ok(exit_code::worse(c, failure.code)),
            Err(first) => Err(first),
        };
    }
    code
}

/// `--verbose`: how much of the wall time since the process started is recorded GPU
/// measurement (the samples of every case).
pub(crate) fn print_recorded_share(report: &Report) {
    let recorded_ns: f64 = report
        .cases
        .iter()
        .filter_map(|c| c.measurement.as_ref())
        .flat_map(|m| &m.samples_ns)
        // From +0: an empty `sum` of floats is -0, printed "-0 ms".
        .fold(0.0, |total, ns| total + ns);
    let wall = STARTED
        .get()
        .map_or(0.0, |t| t.elapsed().as_secs_f64() * 1e3);
    let recorded = recorded_ns / 1e6;
    let share = if wall > 0.0 {
        recorded / wall * 100.0
    } else {
        0.0
    };
    perftest_cli::stderr_line!(
        "perftest: wall time {wall:.0} ms, of which {recorded:.0} ms recorded GPU measurement ({share:.1}%)"
    );
}

pub(crate) fn print_phases(prefix: &str, phases: &PhaseTimes) {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    perftest_cli::stderr_line!(
        "perftest: {prefix}pipelines {:.0} ms (resources {:.0} ms), verification {:.0} ms, clock warm-up {:.0} ms, sizing {:.0} ms, measurements {:.0} ms",
        ms(phases.pipelines),
        ms(phases.resources),
        ms(phases.verification),
        ms(phases.warmup),
        ms(phases.sizing),
        ms(phases.measurement)
    );
}

/// What stdout says about one device's report, beyond the report itself.
pub(crate) enum Stdout {
    /// A run on one device: the report alone.
    Plain,
    /// One device of `--all-devices`: its `== device N: ... ==` heading before a table, and
    /// `device N: ` before its messages.
    Device {
        /// The heading line.
        heading: String,
        /// The prefix of its messages on stderr.
        prefix: String,
    },
}

/// Delivers a finished (or stopped) run's report in `format`: to `output` when given (only
/// when the run completed or measured at least one case, so an early stop never replaces an
/// earlier report), else on stdout. A report that cannot be written is printed on stdout as
/// the text table instead, so nothing measured is lost; the write's error is returned.
pub(crate) fn deliver(
    report: &Report,
    end: &RunEnd,
    format: ExportFormat,
    output: Option<&OutputTarget>,
    stdout: &Stdout,
    signals: &StopSignals,
) -> Result<Option<OutputError>, Failure> {
    // The run has seen any stop request: what follows writes the results.
    perftest_cli::stop_signals::finishing();
    let render = |format: ExportFormat| {
        exporter(format)
            .serialize(report)
            .map_err(|e| Failure::new(exit_code::FAILURE, e))
    };
    let print = |format: ExportFormat| -> Result<(), Failure> {
        if let Stdout::Device { heading, .. } = stdout {
            print_stdout(heading)?;
        }
        print_stdout(&String::from_utf8_lossy(&render(format)?))
    };
    let prefix = match stdout {
        Stdout::Plain => "",
        Stdout::Device { prefix, .. } => prefix,
    };
    let measured = report
        .cases
        .iter()
        .filter(|c| c.status == CaseStatus::Measured)
        .count();
    let mut written = None;
    let mut write_error = None;
    match output {
        None => print(format)?,
        Some(target) if matches!(end, RunEnd::Complete) || measured > 0 => {
            match target.write(&render(format)?) {
                Ok(()) => written = Some(printable_path(target.path())),
                Err(e) => {
                    print(ExportFormat::Text)?;
                    write_error = Some(e);
                }
            }
        }
        Some(target) => {
            // An incomplete run that measured nothing must not replace an earlier report.
            perftest_cli::stderr_line!(
                "perftest: {prefix}nothing was measured, so {} was not written (an existing file is left as it was)",
                printable_path(target.path())
            );
        }
    }
    match (end, written) {
        (RunEnd::Interrupted, written) => {
            let at = written.map_or_else(String::new, |p| format!(", written to {p}"));
            perftest_cli::stderr_line!(
                "perftest: {prefix}interrupted by {}: {measured} case(s) measured{at}",
                signals.name()
            );
        }
        (_, Some(path)) => perftest_cli::stderr_line!("perftest: {prefix}report written to {path}"),
        (_, None) => {}
    }
    Ok(write_error)
}

/// The exit code of one device's run: a failed write or a fatal device error (1), a stop
/// signal (128 + its number), else the code of its cases' outcomes
/// ([`exit_code::of_outcomes`]: 4 for a verification mismatch, else success).
pub(crate) fn run_exit_code(
    report: &Report,
    end: RunEnd,
    write_error: Option<OutputError>,
    signals: &StopSignals,
) -> Result<i32, Failure> {
    // A stop request that arrived while the results were being written (a FIFO nobody read)
    // still ends the process with its code.
    let stopped = signals.received().is_some();
    if let Some(e) = write_error {
        if stopped {
            perftest_cli::stderr_line!(
                "perftest: {}",
                perftest_cli::output::printable::printable(&e.to_string())
            );
            return Ok(signals.exit_code());
        }
        let also = match &end {
            RunEnd::Fatal(fatal) => format!(" (and the run stopped: {fatal})"),
            _ => String::new(),
        };
        return Err(Failure::new(
            exit_code::FAILURE,
            format!("{e}; the results are in the table above{also}"),
        ));
    }
    match end {
        RunEnd::Interrupted => Ok(signals.exit_code()),
        RunEnd::Fatal(e) => Err(Failure::new(exit_code::FAILURE, e)),
        RunEnd::Complete if stopped => {
            perftest_cli::stderr_line!(
                "perftest: {} arrived while the results were written",
                signals.name()
            );
            Ok(signals.exit_code())
        }
        RunEnd::Complete => Ok(exit_code::of_outcomes(
            report.cases.iter().map(|c| &c.status),
        )),
    }
}

/// The output of device `number` (its `--list` number) for `--all-devices`: `{device}` in the
/// path replaced by the number and `{pci}` by its PCI address, or `perftest-device-N.EXT` in
/// the directory the path names.
pub(crate) fn device_output(
    path: &Path,
    target: &ComputeTarget,
    number: usize,
    format: ExportFormat,
) -> Result<OutputTarget, Failure> {
    let text = path.to_string_lossy();
    let location = outliers::location_word(
        target.pci_bus.as_deref(),
        target.device_uuid.as_deref(),
        number,
    );
    let file = if let Some(file) = outliers::with_placeholders(path, number, &location) {
        file
    } else if text.ends_with('/') || path.is_dir() {
        path.join(format!("perftest-device-{number}.{}", format.extension()))
    } else {
        return Err(Failure::new(
            exit_code::USAGE,
            format!(
                "--output {}: with --all-devices the path must contain {DEVICE_PLACEHOLDER} or {PCI_PLACEHOLDER}, or name a directory",
                printable_path(path)
            ),
        ));
    };
    OutputTarget::check(&file).map_err(output_failure)
}

/// Refuses, before any GPU work, an `--all-devices` output pattern that gives two devices
/// the same file (`{pci}` or the UUID alike for both, as when a loader lists one GPU twice):
/// one report would silently replace the other.
fn refuse_shared_outputs(
    outputs: &[Option<OutputTarget>],
    picked: &[usize],
) -> Result<(), Failure> {
    for (a, first) in outputs.iter().enumerate() {
        let Some(first) = first else { continue };
        let twin = outputs[a + 1..]
            .iter()
            .position(|o| o.as_ref().is_some_and(|o| o.same_destination(first)));
        if let Some(b) = twin {
            return Err(Failure::new(
                exit_code::USAGE,
                format!(
                    "--output: devices {} and {} would both write {} (their {PCI_PLACEHOLDER} \
                     or UUID is the same: the loader may list one GPU twice); put \
                     {DEVICE_PLACEHOLDER} in the path to give each device its own file",
                    picked[a] + 1,
                    picked[a + 1 + b] + 1,
                    printable_path(first.path())
                ),
            ));
        }
    }
    Ok(())
}

/// One device's share of an `--all-devices` run.
pub(crate) struct DeviceRun {
    number: usize,
    description: String,
    outcome: Result<(Report, RunEnd, PhaseTimes), Failure>,
}

/// Times `cases` on the devices `picked` (indices into `targets`) at once, one thread each.
/// A device whose thread cannot be started (a container's pids limit) is timed on this
/// thread once the others are started, and a note says so.
fn time_every_device(
    instance: &Arc<Instance>,
    targets: &[ComputeTarget],
    picked: &[usize],
    cases: &[perftest_cases::Case],
    options: &Options,
    verify_first: bool,
    signals: &StopSignals,
) -> Vec<DeviceRun> {
    let time_one = |i: usize| {
        let target = &targets[i];
        let outcome = (|| {
            let mut context = Context::new(Arc::clone(instance), target).map_err(core_failure)?;
            context.set_fence_timeout(options.fence_timeout);
            let mut bench = Bench::new(context).map_err(core_failure)?;
            Ok(run_timing(
                &mut bench,
                cases,
                &RunSettings::from_options(options, verify_first),
                signals.flag(),
                &mut Follow {
                    progress: None,
                    verbose: options.verbose,
                },
            ))
        })();
        DeviceRun {
            number: i + 1,
            description: target.summary.describe(),
            outcome,
        }
    };
    std::thread::scope(|scope| {
        let started: Vec<_> = picked
            .iter()
            .map(|&i| {
                let spawned = std::thread::Builder::new()
                    .name(format!("device {}", i + 1))
                    .spawn_scoped(scope, move || time_one(i));
                spawned.map_err(|e| {
                    perftest_cli::stderr_line!(
                        "perftest: device {}: no thread could be started for it ({e}); it is \
                         timed after the others are started, on the main thread",
                        i + 1
                    );
                })
            })
            .collect();
        started
            .into_iter()
            .zip(picked)
            .map(|(handle, &i)| match handle {
                Ok(h) => h.join().unwrap_or_else(|_| DeviceRun {
                    number: i + 1,
                    description: targets[i].summary.describe(),
                    outcome: Err(Failure::new(
                        exit_code::FAILURE,
                        "the device's thread panicked",
                    )),
                }),
                Err(()) => time_one(i),
            })
            .collect()
    })
}

/// `--all-devices`: the suite on every physical device at once (one thread each, the first
/// compute family of each device), each report printed or written to its `--output` file, then
/// the node summary.
pub(crate) fn run_all_devices(
    instance: &Arc<Instance>,
    targets: &[ComputeTarget],
    cases: &[perftest_cases::Case],
    options: &Options,
    verify_first: bool,
    signals: &StopSignals,
) -> Result<i32, Failure> {
    let picked = first_family_per_device(targets);
    // Every output is checked before any GPU work.
    let outputs = picked
        .iter()
        .map(|&i| {
            options
                .output
                .as_deref()
                .map(|p| device_output(p, &targets[i], i + 1, options.format))
                .transpose()
        })
        .collect::<Result<Vec<_>, _>>()?;
    refuse_shared_outputs(&outputs, &picked)?;
    let runs = time_every_device(
        instance,
        targets,
        &picked,
        cases,
        options,
        verify_first,
        signals,
    );
    perftest_cli::stop_signals::finishing();

    let mut code = exit_code::SUCCESS;
    let mut worst = |c: i32| code = exit_code::worse(code, c);
    let mut summarized: Vec<(String, String, Report)> = Vec::new();
    for (run, output) in runs.into_iter().zip(&outputs) {
        let heading = format!(
            "== device {}: {} ==",
            run.number,
            printable(&run.description)
        );
        match run.outcome {
            Err(f) => {
                // Without --output stdout holds each device's heading, and its table if any.
                if output.is_none() {
                    print_stdout(&heading)?;
                }
                perftest_cli::stderr_line!(
                    "perftest: device {}: {}",
                    run.number,
                    printable(&f.message)
                );
                worst(f.code);
            }
            Ok((report, end, phases)) => {
                if options.verbose {
                    print_phases(&format!("device {}: ", run.number), &phases);
                }
                let stdout = Stdout::Device {
                    heading,
                    prefix: format!("device {}: ", run.number),
                };
                let write_error = deliver(
                    &report,
                    &end,
                    options.format,
                    output.as_ref(),
                    &stdout,
                    signals,
                )?;
                match run_exit_code(&report, end, write_error, signals) {
                    Ok(c) => worst(c),
                    Err(f) => {
                        perftest_cli::stderr_line!(
                            "perftest: device {}: {}",
                            run.number,
                            printable(&f.message)
                        );
                        worst(f.code);
                    }
                }
                summarized.push((format!("#{}", run.number), run.description, report));
            }
        }
    }
    if print_node_summary(&summarized)? {
        worst(exit_code::OUTLIER);
    }
    Ok(code)
}

/// Prints the node summary of `--all-devices` (each device's label, description and report);
/// true when a device is flagged. The devices of each GPU model are judged among themselves (a
/// node may hold two models); a model with too few devices is named as not judged but fails
/// nothing: the fleet's summary judges it with the other nodes' devices.
fn print_node_summary(summarized: &[(String, String, Report)]) -> Result<bool, Failure> {
    let mut names = CaseNames::default();
    let members = summarized
        .iter()
        .map(|(label, _, report)| Member::of(report, label, &mut names))
        .collect();
    let fleet = Fleet::of(members, &names, OutlierRule::default());
    let text = match fleet.groups.as_slice() {
        [group] => {
            let described = |r: usize| summarized[r].1.clone();
            outliers::render(&group.summary, &described)
        }
        _ => fleet::render(&fleet),
    };
    print_stdout(&text)?;
    Ok(fleet.verdict() == FleetVerdict::Flagged)
}

/// `--shader-stats` and `--dump-shaders`: the statistics block on stdout and one file per
/// case, or a note (once) where the driver offers neither.
pub(crate) fn shader_outputs(
    bench: &Bench,
    cases: &[perftest_cases::Case],
    report: &perftest_cli::report::Report,
    options: &Options,
) -> Result<(), Failure> {
    if !options.shader_stats && options.dump_shaders.is_none() {
        return Ok(());
    }
    if let Some(dir) = &options.dump_shaders {
        shader_stats::prepare_dump_dir(dir).map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    }
    if !bench.context().shader_statistics_available() {
        perftest_cli::stderr_line!(
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
                    Failure::new(exit_code::FAILURE, format!("--dump-shaders: {e}"))
                })?);
        }
        if written == 0 {
            perftest_cli::stderr_line!(
                "perftest: note: the driver gave no internal shader representations; nothing was written to {}",
                dir.display()
            );
        }
    }
    Ok(())
}
