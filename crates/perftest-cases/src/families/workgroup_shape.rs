//! Workgroup size and shape (memory suite): the original's loads from groups of 32 to 1024
//! threads, one-dimensional and two-dimensional (`shaders/workgroup_shape.comp`, one SPIR-V
//! per operation). The vendors disagree on the best group (Intel: 8x8, NVIDIA: 64, AMD: a
//! multiple of 64, Arm: at most 64, above all with barriers, and 2D groups for images), and
//! every other case runs 256 threads.
//!
//! Each thread does the same work at every size, so the cases' rates (loads per second, the
//! threads of a group times its loads) compare directly:
//! - [`RAW`] (`mem.wg.raw.load4.{S}x1.{linear|random}`, `ByteAddressBuffer.Load4 Sx1
//!   linear`): 256 16-byte loads per thread from a 32 KB storage buffer, the original's raw
//!   addressing (`address = start * 16 + i * 16`, `start` the thread's local index, linear, or
//!   `(local * 0x3504f333) & 0xf`, random) in groups of `S` x 1 threads;
//! - [`TEXTURE`] (`mem.wg.tex.load.rgba8.{X}x{Y}.linear`, `Texture2D<RGBA8>.Load XxY linear`):
//!   the original's 16x16 `texelFetch` loop from the thread's place in its group, in groups of
//!   `X` x `Y` threads, on a 512x48 RGBA8 image (wide and tall enough that no read leaves it:
//!   one load of a wave reads a block of the group's shape, so 2D groups read squarer blocks);
//! - [`EXCHANGE`] (`mem.wg.exchange.load4.{S}x1.linear`, `ByteAddressBuffer.Load4 exchange
//!   Sx1 linear`): the linear raw loads, each passed through shared memory to the next thread
//!   (`(local + 1) % S`) with a barrier per load (two alternating slots of `S` elements), so
//!   the whole group synchronises 256 times.
//!
//! Buffer groups are `S` x 1 for `S` in [`SIZES`]; texture groups are the 2D shapes of
//! [`SQUARE_SHAPES`] and their one-dimensional twins 64x1 and 256x1. The raw and texture
//! kernels end as the original's do (the sum through shared memory, a barrier, a store only
//! verification takes), their result array sized to the group (16 bytes per thread); the
//! exchange kernel stores its sum directly. A device whose workgroup limits or shared memory
//! fall short of a case skips it with the limit named.

use crate::case::{Case, Params, Pattern};
use crate::data::layered_texture_bytes;
use crate::family::{Family, FamilyRef};
use crate::format::Format;
use crate::reference::{floats_at, texel, KernelParams, ReferenceSum, LOADS_PER_THREAD};
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// `Params::variant` of the raw 16-byte buffer loads.
pub const RAW: u32 = 0;
/// `Params::variant` of the RGBA8 `texelFetch` loads.
pub const TEXTURE: u32 = 1;
/// `Params::variant` of the raw loads exchanged through shared memory with a barrier each.
pub const EXCHANGE: u32 = 2;

/// Threads per group of the buffer cases (groups of `S` x 1).
pub const SIZES: [u32; 6] = [32, 64, 128, 256, 512, 1024];

/// The 2D texture shapes, one per size of [`SIZES`].
pub const SQUARE_SHAPES: [[u32; 2]; 6] = [[8, 4], [8, 8], [16, 8], [16, 16], [32, 16], [32, 32]];

/// The one-dimensional twins of the 8x8 and 16x16 texture groups.
pub const ROW_SHAPES: [[u32; 2]; 2] = [[64, 1], [256, 1]];

/// Bytes of the buffer the raw and exchange loads read: room for the linear loads of a group
/// of 1024 threads ((1023 + 255) x 16 + 16 bytes).
pub const BUFFER_BYTES: usize = 32 * 1024;

/// Width and height of the RGBA8 image the texture loads read: room for the 16x16 loop from
/// any thread of a 256x1 or a 32x32 group.
pub const IMAGE_SIZE: [u32; 2] = [512, 48];

/// Texture loop trip per axis (the original's 16x16).
const TEXTURE_TRIP: u32 = 16;

/// The workgroup-shape family.
pub struct WorkgroupShape;

/// The 32 KB the raw and exchange loads read: the input stream (its first 16 KB are the
/// original's input), every word a safe float.
pub fn buffer_bytes() -> &'static [u8] {
    &layered_texture_bytes(16, 2)[..BUFFER_BYTES]
}

