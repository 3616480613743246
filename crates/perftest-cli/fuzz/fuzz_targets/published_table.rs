//! A published table (the original's text output, its 2017 and Direct3D 12 kin, perftest-vk's
//! CSV) in any encoding, as `perftest render` and `perftest compare` read it: any bytes must
//! give a report or an error that is one line of bounded length (a quoted line or cell is an
//! excerpt; UTF-16 and Latin-1 are named as encodings), never a panic; every table read
//! renders in every format.
#![no_main]

use std::path::Path;

use clap::ValueEnum;
use libfuzzer_sys::fuzz_target;
use perftest_cli::export::{exporter, ExportFormat};
use perftest_cli::report_file::parse_report;

/// The longest message a table may cause: the file name, the line number and an excerpt of
/// 60 characters, each escaped to at most 10.
const LONGEST_MESSAGE: usize = 1000;

fuzz_target!(|data: &[u8]| {
    // Not JSON: read as a table whatever the bytes hold (JSON is the `report` target's).
    if data.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        return;
    }
    let report = match parse_report(data, Path::new("fuzz.txt")) {
        Ok(report) => report,
        Err(e) => {
            let message = e.to_string();
            assert!(!message.contains('\n') && !message.contains('\r'), "{message}");
            assert!(message.len() <= LONGEST_MESSAGE, "{} bytes", message.len());
            return;
        }
    };
    for format in ExportFormat::value_variants() {
        let _ = exporter(*format).serialize(&report);
    }
});
