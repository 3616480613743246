//! The integration tests of the `perftest` binary and the CLI library, one module per topic, in
//! one test binary: the workspace is linked once for them all, and `cargo test -p perftest-cli
//! TOPIC::` runs one topic.

mod common;

mod cache_book;
mod cli_compare;
mod cli_failures;
mod cli_output_files;
mod cli_runs;
mod cli_signals;
mod cli_suites;
mod cli_usage;
mod clock;
mod cross;
mod findings;
mod gallery;
mod html_browser;
mod modern_mapping;
mod probe_report;
mod published;
mod reliability;
mod units;
mod validation_suite;
