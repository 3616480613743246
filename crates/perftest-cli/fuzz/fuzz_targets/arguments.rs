//! The command line: any arguments (the input split at zero bytes) parse into options or give
//! perftest's usage error, never a panic.
#![no_main]

use std::ffi::OsString;

use clap::Parser;
use libfuzzer_sys::fuzz_target;
use perftest_cli::cli::{normalize_args, parse_size, usage_error_text, Cli};
use perftest_cli::options::Options;

fuzz_target!(|data: &[u8]| {
    let args: Vec<OsString> = std::iter::once(OsString::from("perftest"))
        .chain(data.split(|&b| b == 0).map(os_string))
        .collect();
    match Cli::try_parse_from(normalize_args(args)) {
        Ok(cli) => {
            if cli.command.is_none() {
                let _ = Options::from_args(&cli.run);
            }
        }
        Err(error) => {
            let text = usage_error_text(&error.render().to_string());
            assert!(text.starts_with("perftest: "), "{text}");
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_size(text);
    }
});

/// The bytes as an argument: raw on Unix, where arguments are bytes; lossily elsewhere.
fn os_string(bytes: &[u8]) -> OsString {
    #[cfg(unix)]
    {
        <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(bytes).to_os_string()
    }
    #[cfg(not(unix))]
    {
        OsString::from(String::from_utf8_lossy(bytes).into_owned())
    }
}
