//! What perftest prints besides results: progress, exit codes, and text made safe to print.

pub mod exit_code;
pub mod printable;
pub mod progress;
