//! The best-path findings: the fastest resource type per load width, and the case that moves
//! the most bytes (per clock and shader unit where both are known).

use perftest_cases::Unit;

use crate::clock::{clock, rate_clock_of};
use crate::derived::{shader_units, unit_words};
use crate::schema::{CaseResult, Report};

use super::rates::{per_s, Rate, Rates};
use super::types::Finding;

/// The widths the best-path findings answer for, with their ids.
const WIDTHS: [(u32, &str); 2] = [(16, "best.16byte"), (4, "best.4byte")];

/// Within this fraction of the fastest, a case ties with it: no fastest is crowned.
pub const TIE: f64 = 0.03;

/// The resource types `best.type.*` answers for: (id suffix, words, case id prefix).
const TYPES: [(&str, &str, &str); 6] = [
    ("typed", "typed buffers", "typed."),
    ("raw", "raw buffers", "raw."),
    ("structured", "structured buffers", "structured."),
    ("cbuffer", "constant buffers", "cbuffer."),
    ("texture", "texture loads", "tex.load."),
    ("sample", "texture sampling", "tex.sample."),
];

/// The best-path findings of `report`.
pub fn best_paths(report: &Report, rates: &Rates) -> Vec<Finding> {
    let mut out = Vec::new();
    for (bytes, id) in WIDTHS {
        out.extend(best_of_width(report, rates, bytes, id));
    }
    out.extend(most_bytes(report, rates));
    out.extend(TYPES.iter().filter_map(|t| best_of_type(report, rates, *t)));
    out.extend(texel_peak(report, rates));
    out
}

/// `peak.texel`: the fastest sampling case (of those [`ranked_case`] admits) in texels per
/// clock and unit, against the rate the vendor publishes (`value` the share of it), where the
/// report has the published rate, a clock and the units.
fn texel_peak(report: &Report, rates: &Rates) -> Option<Finding> {
    let peak = report.device.peak_per_unit?.texels_per_clock;
    let hz = clock(report)?.mhz * 1e6;
    let units = f64::from(shader_units(report)?);
    let (id, best) = report
        .cases
        .iter()
        .filter(ranked_case(report))
        .filter(|c| c.name.contains(".Sample("))
        .filter_map(|c| Some((c.id.as_str(), rates.get(&c.id)?)))
        .max_by(|a, b| a.1.per_s.total_cmp(&b.1.per_s))?;
    let per_clock = best.per_s / hz / units;
    let (unit, _) = unit_words(report.device.vendor_id);
    let share = per_clock / f64::from(peak.max(1));
    Some(Finding {
        id: "peak.texel".to_string(),
        statement: format!(
            "Sampling reaches {per_clock:.2} texels per clock and {unit} ({}), {:.0}% of the \
             {peak} the driver publishes.",
            best.name,
            share * 100.0
        ),
        value: share,
        cases: vec![id.to_string()],
        beyond_noise: None,
    })
}

/// Which cases the fastest-overall findings rank: the original suite's where the report has
/// them (they load every resource type and width in the L1), else every case.
fn ranked_case(report: &Report) -> impl Fn(&&CaseResult) -> bool {
    let original = report.cases.iter().any(in_original);
    move |c| !original || in_original(c)
}

/// Whether `case` is of the original suite (reports older than suites hold only those).
fn in_original(case: &CaseResult) -> bool {
    case.suite.as_deref().is_none_or(|s| s == "original")
}

/// The original suite's measured loads with linear addresses, as (id, rate): the ways to load
/// plain data, so not sampling (a filter is not a load of the data as stored).
fn linear_original<'a>(report: &'a Report, rates: &'a Rates) -> Vec<(&'a str, &'a Rate)> {
    report
        .cases
        .iter()
        .filter(|c| c.suite.as_deref().is_none_or(|s| s == "original"))
        .filter(|c| c.id.ends_with(".linear") && !c.id.contains("unaligned"))
        .filter(|c| !c.id.starts_with("tex.sample."))
        .filter_map(|c| Some((c.id.as_str(), rates.get(&c.id)?)))
        .collect()
}

/// The fastest resource type for per-lane loads of `bytes` bytes (linear addresses), with
/// `value` = its throughput over the runner-up's.
fn best_of_width(report: &Report, rates: &Rates, bytes: u32, id: &str) -> Option<Finding> {
    let mut ranked: Vec<(&str, &Rate)> = linear_original(report, rates)
        .into_iter()
        .filter(|(_, r)| r.bytes_per_load == bytes)
        .collect();
    ranked.sort_by(|a, b| b.1.per_s.total_cmp(&a.1.per_s));
    let (_, best) = *ranked.first()?;
    let noise = ranked
        .get(1)
        .and_then(|(_, next)| super::rates::beyond_noise(best, next));
    let value = ranked
        .get(1)
        .map_or(1.0, |(_, next)| best.per_s / next.per_s);
    let tied = ranked
        .iter()
        .take_while(|(_, r)| ties(best, r))
        .count()
        .max(if noise == Some(false) { 2 } else { 1 })
        .min(ranked.len());
    let names: Vec<String> = ranked[..tied]
        .iter()
        .map(|(_, r)| format!("{} ({})", r.name, per_s(r.per_s)))
        .collect();
    let lead = if tied > 1 {
        format!(
            "No {bytes}-byte per-lane load (linear) is the fastest: {} tie within 3% or the noise",
            names.join(", ")
        )
    } else {
        format!(
            "The fastest {bytes}-byte per-lane load (linear) is {}",
            names[0]
        )
    };
    let rest = match (ranked.get(tied), ranked.last()) {
        (Some((_, next)), Some((_, last))) => format!(
            ", {:.2}x the next, {} ({}), and {:.2}x the slowest, {}",
            ranked[tied - 1].1.per_s / next.per_s,
            next.name,
            per_s(next.per_s),
            best.per_s / last.per_s,
            last.name
        ),
        _ => String::new(),
    };
    Some(Finding {
        id: id.to_string(),
        statement: format!("{lead}{rest}."),
        value,
        cases: ranked.iter().map(|(id, _)| (*id).to_string()).collect(),
        beyond_noise: noise,
    })
}

