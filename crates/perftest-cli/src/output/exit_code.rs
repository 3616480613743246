//! The process exit codes (documented in the book's "Exit codes" chapter, docs/src/exit-codes.md).

/// Success.
pub const SUCCESS: i32 = 0;
/// A runtime failure: no Vulkan loader or driver, a Vulkan error, a lost or hung device, an
/// unreadable report, an output file that cannot be written.
pub const FAILURE: i32 = 1;
/// A usage error: unknown option, value out of range, no such device or case, an output path
/// that cannot name a file (a directory, a missing directory).
pub const USAGE: i32 = 2;
/// `--validation` and the validation layer reported at least one warning or error.
pub const VALIDATION: i32 = 3;
/// A case did not match its CPU model (`--verify`, or the check before timing).
pub const VERIFICATION: i32 = 4;
/// `perftest compare --fail-above`/`--fail-median`: B got slower than the allowed change.
pub const REGRESSION: i32 = 5;
/// Interrupted by Ctrl-C (SIGINT); what was measured so far was still printed and written.
/// SIGTERM and SIGHUP stop a run the same way with 143 and 129 (128 + the signal's number).
pub const INTERRUPTED: i32 = 130;
/// `--all-devices`, or `compare` of three or more reports: a device or report was flagged as an
/// outlier (more than 2% and 5 median absolute deviations from the median on some case).
pub const OUTLIER: i32 = 6;
/// `perftest compare`: nothing was judged where a verdict was asked for. A gate
/// (`--fail-above`/`--fail-median`) that compared too little of A, or three or more reports
/// of which some could not be judged by the outlier rule (too few reports of their GPU model),
/// while none was flagged. Neither healthy nor slow: a health check must not drain on it.
pub const NO_VERDICT: i32 = 7;
