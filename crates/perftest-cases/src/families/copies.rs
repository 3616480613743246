//! Copies (transfer suite): moving data between the host and the device, 4 KB to 1 GB (16 MB
//! for the slow host methods, [`Method::max_bytes`]), every
//! way a renderer can: `vkCmdCopyBuffer` on a transfer-only queue and on the compute queue, a
//! compute shader that copies, the host writing or reading device-local memory it maps (the
//! PCIe BAR), a staging buffer plus a copy, and a copy into host-cached memory read by the
//! host.
//!
//! One "group" of a case is one transfer of its bytes (the [`Unit::Transfer`] unit), so the
//! report's time per group is the time per transfer and its bytes per second the bandwidth.
//! Copies on a queue are timed by GPU timestamps around the run's transfers, each after a
//! barrier on the previous one; what the host does (the mapped writes and reads, and the staged
//! upload and cached readback, submission and wait included) by the host's clock.
//!
//! The source holds [`source_word`] at word `i`; verification poisons the destination, runs one
//! transfer and checks every byte of the destination against that model.
//!
//! Memory: an upload reads host memory ([`upload_source`]: uncached where the device has it,
//! else cached) and writes device-local memory; a readback reads device-local memory and
//! writes host memory ([`readback_destination`]: cached where the device has it); the mapped
//! writes and reads use device-local mapped memory.

use crate::case::{Case, Params, Pattern};
use crate::check::{Readback, VerifyOutcome};
use crate::data::mix32;
use crate::family::{Family, FamilyRef, Unit, Work};
use crate::feature::Feature;
use crate::memory_kind::MemoryKind;
use crate::suite::Suite;
use crate::support::{DeviceCaps, DeviceNeed};

/// The copies family.
pub struct Copies;

/// The transfer sizes in bytes, with their id and name words, in suite order.
pub const SIZES: [(u64, &str, &str); 6] = [
    (4 << 10, "4kb", "4KB"),
    (64 << 10, "64kb", "64KB"),
    (1 << 20, "1mb", "1MB"),
    (16 << 20, "16mb", "16MB"),
    (256 << 20, "256mb", "256MB"),
    (1 << 30, "1gb", "1GB"),
];

/// Which way the data moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the host to device-local memory.
    Upload,
    /// From device-local memory to the host.
    Readback,
}

/// How a transfer is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `vkCmdCopyBuffer` on a transfer-only queue.
    TransferQueue,
    /// `vkCmdCopyBuffer` on the compute queue.
    ComputeQueue,
    /// A compute shader that copies 16 bytes per load and store (device addresses).
    Shader,
    /// The host copies into mapped device-local memory in order (write-combining friendly).
    MappedWrite,
    /// The host writes mapped device-local memory one 4-byte word at a time, touching every
    /// 64-byte line sixteen times in sixteen passes (what write-combining handles worst).
    MappedScattered,
    /// The host copies into a staging buffer, `vkCmdCopyBuffer` moves it to device-local
    /// memory on the compute queue, and the host waits for it.
    Staged,
    /// The host copies out of mapped device-local memory.
    MappedRead,
    /// `vkCmdCopyBuffer` into host-cached memory on the compute queue, a wait, then the host
    /// copies out of it.
    CachedRead,
}

impl Method {
    /// Every method with the direction it moves data, in suite order.
    pub const ALL: [(Direction, Method); 11] = [
        (Direction::Upload, Method::TransferQueue),
        (Direction::Upload, Method::ComputeQueue),
        (Direction::Upload, Method::Shader),
        (Direction::Upload, Method::MappedWrite),
        (Direction::Upload, Method::MappedScattered),
        (Direction::Upload, Method::Staged),
        (Direction::Readback, Method::TransferQueue),
        (Direction::Readback, Method::ComputeQueue),
        (Direction::Readback, Method::Shader),
        (Direction::Readback, Method::MappedRead),
        (Direction::Readback, Method::CachedRead),
    ];

