//! Comparing a verification read-back with the CPU model of the case.

use perftest_cases::{reference_sum, Case, KernelParams, Tolerance, THREADS_PER_GROUP};

/// The first thread whose sum is outside the tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Workgroup (linear index) of the thread.
    pub group: u32,
    /// Local index of the thread inside its workgroup.
    pub local_index: u32,
    /// Lane (0..4) that differs first.
    pub lane: usize,
    /// What the CPU model computed.
    pub expected: f32,
    /// What the GPU wrote.
    pub got: f32,
}

/// Outcome of checking one case.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyOutcome {
    /// Threads compared.
    pub threads: usize,
    /// Threads that did not match.
    pub mismatches: usize,
    /// The first one, if any.
    pub first: Option<Mismatch>,
}

impl VerifyOutcome {
    /// True when every thread matched.
    pub fn passed(&self) -> bool {
        self.threads > 0 && self.mismatches == 0
    }
}

/// Compares GPU sums (workgroup-major, [`THREADS_PER_GROUP`] per group) with the model.
pub fn check(case: &Case, sums: &[[f32; 4]], tolerance: Tolerance) -> VerifyOutcome {
    let params = KernelParams::for_case(case);
    let [wx, _] = case.workgroup_size();
    // Every workgroup computes the same sums, so the model is evaluated once per local index.
    let model: Vec<_> = (0..THREADS_PER_GROUP)
        .map(|l| reference_sum(case, params, [l % wx, l / wx]))
        .collect();
    let mut outcome = VerifyOutcome {
        threads: sums.len(),
        mismatches: 0,
        first: None,
    };
    for (t, got) in sums.iter().enumerate() {
        let local = t % THREADS_PER_GROUP as usize;
        let want = &model[local];
        let bad =
            (0..4).find(|&lane| !tolerance.accepts(got[lane], want.sum[lane], want.abs_sum[lane]));
        if let Some(lane) = bad {
            outcome.mismatches += 1;
            if outcome.first.is_none() {
                outcome.first = Some(Mismatch {
                    group: (t / THREADS_PER_GROUP as usize) as u32,
                    local_index: local as u32,
                    lane,
                    expected: want.sum[lane],
                    got: got[lane],
                });
            }
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_cases::{find_case, original_cases};

    #[test]
    fn model_output_passes_and_a_corrupted_thread_fails() {
        let cases = original_cases();
        let case = find_case(&cases, "tex.load.rgba8.linear").cloned().unwrap();
        let params = KernelParams::for_case(&case);
        let mut sums: Vec<[f32; 4]> = (0..512)
            .map(|t| reference_sum(&case, params, [t % 16, (t % 256) / 16]).sum)
            .collect();
        assert!(check(&case, &sums, Tolerance::DEFAULT).passed());
        sums[300][2] += 0.5;
        let outcome = check(&case, &sums, Tolerance::DEFAULT);
        assert!(!outcome.passed());
        assert_eq!(outcome.mismatches, 1);
        let first = outcome.first.unwrap();
        assert_eq!((first.group, first.local_index, first.lane), (1, 44, 2));
    }

    #[test]
    fn nan_output_fails() {
        let cases = original_cases();
        let case = find_case(&cases, "raw.load.random").cloned().unwrap();
        let sums = vec![[f32::NAN; 4]; 256];
        assert_eq!(check(&case, &sums, Tolerance::DEFAULT).mismatches, 256);
        assert!(!check(&case, &[], Tolerance::DEFAULT).passed());
    }
}
