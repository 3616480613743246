//! One claim's verdicts across GPUs: on how many it holds, does not hold or is not measured,
//! and the GPUs that are the exception.

use crate::schema::Report;

use crate::findings::Reading;

use super::guidance_with;
use super::types::{AcrossVerdict, Outcome};

/// Per claim (in the order of [`super::claims`]), its verdicts over `reports`, one per GPU.
pub fn across(reports: &[&Report]) -> Vec<AcrossVerdict> {
    let readings: Vec<Reading> = reports.iter().map(|r| Reading::of(r)).collect();
    across_with(reports, &readings)
}

/// [`across`] of `reports` with their `readings` ([`Reading::of`] each report, in the same
/// order).
pub fn across_with(reports: &[&Report], readings: &[Reading]) -> Vec<AcrossVerdict> {
    let per_gpu: Vec<(&str, Vec<super::Verdict>)> = reports
        .iter()
        .zip(readings)
        .map(|(r, read)| {
            (
                r.device.name.as_str(),
                guidance_with(r, &read.rates, &read.findings),
            )
        })
        .collect();
    let Some((_, first)) = per_gpu.first() else {
        return super::claims()
            .map(|c| summary(c.id, c.vendor, c.claim, &[]))
            .collect();
    };
    first
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let outcomes: Vec<(&str, Outcome)> = per_gpu
                .iter()
                .filter_map(|(name, vs)| Some((*name, vs.get(i)?.verdict)))
                .collect();
            summary(&v.id, &v.vendor, &v.claim, &outcomes)
        })
        .collect()
}

/// A claim's summary from its outcome per GPU (by name).
fn summary(id: &str, vendor: &str, claim: &str, outcomes: &[(&str, Outcome)]) -> AcrossVerdict {
    let count = |o: Outcome| outcomes.iter().filter(|(_, x)| *x == o).count();
    let holds = count(Outcome::Holds);
    let does_not_hold = count(Outcome::DoesNotHold);
    let usual = match holds.cmp(&does_not_hold) {
        std::cmp::Ordering::Greater => Outcome::Holds,
        std::cmp::Ordering::Less => Outcome::DoesNotHold,
        std::cmp::Ordering::Equal => Outcome::NotMeasured,
    };
    let exception = match usual {
        Outcome::Holds | Outcome::NotMeasured => Outcome::DoesNotHold,
        Outcome::DoesNotHold => Outcome::Holds,
    };
    AcrossVerdict {
        id: id.to_string(),
        vendor: vendor.to_string(),
        claim: claim.to_string(),
        holds,
        does_not_hold,
        not_measured: count(Outcome::NotMeasured),
        usual,
        exceptions: outcomes
            .iter()
            .filter(|(_, o)| *o == exception)
            .map(|(name, _)| (*name).to_string())
            .collect(),
    }
}
