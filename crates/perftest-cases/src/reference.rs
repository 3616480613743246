//! CPU models of the kernels: what each thread's sum must be.
//!
//! These mirror `shaders/*.comp` exactly: same addressing, same loop order, same widening of
//! narrow loads to four lanes, f32 accumulation. A GPU result is accepted when every lane is
//! within [`Tolerance`] of the model.

use crate::case::{Case, Pattern};
use crate::data::{texture_bytes, TEXTURE_SIZE};
use crate::format::Format;

pub use crate::kernel_params::{
    KernelParams, ReferenceSum, Tolerance, LOADS_PER_THREAD, MAX_THREADS_PER_GROUP,
    THREADS_PER_GROUP,
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
