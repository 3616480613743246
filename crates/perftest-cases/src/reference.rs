//! CPU models of the kernels: what each thread's sum must be.
//!
//! These mirror `shaders/*.comp` exactly: same addressing, same loop order, same widening of
//! narrow loads to four lanes, f32 accumulation. A GPU result is accepted when every lane is
//! within [`Tolerance`] of the model.

use crate::case::{Case, Pattern};
#[cfg(test)]
use crate::data::input_bytes;
use crate::data::{texture_bytes, TEXTURE_SIZE};
use crate::format::Format;

pub use crate::kernel_params::{
    KernelParams, ReferenceSum, Tolerance, LOADS_PER_THREAD, THREADS_PER_GROUP,
};

impl KernelParams {
    /// The values the suite uses for `case`.
    pub fn for_case(case: &Case) -> Self {
        case.family.kernel_params(case)
    }
}

/// The original's address hash for the random pattern: `x * 0x3504f333`.
pub(crate) fn hash(x: u32) -> u32 {
    x.wrapping_mul(0x3504_f333)
}

/// Widens a load of `n` components to four lanes as the original did:
/// 1 → `xxxx`, 2 → `xyxy`, 3 → `xyzx`, 4 → `xyzw`.
pub(crate) fn widen(v: [f32; 4], n: u32) -> [f32; 4] {
    match n {
        1 => [v[0]; 4],
        2 => [v[0], v[1], v[0], v[1]],
        3 => [v[0], v[1], v[2], v[0]],
        _ => v,
    }
}

pub(crate) fn word_at(bytes: &[u8], byte: usize) -> f32 {
    match bytes.get(byte..byte + 4) {
        Some(w) => f32::from_le_bytes([w[0], w[1], w[2], w[3]]),
        None => f32::NAN,
    }
}

pub(crate) fn floats_at(bytes: &[u8], byte: usize, n: u32) -> [f32; 4] {
    let mut v = [0.0; 4];
    for (k, lane) in v.iter_mut().enumerate().take(n as usize) {
        *lane = word_at(bytes, byte + 4 * k);
    }
    v
}

pub(crate) fn texel(format: Format, bytes: &[u8], index: usize) -> [f32; 4] {
    let size = format.texel_bytes() as usize;
    match bytes.get(index * size..(index + 1) * size) {
        Some(t) => [0, 1, 2, 3].map(|c| format.decode_channel(t, c)),
        None => [f32::NAN; 4],
    }
}

struct Accumulator(ReferenceSum);

impl Accumulator {
    fn new() -> Self {
        Accumulator(ReferenceSum {
            sum: [0.0; 4],
            abs_sum: [0.0; 4],
        })
    }
    fn add(&mut self, v: [f32; 4]) {
        for ((sum, abs_sum), value) in self.0.sum.iter_mut().zip(&mut self.0.abs_sum).zip(v) {
            *sum += value;
            *abs_sum += value.abs();
        }
    }
}

/// Computes what the thread at `local` (`[x, y]` inside its workgroup; `y` is 0 for buffer
/// cases) of `case` must write in verification mode: the CPU model of the case's family.
pub fn reference_sum(case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
    case.family.reference(case, params, local)
}

/// The 1D buffer loop every buffer kernel runs (256x1 workgroups): `htid` from the pattern,
/// then [`LOADS_PER_THREAD`] loads of `load(elem, i, htid)` with `elem = (htid + i) | mask`,
/// each already widened to four lanes, summed.
pub(crate) fn buffer_sum(
    case: &Case,
    params: KernelParams,
    local: [u32; 2],
    load: impl Fn(u32, u32, u32) -> [f32; 4],
) -> ReferenceSum {
    let mut acc = Accumulator::new();
    let local_index = local[0]; // buffers use a 256x1 workgroup
                                // As `bufferStart()` in `shaders/common.glsl`: patterns other than these start at 0.
    let htid = match case.pattern {
        Pattern::Linear => local_index,
        Pattern::Random => hash(local_index) & 0xf,
        _ => 0,
    };
    for i in 0..LOADS_PER_THREAD {
        let elem = (htid + i) | params.elements_mask;
        acc.add(load(elem, i, htid));
    }
    acc.0
}

/// The 2D loop every texture kernel runs (16x16 workgroups, a 16x16 nested loop, `x` inner):
/// the thread's start from the pattern (as `textureStart()` in `shaders/common.glsl`), then
/// `load(ex, ey)` for texel coordinates `(ex, ey) = (start + (x, y)) | mask`, not wrapped
/// (each returns four lanes, already widened), summed.
pub(crate) fn texture_loop(
    case: &Case,
    params: KernelParams,
    local: [u32; 2],
    load: impl Fn(u32, u32) -> [f32; 4],
) -> ReferenceSum {
    let mut acc = Accumulator::new();
    let mask = params.elements_mask;
    let htid = local.map(|l| match case.pattern {
        Pattern::Linear => l,
        Pattern::Random => hash(l) & 0x4,
        _ => 0,
    });
    for y in 0..16 {
        for x in 0..16 {
            acc.add(load((htid[0] + x) | mask, (htid[1] + y) | mask));
        }
    }
    acc.0
}

