//! What a verification dispatch leaves behind and the outcome of checking it.
//!
//! A verification dispatch runs [`VERIFY_GROUPS`] workgroups with the store path on: every
//! thread writes four 32-bit lanes (its sum) to the output buffer, and families that store or
//! use atomics also leave their result buffer behind. [`Readback`] holds both.

use crate::kernel_params::{MAX_THREADS_PER_GROUP, THREADS_PER_GROUP};

/// Workgroups of a verification dispatch (`[x, y, z]`): 4 groups, so the group-index math in
/// the store path is exercised along X and Z.
pub const VERIFY_GROUPS: [u32; 3] = [2, 1, 2];

/// Threads in a verification dispatch of a case of [`THREADS_PER_GROUP`] threads per group (a
/// case's own count is [`crate::Case::verify_threads`]).
pub const VERIFY_THREADS: u32 = 4 * THREADS_PER_GROUP;

/// Threads in the largest verification dispatch: four groups of [`MAX_THREADS_PER_GROUP`]
/// (the verification output's size, in four-lane sums).
pub const MAX_VERIFY_THREADS: u32 = 4 * MAX_THREADS_PER_GROUP;

/// What a verification dispatch left behind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Readback {
    /// Every thread's four output lanes, ordered by workgroup (linear index
    /// `x + nx * (y + ny * z)`) then local index.
    pub sums: Vec<[f32; 4]>,
    /// The family's result buffer (stores, atomics), cleared to zero before the dispatch;
    /// empty for families without one.
    pub written: Vec<u8>,
}

impl Readback {
    /// The output lanes of thread `t` as raw 32-bit words (for kernels that write integers).
    pub fn words(&self, t: usize) -> Option<[u32; 4]> {
        self.sums.get(t).map(|s| s.map(f32::to_bits))
    }

    /// Word `i` of the result buffer (little-endian).
    pub fn written_word(&self, i: usize) -> Option<u32> {
        let b = self.written.get(4 * i..4 * i + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Words in the result buffer.
    pub fn written_words(&self) -> usize {
        self.written.len() / 4
    }
}

/// Outcome of checking one case.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyOutcome {
    /// Values compared (thread lanes, buffer elements or counters).
    pub checked: usize,
    /// Values that did not match.
    pub mismatches: usize,
    /// The first mismatch, described (`group 1 thread 7 lane 2: expected 1.5, got 2`).
    pub first: Option<String>,
}

impl VerifyOutcome {
    /// True when something was compared and everything matched.
    pub fn passed(&self) -> bool {
        self.checked > 0 && self.mismatches == 0
    }

    /// An empty outcome, to record comparisons into.
    pub fn new() -> Self {
        VerifyOutcome {
            checked: 0,
            mismatches: 0,
            first: None,
        }
    }

    /// Records one comparison; `describe` is called for the first mismatch only.
    pub fn record(&mut self, ok: bool, describe: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok {
            self.mismatches += 1;
            if self.first.is_none() {
                self.first = Some(describe());
            }
        }
    }

    /// A failed outcome for a result that cannot be compared at all (e.g. too short).
    pub fn unusable(why: impl Into<String>) -> Self {
        VerifyOutcome {
            checked: 1,
            mismatches: 1,
            first: Some(why.into()),
        }
    }
}

impl Default for VerifyOutcome {
    fn default() -> Self {
        Self::new()
    }
}

/// Where thread `t` of a verification dispatch of `threads` threads per group sits:
/// `(group, local index)`.
pub fn thread_at(t: usize, threads: u32) -> (u32, u32) {
    let per_group = threads.max(1) as usize;
    ((t / per_group) as u32, (t % per_group) as u32)
}

/// Checks every thread's four output words exactly against `model(group, local)` (for kernels
/// that sum integers with wrapping adds), `threads` threads per group.
pub fn check_words(
    readback: &Readback,
    threads: u32,
    model: impl Fn(u32, u32) -> [u32; 4],
) -> VerifyOutcome {
    let mut outcome = VerifyOutcome::new();
    for t in 0..readback.sums.len() {
        let (group, local) = thread_at(t, threads);
        let want = model(group, local);
        let got = readback.words(t).unwrap_or_default();
        outcome.record(want == got, || {
            format!("group {group} thread {local}: expected {want:08x?}, got {got:08x?}")
        });
    }
    outcome
}

/// The read-back of four workgroups of 256 threads whose words are `model(group, local)`
/// (for the families' tests of their models).
#[cfg(test)]
pub(crate) fn words_readback(model: impl Fn(u32, u32) -> [u32; 4]) -> Readback {
    Readback {
        sums: (0..1024u32)
            .map(|t| model(t / 256, t % 256).map(f32::from_bits))
            .collect(),
        written: Vec::new(),
    }
}
