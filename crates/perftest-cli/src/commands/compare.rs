//! `perftest compare A.json B.json ...`: two reports side by side, or many with outliers flagged.

use std::path::Path;

use perftest_cli::cli::CompareFormat;
use perftest_cli::compare::html::comparison_html;
use perftest_cli::compare::render;
use perftest_cli::cross_gpu;
use perftest_cli::cross_gpu::html::cross_html;
use perftest_cli::export::OutputTarget;
use perftest_cli::outliers::html::{fleet_html, node_html};
use perftest_cli::outliers::{self, fleet};
use perftest_cli::output::exit_code;
use perftest_cli::output::printable::printable;
use perftest_cli::report::Report;
use perftest_cli::report_file::load_report;
use perftest_report::cross_gpu::cross_gpu;
use perftest_report::fleet::{Fleet, Member, Verdict};
use perftest_report::gate::{judge, GateLimits};
use perftest_report::outliers::{CaseNames, OutlierRule};
use perftest_report::pair::compare;

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
             table of each GPU model and exit 6 when one is an outlier",
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
    // Two reports: the change of every case (also between two GPUs); three or more: the node
    // table of each GPU model (a fleet), or, when every report is of another GPU, API or
    // tool, the cross-GPU matrix.
    let (text, code) = if let [a, b] = paths {
        refuse_cross_only_format(format)?;
        let (a, b) = (load(a)?, load(b)?);
        two_reports(&a, &b, &labels, format, limits)?
    } else {
        // Three or more: grouped by GPU model and judged per group (a fleet), unless every
        // report is of another GPU, API or tool (the cross-GPU matrix). Only what the node
        // table needs of each report is kept, a few bytes per case.
        let mut names = CaseNames::default();
        let mut members = Vec::with_capacity(paths.len());
        for (path, label) in paths.iter().zip(&labels) {
            members.push(Member::of(&load(path)?, label, &mut names));
        }
        let fleet = Fleet::of(members, &names, OutlierRule::default());
        drop(names);
        if fleet.is_cross_gpu() {
            // Different GPUs: their reports are read again (published tables and single runs,
            // not a fleet's), each keeping only the cases the matrix compares.
            drop(fleet);
            let reports = paths
                .iter()
                .map(|p| load(p).map(keep_catalog_cases))
                .collect::<Result<Vec<_>, _>>()?;
            cross_reports(&reports, &labels, format)?
        } else {
            refuse_cross_only_format(format)?;
            many_reports(&fleet, format)?
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
            perftest_cli::stderr_line!("{prefix}{}", printable(&line));
        }
    }
    // A slowdown found is a regression even when the gate could not judge the rest; a gate
    // that judged too little is no verdict (exit 7), never "slower".
    let code = if verdict.regressed() {
        exit_code::REGRESSION
    } else if verdict.failed() {
        exit_code::NO_VERDICT
    } else {
        exit_code::SUCCESS
    };
    Ok((text, code))
}

/// The node tables of three or more reports, one per GPU model, and the exit status: 6 when
/// one is flagged, else 7 when one could not be judged.
fn many_reports(fleet: &Fleet, format: CompareFormat) -> Result<(String, i32), Failure> {
    let code = match fleet.verdict() {
        Verdict::Flagged => exit_code::OUTLIER,
        Verdict::Unjudged => exit_code::NO_VERDICT,
        Verdict::Healthy => exit_code::SUCCESS,
    };
    let one_model = fleet.groups.len() == 1;
    let text = match (format, fleet.groups.first()) {
        (CompareFormat::Html, Some(group)) if one_model => {
            node_html(&group.summary, &|r| group.describe(r))
        }
        (CompareFormat::Html, _) => fleet_html(fleet),
        // Markdown and JSON were refused before.
        (_, Some(group)) if one_model => {
            let note = if group.mixed_software() {
                "Note: these reports differ in API version, driver or perftest version (shown \
                 beside each); a deviation may come from that difference.\n"
            } else {
                ""
            };
            Ok(note.to_string() + &outliers::render(&group.summary, &|r| group.describe(r)))
        }
        _ => Ok(fleet::render(fleet)),
    }
    .map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    if code == exit_code::NO_VERDICT {
        perftest_cli::stderr_line!(
            "perftest: no verdict: some reports could not be judged by the outlier rule (NOT \
             JUDGED in the summary)"
        );
    }
    Ok((text, code))
}

/// `report` with only the cases of perftest's catalog, the only ones the cross-GPU comparison
/// reads: each report kept for it then holds at most one entry per catalog case, whatever
/// its file held.
fn keep_catalog_cases(mut report: Report) -> Report {
    report
        .cases
        .retain(|c| perftest_cases::case_for_id(&c.id).is_some());
    report.cases.shrink_to_fit();
    report
}

/// Markdown and JSON are formats of the cross-GPU comparison only.
fn refuse_cross_only_format(format: CompareFormat) -> Result<(), Failure> {
    if matches!(format, CompareFormat::Markdown | CompareFormat::Json) {
        return Err(Failure::new(
            exit_code::USAGE,
            "--format markdown and json compare three or more reports each of another GPU, \
             API or tool; two reports, or a fleet (two or more reports of one GPU model among \
             them), take text or html",
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
        CompareFormat::Text => cross_gpu::render(&cross),
        CompareFormat::Html => {
            cross_html(&cross).map_err(|e| Failure::new(exit_code::FAILURE, e))?
        }
        CompareFormat::Markdown => cross_gpu::markdown(&cross),
        CompareFormat::Json => {
            cross_gpu::json(&cross).map_err(|e| Failure::new(exit_code::FAILURE, e))?
        }
    };
    Ok((text, exit_code::SUCCESS))
}
