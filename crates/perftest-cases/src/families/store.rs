//! `store`: stores of 4, 8 or 16 bytes into a target buffer (modern suite,
//! `shaders/store.comp`, one SPIR-V per path and element size).
//!
//! Three paths: `RWStructuredBuffer<uint|uint2|uint4>` (a storage buffer of typed elements),
//! `RWByteAddressBuffer.Store/Store2/Store4` (a storage buffer of words: the byte address
//! `e * B` OR-ed with the runtime mask, then `B / 4` consecutive word stores) and
//! `BDA<uint|uint2|uint4>` (a buffer reference aligned to `B` bytes at the target's device
//! address). Element `e` of `B` bytes receives the words `modern_word(e * B / 4 + k)`, which
//! depend only on the address, so stores that collide leave the same bytes whatever their
//! order.
//!
//! Thread `g = group * 256 + local` does `S` stores (32 over 64 MB, 256 over the smaller sets);
//! store `i` goes to element
//! - linear: `(group * 256 * S + i * 256 + local) & (N - 1)` (a workgroup writes one
//!   contiguous block; `N = W / B` elements),
//! - sparse: one element per 64-byte line, line `(group * 256 * S + i * 256 + local) &
//!   (W / 64 - 1)`, element `line * 64 / B`,
//! - random: `lowbias32(g * S + i) & (N - 1)`, spread over the whole working set.
//!
//! The stores are the kernel's only effect (nothing goes to the output buffer). Verification
//! clears the target, runs 4 workgroups and reads back the whole target: every element those
//! 1024 threads wrote must hold its words and every other byte must still be zero.
//!
//! Params: `width` = words per element (`B / 4`), `variant` = path ([`Path`]), `working_set`
//! = `W`, `count` = `S`.

use crate::case::{Case, Params, Pattern};
use crate::check::{Readback, VerifyOutcome};
use crate::data::{mix32, modern_word};
use crate::family::{Family, FamilyRef, Unit, Work};
use crate::feature::Feature;
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The store family.
pub struct Store;

/// How a store case reaches its target buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Path {
    /// `RWStructuredBuffer<T>`: a storage buffer of typed elements.
    Structured,
    /// `RWByteAddressBuffer.Store*`: a storage buffer of words.
    Raw,
    /// A buffer device address.
    Bda,
}

impl Path {
    /// Every path, in case order.
    pub const ALL: [Path; 3] = [Path::Structured, Path::Raw, Path::Bda];

    /// The id word (`structured`, `raw`, `bda`).
    pub fn word(self) -> &'static str {
        match self {
            Path::Structured => "structured",
            Path::Raw => "raw",
            Path::Bda => "bda",
        }
    }

    fn variant(self) -> u32 {
        match self {
            Path::Structured => 0,
            Path::Raw => 1,
            Path::Bda => 2,
        }
    }
}

/// The path of a store case.
pub fn path(case: &Case) -> Path {
    match case.params.variant {
        1 => Path::Raw,
        2 => Path::Bda,
        _ => Path::Structured,
    }
}

/// Bytes of one stored element of `case` (4, 8 or 16).
pub fn element_bytes(case: &Case) -> u32 {
    4 * case.params.width
}

/// The HLSL-ish type name of `words` 32-bit words (`uint`, `uint2`, `uint4`).
fn type_name(words: u32) -> String {
    match words {
        1 => "uint".to_string(),
        n => format!("uint{n}"),
    }
}

/// The size as ids and names spell it: (`64mb`, `64MB`).
fn size_words(bytes: u64) -> (String, String) {
    if bytes >= 1 << 20 {
        let mb = bytes >> 20;
        (format!("{mb}mb"), format!("{mb}MB"))
    } else {
        let kb = bytes >> 10;
        (format!("{kb}kb"), format!("{kb}KB"))
    }
}

fn case(path: Path, words: u32, bytes: u64, stores: u32, pattern: Pattern) -> Case {
    let ty = type_name(words);
    let (size_id, size_name) = size_words(bytes);
    let op = match path {
        Path::Structured => format!("RWStructuredBuffer<{ty}>.Store"),
        Path::Raw if words == 1 => "RWByteAddressBuffer.Store".to_string(),
        Path::Raw => format!("RWByteAddressBuffer.Store{words}"),
        Path::Bda => format!("BDA<{ty}>.Store"),
    };
    Case {
        id: format!(
            "modern.store.{size_id}.{}.{ty}.{}",
            path.word(),
            pattern.name()
        ),
        name: format!("{op} {size_name} {}", pattern.name()),
        suite: Suite::Modern,
        family: FamilyRef(&Store),
        params: Params {
            origin: None,
            format: None,
            width: words,
            variant: path.variant(),
            working_set: bytes,
            count: stores,
        },
        pattern,
    }
}

/// The large working set: 64 MB, 32 stores per thread.
const LARGE: u64 = 64 << 20;

/// Stores per thread over the large working set.
const LARGE_STORES: u32 = 32;

/// Stores per thread over the smaller working sets.
const SMALL_STORES: u32 = 256;

