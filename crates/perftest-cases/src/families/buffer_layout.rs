//! Buffer layouts (memory suite): the layout questions of the vendors' guides, each as loads
//! from one 4 MB storage buffer of the modern data viewed through a layout
//! (`shaders/buffer_layout.comp`, one SPIR-V per layout).
//!
//! Every case reads an array of [`ELEMENTS`] (65536) elements: 256 loads per thread, the
//! loaded words summed with wrapping adds, checked word for word against [`thread_sum`].
//! - **structure stride** (`mem.layout.stride{16,20,32,64}`, `StructuredBuffer<uint4>.Load
//!   stride 20 random`): a `uint4` member at offset 0 of structures of 16, 20, 32 or 64 bytes
//!   (element `e`'s member is words `e * stride / 4 ..+4`). A 20-byte stride cannot be declared
//!   with the std430 layout (a structure holding a `uvec4` is aligned to 16 bytes there), so
//!   that kernel declares its block with the scalar layout (`GL_EXT_scalar_block_layout`),
//!   which is what an HLSL structured buffer of a 20-byte structure is; it needs
//!   `scalarBlockLayout` and is skipped, naming it, without. The other strides are std430, whose
//!   offsets are the same. Reading the member as five loose words from a `uint[]` would have
//!   measured four 4-byte loads against one 16-byte load at the other strides: a different
//!   question.
//! - **array of structures against structure of arrays** (`mem.layout.aos{16,32,64}`,
//!   `StructuredBuffer<Struct32>.Load field linear`, against `mem.layout.soa`,
//!   `StructuredBuffer<uint>.Load field array linear`): one 4-byte field at offset 0 of
//!   structures of 16, 32 or 64 bytes (word `e * stride / 4`), against the same field in its
//!   own packed array (word `e`).
//! - **read-only against read-write** (`mem.layout.rw.*`): `RWStructuredBuffer<uint4>.Load
//!   stride 16` and `RWByteAddressBuffer.Load4 1MB`, the same kernels as
//!   `mem.layout.stride16` and `mem.layout.raw` (`ByteAddressBuffer.Load4 1MB`: four 32-bit
//!   loads at byte address `e * 16`, the runtime zero OR-ed into the byte address) with the
//!   buffer not declared `readonly` (no `NonWritable` decoration) and a store into it that no
//!   run makes (guarded by a runtime zero), so that no compiler infers read-only access from
//!   the absence of writes.
//!
//! Addressing, with `g` the thread's index over the dispatch, `i` the load and `N` =
//! [`ELEMENTS`]: `linear` reads element `(group * 256 * 256 + i * 256 + local) mod N` (each
//! workgroup streams the whole array once, neighbouring lanes on neighbouring elements);
//! `random` reads element `lowbias32(g * 256 + i) mod N` ([`crate::mix32`]), so the loads spread
//! over the whole array. The arrays span 256 KB (the packed field) to 4 MB (64-byte
//! structures): past the L1 of every current GPU and inside the L2 of most discrete ones.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::data::modern_word;
use crate::family::{Family, FamilyRef};
use crate::feature::Feature;
use crate::reference::LOADS_PER_THREAD;
use crate::suite::Suite;
use crate::support::DeviceNeed;
use crate::working_sets::element;

/// Elements of every array the family reads (a power of two).
pub const ELEMENTS: u32 = 1 << 16;

/// The largest structure, in bytes: the buffer holds [`ELEMENTS`] of them.
pub const MAX_STRIDE: u32 = 64;

/// Bytes of the one buffer every case reads (4 MB).
pub const BUFFER_BYTES: u64 = ELEMENTS as u64 * MAX_STRIDE as u64;

/// The buffer-layout family.
pub struct BufferLayout;

/// What a case loads, and through which layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// A `uint4` member at offset 0 of structures of this many bytes.
    Member(u32),
    /// A `uint` field at offset 0 of structures of this many bytes.
    Field(u32),
    /// The same field in its own packed `uint[]`.
    FieldArray,
    /// `ByteAddressBuffer.Load4`: four words at byte address `e * 16` of a `uint[]`.
    Raw,
}

