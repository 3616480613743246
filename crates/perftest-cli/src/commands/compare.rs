//! `perftest compare A.json B.json ...`: two reports side by side, or many with outliers flagged.

use std::path::Path;

use perftest_cli::cli::CompareFormat;
use perftest_cli::compare::{compare, render};
use perftest_cli::cross::{self, cross_gpu};
use perftest_cli::export::{comparison_html, cross_html, node_html, OutputTarget};
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
    let reports = paths
        .iter()
        .map(|p| load_report(p).map_err(|e| Failure::new(exit_code::FAILURE, e)))
        .collect::<Result<Vec<_>, _>>()?;
    let labels: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let refs: Vec<&Report> = reports.iter().collect();
    let cross_gpus = !two && perftest_report::across::is_cross_gpu(&refs);
    if !cross_gpus && matches!(format, CompareFormat::Markdown | CompareFormat::Json) {
        return Err(Failure::new(
            exit_code::USAGE,
            "--format markdown and json compare three or more reports of different GPUs, APIs \
             or tools; two reports, or reports of one GPU model, take text or html",
        ));
    }
    // Two reports: the change of every case (also between two GPUs); three or more of different
    // GPUs, APIs or tools: the cross-GPU matrix; of one GPU model: the node table.
    let (text, code) = if cross_gpus {
        let pairs: Vec<(&str, &Report)> = labels.iter().map(String::as_str).zip(refs).collect();
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
        (text, exit_code::SUCCESS)
    } else if let [a, b] = &reports[..] {
        let comparison = compare(a, b);
        let text = match format {
            CompareFormat::Html => comparison_html(&comparison, &labels[0], &labels[1])
                .map_err(|e| Failure::new(exit_code::FAILURE, e))?,
            // Markdown and JSON were refused above.
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
        (text, code)
    } else {
        // Three or more of one GPU model: one column per report and the outlier rule.
        let summary = node::summarize(&refs, &labels, OutlierRule::default());
        let describe = |r: usize| {
            let d = &reports[r].device;
            match &d.pci_bus {
                Some(pci) => format!("{}, PCI {pci}", d.name),
                None => d.name.clone(),
            }
        };
        let code = if summary.flagged_reports().is_empty() {
            exit_code::SUCCESS
        } else {
            exit_code::OUTLIER
        };
        let text = match format {
            CompareFormat::Html => {
                node_html(&summary, &describe).map_err(|e| Failure::new(exit_code::FAILURE, e))?
            }
            // Markdown and JSON were refused above.
            _ => node::render(&summary, &describe),
        };
        (text, code)
    };
    match target {
        Some(target) => target
            .write(text.as_bytes())
            .map_err(|e| Failure::new(exit_code::FAILURE, e))?,
        None => print_stdout(&text)?,
    }
    Ok(code)
}
