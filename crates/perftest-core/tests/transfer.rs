//! The transfer suite on lavapipe, with the Khronos validation layer on: every case passes
//! verification against its CPU model or is skipped for a reason listed here, and a result
//! changed by one bit fails (the checker can fail). Any validation message fails the test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use crate::common;

use common::every_case_verifies;
use perftest_cases::Suite;

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

// One test per family: `every_case_verifies::memory_loads` and so on. (Under a validation
// layer older than 1.3.296 the host-signal launch is skipped too: see `common::check_family`.)
every_case_verifies!(Suite::Transfer, EXPECTED_SKIPS, |_, _| {};
    memory_loads, copies, launches);
