//! `perftest compare A.json B.json ...`: two reports side by side, or many with outliers flagged.

use std::path::Path;

use perftest_cli::cli::CompareFormat;
use perftest_cli::compare::html::comparison_html;
use perftest_cli::compare::{compare, render};
use perftest_cli::cross::html::cross_html;
use perftest_cli::cross::{self, cross_gpu};
use perftest_cli::export::OutputTarget;
use perftest_cli::gate::{judge, GateLimits};
use perftest_cli::node::html::node_html;
use perftest_cli::node::{self, OutlierRule};
use perftest_cli::output::exit_code;
use perftest_cli::output::printable::printable;
use perftest_cli::report::Report;
use perftest_cli::report_file::load_report;

use super::{output_failure, print_stdout, refuse_input_as_output, Failure};

pub(crate) fn run_compare(
    paths: &[std::path::PathBuf],
    format: CompareFormat,
    output: Option<&Path>,
    limits: &GateLimits,
) -> Result<i32, Failure> {
    let two = paths.len() == 2;
    let gated = limits.fail_above.is_some() || limits.fail_median.is_some();
    if !two && gated {
        return Err(Failure::new(
            exit_code::USAGE,
            "--fail-above and --fail-median compare two reports; three or more give the node \
             table and exit 6 when one is an outlier",
        ));
    }
    // The output is checked first: a wrong path is reported before the reports are read.
    let inputs: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
    refuse_input_as_output(output, &inputs)?;
    let target = output
        .map(OutputTarget::check)
        .transpose()
        .map_err(output_failure)?;
    let labels: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let load =
        |p: &std::path::PathBuf| load_report(p).map_err(|e| Failure::new(exit_code::FAILURE, e));
    // Two reports: the change of every case (also between two GPUs); three or more of one GPU
    // model: the node table; of different GPUs, APIs or tools: the cross-GPU matrix.
    let (text, code) = if let [a, b] = paths {
        refuse_cross_only_format(format)?;
        let (a, b) = (load(a)?, load(b)?);
        two_reports(&a, &b, &labels, format, limits)?
    } else {
        // Three or more: only what the node table needs of each report is kept, so memory
        // grows with the number of reports by a few bytes per case, not by a report.
        let mut inputs = Vec::with_capacity(paths.len());
        let mut devices = Vec::with_capacity(paths.len());
        let mut kinds = Vec::with_capacity(paths.len());
        for path in paths {
            let report = load(path)?;
            let d = &report.device;
            devices.push(match &d.pci_bus {
                Some(pci) => format!("{}, PCI {pci}", d.name),
                None => d.name.clone(),
            });
            kinds.push(perftest_report::across::kind(&report));
            inputs.push(node::NodeInput::of(&report));
        }
        if kinds.windows(2).any(|w| w[0] != w[1]) {
            // Different GPUs: their reports are read again whole (published tables and single
            // runs, not a fleet's).
            drop(inputs);
            let reports = paths.iter().map(load).collect::<Result<Vec<_>, _>>()?;
            cross_reports(&reports, &labels, format)?
        } else {
            refuse_cross_only_format(format)?;
            many_reports(&inputs, &devices, &labels, format)?
        }
    };
    match target {
        Some(target) => target
            .write(text.as_bytes())
            .map_err(|e| Failure::new(exit_code::FAILURE, e))?,
        None => print_stdout(&text)?,
    }
    Ok(code)
}

/// The side-by-side comparison of two reports and the gates' exit status.
fn two_reports(
    a: &Report,
    b: &Report,
    labels: &[String],
    format: CompareFormat,
    limits: &GateLimits,
) -> Result<(String, i32), Failure> {
    let comparison = compare(a, b);
    let text = match format {
        CompareFormat::Html => comparison_html(&comparison, &labels[0], &labels[1])
            .map_err(|e| Failure::new(exit_code::FAILURE, e))?,
        // Markdown and JSON were refused before the reports were read.
        _ => render(&comparison, &labels[0], &labels[1]),
    };
    let verdict = judge(&comparison, limits);
    if verdict.failed() {
        for line in verdict.describe(limits) {
            // Offender lines are indented under their "perftest: regression: ..." heading.
            let prefix = if line.starts_with(' ') {
                ""
            } else {
                "perftest: "
            };
            perftest_cli::say!("{prefix}{}", printable(&line));
        }
    }
    let code = if verdict.failed() {
        exit_code::REGRESSION
    } else {
        exit_code::SUCCESS
    };
    Ok((text, code))
}

/// The node table of three or more reports (one column per report and the outlier rule) and
/// its exit status; `devices[r]` describes report `r` (device name and PCI address).
fn many_reports(
    inputs: &[node::NodeInput],
    devices: &[String],
    labels: &[String],
    format: CompareFormat,
) -> Result<(String, i32), Failure> {
    let summary = node::summarize_inputs(inputs, labels, OutlierRule::default());
    let describe = |r: usize| devices.get(r).cloned().unwrap_or_default();
    let code = if summary.flagged_reports().is_empty() {
        exit_code::SUCCESS
    } else {
        exit_code::OUTLIER
    };
    let text = match format {
        CompareFormat::Html => {
            node_html(&summary, &describe).map_err(|e| Failure::new(exit_code::FAILURE, e))?
        }
        // Markdown and JSON were refused before.
        _ => node::render(&summary, &describe),
    };
    Ok((text, code))
}

/// Markdown and JSON are formats of the cross-GPU comparison only.
fn refuse_cross_only_format(format: CompareFormat) -> Result<(), Failure> {
    if matches!(format, CompareFormat::Markdown | CompareFormat::Json) {
        return Err(Failure::new(
            exit_code::USAGE,
            "--format markdown and json compare three or more reports of different GPUs, APIs \
             or tools; two reports, or reports of one GPU model, take text or html",
        ));
    }
    Ok(())
}

/// The cross-GPU comparison of three or more reports of different GPUs, APIs or tools.
fn cross_reports(
    reports: &[Report],
    labels: &[String],
    format: CompareFormat,
) -> Result<(String, i32), Failure> {
    let pairs: Vec<(&str, &Report)> = labels.iter().map(String::as_str).zip(reports).collect();
    let cross = cross_gpu(&pairs);
    let text = match format {
        CompareFormat::Text => cross::render(&cross),
        CompareFormat::Html => {
            cross_html(&cross).map_err(|e| Failure::new(exit_code::FAILURE, e))?
        }
        CompareFormat::Markdown => cross::markdown(&cross),
        CompareFormat::Json => {
            cross::json(&cross).map_err(|e| Failure::new(exit_code::FAILURE, e))?
        }
    };
    Ok((text, exit_code::SUCCESS))
}
