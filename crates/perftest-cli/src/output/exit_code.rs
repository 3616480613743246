//! The process exit codes (documented in the book's "Exit codes" chapter, docs/src/exit-codes.md),
//! and the codes that the cases' outcomes give a run, by their failure kinds.

use crate::report::{CaseStatus, FailureKind};

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

/// The exit code a failed case of `kind` gives a timing run: a lost device or a timeout
/// (which stop the run) is a runtime failure ([`FAILURE`]), a mismatch with the CPU model is
/// [`VERIFICATION`], and a case that failed otherwise (its pipeline, another Vulkan error) is
/// reported in its row and leaves the run a [`SUCCESS`].
pub fn of_failure(kind: FailureKind) -> i32 {
    match kind {
        FailureKind::DeviceLost | FailureKind::Timeout => FAILURE,
        FailureKind::Verification => VERIFICATION,
        FailureKind::Pipeline | FailureKind::Other => SUCCESS,
    }
}

/// The exit code a `--verify` case that did not pass with a failure of `kind` gives: a lost
/// device or a timeout is a runtime failure ([`FAILURE`]); any other case that did not pass,
/// a mismatch or a case that could not be built or run, was not verified ([`VERIFICATION`]).
pub fn of_unverified(kind: FailureKind) -> i32 {
    match of_failure(kind) {
        FAILURE => FAILURE,
        _ => VERIFICATION,
    }
}

/// The exit code of a timing run's case outcomes (see [`of_failure`]): the worst of its
/// failures' codes ([`worse`]), [`SUCCESS`] when none failed. Skipped and not reached cases
/// give none.
pub fn of_outcomes<'a>(statuses: impl IntoIterator<Item = &'a CaseStatus>) -> i32 {
    statuses
        .into_iter()
        .filter_map(|status| match status {
            CaseStatus::Failed { kind, .. } => Some(of_failure(*kind)),
            _ => None,
        })
        .fold(SUCCESS, worse)
}

/// The exit code that wins when several outcomes (or devices) end differently: a failure,
/// then a stop signal, then a verification mismatch, then an outlier, then success.
pub fn worse(a: i32, b: i32) -> i32 {
    let rank = |c: i32| match c {
        SUCCESS => 0,
        OUTLIER => 1,
        VERIFICATION => 2,
        VALIDATION => 3,
        c if c > 128 => 4,
        USAGE => 5,
        _ => 6,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: [FailureKind; 5] = [
        FailureKind::Verification,
        FailureKind::DeviceLost,
        FailureKind::Timeout,
        FailureKind::Pipeline,
        FailureKind::Other,
    ];

    #[test]
    fn each_failure_kind_has_its_code() {
        assert_eq!(KINDS.map(of_failure), [4, 1, 1, 0, 0]);
        // `--verify`: a case that could not run was not verified either.
        assert_eq!(KINDS.map(of_unverified), [4, 1, 1, 4, 4]);
    }

    #[test]
    fn a_run_ends_with_its_worst_outcome() {
        let failed = |kind| CaseStatus::Failed {
            kind,
            reason: "why".to_string(),
        };
        let skipped = CaseStatus::Skipped {
            reason: "no R8".to_string(),
        };
        let quiet = [CaseStatus::Measured, skipped, CaseStatus::NotReached];
        assert_eq!(of_outcomes(&quiet), SUCCESS);
        let pipeline = [CaseStatus::Measured, failed(FailureKind::Pipeline)];
        assert_eq!(of_outcomes(&pipeline), SUCCESS);
        let mismatch = [
            failed(FailureKind::Pipeline),
            failed(FailureKind::Verification),
        ];
        assert_eq!(of_outcomes(&mismatch), VERIFICATION);
        let lost = [
            failed(FailureKind::Verification),
            failed(FailureKind::DeviceLost),
        ];
        assert_eq!(of_outcomes(&lost), FAILURE);
    }

    #[test]
    fn the_worse_code_wins_in_either_order() {
        for (a, b) in [(0, 6), (6, 4), (4, 3), (3, 130), (130, 2), (2, 1)] {
            assert_eq!((worse(a, b), worse(b, a)), (b, b));
        }
    }
}
