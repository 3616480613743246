//! What a kernel and its CPU model share: the workgroup and loop sizes, the runtime values a
//! kernel reads, the model's answer for one thread and how close a GPU result must be to it.

/// Threads in a workgroup of every case whose family does not choose otherwise (256x1 for
/// buffers, 16x16 for textures): the original's. A case's own count is
/// [`crate::Case::threads`].
pub const THREADS_PER_GROUP: u32 = 256;

/// The most threads a workgroup of any case runs (Vulkan guarantees at least 128 per group;
/// desktop GPUs offer 1024): the verification output is sized for four such groups.
pub const MAX_THREADS_PER_GROUP: u32 = 1024;

/// Loads each thread performs (textures: a 16x16 nested loop).
pub const LOADS_PER_THREAD: u32 = 256;

/// The runtime values a kernel reads from push constants, which the model needs too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelParams {
    /// OR-ed into every address; 0 in every real run (it only hides the address from the
    /// compiler).
    pub elements_mask: u32,
    /// Byte offset of the first raw load: 0, or 4 for the "unaligned" raw cases.
    pub read_start_address: u32,
    /// A runtime index the compiler must not see (a descriptor slot or region chosen
    /// uniformly); 0 for families that do not use it.
    pub index: u32,
}

/// How close a GPU sum must be to the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Allowed |gpu - model| as a fraction of the sum of the absolute values of the terms
    /// (per lane).
    pub relative: f32,
}

impl Tolerance {
    /// The suite's tolerance: 1e-4 of the sum of |terms|. One wrong load out of 256 moves a
    /// sum by about 4e-3 of that, so addressing errors cannot hide inside it, while
    /// rounding differences (f32 order of additions, UNORM conversion) stay far below it.
    pub const DEFAULT: Tolerance = Tolerance { relative: 1e-4 };

    /// True when `got` is acceptable for a model sum `expected` whose terms' absolute values
    /// add up to `abs_sum`.
    pub fn accepts(self, got: f32, expected: f32, abs_sum: f32) -> bool {
        got.is_finite() && (got - expected).abs() <= self.relative * abs_sum
    }
}

/// The model's answer for one thread: the four-lane sum and, per lane, the sum of the
/// absolute values of its terms (the scale for [`Tolerance`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReferenceSum {
    /// Expected sum per lane.
    pub sum: [f32; 4],
    /// Sum of |term| per lane.
    pub abs_sum: [f32; 4],
}
