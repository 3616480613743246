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

/// Cases the validation layer in use cannot run, as (id substring, reason substring): a layer
/// older than 1.3.296 deadlocks when one thread signals a timeline semaphore on the host while
/// another waits for it there, so that case is skipped under it.
const OLD_LAYER_SKIP: (&str, &str) = ("xfer.launch.host_signal", "deadlocks");

/// Verifies the cases of `family` in `suite` on lavapipe: each passes and fails once
/// corrupted, or is skipped for a reason in `expected_skips` (id substring, reason substring),
/// every listed skip matching a case of the family happens, and the validation layer reports
/// nothing. `inspect` sees every passing case's read-back (to print figures). One test per
/// family (see [`every_case_verifies`]): the harness's threads verify families side by side
/// (lavapipe compiles each pipeline on the thread that first dispatches it), and a failure
/// names its family.
pub fn check_family(
    suite: Suite,
    family: &str,
    expected_skips: &[(&str, &str)],
    mut inspect: impl FnMut(&Case, &Readback),
) {
    let (instance, mut bench) = bench();
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let mut expected_skips = expected_skips.to_vec();
    if !instance.host_timeline_threads() {
        expected_skips.push(OLD_LAYER_SKIP);
    }
    let cases: Vec<Case> = cases_in(&[suite])
        .into_iter()
        .filter(|case| case.family.label() == family)
        .collect();
    assert!(
        !cases.is_empty(),
        "the {suite} suite has no case of the family {family}"
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
        "{} of {} {family} cases of the {suite} suite failed:\n{}",
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
    for &(i, r) in &expected_skips {
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

/// Checks the families listed for `suite`'s per-family tests: they are the suite's families, in
/// registry order, each once (a new family gets a test or this fails), and every listed skip
/// matches a case of the suite (a stale entry fails).
pub fn check_listed(suite: Suite, listed: &[&str], expected_skips: &[(&str, &str)]) {
    let cases = cases_in(&[suite]);
    let mut families: Vec<&str> = Vec::new();
    for case in &cases {
        let label = case.family.label();
        if !families.contains(&label) {
            families.push(label);
        }
    }
    assert_eq!(
        listed, families,
        "the {suite} suite's families, in registry order, each with its test"
    );
    for (i, r) in expected_skips {
        assert!(
            cases.iter().any(|case| case.id.contains(i)),
            "the skip of {i} ({r}) matches no case of the {suite} suite"
        );
    }
}

/// One test per family of a suite, in a module `every_case_verifies`, each named after its
/// family and running [`check_family`] with the suite, the expected skips and the inspection;
/// and `every_family_is_listed` ([`check_listed`]).
macro_rules! every_case_verifies {
    ($suite:expr, $skips:expr, $inspect:expr; $($family:ident),+ $(,)?) => {
        mod every_case_verifies {
            #[allow(unused_imports)]
            use super::*;

            $(
                #[test]
                fn $family() {
                    $crate::common::check_family(
                        $suite,
                        stringify!($family),
                        $skips,
                        $inspect,
                    );
                }
            )+

            #[test]
            fn every_family_is_listed() {
                $crate::common::check_listed($suite, &[$(stringify!($family)),+], $skips);
            }
        }
    };
}
pub(crate) use every_case_verifies;

/// The twins of family `label` in `suite` (`count` of them), each with the model of the case it
/// copies: every twin the device can run verifies, a one-bit change fails, and its read-back
/// fails against the model of the twin beside it (the other pattern, or another width); every
/// other twin is skipped with a reason naming `missing`. Either way, no validation message.
pub fn check_twins(suite: Suite, label: &str, count: usize, missing: &str) {
    let (instance, mut bench) = bench();
    let cases: Vec<Case> = cases_in(&[suite])
        .into_iter()
        .filter(|c| c.family.label() == label)
        .collect();
    assert_eq!(cases.len(), count);
    let caps = *bench.context().caps();
    let runs = |c: &Case| perftest_cases::support(c, &caps) == Support::Supported;
    for (i, case) in cases.iter().enumerate() {
        if !runs(case) {
            let support = perftest_cases::support(case, &caps);
            assert!(
                matches!(&support, Support::Skipped(r) if r.contains(missing)),
                "{}: {support:?}",
                case.id
            );
            continue;
        }
        let readback = bench
            .prepare(case)
            .and_then(|k| bench.verify(k))
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert!(verify(case, &readback).passed(), "{}", case.id);
        assert!(!verify(case, &corrupted(&readback)).passed(), "{}", case.id);
        let other = &cases[i ^ 1];
        assert!(
            !verify(other, &readback).passed(),
            "{} as {}",
            case.id,
            other.id
        );
    }
    drop(bench);
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}