/// The 2D loop every texture kernel runs (16x16 workgroups, a 16x16 nested loop) over the
/// 32x32 texture of `format`, reading texel `(ex, ey)` with REPEAT wrapping; texel-centre
/// sampling returns the texel itself, so loads and samples share this model.
pub(crate) fn texture_sum(
    case: &Case,
    params: KernelParams,
    local: [u32; 2],
    format: Format,
) -> ReferenceSum {
    let texels = texture_bytes(format.texel_bytes());
    texture_loop(case, params, local, |ex, ey| {
        let (ex, ey) = (ex % TEXTURE_SIZE, ey % TEXTURE_SIZE);
        let t = texel(format, texels, (ey * TEXTURE_SIZE + ex) as usize);
        widen(t, format.components())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{find_case, original_cases};

    fn case(id: &str) -> Case {
        find_case(&original_cases(), id)
            .cloned()
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    #[test]
    fn uniform_pattern_is_the_same_for_every_thread() {
        let c = case("raw.load2.uniform");
        let p = KernelParams::for_case(&c);
        assert_eq!(reference_sum(&c, p, [0, 0]), reference_sum(&c, p, [200, 0]));
    }

    #[test]
    fn linear_threads_differ_and_shift_by_one_element() {
        let c = case("structured.float.linear");
        let p = KernelParams::for_case(&c);
        let a = reference_sum(&c, p, [0, 0]);
        let b = reference_sum(&c, p, [1, 0]);
        assert_ne!(a.sum, b.sum);
        let bytes = input_bytes();
        // Thread 1 reads elements 1..=256, thread 0 reads 0..=255.
        let diff = word_at(bytes, 256 * 4) - word_at(bytes, 0);
        assert!(((b.sum[0] - a.sum[0]) - diff).abs() <= 1e-3 * a.abs_sum[0]);
    }

    #[test]
    fn raw_widths_widen_like_the_original() {
        let c = case("raw.load3.uniform");
        let s = reference_sum(&c, KernelParams::for_case(&c), [0, 0]);
        assert_eq!(s.sum[3], s.sum[0]);
        let c4 = case("raw.load4.uniform");
        let s4 = reference_sum(&c4, KernelParams::for_case(&c4), [0, 0]);
        assert_ne!(s4.sum[3], s4.sum[0]);
        let one = case("raw.load.uniform");
        let s1 = reference_sum(&one, KernelParams::for_case(&one), [0, 0]);
        assert!(s1.sum.iter().all(|&v| v == s1.sum[0]));
    }

    #[test]
    fn unaligned_start_shifts_by_one_word() {
        let aligned = case("raw.load.uniform");
        let mut p = KernelParams::for_case(&aligned);
        p.read_start_address = 4;
        let shifted = reference_sum(&aligned, p, [0, 0]);
        let c = case("raw.load2.unaligned.uniform");
        assert_eq!(KernelParams::for_case(&c).read_start_address, 4);
        // Load (W=1) starting at byte 4 equals the sum of words 1..=256.
        let bytes = input_bytes();
        let direct: f32 = (1..=256).map(|k| word_at(bytes, 4 * k)).sum();
        assert_eq!(shifted.sum[0], direct);
    }

    #[test]
    fn random_pattern_offsets_stay_small() {
        let starts: std::collections::HashSet<u32> = (0..256).map(|l| hash(l) & 0xf).collect();
        assert!(starts.len() > 4, "random starts should vary: {starts:?}");
        let c = case("typed.rgba8.random");
        let p = KernelParams::for_case(&c);
        let sums: std::collections::HashSet<u32> = (0..256)
            .map(|l| reference_sum(&c, p, [l, 0]).sum[0].to_bits())
            .collect();
        assert!(sums.len() > 1 && sums.len() <= 16);
    }

    #[test]
    fn texture_linear_depends_on_both_axes() {
        let c = case("tex.load.rg16f.linear");
        let p = KernelParams::for_case(&c);
        let a = reference_sum(&c, p, [3, 5]);
        let b = reference_sum(&c, p, [5, 3]);
        assert_ne!(a.sum, b.sum);
        assert_eq!(a.sum[0], a.sum[2]);
        assert!(a.sum.iter().all(|v| v.is_finite()));
    }

    #[test]
    fn every_case_has_a_finite_non_zero_model() {
        for c in original_cases() {
            let s = reference_sum(&c, KernelParams::for_case(&c), [7, 3]);
            assert!(s.sum.iter().all(|v| v.is_finite()), "{}", c.id);
            assert!(s.abs_sum.iter().all(|&v| v > 0.0), "{}", c.id);
        }
    }

    #[test]
    fn tolerance_rejects_one_wrong_load() {
        let c = case("structured.float4.linear");
        let s = reference_sum(&c, KernelParams::for_case(&c), [0, 0]);
        let bytes = input_bytes();
        // Replace the first load's x with the value of another element.
        let wrong = s.sum[0] - word_at(bytes, 0) + word_at(bytes, 16 * 700);
        assert!(!Tolerance::DEFAULT.accepts(wrong, s.sum[0], s.abs_sum[0]));
        assert!(Tolerance::DEFAULT.accepts(s.sum[0], s.sum[0], s.abs_sum[0]));
        assert!(!Tolerance::DEFAULT.accepts(f32::NAN, s.sum[0], s.abs_sum[0]));
    }
}