/// Whether `r` ties with `best`: within [`TIE`] of it.
fn ties(best: &Rate, r: &Rate) -> bool {
    best.per_s / r.per_s <= 1.0 + TIE
}

/// `best.type.<type>`: the per-lane case of one resource type that moves the most bytes per
/// second, with the cases tied with it (within [`TIE`]); `value` is its bytes per second, or
/// its bytes per clock and shader unit where the report has a clock and the units.
fn best_of_type(
    report: &Report,
    rates: &Rates,
    (key, words, prefix): (&str, &str, &str),
) -> Option<Finding> {
    let mut ranked: Vec<(&str, &Rate, f64)> = report
        .cases
        .iter()
        .filter(|c| c.suite.as_deref().is_none_or(|s| s == "original"))
        .filter(|c| c.id.starts_with(prefix) && !c.id.ends_with(".uniform"))
        .filter_map(|c| {
            let r = rates.get(&c.id)?;
            Some((c.id.as_str(), r, r.bytes_per_s?))
        })
        .collect();
    aligned_lead(&mut ranked);
    let (id, best, bytes) = *ranked.first()?;
    let case = report.cases.iter().find(|c| c.id == id)?;
    let per_clock = rate_clock_of(report, case)
        .zip(shader_units(report))
        .map(|(mhz, u)| bytes / (mhz * 1e6) / f64::from(u));
    let (unit, _) = unit_words(report.device.vendor_id);
    let figure = match per_clock {
        Some(b) => format!("{b:.1} bytes per clock and {unit}"),
        None => format!("{:.1} GB/s", bytes / 1e9),
    };
    let tied: Vec<&str> = ranked[1..]
        .iter()
        .filter(|(_, _, b)| bytes / b <= 1.0 + TIE)
        .map(|(_, r, _)| r.name.as_str())
        .collect();
    let also = if tied.is_empty() {
        String::new()
    } else {
        format!(", tied with {}", tied.join(", "))
    };
    Some(Finding {
        id: format!("best.type.{key}"),
        statement: format!(
            "The most bytes of {words} per lane: {} ({figure}){also}.",
            best.name
        ),
        value: per_clock.unwrap_or(bytes),
        cases: std::iter::once(id)
            .chain(
                ranked[1..]
                    .iter()
                    .filter(|(_, _, b)| bytes / b <= 1.0 + TIE)
                    .map(|(i, _, _)| *i),
            )
            .map(str::to_string)
            .collect(),
        beyond_noise: None,
    })
}

/// The case with per-lane addresses that moves the most bytes per second (of those
/// [`ranked_case`] admits), with `value` in bytes per second; its
/// bytes per clock and shader unit where the report has both (also as
/// `best.bytes_per_clock`, whose `value` is that figure).
fn most_bytes(report: &Report, rates: &Rates) -> Vec<Finding> {
    let mut ranked: Vec<(&str, &Rate, f64)> = report
        .cases
        .iter()
        // Per-lane addresses: a uniform address reads one value for the whole wave.
        .filter(|c| c.unit == Unit::Load.name() && !c.id.ends_with(".uniform"))
        .filter(ranked_case(report))
        .filter_map(|c| Some((c.id.as_str(), rates.get(&c.id)?)))
        .filter_map(|(id, r)| Some((id, r, r.bytes_per_s?)))
        .collect();
    aligned_lead(&mut ranked);
    let Some(&(id, rate, bytes_per_s)) = ranked.first() else {
        return Vec::new();
    };
    let units = shader_units(report);
    let case = report.cases.iter().find(|c| c.id == id);
    let per_clock = case
        .and_then(|c| rate_clock_of(report, c))
        .zip(units)
        .map(|(mhz, u)| bytes_per_s / (mhz * 1e6) / f64::from(u));
    let (unit, _) = unit_words(report.device.vendor_id);
    let mut statement = format!(
        "The most bytes per second: {} ({:.1} GB/s",
        rate.name,
        bytes_per_s / 1e9
    );
    if let Some(b) = per_clock {
        statement.push_str(&format!(", {b:.1} bytes per clock and {unit}"));
    }
    statement.push_str(").");
    let mut out = vec![Finding {
        id: "best.bytes".to_string(),
        statement,
        value: bytes_per_s,
        cases: vec![id.to_string()],
        beyond_noise: None,
    }];
    if let Some(b) = per_clock {
        out.push(Finding {
            id: "best.bytes_per_clock".to_string(),
            statement: format!(
                "{} moves {b:.1} bytes per clock and {unit}, the most of any load here.",
                rate.name
            ),
            value: b,
            cases: vec![id.to_string()],
            beyond_noise: None,
        });
    }
    out
}

/// Sorts `(id, rate, bytes per second)` most bytes first; among the cases tied for the lead
/// (within [`TIE`]) an aligned case comes before an unaligned one, so that an unaligned
/// variant is never crowned over an equal aligned one.
fn aligned_lead(ranked: &mut [(&str, &Rate, f64)]) {
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2));
    let Some(top) = ranked.first().map(|x| x.2) else {
        return;
    };
    let lead = ranked.iter().take_while(|x| top / x.2 <= 1.0 + TIE).count();
    ranked[..lead].sort_by_key(|x| x.0.contains("unaligned"));
}
