//! `ByteAddressBuffer.LoadN`: a storage buffer of 32-bit words, `width` consecutive words per
//! load, reinterpreted as floats (`shaders/raw_buffer.comp`). Params: `width` = words per load
//! (1..=4); `variant` = [`UNALIGNED`] to start 4 bytes into the buffer.

use crate::case::{Case, Params};
use crate::data::input_bytes;
use crate::family::{Family, FamilyRef};
use crate::reference::{buffer_sum, floats_at, widen, KernelParams, ReferenceSum};
use crate::suite::Suite;

/// `Params::variant` of the unaligned cases: the first load starts at byte 4, so 8/16-byte
/// loads are not naturally aligned.
pub const UNALIGNED: u32 = 1;

/// The raw (byte-address) buffer family.
pub struct RawBuffer;

impl Family for RawBuffer {
    fn label(&self) -> &'static str {
        "raw_buffer"
    }

    fn title(&self) -> &'static str {
        "Raw buffers"
    }

    fn cases(&self) -> Vec<Case> {
        let raw = [
            (1, false),
            (2, false),
            (3, false),
            (4, false),
            (2, true),
            (4, true),
        ];
        raw.into_iter()
            .flat_map(|(words, unaligned)| {
                let suffix = if words == 1 {
                    String::new()
                } else {
                    words.to_string()
                };
                let (id_tail, name_tail) = if unaligned {
                    (".unaligned", " unaligned")
                } else {
                    ("", "")
                };
                Case::per_pattern(
                    FamilyRef(&RawBuffer),
                    Suite::Original,
                    &format!("raw.load{suffix}{id_tail}"),
                    &format!("ByteAddressBuffer.Load{suffix}{name_tail}"),
                    Params {
                        format: None,
                        width: words,
                        variant: if unaligned { UNALIGNED } else { 0 },
                        ..Params::default()
                    },
                )
            })
            .collect()
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        4 * case.params.width
    }

    fn kernel_params(&self, case: &Case) -> KernelParams {
        KernelParams {
            elements_mask: 0,
            read_start_address: if case.params.variant == UNALIGNED {
                4
            } else {
                0
            },
            index: 0,
        }
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let words = case.params.width;
        let bytes = input_bytes();
        buffer_sum(case, params, local, |_, i, htid| {
            let start = htid * 4 * words + params.read_start_address;
            let address = (start + i * 4 * words) | params.elements_mask;
            widen(floats_at(bytes, (address & !3) as usize, words), words)
        })
    }
}
