//! Launches (transfer suite): what a dispatch costs to launch and to wait for. The kernel is
//! near-empty (`shaders/copies.comp`'s `launch` variant: thread 0 of each workgroup writes a
//! value to its word of a marker buffer), so what is measured is the launch, not the work.
//!
//! One "group" of a case is one launch (the [`Unit::Launch`] unit):
//! - `submit_wait`: one submission of a one-group dispatch, from `vkQueueSubmit` until the
//!   host sees its fence (the host's clock, recording excluded);
//! - `timeline_wait`: the same, the host waiting on a timeline semaphore the submission
//!   signals instead of a fence;
//! - `host_signal`: one host thread signals a timeline semaphore and another, waiting on it,
//!   wakes and signals back; half the round trip (the host's clock);
//! - `dispatch.<N>`: back-to-back dispatches of N groups in one submission, each after a
//!   barrier on the one before (GPU timestamps around them): at one group the gap a dependent
//!   dispatch pays; the difference to 1024 groups gives what a dispatch pays once
//!   ([`fixed_cost`]);
//! - `dispatch.1.independent`: one-group dispatches without barriers (how fast the queue
//!   issues independent dispatches).
//!
//! Verification: the marker words the launch's groups write are poisoned, one launch runs, and
//! each must hold [`MARKER`]; `host_signal` must have advanced the semaphore by two.

use crate::case::{Case, Params, Pattern};
use crate::check::{Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef, Unit, Work};
use crate::feature::Feature;
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The launches family.
pub struct Launches;

/// What the launch kernel writes to every marker word it owns.
pub const MARKER: u32 = 0x1a0c_4ed5;

/// Groups of the larger dispatch, whose difference to one group gives the fixed cost.
pub const LARGE_DISPATCH: u32 = 1024;

/// How a case launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Launch {
    /// A submission waited for with its fence.
    SubmitWait,
    /// A submission waited for with a timeline semaphore.
    TimelineWait,
    /// A timeline semaphore signalled by one host thread and seen by another.
    HostSignal,
    /// Back-to-back dispatches of this many groups, each after a barrier.
    Dependent(u32),
    /// Back-to-back one-group dispatches without barriers.
    Independent,
}

impl Launch {
    /// Every launch, in suite order, with its id word and its name.
    pub const ALL: [(Launch, &'static str, &'static str); 6] = [
        (
            Launch::SubmitWait,
            "submit_wait",
            "Submit + fence wait (1-group dispatch)",
        ),
        (
            Launch::TimelineWait,
            "timeline_wait",
            "Submit + timeline semaphore wait (1-group dispatch)",
        ),
        (
            Launch::HostSignal,
            "host_signal",
            "Timeline semaphore: host signal to host wake",
        ),
        (
            Launch::Dependent(1),
            "dispatch.1",
            "Dependent dispatch, 1 group",
        ),
        (
            Launch::Dependent(LARGE_DISPATCH),
            "dispatch.1024",
            "Dependent dispatch, 1024 groups",
        ),
        (
            Launch::Independent,
            "dispatch.1.independent",
            "Independent dispatch, 1 group",
        ),
    ];

    /// Whether GPU timestamps time it (dispatches in one submission) rather than the host.
    pub fn gpu_timed(self) -> bool {
        matches!(self, Launch::Dependent(_) | Launch::Independent)
    }

    /// Workgroups of one launch's dispatch (0: no dispatch).
    pub fn groups(self) -> u32 {
        match self {
            Launch::Dependent(n) => n,
            Launch::HostSignal => 0,
            _ => 1,
        }
    }
}

/// The launch of `case` (a case of this family).
pub fn launch(case: &Case) -> Launch {
    Launch::ALL
        .get(case.params.variant as usize)
        .map_or(Launch::SubmitWait, |&(l, _, _)| l)
}

/// What a dispatch pays once, in ns: the time per dispatch of one group (`one`) less the
/// groups' share of it, from the time per dispatch of `groups` groups (`many`): the line
/// through both points at zero groups. `None` when the larger dispatch is not the slower one
/// (no per-group cost to separate).
pub fn fixed_cost(one: f64, many: f64, groups: u32) -> Option<f64> {
    let per_group = (many - one) / (f64::from(groups) - 1.0);
    (groups > 1 && per_group > 0.0 && one.is_finite()).then_some(one - per_group)
}

