//! Fragment-shader loads (graphics suite): every original case's loop, run by the fragments of
//! 16x16 tiles instead of the threads of a workgroup (`FRAGMENT` variants of the original
//! families' shaders, `shaders/tiles.vert`). A tile is one workgroup: the fragment's place in
//! its tile is the thread's local ID, so each case uses its compute twin's resources, bindings
//! and CPU model unchanged. Params: the twin's, with the twin's family and suite as the
//! origin ([`crate::Origin`]); the registry hands the twins in ([`Family::copied_cases`]).

use crate::case::{Case, Origin};
use crate::check::{Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef, Work};
use crate::reference::{KernelParams, ReferenceSum};
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The fragment-loads family.
pub struct FragmentLoads;

/// The families of the original suite, by their labels in the registry, in the original's
/// order: their loops are the ones this family runs in a fragment shader.
const TWIN_FAMILIES: [&str; 6] = [
    "typed_buffer",
    "raw_buffer",
    "structured_buffer",
    "uniform_buffer",
    "texture_load",
    "texture_sample",
];

/// What a fragment-shader case's name adds to its twin's.
const NAME_SUFFIX: &str = " (fragment)";

/// The compute twin of a case of this family, made back from it: the id without `frag.`, the
/// name without ` (fragment)`, the origin's family and suite.
fn twin_of(case: &Case) -> Option<Case> {
    let origin = case.params.origin?;
    let id = case.id.strip_prefix("frag.")?;
    let name = case.name.strip_suffix(NAME_SUFFIX)?;
    Some(origin.case(case, id.to_string(), name.to_string()))
}

/// The id of the fragment-shader case whose twin has id `twin` (`frag.` and the twin's id).
pub fn fragment_id(twin: &str) -> String {
    format!("frag.{twin}")
}

impl Family for FragmentLoads {
    fn label(&self) -> &'static str {
        "fragment_loads"
    }

    fn title(&self) -> &'static str {
        "Fragment-shader loads"
    }

    /// None of its own: the registry makes them from the original suite's cases
    /// ([`Family::copied_cases`]).
    fn cases(&self) -> Vec<Case> {
        Vec::new()
    }

    /// Every original-suite case of the typed, raw, structured and uniform buffer families and
    /// of texture loads and samples, in the original's order, run by fragments.
    fn copied_cases(
        &self,
        me: FamilyRef,
        cases_of: &dyn Fn(&str) -> Vec<Case>,
    ) -> Option<Vec<Case>> {
        let twins = TWIN_FAMILIES
            .into_iter()
            .flat_map(cases_of)
            .filter(|c| c.suite == Suite::Original);
        let copy = |twin: Case| {
            let names = (fragment_id(&twin.id), format!("{}{NAME_SUFFIX}", twin.name));
            Origin::copy(&twin, me, Suite::Graphics, names)
        };
        Some(twins.map(copy).collect())
    }

    fn workgroup_size(&self) -> [u32; 2] {
        [16, 16]
    }

    fn case_loop_trip(&self, case: &Case) -> u32 {
        twin_of(case).map_or(0, |t| t.family.case_loop_trip(&t))
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        twin_of(case).map_or(0, |t| t.bytes_per_load())
    }

    fn work(&self, case: &Case) -> Work {
        match twin_of(case) {
            Some(t) => t.work(),
            None => Work {
                unit: crate::family::Unit::Load,
                per_thread: 0,
            },
        }
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = vec![DeviceNeed::GraphicsQueue];
        needs.extend(twin_of(case).map(|t| t.needs()).unwrap_or_default());
        needs
    }

    fn constants(&self, case: &Case) -> [u32; 3] {
        twin_of(case).map_or([0; 3], |t| t.family.constants(&t))
    }

    fn kernel_params(&self, case: &Case) -> KernelParams {
        twin_of(case).map_or_else(KernelParams::default, |t| t.family.kernel_params(&t))
    }

    fn reference(&self, case: &Case, params: KernelParams, local: [u32; 2]) -> ReferenceSum {
        // The tile is 16x16 where the twin's workgroup may be 256x1: the same local index.
        let index = local[1] * 16 + local[0];
        match twin_of(case) {
            Some(t) => {
                let [wx, _] = t.workgroup_size();
                t.family.reference(&t, params, [index % wx, index / wx])
            }
            None => ReferenceSum {
                sum: [f32::NAN; 4],
                abs_sum: [0.0; 4],
            },
        }
    }

    fn twin(&self, case: &Case) -> Option<Case> {
        twin_of(case)
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        match twin_of(case) {
            Some(t) => t.family.verify(&t, readback),
            None => VerifyOutcome::unusable(format!("{} has no compute twin", case.id)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::cases_in;

    #[test]
    fn every_original_case_has_one_fragment_twin() {
        let original = cases_in(&[Suite::Original]);
        let fragment = crate::families::family_cases(&FragmentLoads);
        assert_eq!(fragment.len(), original.len());
        for (f, o) in fragment.iter().zip(&original) {
            assert_eq!(f.id, fragment_id(&o.id));
            assert_eq!(FragmentLoads.twin(f).as_ref(), Some(o));
            assert_eq!(o.params.count, 0, "{} uses count", o.id);
            assert_eq!((f.pattern, f.params.width), (o.pattern, o.params.width));
            assert_eq!(f.work(), o.work());
            assert_eq!(f.bytes_per_load(), o.bytes_per_load());
            assert!(f.needs().contains(&DeviceNeed::GraphicsQueue));
        }
    }

    #[test]
    fn the_model_is_the_twins_at_the_same_local_index() {
        let fragment = crate::families::family_cases(&FragmentLoads);
        let case = fragment
            .iter()
            .find(|c| c.id == "frag.typed.rgba8.linear")
            .expect("the case exists");
        let twin = FragmentLoads.twin(case).expect("a twin");
        let params = FragmentLoads.kernel_params(case);
        // Fragment (3, 2) of its tile is local index 35, thread 35 of the 256x1 twin.
        let ours = FragmentLoads.reference(case, params, [3, 2]);
        let theirs = twin.family.reference(&twin, params, [35, 0]);
        assert_eq!(ours.sum, theirs.sum);
        let other = twin.family.reference(&twin, params, [36, 0]);
        assert_ne!(ours.sum, other.sum);
    }
}
