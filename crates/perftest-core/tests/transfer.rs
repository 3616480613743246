//! The transfer suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use common::{check_suite, Share};
use perftest_cases::Suite;
use perftest_core::{Instance, InstanceOptions};

/// Cases lavapipe cannot run, as (id substring, reason substring): the test fails when a case
/// is skipped for another reason, or when a listed skip no longer happens. Lavapipe's one
/// memory type is device-local, host-visible, coherent and cached, so it has no uncached host
/// memory; it binds at most 128 MB of storage buffer, so the 256 MB sets are skipped; it has one
/// queue family (no transfer-only queue); and its 2 GB heap is under four times 1 GB.
const EXPECTED_SKIPS: &[(&str, &str)] = &[
    ("xfer.memload.host.", "no host uncached memory type"),
    ("xfer.memload.device.256mb.", "maxStorageBufferRange"),
    ("xfer.memload.bar.256mb.", "maxStorageBufferRange"),
    ("xfer.memload.cached.256mb.", "maxStorageBufferRange"),
    ("xfer.copy.upload.transfer_queue.", "no transfer-only queue"),
    (
        "xfer.copy.readback.transfer_queue.",
        "no transfer-only queue",
    ),
    (".1gb", "device-local heap"),
];

/// Skipped under a validation layer older than 1.3.296, which deadlocks when one thread
/// signals a timeline semaphore on the host while another waits for it there.
const OLD_LAYER_SKIP: (&str, &str) = ("xfer.launch.host_signal", "deadlocks");

/// Verifies one of two interleaved shares of the suite (one test each, so the harness's
/// threads verify them side by side).
fn check_share(index: usize) {
    let validated = InstanceOptions {
        validation: true,
        ..Default::default()
    };
    let layer = Instance::new(&validated).expect("validated instance");
    let mut skips = EXPECTED_SKIPS.to_vec();
    if !layer.host_timeline_threads() {
        skips.push(OLD_LAYER_SKIP);
    }
    drop(layer);
    check_suite(Suite::Transfer, Share { index, of: 2 }, &skips, |_, _| {});
}

#[test]
fn every_transfer_case_verifies_or_is_skipped_as_expected_share_0() {
    check_share(0);
}

#[test]
fn every_transfer_case_verifies_or_is_skipped_as_expected_share_1() {
    check_share(1);
}
