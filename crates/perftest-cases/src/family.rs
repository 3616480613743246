//! What a resource family is to the shared machinery: the [`Family`] trait each family module
//! implements, and [`FamilyRef`], the handle a [`Case`] keeps to its family.

use crate::case::Case;
use crate::format::Format;
use crate::reference::{KernelParams, ReferenceSum};
use crate::support::FormatFeature;

/// One resource family: its cases, their parameters, what they need and what they compute.
///
/// A family lives in one module of `families/` and is listed once in
/// [`crate::families::FAMILIES`]; `perftest-core` pairs it, by [`Family::label`], with the
/// resources, bindings and SPIR-V its kernels use. Nothing outside the family's module looks at
/// a case's [`crate::Params`].
pub trait Family: Send + Sync {
    /// The family's stable word (`typed_buffer`): registry key, report field, shader name.
    fn label(&self) -> &'static str;

    /// The family's name for people, plural (`Typed buffers`): report headings.
    fn title(&self) -> &'static str;

    /// Every case of the family, in suite order.
    fn cases(&self) -> Vec<Case>;

    /// Workgroup shape of every kernel of the family.
    fn workgroup_size(&self) -> [u32; 2] {
        [256, 1]
    }

    /// Loop trip count of the kernels (per axis, for 2D loops): the `LOADS` specialization
    /// constant.
    fn loop_trip(&self) -> u32 {
        256
    }

    /// Bytes one load of `case` reads.
    fn bytes_per_load(&self, case: &Case) -> u32;

    /// The format features `case` needs, with the format that needs them (default: none).
    fn required_features(&self, _case: &Case) -> Vec<(Format, FormatFeature)> {
        Vec::new()
    }

    /// The runtime values (push constants) the kernel of `case` reads.
    fn kernel_params(&self, _case: &Case) -> KernelParams {
        KernelParams {
            elements_mask: 0,
            read_start_address: 0,
        }
    }

    /// The CPU model: what the thread at `local` of `case` must write in verification mode.
    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum;
}

/// A case's handle to its family: compares, hashes and prints as the family's label.
#[derive(Clone, Copy)]
pub struct FamilyRef(pub &'static dyn Family);

impl std::ops::Deref for FamilyRef {
    type Target = dyn Family;
    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl PartialEq for FamilyRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.label() == other.0.label()
    }
}

impl Eq for FamilyRef {}

impl std::hash::Hash for FamilyRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.label().hash(state);
    }
}

impl std::fmt::Debug for FamilyRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.label())
    }
}
