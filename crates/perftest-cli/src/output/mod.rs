//! What perftest prints besides results: progress and exit codes.

pub mod exit_code;
pub mod progress;
