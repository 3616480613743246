//! Checking what a verification dispatch left behind against a family's CPU model.
//!
//! A verification dispatch runs [`VERIFY_GROUPS`] workgroups with the store path on: every
//! thread writes four 32-bit lanes (its sum) to the output buffer, and families that store or
//! use atomics also leave their result buffer behind. [`Readback`] holds both; each family's
//! [`crate::Family::verify`] decides, from its CPU model, whether they are right.

use crate::case::Case;
pub use crate::family::check_sums;
pub use crate::readback::{
    check_words, thread_at, Readback, VerifyOutcome, MAX_VERIFY_THREADS, VERIFY_GROUPS,
    VERIFY_THREADS,
};

/// Checks what a verification dispatch of `case` left behind against its family's CPU model.
pub fn verify(case: &Case, readback: &Readback) -> VerifyOutcome {
    case.family.verify(case, readback)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{find_case, original_cases};
    use crate::reference::{reference_sum, KernelParams, Tolerance};

    #[test]
    fn model_output_passes_and_a_corrupted_thread_fails() {
        let cases = original_cases();
        let case = find_case(&cases, "tex.load.rgba8.linear").cloned().unwrap();
        let params = KernelParams::for_case(&case);
        let mut sums: Vec<[f32; 4]> = (0..512)
            .map(|t| reference_sum(&case, params, [t % 16, (t % 256) / 16]).sum)
            .collect();
        assert!(check_sums(&case, &sums, Tolerance::DEFAULT).passed());
        sums[300][2] += 0.5;
        let outcome = check_sums(&case, &sums, Tolerance::DEFAULT);
        assert!(!outcome.passed());
        assert_eq!(outcome.mismatches, 1);
        assert!(outcome
            .first
            .unwrap()
            .starts_with("group 1 thread 44 lane 2: expected"));
    }

    #[test]
    fn nan_output_fails() {
        let cases = original_cases();
        let case = find_case(&cases, "raw.load.random").cloned().unwrap();
        let sums = vec![[f32::NAN; 4]; 256];
        assert_eq!(check_sums(&case, &sums, Tolerance::DEFAULT).mismatches, 256);
        assert!(!check_sums(&case, &[], Tolerance::DEFAULT).passed());
    }

    #[test]
    fn word_checks_are_exact() {
        let readback = Readback {
            sums: (0..512u32)
                .map(|t| [t, t + 1, 7, 0].map(f32::from_bits))
                .collect(),
            written: vec![1, 0, 0, 0, 2, 0, 0, 0],
        };
        let model = |g: u32, l: u32| {
            let t = g * 256 + l;
            [t, t + 1, 7, 0]
        };
        assert!(check_words(&readback, 256, model).passed());
        let off = check_words(&readback, 256, |g, l| {
            let mut w = model(g, l);
            w[2] += u32::from(g == 1 && l == 3);
            w
        });
        assert_eq!(off.mismatches, 1);
        assert!(off.first.unwrap().starts_with("group 1 thread 3:"));
        // The same words read as groups of 128 threads put thread 259 in group 2.
        let halves = check_words(&readback, 128, |g, l| model(g / 2, (g % 2) * 128 + l));
        assert!(halves.passed());
        assert_eq!(readback.written_word(1), Some(2));
        assert_eq!(readback.written_word(2), None);
        assert_eq!(readback.written_words(), 2);
    }
}
