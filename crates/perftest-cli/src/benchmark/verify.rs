//! `perftest --verify`: every selected case against its CPU model, one line per case.

use perftest_cases::{verify, Case, Support};
use perftest_core::{Bench, Error, KernelId, VerifyOutcome};

use crate::report::FailureKind;

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
        /// Its kind; one that stops the run (a lost device, a hung submission) means the
        /// device cannot be trusted any more.
        kind: FailureKind,
    },
}

impl Verdict {
    /// The kind of failure of a case that did not pass: a mismatch is a verification
    /// failure, an error the error's kind; `None` for a pass or a skip.
    pub fn failure_kind(&self) -> Option<FailureKind> {
        match self {
            Verdict::Pass { .. } | Verdict::Skip(_) => None,
            Verdict::Fail(_) => Some(FailureKind::Verification),
            Verdict::Error { kind, .. } => Some(*kind),
        }
    }
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

/// Describes the first mismatch of a failed check of the data at byte `at` of its buffer,
/// for a case whose data has several places (see [`readbacks`]).
pub fn describe_failure_at(at: Option<u64>, outcome: &VerifyOutcome) -> String {
    match at {
        Some(offset) => format!(
            "with its data at byte {offset} of its buffer: {}",
            describe_failure(outcome)
        ),
        None => describe_failure(outcome),
    }
}

/// Verifies one case (where its data has several places, at every one).
pub fn verify_case(bench: &mut Bench, case: &Case) -> Verdict {
    if let Support::Skipped(reason) = bench.support(case) {
        return Verdict::Skip(reason);
    }
    let readbacks = bench.prepare(case).and_then(|k| readbacks(bench, k));
    match readbacks {
        Ok(readbacks) => {
            let mut checked = 0;
            for (at, readback) in &readbacks {
                let outcome = verify(case, readback);
                if !outcome.passed() {
                    return Verdict::Fail(describe_failure_at(*at, &outcome));
                }
                checked += outcome.checked;
            }
            Verdict::Pass { checked }
        }
        Err(Error::Unsupported { reason, .. }) => Verdict::Skip(reason),
        Err(e) => Verdict::Error {
            message: e.to_string(),
            kind: e.failure_kind(),
        },
    }
}

/// What `kernel`'s verification dispatch left behind; for a case whose data has several
/// places, at each of them (with the place's byte offset), the data put back at the first.
pub fn readbacks(
    bench: &mut Bench,
    kernel: KernelId,
) -> Result<Vec<(Option<u64>, perftest_cases::Readback)>, Error> {
    let offsets = bench.data_places(kernel)?;
    if offsets.len() < 2 {
        return Ok(vec![(None, bench.verify(kernel)?)]);
    }
    let mut all = Vec::with_capacity(offsets.len());
    for (place, &offset) in offsets.iter().enumerate() {
        bench.put_data(kernel, place)?;
        all.push((Some(offset), bench.verify(kernel)?));
    }
    bench.put_data(kernel, 0)?;
    Ok(all)
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
