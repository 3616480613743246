//! The kinds of memory a buffer can live in, as a renderer chooses between them, and the pure
//! rule that finds a device's memory type for each kind from the types' property flags.

/// `VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT`.
pub const DEVICE_LOCAL: u32 = 0x1;
/// `VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT`.
pub const HOST_VISIBLE: u32 = 0x2;
/// `VK_MEMORY_PROPERTY_HOST_COHERENT_BIT`.
pub const HOST_COHERENT: u32 = 0x4;
/// `VK_MEMORY_PROPERTY_HOST_CACHED_BIT`.
pub const HOST_CACHED: u32 = 0x8;

/// Where a buffer's memory lives, as a renderer picks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemoryKind {
    /// Device-local memory, not mapped by the host where the device has such a type (what a
    /// GPU-only resource gets).
    DeviceLocal,
    /// Device-local memory the host can map (a PCIe BAR, resizable or 256 MB; on a
    /// unified-memory device, all of it).
    DeviceLocalMapped,
    /// Host memory the device reads and writes over the bus, not cached by the host (the
    /// write-combined upload memory).
    HostUncached,
    /// Host memory cached by the host and coherent (the readback memory).
    HostCached,
}

impl MemoryKind {
    /// Every kind, in report order.
    pub const ALL: [MemoryKind; 4] = [
        MemoryKind::DeviceLocal,
        MemoryKind::DeviceLocalMapped,
        MemoryKind::HostUncached,
        MemoryKind::HostCached,
    ];

    /// The kind's word in case ids (`device`, `bar`, `host`, `cached`).
    pub fn word(self) -> &'static str {
        match self {
            MemoryKind::DeviceLocal => "device",
            MemoryKind::DeviceLocalMapped => "bar",
            MemoryKind::HostUncached => "host",
            MemoryKind::HostCached => "cached",
        }
    }

    /// The kind for people (`device-local`, `device-local mapped`...), as case names show it.
    pub fn display(self) -> &'static str {
        match self {
            MemoryKind::DeviceLocal => "device-local",
            MemoryKind::DeviceLocalMapped => "device-local mapped",
            MemoryKind::HostUncached => "host uncached",
            MemoryKind::HostCached => "host cached",
        }
    }

    /// Index in [`MemoryKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The property flags a type must have and must not have to serve this kind, and the ones
    /// it should not have where the device offers a choice.
    fn rule(self) -> (u32, u32, u32) {
        match self {
            MemoryKind::DeviceLocal => (DEVICE_LOCAL, 0, HOST_VISIBLE),
            MemoryKind::DeviceLocalMapped => (DEVICE_LOCAL | HOST_VISIBLE | HOST_COHERENT, 0, 0),
            MemoryKind::HostUncached => (HOST_VISIBLE | HOST_COHERENT, HOST_CACHED, DEVICE_LOCAL),
            MemoryKind::HostCached => (HOST_VISIBLE | HOST_COHERENT | HOST_CACHED, 0, DEVICE_LOCAL),
        }
    }

    /// The memory type serving this kind among `types` (each its property flags and its
    /// heap's size, in the device's order) that `allowed` (a `memoryTypeBits` mask) permits:
    /// the first type with the required flags and without the avoided ones, else the first with
    /// the required flags alone (so a unified-memory device, whose one type is device-local
    /// and host-visible, serves every kind it can). `None` where no type can.
    pub fn resolve(self, types: &[(u32, u64)], allowed: u32) -> Option<MemoryTypeInfo> {
        let (required, forbidden, avoided) = self.rule();
        let fits = |i: usize, flags: u32| {
            i < 32
                && allowed & (1 << i) != 0
                && flags & required == required
                && flags & forbidden == 0
        };
        let preferred = types
            .iter()
            .enumerate()
            .find(|&(i, &(flags, _))| fits(i, flags) && flags & avoided == 0);
        let any = || types.iter().enumerate().find(|&(i, &(f, _))| fits(i, f));
        preferred
            .or_else(any)
            .map(|(i, &(flags, heap_bytes))| MemoryTypeInfo {
                index: i as u32,
                flags,
                heap_bytes,
            })
    }
}

