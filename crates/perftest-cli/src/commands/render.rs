//! `perftest render REPORT`: a saved report printed again in another format.

use std::path::Path;

use perftest_cli::export::{exporter, ExportFormat, OutputTarget};
use perftest_cli::output::exit_code;
use perftest_cli::report_file::load_report;

use super::{output_failure, print_stdout, refuse_input_as_output, Failure};

pub(crate) fn run_render(
    report: &Path,
    format: ExportFormat,
    output: Option<&Path>,
) -> Result<i32, Failure> {
    // The output is checked first: a wrong path is reported before the report is read.
    refuse_input_as_output(output, &[report])?;
    let target = output
        .map(OutputTarget::check)
        .transpose()
        .map_err(output_failure)?;
    let report = load_report(report).map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    let bytes = exporter(format)
        .serialize(&report)
        .map_err(|e| Failure::new(exit_code::FAILURE, e))?;
    match target {
        Some(target) => target
            .write(&bytes)
            .map_err(|e| Failure::new(exit_code::FAILURE, e))?,
        None => print_stdout(&String::from_utf8_lossy(&bytes))?,
    }
    Ok(exit_code::SUCCESS)
}
