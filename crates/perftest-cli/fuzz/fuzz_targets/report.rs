//! A saved report, as `perftest render` and `perftest compare` read it: any bytes must give a
//! report or a one-line error, never a panic; every report read renders in every format, and
//! what perftest writes as JSON it reads back unchanged.
#![no_main]

use std::path::Path;

use clap::ValueEnum;
use libfuzzer_sys::fuzz_target;
use perftest_cli::export::{exporter, ExportFormat};
use perftest_cli::report_file::parse_report;

fuzz_target!(|data: &[u8]| {
    let Ok(report) = parse_report(data, Path::new("fuzz.json")) else {
        return;
    };
    for format in ExportFormat::value_variants() {
        let Ok(bytes) = exporter(*format).serialize(&report) else {
            continue;
        };
        if *format == ExportFormat::Json {
            let again = parse_report(&bytes, Path::new("written.json"))
                .expect("perftest reads back the JSON it writes");
            assert_eq!(again, report, "the JSON round trip changed the report");
        }
    }
});