impl Family for Store {
    fn label(&self) -> &'static str {
        "store"
    }

    fn title(&self) -> &'static str {
        "Stores"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for pattern in [Pattern::Linear, Pattern::Sparse, Pattern::Random] {
            for path in Path::ALL {
                for words in [1, 2, 4] {
                    cases.push(case(path, words, LARGE, LARGE_STORES, pattern));
                }
            }
        }
        for bytes in [4 << 20, 256 << 10, 16 << 10] {
            for pattern in [Pattern::Linear, Pattern::Random] {
                for path in [Path::Structured, Path::Raw] {
                    cases.push(case(path, 4, bytes, SMALL_STORES, pattern));
                }
            }
        }
        cases
    }

    fn loop_trip(&self) -> u32 {
        LARGE_STORES
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        element_bytes(case)
    }

    fn work(&self, case: &Case) -> Work {
        Work {
            unit: Unit::Store,
            per_thread: case.params.count,
        }
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let bytes = case.params.working_set;
        match path(case) {
            Path::Bda => vec![
                DeviceNeed::Feature(Feature::BufferDeviceAddress),
                DeviceNeed::DeviceMemory(bytes),
            ],
            Path::Structured | Path::Raw => vec![
                DeviceNeed::StorageBufferRange(bytes),
                DeviceNeed::DeviceMemory(bytes),
            ],
        }
    }

    /// Stores per thread, the element mask and the 64-byte line mask.
    fn constants(&self, case: &Case) -> [u32; 3] {
        let w = case.params.working_set;
        let elements = w / u64::from(element_bytes(case));
        [
            case.params.count,
            elements.saturating_sub(1) as u32,
            (w / 64).saturating_sub(1) as u32,
        ]
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        verify_stores(case, readback)
    }
}

/// The element store `i` of the thread at `local` in workgroup `group` writes (the kernel's
/// addressing; `g = group * 256 + local`).
pub fn element(case: &Case, group: u32, local: u32, i: u32) -> u32 {
    let stores = case.params.count;
    let w = case.params.working_set;
    let bytes = element_bytes(case);
    let mask = (w / u64::from(bytes)).saturating_sub(1) as u32;
    let threads = case.threads();
    let linear = group
        .wrapping_mul(threads)
        .wrapping_mul(stores)
        .wrapping_add(i.wrapping_mul(threads))
        .wrapping_add(local);
    match case.pattern {
        Pattern::Linear => linear & mask,
        Pattern::Sparse => (linear & (w / 64).saturating_sub(1) as u32) * (64 / bytes),
        _ => {
            let g = group.wrapping_mul(threads).wrapping_add(local);
            mix32(g.wrapping_mul(stores).wrapping_add(i)) & mask
        }
    }
}

/// Which elements the 1024 verification threads of `case` write (one flag per element).
pub fn written_elements(case: &Case) -> Vec<bool> {
    let elements = case.params.working_set / u64::from(element_bytes(case));
    let mut hit = vec![false; elements as usize];
    let threads = case.threads();
    for t in 0..case.verify_threads() {
        let (group, local) = (t / threads, t % threads);
        for i in 0..case.params.count {
            if let Some(h) = hit.get_mut(element(case, group, local, i) as usize) {
                *h = true;
            }
        }
    }
    hit
}

