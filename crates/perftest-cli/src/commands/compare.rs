//! `perftest compare A.json B.json ...`: two reports side by side, or many with outliers flagged.

use std::path::Path;

use perftest_cli::cli::CompareFormat;
use perftest_cli::compare::{compare, render};
use perftest_cli::export::{comparison_html, node_html, OutputTarget};
use perftest_cli::gate::{judge, GateLimits};
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
    let (text, code) = if let [a, b] = paths {
        let (a, b) = (load(a)?, load(b)?);
        two_reports(&a, &b, &labels, format, limits)?
    } else {
        // Three or more: only what the node table needs of each report is kept, so memory
        // grows with the number of reports by a few bytes per case, not by a report.
        let mut inputs = Vec::with_capacity(paths.len());
        let mut devices = Vec::with_capacity(paths.len());
        for path in paths {
            let report = load(path)?;
            let d = &report.device;
            devices.push(match &d.pci_bus {
                Some(pci) => format!("{}, PCI {pci}", d.name),
                None => d.name.clone(),
            });
            inputs.push(node::NodeInput::of(&report));
        }
        many_reports(&inputs, &devices, &labels, format)?
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
        CompareFormat::Text => render(&comparison, &labels[0], &labels[1]),
        CompareFormat::Html => comparison_html(&comparison, &labels[0], &labels[1])
            .map_err(|e| Failure::new(exit_code::FAILURE, e))?,
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
        CompareFormat::Text => node::render(&summary, &describe),
        CompareFormat::Html => {
            node_html(&summary, &describe).map_err(|e| Failure::new(exit_code::FAILURE, e))?
        }
    };
    Ok((text, code))
}