impl Family for Launches {
    fn label(&self) -> &'static str {
        "launches"
    }

    fn title(&self) -> &'static str {
        "Launch and synchronization costs"
    }

    fn cases(&self) -> Vec<Case> {
        Launch::ALL
            .iter()
            .enumerate()
            .map(|(i, &(_, word, name))| Case {
                id: format!("xfer.launch.{word}"),
                name: name.to_string(),
                suite: Suite::Transfer,
                family: FamilyRef(&Launches),
                params: Params {
                    origin: None,
                    format: None,
                    width: 1,
                    variant: i as u32,
                    working_set: 0,
                    count: 0,
                },
                pattern: Pattern::Uniform,
            })
            .collect()
    }

    fn bytes_per_load(&self, _case: &Case) -> u32 {
        0
    }

    fn work(&self, _case: &Case) -> Work {
        Work {
            unit: Unit::Launch,
            per_thread: 1,
        }
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = vec![DeviceNeed::Feature(Feature::BufferDeviceAddress)];
        if matches!(launch(case), Launch::TimelineWait | Launch::HostSignal) {
            needs.push(DeviceNeed::Feature(Feature::TimelineSemaphore));
        }
        if launch(case) == Launch::HostSignal {
            needs.push(DeviceNeed::HostTimelineThreads);
        }
        needs
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let mut outcome = VerifyOutcome::new();
        if launch(case) == Launch::HostSignal {
            let advanced = readback.written_word(0);
            outcome.record(advanced == Some(2), || {
                format!("the semaphore advanced by {advanced:?}, not 2")
            });
            return outcome;
        }
        let groups = launch(case).groups() as usize;
        if readback.written_words() != groups {
            outcome.record(false, || {
                format!(
                    "{} marker words read back, not {groups}",
                    readback.written_words()
                )
            });
        }
        for g in 0..readback.written_words().min(groups) {
            let word = readback.written_word(g);
            outcome.record(word == Some(MARKER), || {
                format!("group {g}: marker {word:?}, expected {MARKER:#x}")
            });
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_cases_with_their_launches() {
        let cases = Launches.cases();
        assert_eq!(cases.len(), 6);
        assert_eq!(cases[0].id, "xfer.launch.submit_wait");
        assert_eq!(launch(&cases[4]), Launch::Dependent(LARGE_DISPATCH));
        assert!(launch(&cases[3]).gpu_timed() && !launch(&cases[1]).gpu_timed());
        assert!(Launches
            .needs(&cases[2])
            .contains(&DeviceNeed::Feature(Feature::TimelineSemaphore)));
        assert!(Launches
            .needs(&cases[2])
            .contains(&DeviceNeed::HostTimelineThreads));
        assert!(!Launches
            .needs(&cases[1])
            .contains(&DeviceNeed::HostTimelineThreads));
    }

    #[test]
    fn markers_pass_only_when_every_group_wrote() {
        let case = &Launches.cases()[4];
        let good: Vec<u8> = (0..LARGE_DISPATCH)
            .flat_map(|_| MARKER.to_le_bytes())
            .collect();
        let readback = |written: Vec<u8>| Readback {
            sums: Vec::new(),
            written,
        };
        assert!(Launches.verify(case, &readback(good.clone())).passed());
        let mut one_missing = good.clone();
        one_missing[4 * 700..4 * 701].fill(0);
        assert_eq!(Launches.verify(case, &readback(one_missing)).mismatches, 1);
        assert!(!Launches
            .verify(case, &readback(good[..8].to_vec()))
            .passed());
        let signal = &Launches.cases()[2];
        assert!(Launches
            .verify(signal, &readback(2u32.to_le_bytes().to_vec()))
            .passed());
        assert!(!Launches
            .verify(signal, &readback(1u32.to_le_bytes().to_vec()))
            .passed());
    }

    #[test]
    fn the_fixed_cost_is_the_line_through_both_sizes_at_zero_groups() {
        // 5 us per dispatch plus 2 ns per group.
        let one = 5_002.0;
        let many = 5_000.0 + 2.0 * 1024.0;
        let fixed = fixed_cost(one, many, 1024).unwrap_or(f64::NAN);
        assert!((fixed - 5_000.0).abs() < 1e-6, "{fixed}");
        assert_eq!(fixed_cost(10.0, 9.0, 1024), None);
        assert_eq!(fixed_cost(10.0, 20.0, 1), None);
    }
}