/// Checks the whole target: written elements hold their words, every other byte is zero.
fn verify_stores(case: &Case, readback: &Readback) -> VerifyOutcome {
    let w = case.params.working_set as usize;
    if readback.written.len() != w {
        return VerifyOutcome::unusable(format!(
            "read back {} bytes of the {w}-byte target",
            readback.written.len()
        ));
    }
    let bytes = element_bytes(case) as usize;
    let words = bytes / 4;
    let hit = written_elements(case);
    let want = |e: usize, k: usize, written: bool| {
        if written {
            modern_word((e * words + k) as u32)
        } else {
            0
        }
    };
    let got = |chunk: &[u8], k: usize| {
        u32::from_le_bytes([
            chunk[4 * k],
            chunk[4 * k + 1],
            chunk[4 * k + 2],
            chunk[4 * k + 3],
        ])
    };
    let mut outcome = VerifyOutcome::new();
    for (e, (chunk, &written)) in readback.written.chunks_exact(bytes).zip(&hit).enumerate() {
        let ok = if written {
            (0..words).all(|k| got(chunk, k) == want(e, k, true))
        } else {
            chunk.iter().all(|&b| b == 0)
        };
        outcome.record(ok, || {
            let want: Vec<u32> = (0..words).map(|k| want(e, k, written)).collect();
            let got: Vec<u32> = (0..words).map(|k| got(chunk, k)).collect();
            format!(
                "element {e} (byte {}): expected {want:08x?}, got {got:08x?}",
                e * bytes
            )
        });
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn find(id: &str) -> Case {
        Store
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("no case {id}"))
    }

    #[test]
    fn thirty_nine_cases_with_the_documented_ids_and_names() {
        let cases = Store.cases();
        assert_eq!(cases.len(), 39);
        let ids: HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), 39);
        assert_eq!(cases.iter().filter(|c| c.params.count == 32).count(), 27);
        let c = find("modern.store.64mb.structured.uint4.linear");
        assert_eq!(c.name, "RWStructuredBuffer<uint4>.Store 64MB linear");
        assert_eq!(
            find("modern.store.64mb.raw.uint2.sparse").name,
            "RWByteAddressBuffer.Store2 64MB sparse"
        );
        assert_eq!(
            find("modern.store.64mb.raw.uint.linear").name,
            "RWByteAddressBuffer.Store 64MB linear"
        );
        assert_eq!(
            find("modern.store.64mb.bda.uint2.random").name,
            "BDA<uint2>.Store 64MB random"
        );
        let small = find("modern.store.16kb.raw.uint4.random");
        assert_eq!(small.name, "RWByteAddressBuffer.Store4 16KB random");
        assert_eq!(small.params.count, 256);
        assert_eq!(small.work().per_thread, 256);
        assert_eq!(small.work().unit, Unit::Store);
        assert!(ids.contains("modern.store.4mb.structured.uint4.linear"));
        assert!(ids.contains("modern.store.256kb.raw.uint4.random"));
        assert!(cases.iter().all(|c| c.suite == Suite::Modern));
    }

    #[test]
    fn needs_and_constants() {
        let bda = find("modern.store.64mb.bda.uint.linear");
        assert_eq!(
            bda.needs(),
            vec![
                DeviceNeed::Feature(Feature::BufferDeviceAddress),
                DeviceNeed::DeviceMemory(64 << 20)
            ]
        );
        assert_eq!(bda.bytes_per_load(), 4);
        assert_eq!(Store.constants(&bda), [32, (16 << 20) - 1, (1 << 20) - 1]);
        let raw = find("modern.store.256kb.raw.uint4.linear");
        assert_eq!(raw.needs()[0], DeviceNeed::StorageBufferRange(256 << 10));
        assert_eq!(Store.constants(&raw), [256, (16 << 10) - 1, 4095]);
        assert_eq!(raw.bytes_per_load(), 16);
    }

    #[test]
    fn linear_blocks_sparse_lines_and_random_spread() {
        let linear = find("modern.store.64mb.structured.uint.linear");
        assert_eq!(element(&linear, 0, 5, 0), 5);
        assert_eq!(element(&linear, 0, 5, 1), 261);
        assert_eq!(element(&linear, 1, 0, 0), 256 * 32);
        let sparse = find("modern.store.64mb.structured.uint2.sparse");
        assert_eq!(element(&sparse, 0, 3, 0), 3 * 8);
        assert_eq!(element(&sparse, 0, 0, 1), 256 * 8);
        // The verification threads write 32K distinct lines, one element each.
        let hit = written_elements(&sparse);
        assert_eq!(hit.iter().filter(|&&h| h).count(), 32 * 1024);
        assert!(hit.iter().enumerate().all(|(e, &h)| !h || e % 8 == 0));
        // Random stores over 16M elements: nearly all distinct, spread over the whole set.
        let random = find("modern.store.64mb.bda.uint.random");
        let hit = written_elements(&random);
        assert!(hit.iter().filter(|&&h| h).count() > 32_000);
        assert!(hit[(8 << 20)..].iter().any(|&h| h));
        // 16 KB of uint4 is 1024 elements: 256K random stores cover them all.
        let small = find("modern.store.16kb.structured.uint4.random");
        assert!(written_elements(&small).iter().all(|&h| h));
    }

    fn model_target(case: &Case) -> Vec<u8> {
        let words = case.params.width as usize;
        let hit = written_elements(case);
        let mut out = vec![0u8; case.params.working_set as usize];
        for (e, &h) in hit.iter().enumerate() {
            if h {
                for k in 0..words {
                    let at = 4 * (e * words + k);
                    out[at..at + 4]
                        .copy_from_slice(&modern_word((e * words + k) as u32).to_le_bytes());
                }
            }
        }
        out
    }

    #[test]
    fn the_model_passes_and_stray_or_missing_bytes_fail() {
        let case = find("modern.store.4mb.raw.uint4.random");
        let good = Readback {
            sums: Vec::new(),
            written: model_target(&case),
        };
        let outcome = Store.verify(&case, &good);
        assert!(outcome.passed(), "{:?}", outcome.first);
        assert_eq!(outcome.checked, 256 << 10);
        let mut bad = good.clone();
        let stray = written_elements(&case).iter().position(|&h| !h).unwrap();
        bad.written[stray * 16 + 5] = 1;
        bad.written[7] ^= 0x10;
        let outcome = Store.verify(&case, &bad);
        assert_eq!(outcome.mismatches, 2);
        assert!(outcome.first.unwrap().starts_with("element 0 (byte 0)"));
        let short = Readback {
            sums: Vec::new(),
            written: vec![0; 16],
        };
        assert!(!Store.verify(&case, &short).passed());
    }
}
