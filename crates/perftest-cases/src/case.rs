//! One benchmark case: what it reads and how.

use crate::family::{FamilyRef, Work};
use crate::format::Format;
use crate::suite::Suite;
use crate::support::{DeviceCaps, DeviceNeed, Support};

/// How the threads of a workgroup pick their addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Every thread reads the same address (`htid = 0`).
    Uniform,
    /// Neighbouring threads read neighbouring elements (`htid = localIndex`).
    Linear,
    /// Threads start at a hashed offset (`htid = (localIndex * 0x3504f333) & 0xf`); over a
    /// large working set (modern suite), every load goes to a hashed element of the whole set.
    Random,
    /// Modern suite: every lane of a 32-lane wave reads the same hashed element.
    WaveUniform,
    /// Modern suite: a 32-lane wave reads a contiguous block of 32 elements at a hashed place.
    WaveCoherent,
    /// Modern suite: one element per 64-byte line.
    Sparse,
}

impl Pattern {
    /// All patterns in the original's order.
    pub const ALL: [Pattern; 3] = [Pattern::Uniform, Pattern::Linear, Pattern::Random];

    /// The word the original printed (`uniform`).
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Uniform => "uniform",
            Pattern::Linear => "linear",
            Pattern::Random => "random",
            Pattern::WaveUniform => "wave-uniform",
            Pattern::WaveCoherent => "wave-coherent",
            Pattern::Sparse => "sparse",
        }
    }

    /// The value of the kernels' `PATTERN` specialization constant.
    pub fn spec_value(self) -> u32 {
        match self {
            Pattern::Uniform => 0,
            Pattern::Linear => 1,
            Pattern::Random => 2,
            Pattern::WaveUniform => 3,
            Pattern::WaveCoherent => 4,
            Pattern::Sparse => 5,
        }
    }
}

/// Sampler filter of a `Texture2D.Sample` case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleFilter {
    /// Point sampling.
    Nearest,
    /// Bilinear filtering (at texel centres, so the result is the texel itself).
    Bilinear,
}

/// A case's parameters inside its family: plain data that the family's module interprets
/// (see the `families` modules for what each family puts here).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Params {
    /// The texel format, for families that read formatted data.
    pub format: Option<Format>,
    /// Components (32-bit words, floats or channels) one load returns before widening to
    /// four lanes.
    pub width: u32,
    /// The family's own switch (e.g. unaligned start, sampler filter); 0 when unused.
    pub variant: u32,
    /// Bytes of the working set the case touches, for families that vary it; 0 when unused.
    pub working_set: u64,
    /// The family's own count (textures per wave, slots, bins...); 0 when unused.
    pub count: u32,
    /// Where a case copies another case (a twin its original, a fragment-shader case its
    /// compute twin): the copied case's family and suite. Its id and name follow from the
    /// copy's, and its other parameters are these; `None` for a case of its own.
    pub origin: Option<Origin>,
}

/// The family and suite of the case another case copies ([`Params::origin`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The copied case's family.
    pub family: FamilyRef,
    /// The copied case's suite.
    pub suite: Suite,
}

impl Origin {
    /// The case `copy` copies, given that case's id and name: `copy`'s parameters without
    /// the origin, and its pattern.
    pub fn case(self, copy: &Case, id: String, name: String) -> Case {
        Case {
            id,
            name,
            suite: self.suite,
            family: self.family,
            params: Params {
                origin: None,
                ..copy.params
            },
            pattern: copy.pattern,
        }
    }

    /// The copy of `original` as a case of `family` in `suite`, with its own id and name.
    pub fn copy(
        original: &Case,
        family: FamilyRef,
        suite: Suite,
        (id, name): (String, String),
    ) -> Case {
        Case {
            id,
            name,
            suite,
            family,
            params: Params {
                origin: Some(Origin {
                    family: original.family,
                    suite: original.suite,
                }),
                ..original.params
            },
            pattern: original.pattern,
        }
    }
}

/// One benchmark case of a suite.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Case {
    /// Stable machine-friendly id, e.g. `raw.load4.unaligned.random`; unique across suites.
    pub id: String,
    /// The display name, e.g. `ByteAddressBuffer.Load4 unaligned random`.
    pub name: String,
    /// The suite the case belongs to.
    pub suite: Suite,
    /// The resource family that defines, binds and models the case.
    pub family: FamilyRef,
    /// The case's parameters inside its family.
    pub params: Params,
    /// Access pattern.
    pub pattern: Pattern,
}

impl Case {
    /// The bytes the case reads, for `--max-working-set`: its working set where its family
    /// varies it, else the original's 16 KB input (every case that does not vary its working
    /// set reads at most that much).
    pub fn footprint(&self) -> u64 {
        match self.params.working_set {
            0 => crate::data::INPUT_BYTES as u64,
            bytes => bytes,
        }
    }

    /// One case per access pattern (in [`Pattern::ALL`] order): ids `{id}.{pattern}` and names
    /// `{name} {pattern}`, the original's naming.
    pub fn per_pattern(
        family: FamilyRef,
        suite: Suite,
        id: &str,
        name: &str,
        params: Params,
    ) -> [Case; 3] {
        Pattern::ALL.map(|pattern| Case {
            id: format!("{id}.{}", pattern.name()),
            name: format!("{name} {}", pattern.name()),
            suite,
            family,
            params,
            pattern,
        })
    }

    /// Bytes one load reads (the unit of the bytes/s figure).
    pub fn bytes_per_load(&self) -> u32 {
        self.family.bytes_per_load(self)
    }

    /// Components of the value one load returns before widening to four lanes.
    pub fn components(&self) -> u32 {
        self.params.width
    }

    /// Workgroup shape (`256x1` for buffers, `16x16` for textures, unless the family sets
    /// the case's own: [`crate::Family::case_workgroup_size`]).
    pub fn workgroup_size(&self) -> [u32; 2] {
        self.family.case_workgroup_size(self)
    }

    /// Threads in one workgroup of the case (256 unless its family says otherwise).
    pub fn threads(&self) -> u32 {
        let [x, y] = self.workgroup_size();
        x * y
    }

    /// Threads in the case's verification dispatch ([`crate::VERIFY_GROUPS`] workgroups).
    pub fn verify_threads(&self) -> u32 {
        crate::VERIFY_GROUPS.iter().product::<u32>() * self.threads()
    }

    /// The units (loads, stores...) one workgroup of the case counts: [`Work::per_group`] of
    /// its [`Case::threads`].
    pub fn ops_per_group(&self) -> u64 {
        self.work().per_group(self.threads())
    }

    /// What this case needs from the device beyond the basics.
    pub fn needs(&self) -> Vec<DeviceNeed> {
        self.family.needs(self)
    }

    /// What one thread of this case does (unit and count).
    pub fn work(&self) -> Work {
        self.family.work(self)
    }

    /// The steps of one lap of this case's chain (0 for cases that are not chains).
    pub fn chain_length(&self) -> u64 {
        self.family.chain_length(self)
    }
}

/// Decides whether `case` can run on a device with `caps`: the first missing need names the
/// reason.
pub fn support(case: &Case, caps: &DeviceCaps) -> Support {
    match case.needs().into_iter().find_map(|need| need.missing(caps)) {
        Some(reason) => Support::Skipped(reason),
        None => Support::Supported,
    }
}