/// The texels of the [`IMAGE_SIZE`] RGBA8 image, row-major: the first 96 KB of the input
/// stream.
pub fn image_bytes() -> &'static [u8] {
    let [w, h] = IMAGE_SIZE;
    &layered_texture_bytes(16, 6)[..(w * h * 4) as usize]
}

/// The group shape of `case` (`Params::count` holds `x | y << 16`).
pub fn shape(case: &Case) -> [u32; 2] {
    [case.params.count & 0xffff, (case.params.count >> 16).max(1)]
}

/// Bytes of shared memory the kernel of `case` declares: 16 per thread for the result (raw
/// and texture), or two slots of 16 per thread for the exchange.
pub fn shared_bytes(case: &Case) -> u64 {
    let per_thread = if case.params.variant == EXCHANGE {
        32
    } else {
        16
    };
    per_thread * u64::from(case.threads())
}

/// One case of operation `variant` in groups of `[x, y]`.
fn case(variant: u32, [x, y]: [u32; 2], pattern: Pattern) -> Case {
    let (id, name, width) = match variant {
        TEXTURE => ("tex.load.rgba8", "Texture2D<RGBA8>.Load", 4),
        EXCHANGE => ("exchange.load4", "ByteAddressBuffer.Load4 exchange", 4),
        _ => ("raw.load4", "ByteAddressBuffer.Load4", 4),
    };
    Case {
        id: format!("mem.wg.{id}.{x}x{y}.{}", pattern.name()),
        name: format!("{name} {x}x{y} {}", pattern.name()),
        suite: Suite::Memory,
        family: FamilyRef(&WorkgroupShape),
        params: Params {
            format: (variant == TEXTURE).then_some(Format::Rgba8),
            width,
            variant,
            count: x | y << 16,
            ..Params::default()
        },
        pattern,
    }
}

/// The sum of the linear or random raw loads of the thread at local index `local`.
fn raw_sum(pattern: Pattern, params: KernelParams, local: u32) -> [f32; 4] {
    let start = match pattern {
        Pattern::Linear => local,
        Pattern::Random => local.wrapping_mul(0x3504_f333) & 0xf,
        _ => 0,
    };
    let bytes = buffer_bytes();
    let mut sum = [0.0f32; 4];
    for i in 0..LOADS_PER_THREAD {
        let address = (start * 16 + i * 16) | params.elements_mask;
        let v = floats_at(bytes, (address & !3) as usize, 4);
        for (s, x) in sum.iter_mut().zip(v) {
            *s += x;
        }
    }
    sum
}

/// The sum of the 16x16 RGBA8 texel loads of the thread at `[x, y]` in its group.
fn texture_sum(params: KernelParams, [x, y]: [u32; 2]) -> [f32; 4] {
    let texels = image_bytes();
    let mask = params.elements_mask;
    let mut sum = [0.0f32; 4];
    for dy in 0..TEXTURE_TRIP {
        for dx in 0..TEXTURE_TRIP {
            let (ex, ey) = ((x + dx) | mask, (y + dy) | mask);
            let t = texel(Format::Rgba8, texels, (ey * IMAGE_SIZE[0] + ex) as usize);
            for (s, v) in sum.iter_mut().zip(t) {
                *s += v;
            }
        }
    }
    sum
}

