//! What the suite tests on lavapipe share: a validated lavapipe bench, and the check that every
//! case of a suite verifies (or is skipped for an expected reason) and that a result changed
//! by one bit fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)] // test code

use std::sync::Arc;

use perftest_cases::{cases_in, verify, Case, Readback, Suite, Support};
use perftest_core::{
    compute_targets, select, Bench, Context, DeviceChoice, Error, Instance, InstanceOptions,
};

/// A bench on lavapipe, with the validation layer on.
pub fn bench() -> (Arc<Instance>, Bench) {
    bench_with(InstanceOptions {
        validation: true,
        ..Default::default()
    })
}

/// A bench on lavapipe, with the validation layer on and synchronization validation too.
pub fn synchronized_bench() -> (Arc<Instance>, Bench) {
    bench_with(InstanceOptions {
        validation: true,
        synchronization_validation: true,
        ..Default::default()
    })
}

/// A bench on lavapipe through an instance made with `options`.
pub fn bench_with(options: InstanceOptions) -> (Arc<Instance>, Bench) {
    let instance = Arc::new(Instance::new(&options).expect("validated instance"));
    let targets = compute_targets(instance.handle(), instance.api_version()).unwrap();
    let summaries: Vec<_> = targets.iter().map(|t| t.summary.clone()).collect();
    let choice = DeviceChoice {
        index: None,
        name: Some("llvmpipe".into()),
    };
    let i = select(&summaries, &choice).expect("lavapipe (llvmpipe) must be installed");
    let bench = Bench::new(Context::new(instance.clone(), &targets[i]).unwrap()).unwrap();
    (instance, bench)
}

/// `readback` with one bit of its first result word flipped (the result buffer where the
/// family has one, else the first thread's first lane). In a lane the bit is the top mantissa
/// bit: a change of a quarter to a half of the value, which integer results (compared
/// exactly) and float sums (compared within a tolerance) must both reject.
pub fn corrupted(readback: &Readback) -> Readback {
    let mut bad = readback.clone();
    if let Some(byte) = bad.written.first_mut() {
        *byte ^= 1;
    } else if let Some(first) = bad.sums.first_mut() {
        first[0] = f32::from_bits(first[0].to_bits() ^ (1 << 22));
    }
    bad
}

/// One of `of` interleaved shares of a suite's cases (the cases whose index modulo `of` is
/// `index`): a suite split into shares verifies on several CPU threads, since lavapipe
/// compiles each pipeline on the thread that first dispatches it.
#[derive(Clone, Copy, Debug)]
pub struct Share {
    /// Which share, from 0.
    pub index: usize,
    /// How many shares.
    pub of: usize,
}

impl Share {
    /// Whether the case at `position` in its suite belongs to this share.
    fn holds(self, position: usize) -> bool {
        position % self.of == self.index
    }
}

/// Verifies one share of the cases of `suite` on lavapipe: each passes and fails once
/// corrupted, or is skipped for a reason in `expected_skips` (id substring, reason substring),
/// every listed skip matching a case of the share happens, and the validation layer reports
/// nothing. `inspect` sees every passing case's read-back (to print figures).
pub fn check_suite(
    suite: Suite,
    share: Share,
    expected_skips: &[(&str, &str)],
    mut inspect: impl FnMut(&Case, &Readback),
) {
    let (instance, mut bench) = bench();
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let cases: Vec<Case> = cases_in(&[suite])
        .into_iter()
        .enumerate()
        .filter(|&(position, _)| share.holds(position))
        .map(|(_, case)| case)
        .collect();
    assert!(
        !cases.is_empty(),
        "{share:?} of the {suite} suite has no cases"
    );
    for case in &cases {
        if let Support::Skipped(reason) = bench.support(case) {
            skipped.push((case.id.clone(), reason));
            continue;
        }
        let readback = match bench.prepare(case).and_then(|k| bench.verify(k)) {
            Ok(r) => r,
            Err(Error::Unsupported { reason, .. }) => {
                skipped.push((case.id.clone(), reason));
                continue;
            }
            Err(e) => {
                failures.push(format!("{}: {e}", case.id));
                continue;
            }
        };
        let outcome = verify(case, &readback);
        if !outcome.passed() {
            failures.push(format!("{}: {:?}", case.id, outcome.first));
        } else if verify(case, &corrupted(&readback)).passed() {
            failures.push(format!("{}: a one-bit change still passed", case.id));
        } else {
            inspect(case, &readback);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} {suite} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    for (id, reason) in &skipped {
        assert!(
            expected_skips
                .iter()
                .any(|(i, r)| id.contains(i) && reason.contains(r)),
            "unexpected skip of {id}: {reason}"
        );
    }
    for (i, r) in expected_skips {
        if !cases.iter().any(|case| case.id.contains(i)) {
            continue;
        }
        assert!(
            skipped
                .iter()
                .any(|(id, reason)| id.contains(i) && reason.contains(r)),
            "expected lavapipe to skip a case matching {i} ({r}); none was"
        );
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}
