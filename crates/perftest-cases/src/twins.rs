//! Twin families: cases that run another case's kernel on the same data with one thing about
//! how the kernel or its buffer is created changed (robust buffer access, update-after-bind
//! descriptors, concurrent sharing). Comparing a twin with the case it copies answers whether
//! that one flag costs anything.
//!
//! A twin family lists the cases it copies ([`Twins::originals`], by family label and id). A
//! twin is its original with its own id (`{prefix}.{original id}`, the original's first word
//! dropped where it is [`Twins::replaces`]), name (`{original name} ({word})`), suite and
//! family; its parameters and pattern are the original's, and every
//! answer about what the kernel loads (workgroup, trip count, work, constants, runtime values,
//! CPU model, verification) is the original's, asked of the original through the registry.

use crate::case::Case;
use crate::check::{Readback, VerifyOutcome};
use crate::families::{case_for_id, family};
use crate::family::{FamilyRef, Unit, Work};
use crate::kernel_params::{KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// What a twin family copies and how its cases are named.
pub struct Twins {
    /// The id prefix (`mem.robust`): a twin's id is `{prefix}.{original id}`.
    pub prefix: &'static str,
    /// The first word of the originals' ids that the prefix replaces (`modern`, so that the
    /// twin of `modern.slot.uniform.load.linear` is `modern.uab.slot.uniform.load.linear`);
    /// empty for none.
    pub replaces: &'static str,
    /// The word a twin's name adds in parentheses (`robust`).
    pub word: &'static str,
    /// The suite of the twins.
    pub suite: Suite,
    /// The cases copied, in suite order: (family label, case id).
    pub originals: &'static [(&'static str, &'static str)],
}

impl Twins {
    /// Every twin, in the order of [`Twins::originals`], as cases of `family`. Reads the
    /// originals' families through the registry (never the case index, which lists these
    /// twins too).
    pub fn cases(&self, family_ref: FamilyRef) -> Vec<Case> {
        self.originals
            .iter()
            .filter_map(|&(label, id)| {
                let original = family(label)?.cases().into_iter().find(|c| c.id == id)?;
                Some(Case {
                    id: self.twin_id(id),
                    name: format!("{} ({})", original.name, self.word),
                    suite: self.suite,
                    family: family_ref,
                    ..original
                })
            })
            .collect()
    }

    /// The id of the twin of the case `original`.
    pub fn twin_id(&self, original: &str) -> String {
        let rest = original
            .strip_prefix(self.replaces)
            .and_then(|r| r.strip_prefix('.'))
            .filter(|_| !self.replaces.is_empty())
            .unwrap_or(original);
        format!("{}.{rest}", self.prefix)
    }

    /// The case `twin` copies (`None` for a case that is not one of these twins).
    pub fn original(&self, twin: &Case) -> Option<Case> {
        let rest = twin.id.strip_prefix(self.prefix)?.strip_prefix('.')?;
        if self.replaces.is_empty() {
            case_for_id(rest)
        } else {
            case_for_id(&format!("{}.{rest}", self.replaces))
        }
    }

    /// `answer` of the case `twin` copies, or `otherwise` for a case that is not a twin.
    pub fn ask<T>(&self, twin: &Case, otherwise: T, answer: impl FnOnce(&Case) -> T) -> T {
        self.original(twin).as_ref().map_or(otherwise, answer)
    }

    /// The original's workgroup shape (256x1 for a case that is not a twin).
    pub fn workgroup_size(&self, twin: &Case) -> [u32; 2] {
        self.ask(twin, [256, 1], Case::workgroup_size)
    }

    /// The original's loop trip count.
    pub fn loop_trip(&self, twin: &Case) -> u32 {
        self.ask(twin, 256, |o| o.family.case_loop_trip(o))
    }

    /// The original's bytes per load.
    pub fn bytes_per_load(&self, twin: &Case) -> u32 {
        self.ask(twin, 0, Case::bytes_per_load)
    }

    /// The original's work per thread.
    pub fn work(&self, twin: &Case) -> Work {
        let loads = Work {
            unit: Unit::Load,
            per_thread: 256,
        };
        self.ask(twin, loads, Case::work)
    }

    /// The original's needs, then `extra` (what the twin's flag needs).
    pub fn needs(&self, twin: &Case, extra: &[DeviceNeed]) -> Vec<DeviceNeed> {
        let mut needs = self.ask(twin, Vec::new(), Case::needs);
        needs.extend_from_slice(extra);
        needs
    }

    /// The original's specialization constants 5..=7.
    pub fn constants(&self, twin: &Case) -> [u32; 3] {
        self.ask(twin, [0; 3], |o| o.family.constants(o))
    }

    /// The original's runtime values.
    pub fn kernel_params(&self, twin: &Case) -> KernelParams {
        self.ask(twin, KernelParams::default(), |o| o.family.kernel_params(o))
    }

    /// The original's CPU model (NaN, which nothing matches, for a case that is not a twin).
    pub fn reference(&self, twin: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let nothing = ReferenceSum {
            sum: [f32::NAN; 4],
            abs_sum: [0.0; 4],
        };
        self.ask(twin, nothing, |o| o.family.reference(o, params, local))
    }

    /// The original's check of what a verification dispatch left behind.
    pub fn verify(&self, twin: &Case, readback: &Readback) -> VerifyOutcome {
        let unknown = || VerifyOutcome::unusable(format!("{} copies no known case", twin.id));
        match self.original(twin) {
            Some(o) => o.family.verify(&o, readback),
            None => unknown(),
        }
    }
}