impl Family for WorkgroupShape {
    fn label(&self) -> &'static str {
        "workgroup_shape"
    }

    fn title(&self) -> &'static str {
        "Workgroup sizes and shapes"
    }

    fn cases(&self) -> Vec<Case> {
        let rows = |variant, pattern| SIZES.map(|s| case(variant, [s, 1], pattern));
        let mut cases = Vec::new();
        cases.extend(rows(RAW, Pattern::Linear));
        cases.extend(rows(RAW, Pattern::Random));
        cases.extend(SQUARE_SHAPES.map(|s| case(TEXTURE, s, Pattern::Linear)));
        cases.extend(ROW_SHAPES.map(|s| case(TEXTURE, s, Pattern::Linear)));
        cases.extend(rows(EXCHANGE, Pattern::Linear));
        cases
    }

    fn case_workgroup_size(&self, case: &Case) -> [u32; 2] {
        shape(case)
    }

    fn case_loop_trip(&self, case: &Case) -> u32 {
        match case.params.variant {
            TEXTURE => TEXTURE_TRIP,
            _ => LOADS_PER_THREAD,
        }
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        match case.params.variant {
            TEXTURE => 4,
            _ => 16,
        }
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = vec![
            DeviceNeed::Workgroup(shape(case)),
            DeviceNeed::SharedMemory(shared_bytes(case)),
        ];
        if case.params.variant == TEXTURE {
            needs.push(DeviceNeed::Format(
                Format::Rgba8,
                FormatFeature::SampledImage,
            ));
        }
        needs
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let [wx, _] = shape(case);
        let index = local[1] * wx + local[0];
        let sum = match case.params.variant {
            TEXTURE => texture_sum(params, local),
            EXCHANGE => raw_sum(case.pattern, params, (index + 1) % case.threads()),
            _ => raw_sum(case.pattern, params, index),
        };
        // The loads' magnitudes: the inputs are positive floats and UNORM values.
        ReferenceSum {
            sum,
            abs_sum: sum.map(f32::abs),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check_sums, Readback};
    use crate::kernel_params::{Tolerance, MAX_THREADS_PER_GROUP};

    fn cases() -> Vec<Case> {
        WorkgroupShape.cases()
    }

    #[test]
    fn every_group_has_its_own_shape_and_the_same_work_per_thread() {
        let all = cases();
        assert_eq!(all.len(), 26);
        for c in &all {
            let [x, y] = c.workgroup_size();
            assert!(c.id.contains(&format!(".{x}x{y}.")), "{}", c.id);
            assert!(c.threads() <= MAX_THREADS_PER_GROUP);
            assert_eq!(c.threads() % 32, 0, "{}", c.id);
            assert_eq!(c.work().per_thread, 256);
            assert_eq!(c.ops_per_group(), u64::from(c.threads()) * 256);
            assert_eq!(c.verify_threads(), 4 * c.threads());
        }
        let eight = all
            .iter()
            .find(|c| c.id == "mem.wg.tex.load.rgba8.8x8.linear");
        assert_eq!(eight.map(Case::threads), Some(64));
        let row = all
            .iter()
            .find(|c| c.name == "ByteAddressBuffer.Load4 1024x1 linear");
        assert_eq!(row.map(|c| c.workgroup_size()), Some([1024, 1]));
    }

    #[test]
    fn no_load_leaves_its_resource() {
        for c in cases() {
            let [x, y] = shape(&c);
            match c.params.variant {
                TEXTURE => {
                    assert!(x - 1 + TEXTURE_TRIP <= IMAGE_SIZE[0], "{}", c.id);
                    assert!(y - 1 + TEXTURE_TRIP <= IMAGE_SIZE[1], "{}", c.id);
                }
                _ => {
                    let last = (c.threads() - 1 + LOADS_PER_THREAD) * 16;
                    assert!(last as usize <= BUFFER_BYTES, "{}", c.id);
                }
            }
        }
        assert_eq!(image_bytes().len(), 512 * 48 * 4);
    }

    #[test]
    fn the_256_raw_group_reads_what_the_original_reads() {
        // Its first 16 KB are the original input: the 256x1 linear sums are the original's.
        let all = cases();
        let ours = all
            .iter()
            .find(|c| c.id == "mem.wg.raw.load4.256x1.linear")
            .unwrap();
        let original = crate::find_case(&crate::original_cases(), "raw.load4.linear")
            .cloned()
            .unwrap();
        let p = KernelParams::default();
        for l in [0, 17, 255] {
            let a = ours.family.reference(ours, p, [l, 0]).sum;
            let b = original.family.reference(&original, p, [l, 0]).sum;
            assert_eq!(a, b);
        }
    }

    #[test]
    fn the_exchange_reads_the_next_threads_loads() {
        let all = cases();
        let exchange = all
            .iter()
            .find(|c| c.id == "mem.wg.exchange.load4.64x1.linear")
            .unwrap();
        let p = KernelParams::default();
        let got = |l| exchange.family.reference(exchange, p, [l, 0]).sum;
        assert_eq!(got(5), raw_sum(Pattern::Linear, p, 6));
        assert_eq!(got(63), raw_sum(Pattern::Linear, p, 0));
    }

    #[test]
    fn the_model_passes_itself_and_a_one_bit_change_fails() {
        for c in cases() {
            let params = KernelParams::for_case(&c);
            let [wx, _] = c.workgroup_size();
            let sums: Vec<[f32; 4]> = (0..c.verify_threads())
                .map(|t| {
                    let l = t % c.threads();
                    c.family.reference(&c, params, [l % wx, l / wx]).sum
                })
                .collect();
            let mut readback = Readback {
                sums,
                written: Vec::new(),
            };
            assert!(check_sums(&c, &readback.sums, Tolerance::DEFAULT).passed());
            let last = readback.sums.len() - 1;
            readback.sums[last][3] = f32::from_bits(readback.sums[last][3].to_bits() ^ 1 << 20);
            let outcome = c.family.verify(&c, &readback);
            assert_eq!(outcome.mismatches, 1, "{}", c.id);
        }
    }
}