    /// The method's word in ids.
    pub fn word(self) -> &'static str {
        match self {
            Method::TransferQueue => "transfer_queue",
            Method::ComputeQueue => "compute_queue",
            Method::Shader => "shader",
            Method::MappedWrite => "mapped_write",
            Method::MappedScattered => "mapped_scattered",
            Method::Staged => "staged",
            Method::MappedRead => "mapped_read",
            Method::CachedRead => "cached_read",
        }
    }

    /// The method for people.
    pub fn display(self) -> &'static str {
        match self {
            Method::TransferQueue => "vkCmdCopyBuffer (transfer queue)",
            Method::ComputeQueue => "vkCmdCopyBuffer (compute queue)",
            Method::Shader => "compute-shader copy",
            Method::MappedWrite => "host memcpy into mapped device-local",
            Method::MappedScattered => "host scattered 4-byte writes into mapped device-local",
            Method::Staged => "host memcpy into staging + vkCmdCopyBuffer",
            Method::MappedRead => "host memcpy out of mapped device-local",
            Method::CachedRead => "vkCmdCopyBuffer into host-cached + host memcpy",
        }
    }

    /// The largest size the method moves: 16 MB for the host's scattered writes and its reads
    /// of mapped device-local memory (both can run at tens of MB/s over PCIe, where a 1 GB
    /// transfer would take minutes), 1 GB for the others.
    pub fn max_bytes(self) -> u64 {
        match self {
            Method::MappedScattered | Method::MappedRead => 16 << 20,
            _ => 1 << 30,
        }
    }

    /// Whether the host's clock times it (the host does part of the work), rather than GPU
    /// timestamps.
    pub fn host_timed(self) -> bool {
        !matches!(
            self,
            Method::TransferQueue | Method::ComputeQueue | Method::Shader
        )
    }
}

/// The direction and method of `case` (a case of this family).
pub fn method(case: &Case) -> (Direction, Method) {
    Method::ALL
        .get(case.params.variant as usize)
        .copied()
        .unwrap_or((Direction::Upload, Method::TransferQueue))
}

/// The bytes a copy's source spans at least: a queue copy reads its `n`th transfer from
/// offset `(n mod slots) * size` of a source this large, so that repeated copies read data no
/// GPU cache holds. Verification copies from offset 0.
pub const SOURCE_SPAN: u64 = 256 << 20;

/// The bytes of the source buffer a transfer of `bytes` reads from ([`SOURCE_SPAN`] or more).
pub fn source_span(bytes: u64) -> u64 {
    bytes.max(SOURCE_SPAN)
}

/// The host memory an upload reads: uncached (write-combined) where the device has it, else
/// cached (a unified-memory device's one type).
pub fn upload_source(caps: &DeviceCaps) -> MemoryKind {
    if caps.memory_kinds[MemoryKind::HostUncached.index()].is_some() {
        MemoryKind::HostUncached
    } else {
        MemoryKind::HostCached
    }
}

/// The host memory a readback writes: cached where the device has it, else uncached.
pub fn readback_destination(caps: &DeviceCaps) -> MemoryKind {
    if caps.memory_kinds[MemoryKind::HostCached.index()].is_some() {
        MemoryKind::HostCached
    } else {
        MemoryKind::HostUncached
    }
}

/// The memory kinds of the buffers `case` copies from and into on a device with `caps`; `None`
/// for the host's own memory (the mapped write's source, the mapped read's destination). The
/// staged upload's source is its staging buffer; the cached readback's destination is the
/// host-cached buffer the host then copies out of.
pub fn kinds(case: &Case, caps: &DeviceCaps) -> (Option<MemoryKind>, Option<MemoryKind>) {
    match method(case) {
        (_, Method::MappedWrite | Method::MappedScattered) => {
            (None, Some(MemoryKind::DeviceLocalMapped))
        }
        (_, Method::MappedRead) => (Some(MemoryKind::DeviceLocalMapped), None),
        (Direction::Upload, _) => (Some(upload_source(caps)), Some(MemoryKind::DeviceLocal)),
        (Direction::Readback, _) => (
            Some(MemoryKind::DeviceLocal),
            Some(readback_destination(caps)),
        ),
    }
}

/// Word `i` of every copy's source (never zero, so a destination left poisoned with zeros
/// fails).
pub fn source_word(i: u64) -> u32 {
    mix32((i as u32) ^ 0x7f4a_7c15 ^ ((i >> 32) as u32)) | 1
}