/// The memory type a [`MemoryKind`] resolved to on a device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryTypeInfo {
    /// Its index in the device's memory types.
    pub index: u32,
    /// Its `VkMemoryPropertyFlags`.
    pub flags: u32,
    /// The size of its heap, in bytes.
    pub heap_bytes: u64,
}

impl MemoryTypeInfo {
    /// Whether the host can map it.
    pub fn host_visible(&self) -> bool {
        self.flags & HOST_VISIBLE != 0
    }

    /// The flags in words (`device-local, host-visible, host-coherent`).
    pub fn flag_words(&self) -> String {
        [
            (DEVICE_LOCAL, "device-local"),
            (HOST_VISIBLE, "host-visible"),
            (HOST_COHERENT, "host-coherent"),
            (HOST_CACHED, "host-cached"),
        ]
        .iter()
        .filter(|(bit, _)| self.flags & bit != 0)
        .map(|(_, w)| *w)
        .collect::<Vec<_>>()
        .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_TYPES: u32 = u32::MAX;

    /// The types a discrete NVIDIA GPU lists (device-local; host coherent; host cached; the
    /// BAR), each with its heap.
    fn discrete() -> Vec<(u32, u64)> {
        vec![
            (DEVICE_LOCAL, 80 << 30),
            (HOST_VISIBLE | HOST_COHERENT, 64 << 30),
            (HOST_VISIBLE | HOST_COHERENT | HOST_CACHED, 64 << 30),
            (DEVICE_LOCAL | HOST_VISIBLE | HOST_COHERENT, 80 << 30),
        ]
    }

    #[test]
    fn a_discrete_gpu_has_a_type_of_every_kind() {
        let types = discrete();
        let got: Vec<Option<u32>> = MemoryKind::ALL
            .iter()
            .map(|k| k.resolve(&types, ALL_TYPES).map(|t| t.index))
            .collect();
        assert_eq!(got, [Some(0), Some(3), Some(1), Some(2)]);
    }

    #[test]
    fn a_unified_memory_device_serves_what_its_one_type_can() {
        let one = [(
            DEVICE_LOCAL | HOST_VISIBLE | HOST_COHERENT | HOST_CACHED,
            8 << 30,
        )];
        let got: Vec<Option<u32>> = MemoryKind::ALL
            .iter()
            .map(|k| k.resolve(&one, ALL_TYPES).map(|t| t.index))
            .collect();
        // Uncached host memory cannot be had: the one type is cached.
        assert_eq!(got, [Some(0), Some(0), None, Some(0)]);
    }

    #[test]
    fn the_allowed_mask_and_missing_flags_are_respected() {
        let types = discrete();
        // Without type 3 there is no BAR; without type 0 device-local falls back to the BAR.
        assert_eq!(MemoryKind::DeviceLocalMapped.resolve(&types, 0b0111), None);
        let fallback = MemoryKind::DeviceLocal.resolve(&types, 0b1110);
        assert_eq!(fallback.map(|t| t.index), Some(3));
        // A BAR that is not coherent is not used for mapped writes without flushes.
        let incoherent = [(DEVICE_LOCAL | HOST_VISIBLE, 256 << 20)];
        assert_eq!(
            MemoryKind::DeviceLocalMapped.resolve(&incoherent, ALL_TYPES),
            None
        );
    }

    #[test]
    fn flags_are_named() {
        let t = MemoryKind::HostCached
            .resolve(&discrete(), ALL_TYPES)
            .unwrap_or_default();
        assert_eq!(t.flag_words(), "host-visible, host-coherent, host-cached");
        assert!(t.host_visible());
        assert_eq!(t.heap_bytes, 64 << 30);
    }
}
