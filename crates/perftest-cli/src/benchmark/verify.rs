//! `perftest --verify`: every selected case against its CPU model, one line per case.

use perftest_cases::{verify, Case, Support};
use perftest_core::{Bench, Error, VerifyOutcome};

use crate::benchmark::timer::is_fatal;

/// The verdict on one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every thread matched.
    Pass {
        /// Values compared (thread lanes, buffer elements or counters).
        checked: usize,
    },
    /// At least one thread did not match.
    Fail(String),
    /// The device cannot run the case.
    Skip(String),
    /// The case could not run (Vulkan error).
    Error {
        /// What went wrong.
        message: String,
        /// The device cannot be trusted any more (lost, or a submission hung): stop.
        fatal: bool,
    },
}

/// Describes the first mismatch of a failed check.
pub fn describe_failure(outcome: &VerifyOutcome) -> String {
    match &outcome.first {
        Some(first) => format!(
            "verification failed: {first} ({} of {} values differ)",
            outcome.mismatches, outcome.checked
        ),
        None => "verification failed: nothing was compared".to_string(),
    }
}

/// Verifies one case.
pub fn verify_case(bench: &mut Bench, case: &Case) -> Verdict {
    if let Support::Skipped(reason) = bench.support(case) {
        return Verdict::Skip(reason);
    }
    let readback = bench.prepare(case).and_then(|k| bench.verify(k));
    match readback {
        Ok(readback) => {
            let outcome = verify(case, &readback);
            if outcome.passed() {
                Verdict::Pass {
                    checked: outcome.checked,
                }
            } else {
                Verdict::Fail(describe_failure(&outcome))
            }
        }
        Err(Error::Unsupported { reason, .. }) => Verdict::Skip(reason),
        Err(e) => Verdict::Error {
            message: e.to_string(),
            fatal: is_fatal(&e),
        },
    }
}

/// The line printed for a verdict: `pass  ID  NAME (N threads)` and so on.
pub fn verdict_line(case: &Case, verdict: &Verdict) -> String {
    match verdict {
        Verdict::Pass { checked } => {
            format!("pass  {:<40} {} ({checked} values)", case.id, case.name)
        }
        Verdict::Fail(why) => format!("FAIL  {:<40} {}: {why}", case.id, case.name),
        Verdict::Skip(why) => format!("skip  {:<40} {}: skipped ({why})", case.id, case.name),
        Verdict::Error { message, .. } => {
            format!("ERROR {:<40} {}: {message}", case.id, case.name)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_the_case_and_the_mismatch() {
        let case = perftest_cases::original_cases().remove(0);
        let outcome = VerifyOutcome {
            checked: 1024,
            mismatches: 3,
            first: Some("group 1 thread 7 lane 2: expected 1.5, got 2".into()),
        };
        let line = verdict_line(&case, &Verdict::Fail(describe_failure(&outcome)));
        assert!(line.starts_with("FAIL  typed.r8.uniform"));
        assert!(
            line.contains("group 1 thread 7 lane 2: expected 1.5, got 2 (3 of 1024 values differ)")
        );
        assert!(verdict_line(&case, &Verdict::Pass { checked: 1024 }).starts_with("pass  "));
    }
}