/// What `case` loads: the layout, and whether its buffer is declared read-write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    /// The layout.
    pub layout: Layout,
    /// Whether the buffer is declared read-write (no `readonly`).
    pub read_write: bool,
}

impl Kernel {
    /// Every kernel of the family, in suite order.
    pub const ALL: [Kernel; 11] = [
        Kernel::ro(Layout::Member(16)),
        Kernel::ro(Layout::Member(20)),
        Kernel::ro(Layout::Member(32)),
        Kernel::ro(Layout::Member(64)),
        Kernel::ro(Layout::Field(16)),
        Kernel::ro(Layout::Field(32)),
        Kernel::ro(Layout::Field(64)),
        Kernel::ro(Layout::FieldArray),
        Kernel::ro(Layout::Raw),
        Kernel::rw(Layout::Member(16)),
        Kernel::rw(Layout::Raw),
    ];

    const fn ro(layout: Layout) -> Kernel {
        Kernel {
            layout,
            read_write: false,
        }
    }

    const fn rw(layout: Layout) -> Kernel {
        Kernel {
            layout,
            read_write: true,
        }
    }

    /// The id words after `mem.layout.` (`rw.stride16`).
    pub fn id(self) -> String {
        let base = match self.layout {
            Layout::Member(s) => format!("stride{s}"),
            Layout::Field(s) => format!("aos{s}"),
            Layout::FieldArray => "soa".to_string(),
            Layout::Raw => "raw".to_string(),
        };
        if self.read_write {
            format!("rw.{base}")
        } else {
            base
        }
    }

    /// The display name before the pattern (`RWStructuredBuffer<uint4>.Load stride 16`).
    pub fn display(self) -> String {
        let rw = if self.read_write { "RW" } else { "" };
        match self.layout {
            Layout::Member(s) => format!("{rw}StructuredBuffer<uint4>.Load stride {s}"),
            Layout::Field(s) => format!("{rw}StructuredBuffer<Struct{s}>.Load field"),
            Layout::FieldArray => format!("{rw}StructuredBuffer<uint>.Load field array"),
            Layout::Raw => format!("{rw}ByteAddressBuffer.Load4 1MB"),
        }
    }

    /// Bytes one load reads.
    pub fn bytes(self) -> u32 {
        match self.layout {
            Layout::Member(_) | Layout::Raw => 16,
            Layout::Field(_) | Layout::FieldArray => 4,
        }
    }

    /// Bytes the array spans (the working set).
    pub fn span(self) -> u64 {
        let stride = match self.layout {
            Layout::Member(s) | Layout::Field(s) => s,
            Layout::FieldArray => 4,
            Layout::Raw => 16,
        };
        u64::from(ELEMENTS) * u64::from(stride)
    }

    /// The first word a load of element `e` reads, with the runtime zero `mask` OR-ed in where
    /// the kernel ORs it (into the element index, or into the byte address for `Raw`).
    pub fn first_word(self, e: u32, mask: u32) -> u32 {
        match self.layout {
            Layout::Member(s) | Layout::Field(s) => (e | mask).wrapping_mul(s / 4),
            Layout::FieldArray => e | mask,
            Layout::Raw => (e.wrapping_mul(16) | mask) >> 2,
        }
    }

    /// The words one load reads: 4 for a `uint4`, 1 for a field (summed into every lane).
    fn words(self) -> u32 {
        self.bytes() / 4
    }

    fn variant(self) -> u32 {
        let index = Kernel::ALL.iter().position(|k| *k == self).unwrap_or(0);
        index as u32
    }
}

/// The kernel of a case of this family.
pub fn kernel(case: &Case) -> Kernel {
    Kernel::ALL
        .get(case.params.variant as usize)
        .copied()
        .unwrap_or(Kernel::ALL[0])
}