/// Fills `bytes` (a whole source, from its start) with [`source_word`]s.
pub fn fill_source(bytes: &mut [u8]) {
    crate::parallel::fill_units(bytes, 4, |first, run| {
        for (i, chunk) in run.chunks_mut(4).enumerate() {
            let word = source_word((first + i) as u64).to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    });
}

impl Family for Copies {
    fn label(&self) -> &'static str {
        "copies"
    }

    fn title(&self) -> &'static str {
        "Copies between host and device"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for (index, (direction, method)) in Method::ALL.into_iter().enumerate() {
            let dir = match direction {
                Direction::Upload => ("upload", "Upload"),
                Direction::Readback => ("readback", "Readback"),
            };
            let sizes = SIZES
                .iter()
                .filter(|(bytes, _, _)| *bytes <= method.max_bytes());
            for &(bytes, size_id, size_name) in sizes {
                cases.push(Case {
                    id: format!("xfer.copy.{}.{}.{size_id}", dir.0, method.word()),
                    name: format!("{} {size_name}: {}", dir.1, method.display()),
                    suite: Suite::Transfer,
                    family: FamilyRef(&Copies),
                    params: Params {
                        origin: None,
                        format: None,
                        width: 4,
                        variant: index as u32,
                        working_set: bytes,
                        count: 0,
                    },
                    pattern: Pattern::Linear,
                });
            }
        }
        cases
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        u32::try_from(case.params.working_set).unwrap_or(u32::MAX)
    }

    fn work(&self, _case: &Case) -> Work {
        Work {
            unit: Unit::Transfer,
            per_thread: 1,
        }
    }

    fn reports_bandwidth(&self) -> bool {
        true
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let bytes = case.params.working_set;
        let mut needs = vec![DeviceNeed::DeviceMemory(bytes)];
        needs.extend(match method(case) {
            (_, Method::TransferQueue) => vec![DeviceNeed::TransferQueue, DeviceNeed::HostMemory],
            (_, Method::Shader) => vec![
                DeviceNeed::Feature(Feature::BufferDeviceAddress),
                DeviceNeed::HostMemory,
            ],
            (_, Method::MappedWrite | Method::MappedScattered | Method::MappedRead) => {
                vec![DeviceNeed::Memory(MemoryKind::DeviceLocalMapped, bytes)]
            }
            _ => vec![DeviceNeed::HostMemory],
        });
        needs
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        check_destination(case.params.working_set, &readback.written)
    }
}

/// Checks that `written` holds `bytes` bytes of [`source_word`]s, word by word.
pub fn check_destination(bytes: u64, written: &[u8]) -> VerifyOutcome {
    let mut outcome = VerifyOutcome::new();
    if written.len() as u64 != bytes {
        outcome.record(false, || {
            format!(
                "the destination read back has {} bytes, not {bytes}",
                written.len()
            )
        });
        return outcome;
    }
    for (i, chunk) in written.chunks_exact(4).enumerate() {
        let got = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        let want = source_word(i as u64);
        outcome.record(got == want, || {
            format!(
                "byte {}: expected word {want:#010x}, got {got:#010x}",
                4 * i
            )
        });
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory_kind::MemoryTypeInfo;
    use std::collections::HashSet;

    #[test]
    fn sixty_two_cases_with_unique_ids() {
        let cases = Copies.cases();
        // 11 methods at 6 sizes, less the 256 MB and 1 GB of the two slow host methods.
        assert_eq!(cases.len(), 62);
        let ids: HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), 62);
        let c = &cases[0];
        assert_eq!(c.id, "xfer.copy.upload.transfer_queue.4kb");
        assert_eq!(c.name, "Upload 4KB: vkCmdCopyBuffer (transfer queue)");
        assert_eq!(c.footprint(), 4096);
        let readback = cases.iter().filter(|c| method(c).0 == Direction::Readback);
        assert!(readback
            .clone()
            .all(|c| c.id.starts_with("xfer.copy.readback.")));
        assert_eq!(readback.count(), 28);
    }

    #[test]
    fn a_copy_of_the_source_passes_and_any_changed_byte_fails() {
        let mut bytes = vec![0u8; 4096];
        fill_source(&mut bytes);
        assert!(check_destination(4096, &bytes).passed());
        bytes[1234] ^= 0x10;
        let failed = check_destination(4096, &bytes);
        assert_eq!(failed.mismatches, 1);
        assert!(failed.first.unwrap_or_default().contains("byte 1232"));
        assert!(!check_destination(4096, &vec![0u8; 4096]).passed());
        assert!(!check_destination(8192, &bytes).passed());
    }

    #[test]
    fn uploads_read_uncached_host_memory_where_there_is_some() {
        let t = Some(MemoryTypeInfo::default());
        let discrete = DeviceCaps {
            memory_kinds: [t, t, t, t],
            ..DeviceCaps::default()
        };
        let unified = DeviceCaps {
            memory_kinds: [t, t, None, t],
            ..DeviceCaps::default()
        };
        let cases = Copies.cases();
        let up = cases.iter().find(|c| c.id == "xfer.copy.upload.staged.1mb");
        let down = cases
            .iter()
            .find(|c| c.id == "xfer.copy.readback.shader.1mb");
        let (up, down) = (up.unwrap_or(&cases[0]), down.unwrap_or(&cases[0]));
        assert_eq!(
            kinds(up, &discrete),
            (
                Some(MemoryKind::HostUncached),
                Some(MemoryKind::DeviceLocal)
            )
        );
        assert_eq!(kinds(up, &unified).0, Some(MemoryKind::HostCached));
        assert_eq!(
            kinds(down, &discrete),
            (Some(MemoryKind::DeviceLocal), Some(MemoryKind::HostCached))
        );
    }
}
