//! Twin families: cases that run another case's kernel on the same data with one thing about
//! how the kernel or its buffer is created changed (robust buffer access, update-after-bind
//! descriptors, concurrent sharing). Comparing a twin with the case it copies answers whether
//! that one flag costs anything.
//!
//! A twin family is one [`Twins`] value: its label and title, the cases it copies
//! ([`Twins::originals`], by family label and id), what its flag needs and how it creates the
//! kernel; [`Twins`] is the [`Family`] and answers every other question. A
//! twin is its original with its own id (`{prefix}.{original id}`, the original's first word
//! dropped where it is [`Twins::replaces`]), name (`{original name} ({word})`), suite and
//! family; its parameters and pattern are the original's, with the original's family and suite
//! as its origin ([`crate::Origin`]), and every answer about what the kernel loads (workgroup,
//! trip count, work, constants, runtime values, CPU model, verification) is the original's,
//! asked of the original made back from the twin. The registry hands the originals in
//! ([`Family::copied_cases`]): no twin looks the registry up.

use crate::case::{Case, Origin};
use crate::check::{Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef, Unit, Work};
use crate::kernel_options::KernelOptions;
use crate::kernel_params::{KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// A twin family: what it copies, how its cases are named, and the one thing it changes.
pub struct Twins {
    /// The family's label ([`Family::label`]).
    pub label: &'static str,
    /// The family's title ([`Family::title`]).
    pub title: &'static str,
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
    /// What the changed flag needs of the device, given the original case (added to the
    /// original's needs).
    pub flag_needs: fn(&Case) -> Vec<DeviceNeed>,
    /// How the twins' kernels are created ([`Family::kernel_options`]).
    pub options: KernelOptions,
    /// Whether a twin uses its original's resources and bindings (else its family's own).
    pub original_resources: bool,
}

impl Twins {
    /// Every twin, in the order of [`Twins::originals`], as cases of `family_ref`, from
    /// `cases_of` (every case of the family with a label, as the registry lists them).
    pub fn twin_cases(
        &self,
        family_ref: FamilyRef,
        cases_of: &dyn Fn(&str) -> Vec<Case>,
    ) -> Vec<Case> {
        self.originals
            .iter()
            .filter_map(|&(label, id)| {
                let original = cases_of(label).into_iter().find(|c| c.id == id)?;
                let name = format!("{} ({})", original.name, self.word);
                Some(Origin::copy(
                    &original,
                    family_ref,
                    self.suite,
                    (self.twin_id(id), name),
                ))
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

    /// `answer` of the case `twin` copies, or `otherwise` for a case that is not a twin.
    pub fn ask<T>(&self, twin: &Case, otherwise: T, answer: impl FnOnce(&Case) -> T) -> T {
        self.original(twin).as_ref().map_or(otherwise, answer)
    }
}

impl Family for Twins {
    fn label(&self) -> &'static str {
        self.label
    }

    fn title(&self) -> &'static str {
        self.title
    }

    /// None of its own: the registry makes the twins from the originals
    /// ([`Family::copied_cases`]).
    fn cases(&self) -> Vec<Case> {
        Vec::new()
    }

    fn copied_cases(
        &self,
        me: FamilyRef,
        cases_of: &dyn Fn(&str) -> Vec<Case>,
    ) -> Option<Vec<Case>> {
        Some(self.twin_cases(me, cases_of))
    }

    /// The case `twin` copies, made back from it: the id without the prefix (with the
    /// replaced word), the name without the word, the origin's family and suite (`None` for a
    /// case that is not one of these twins).
    fn original(&self, twin: &Case) -> Option<Case> {
        let origin = twin.params.origin?;
        let rest = twin.id.strip_prefix(self.prefix)?.strip_prefix('.')?;
        let id = match self.replaces {
            "" => rest.to_string(),
            word => format!("{word}.{rest}"),
        };
        let name = twin.name.strip_suffix(&format!(" ({})", self.word))?;
        Some(origin.case(twin, id, name.to_string()))
    }

    /// The original's workgroup shape (256x1 for a case that is not a twin).
    fn case_workgroup_size(&self, case: &Case) -> [u32; 2] {
        self.ask(case, [256, 1], Case::workgroup_size)
    }

    fn case_loop_trip(&self, case: &Case) -> u32 {
        self.ask(case, 256, |o| o.family.case_loop_trip(o))
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        self.ask(case, 0, Case::bytes_per_load)
    }

    fn work(&self, case: &Case) -> Work {
        let loads = Work {
            unit: Unit::Load,
            per_thread: 256,
        };
        self.ask(case, loads, Case::work)
    }

    /// The original's needs, then what the changed flag needs ([`Twins::flag_needs`]).
    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        self.ask(case, Vec::new(), |o| {
            let mut needs = o.needs();
            needs.extend((self.flag_needs)(o));
            needs
        })
    }

    fn constants(&self, case: &Case) -> [u32; 3] {
        self.ask(case, [0; 3], |o| o.family.constants(o))
    }

    fn kernel_options(&self, _case: &Case) -> KernelOptions {
        self.options
    }

    fn kernel_params(&self, case: &Case) -> KernelParams {
        self.ask(case, KernelParams::default(), |o| o.family.kernel_params(o))
    }

    /// The original's CPU model (NaN, which nothing matches, for a case that is not a twin).
    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        let nothing = ReferenceSum {
            sum: [f32::NAN; 4],
            abs_sum: [0.0; 4],
        };
        self.ask(case, nothing, |o| o.family.reference(o, params, local))
    }

    fn resource_case_id(&self, case: &Case) -> Option<String> {
        self.original_resources
            .then(|| self.original(case).map(|original| original.id))
            .flatten()
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        match self.original(case) {
            Some(o) => o.family.verify(&o, readback),
            None => VerifyOutcome::unusable(format!("{} copies no known case", case.id)),
        }
    }
}