/// The CPU model: the four words thread `local` of verification workgroup `group` of `case`
/// writes, with the runtime zero `mask` (the wrapping sum of every word it loads; a field's
/// word goes to all four lanes).
pub fn thread_sum(case: &Case, mask: u32, group: u32, local: u32) -> [u32; 4] {
    let k = kernel(case);
    let mut sum = [0u32; 4];
    for i in 0..LOADS_PER_THREAD {
        let e = element(
            case.pattern,
            LOADS_PER_THREAD,
            ELEMENTS - 1,
            group,
            local,
            i,
        );
        let w = k.first_word(e, mask);
        for (lane, s) in sum.iter_mut().enumerate() {
            let offset = if k.words() == 4 { lane as u32 } else { 0 };
            *s = s.wrapping_add(modern_word(w.wrapping_add(offset)));
        }
    }
    sum
}

impl Family for BufferLayout {
    fn label(&self) -> &'static str {
        "buffer_layout"
    }

    fn title(&self) -> &'static str {
        "Buffer layouts"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for k in Kernel::ALL {
            for pattern in [Pattern::Linear, Pattern::Random] {
                cases.push(Case {
                    id: format!("mem.layout.{}.{}", k.id(), pattern.name()),
                    name: format!("{} {}", k.display(), pattern.name()),
                    suite: Suite::Memory,
                    family: FamilyRef(&BufferLayout),
                    params: Params {
                        origin: None,
                        format: None,
                        width: k.words(),
                        variant: k.variant(),
                        working_set: k.span(),
                        count: 0,
                    },
                    pattern,
                });
            }
        }
        cases
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        kernel(case).bytes()
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = vec![DeviceNeed::StorageBufferRange(BUFFER_BYTES)];
        if kernel(case).layout == Layout::Member(20) {
            needs.push(DeviceNeed::Feature(Feature::ScalarBlockLayout));
        }
        needs
    }

    /// `FAMILY_A`: the element mask (elements - 1).
    fn constants(&self, _case: &Case) -> [u32; 3] {
        [ELEMENTS - 1, 0, 0]
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let mask = self.kernel_params(case).elements_mask;
        check_words(readback, case.threads(), |group, local| {
            thread_sum(case, mask, group, local)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::mix32;
    use std::collections::HashSet;

    fn case(id: &str) -> Case {
        BufferLayout
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn twenty_two_cases_with_ids_names_bytes_and_needs() {
        let all = BufferLayout.cases();
        assert_eq!(all.len(), 22);
        let ids: Vec<&str> = all.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids[0], "mem.layout.stride16.linear");
        assert_eq!(ids[3], "mem.layout.stride20.random");
        assert_eq!(ids[8], "mem.layout.aos16.linear");
        assert_eq!(ids[14], "mem.layout.soa.linear");
        assert_eq!(ids[16], "mem.layout.raw.linear");
        assert_eq!(ids[18], "mem.layout.rw.stride16.linear");
        assert_eq!(ids[21], "mem.layout.rw.raw.random");
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 22);
        assert_eq!(all[3].name, "StructuredBuffer<uint4>.Load stride 20 random");
        assert_eq!(all[10].name, "StructuredBuffer<Struct32>.Load field linear");
        assert_eq!(
            all[15].name,
            "StructuredBuffer<uint>.Load field array random"
        );
        assert_eq!(all[17].name, "ByteAddressBuffer.Load4 1MB random");
        assert_eq!(
            all[18].name,
            "RWStructuredBuffer<uint4>.Load stride 16 linear"
        );
        assert_eq!(all[21].name, "RWByteAddressBuffer.Load4 1MB random");
        assert!(all.iter().all(|c| c.suite == Suite::Memory));
        assert!(all.iter().all(|c| c.work().per_thread == 256));
        let bytes: Vec<u32> = all.iter().step_by(2).map(Case::bytes_per_load).collect();
        assert_eq!(bytes, [16, 16, 16, 16, 4, 4, 4, 4, 16, 16, 16]);
        let spans: Vec<u64> = all
            .iter()
            .step_by(2)
            .map(|c| c.params.working_set)
            .collect();
        assert_eq!(spans[3], 4 << 20);
        assert_eq!(spans[7], 256 << 10);
        assert_eq!(spans[8], 1 << 20);
        let scalar = DeviceNeed::Feature(Feature::ScalarBlockLayout);
        for c in &all {
            let wants = c.id.contains("stride20");
            assert_eq!(c.needs().contains(&scalar), wants, "{}", c.id);
        }
        assert_eq!(BufferLayout.constants(&all[0]), [0xffff, 0, 0]);
    }

    #[test]
    fn layouts_read_the_words_their_stride_places() {
        // A member of a 20-byte structure starts 5 words after the one before: it straddles
        // 16-byte boundaries.
        let k = kernel(&case("mem.layout.stride20.linear"));
        assert_eq!(k.first_word(3, 0), 15);
        assert_eq!(
            kernel(&case("mem.layout.stride64.random")).first_word(3, 0),
            48
        );
        assert_eq!(
            kernel(&case("mem.layout.aos32.linear")).first_word(3, 0),
            24
        );
        assert_eq!(kernel(&case("mem.layout.soa.linear")).first_word(3, 0), 3);
        // The raw view reads the bytes of the 16-byte structures, its mask in the byte address.
        let raw = kernel(&case("mem.layout.raw.linear"));
        assert_eq!(raw.first_word(3, 0), 12);
        assert_eq!(raw.first_word(3, 4), 13);
        assert_eq!(
            kernel(&case("mem.layout.stride16.linear")).first_word(3, 1),
            12
        );
        // The read-write twins read what their read-only twins read.
        for (a, b) in [
            ("stride16", "rw.stride16"),
            ("raw", "rw.raw"),
            ("raw", "stride16"),
        ] {
            for p in ["linear", "random"] {
                let (ca, cb) = (
                    case(&format!("mem.layout.{a}.{p}")),
                    case(&format!("mem.layout.{b}.{p}")),
                );
                assert_eq!(thread_sum(&ca, 0, 2, 77), thread_sum(&cb, 0, 2, 77));
            }
        }
    }

    #[test]
    fn field_sums_go_to_every_lane() {
        let c = case("mem.layout.aos64.linear");
        let s = thread_sum(&c, 0, 0, 4);
        let direct = (0..256u32).fold(0u32, |acc, i| {
            acc.wrapping_add(modern_word((i * 256 + 4) * 16))
        });
        assert_eq!(s, [direct; 4]);
        // The runtime mask moves the addresses (the model follows the kernel's OR).
        assert_ne!(thread_sum(&c, 1, 0, 4), s);
    }

    #[test]
    fn random_spreads_over_the_whole_array() {
        let c = case("mem.layout.stride32.random");
        let hits: Vec<u32> = (0..4)
            .flat_map(|g| {
                (0..256).flat_map(move |l| {
                    (0..256).map(move |i| element(c.pattern, 256, ELEMENTS - 1, g, l, i))
                })
            })
            .collect();
        let slices: HashSet<u32> = hits.iter().map(|e| e / (ELEMENTS / 64)).collect();
        assert_eq!(slices.len(), 64);
        let distinct: HashSet<u32> = hits.iter().copied().collect();
        assert!(distinct.len() > 60_000, "{}", distinct.len());
        assert_eq!(hits[1], mix32(1) & (ELEMENTS - 1));
        // Linear: each workgroup walks the whole array once, lanes side by side.
        let linear: HashSet<u32> = (0..256)
            .flat_map(|l| (0..256).map(move |i| element(Pattern::Linear, 256, 0xffff, 1, l, i)))
            .collect();
        assert_eq!(linear.len(), ELEMENTS as usize);
    }

    #[test]
    fn verification_accepts_the_model_and_rejects_a_flipped_bit_or_another_layout() {
        let c = case("mem.layout.stride20.random");
        let mut readback = crate::readback::words_readback(|g, l| thread_sum(&c, 0, g, l));
        assert!(BufferLayout.verify(&c, &readback).passed());
        assert!(!BufferLayout
            .verify(&case("mem.layout.stride32.random"), &readback)
            .passed());
        readback.sums[700][3] = f32::from_bits(readback.sums[700][3].to_bits() ^ 1);
        assert_eq!(BufferLayout.verify(&c, &readback).mismatches, 1);
    }
}
