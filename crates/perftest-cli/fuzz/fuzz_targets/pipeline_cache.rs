//! A pipeline-cache file: the envelope and the Vulkan header must refuse any damaged bytes
//! with a reason and never panic; what is accepted is exactly what `encode` wrote.
#![no_main]

use libfuzzer_sys::fuzz_target;
use perftest_core::pipeline_cache::{decode, encode, CacheIdentity};

fuzz_target!(|data: &[u8]| {
    // The identity a header would have to match: taken from the input's own header where it
    // has one, so that the fuzzer reaches past the identity check.
    let word = |at: usize| {
        data.get(at..at + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut uuid = [0u8; 16];
    if let Some(bytes) = data.get(44..60) {
        uuid.copy_from_slice(bytes);
    }
    let identity = CacheIdentity {
        vendor_id: word(36),
        device_id: word(40),
        uuid,
    };
    if let Ok(inner) = decode(data, &identity) {
        assert_eq!(encode(inner), data, "decode accepted bytes encode would not write");
    }
});
