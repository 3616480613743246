//! Reports of different GPUs, APIs or tools compared: the matrix of cases by GPU (each GPU
//! relative to its own baseline case, [`crate::gpu_matrix::matrix`]), the advice that holds across
//! the GPUs ([`crate::gpu_matrix`]), for a GPU that appears under two or more APIs or tools what
//! its reports answer differently ([`crate::apis`]), and each vendor claim's verdicts over the
//! reports ([`crate::guidance::across`]).
//!
//! Each report's throughputs and findings are read once ([`Reading`]) and shared by the
//! advice, the same-GPU comparison and the guidance.

use crate::apis::{distinct_gpus, same_gpu_with, SameGpu};
use crate::findings::Reading;
use crate::gpu_matrix::{advice_with, matrix, Matrix, Verdict};
use crate::guidance::{across_with, AcrossVerdict};
use crate::schema::Report;

/// Within this share of the best, a path counts as best on a GPU (5%).
pub const MARGIN: f64 = 0.05;

/// The comparison of reports of different GPUs, APIs or tools.
#[derive(Clone, Debug)]
pub struct CrossGpu {
    /// Cases by GPU.
    pub matrix: Matrix,
    /// Advice across the GPUs.
    pub advice: Vec<Verdict>,
    /// The GPUs that appear under two or more APIs or tools.
    pub same_gpu: Vec<SameGpu>,
    /// Each vendor claim's verdicts over the reports: on how many it holds, with the
    /// exceptions.
    pub guidance: Vec<AcrossVerdict>,
}

/// Compares `reports` (each with the file it was read from) of different GPUs.
pub fn cross_gpu(reports: &[(&str, &Report)]) -> CrossGpu {
    let matrix = matrix(reports);
    let refs: Vec<&Report> = reports.iter().map(|(_, r)| *r).collect();
    let readings: Vec<Reading> = refs.iter().map(|r| Reading::of(r)).collect();
    let advice = advice_with(&readings, &matrix.columns, MARGIN);
    let same_gpu = same_gpu_with(&readings, &matrix.columns, MARGIN);
    let guidance = across_with(&refs, &readings);
    CrossGpu {
        matrix,
        advice,
        same_gpu,
        guidance,
    }
}

impl CrossGpu {
    /// The claims at least one report judges.
    pub fn judged(&self) -> impl Iterator<Item = &AcrossVerdict> {
        self.guidance
            .iter()
            .filter(|v| v.holds + v.does_not_hold > 0)
    }

    /// How many reports the matrix holds, and of how many GPUs (fewer where a GPU appears
    /// under several APIs or tools).
    pub fn counts(&self) -> (usize, usize) {
        let columns = &self.matrix.columns;
        (columns.len(), distinct_gpus(columns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::same_gpu;
    use crate::gpu_matrix::{advice, matrix};
    use crate::guidance::across;
    use crate::samples::{as_published, sample_report};

    /// The comparison reads each report once and finds what the parts find on their own.
    #[test]
    fn the_parts_agree_with_their_own_reading() {
        let mut reports = Vec::new();
        for (i, name) in ["GPU A", "GPU B", "GPU B"].iter().enumerate() {
            let mut r = sample_report();
            r.device.name = (*name).to_string();
            if i == 2 {
                as_published(&mut r, "b.txt");
            }
            reports.push(r);
        }
        let pairs: Vec<(&str, &Report)> = ["a", "b", "c"].into_iter().zip(&reports).collect();
        let refs: Vec<&Report> = reports.iter().collect();
        let cross = cross_gpu(&pairs);
        let columns = &matrix(&pairs).columns;
        assert_eq!(cross.advice, advice(&refs, columns, MARGIN));
        assert_eq!(cross.same_gpu, same_gpu(&refs, columns, MARGIN));
        assert_eq!(cross.guidance, across(&refs));
        assert_eq!(cross.counts(), (3, 2));
        assert!(cross.judged().all(|v| v.holds + v.does_not_hold > 0));
    }
}
