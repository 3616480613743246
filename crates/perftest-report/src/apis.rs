//! One GPU under several APIs or tools, side by side: the reports of a comparison whose GPU
//! names name the same model ([`model_key`]) but whose API or tool differ, and per question of
//! the advice across GPUs ([`crate::gpu_matrix`]) what each of them answers and whether the answer
//! flips between them (a uniform-address fast path on Direct3D 11 and not on Direct3D 12, say).

use crate::findings::{Findings, Rates, Reading};
use crate::gpu_matrix::{api_family, resource, Column, FINDINGS, PATHS};
use crate::schema::Report;

/// Words of GPU names that say nothing about the model: vendors and brands, architectures, and
/// the API and compiler tags some tables append (`Dx12+Dxc`).
const NOT_THE_MODEL: &[&str] = &[
    "nvidia",
    "amd",
    "ati",
    "intel",
    "geforce",
    "radeon",
    "tm",
    "r",
    "graphics",
    "gpu",
    "kepler",
    "maxwell",
    "maxwell2",
    "pascal",
    "volta",
    "turing",
    "ampere",
    "ada",
    "lovelace",
    "hopper",
    "blackwell",
    "gcn",
    "gcn1",
    "gcn2",
    "gcn3",
    "gcn4",
    "gcn5",
    "7nm",
    "rdna",
    "rdna2",
    "rdna3",
    "rdna4",
    "navi",
    "gen9",
    "gen11",
    "gen12",
    "xe",
    "xe2",
    "skylake",
    "dx11",
    "dx12",
    "d3d11",
    "d3d12",
    "dxc",
    "fxc",
    "vulkan",
];

/// The words of a GPU's name that say which model it is, sorted: lower case, split at anything
/// but letters and digits, without the words of `NOT_THE_MODEL`. `NVidia Turing (RTX 2060)
/// Dx12+Dxc` and `NVIDIA GeForce RTX 2060` both give `["2060", "rtx"]`; `HD Graphics 530` and
/// `HD 630` differ, as do `R9 Fury X` and `R9 Fury 56 CU`.
pub fn model_key(name: &str) -> Vec<String> {
    let mut words: Vec<String> = name
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !NOT_THE_MODEL.contains(w))
        .map(str::to_string)
        .collect();
    words.sort();
    words.dedup();
    words
}

/// What one report of the GPU answers to a question.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Answer {
    /// The column's label (`G3`).
    pub label: String,
    /// The API (`Direct3D 11`, `Vulkan 1.4.312`).
    pub api: String,
    /// The tool that measured it.
    pub tool: String,
    /// For a finding question, the finding's value; for a path question, how many times faster
    /// the best choice is than the slowest one measured.
    pub value: f64,
    /// For a finding question, whether the value passes its threshold; for a path question,
    /// always true.
    pub holds: bool,
    /// For a path question, the best choice there (its resource type).
    pub best: Option<String>,
}

/// One question answered by two or more reports of the GPU.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Difference {
    /// The question's id (`across.uniform_fast_path`).
    pub id: String,
    /// The question, in words.
    pub question: String,
    /// Each report's answer, in the order of the columns.
    pub answers: Vec<Answer>,
    /// Whether the answer flips: a finding holds on one and not on another, or no choice is
    /// best (or within the margin of the best) on all of them.
    pub flips: bool,
    /// The answers in words.
    pub text: String,
}

/// One GPU under several APIs or tools.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SameGpu {
    /// The GPU's name as its first report gives it.
    pub device: String,
    /// The labels of its columns.
    pub labels: Vec<String>,
    /// Per question that two of its reports answer: what they answer (for a path question, among
    /// the choices all of them measured).
    pub differences: Vec<Difference>,
    /// What differs, in words.
    pub text: String,
}

/// How many different GPU models `columns` name ([`model_key`]; a name it cannot reduce counts
/// alone): fewer than the columns where one GPU appears under several APIs or tools.
pub fn distinct_gpus(columns: &[Column]) -> usize {
    let mut keys: Vec<Vec<String>> = Vec::new();
    let mut unnamed = 0;
    for c in columns {
        let key = model_key(&c.device);
        if key.is_empty() {
            unnamed += 1;
        } else if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.len() + unnamed
}

/// The GPUs of `reports` (with their `columns`) that appear under two or more APIs or tools,
/// in order of first appearance; `margin` as in [`crate::gpu_matrix::advice`].
pub fn same_gpu(reports: &[&Report], columns: &[Column], margin: f64) -> Vec<SameGpu> {
    let readings: Vec<Reading> = reports.iter().map(|r| Reading::of(r)).collect();
    same_gpu_with(&readings, columns, margin)
}

/// [`same_gpu`] from each report's [`Reading`] (in the order of `columns`).
pub fn same_gpu_with(readings: &[Reading], columns: &[Column], margin: f64) -> Vec<SameGpu> {
    let mut groups: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
    for (i, c) in columns.iter().enumerate() {
        let key = model_key(&c.device);
        if key.is_empty() {
            continue;
        }
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let kind = |i: usize| (api_family(&columns[i].api), columns[i].tool.as_str());
    groups
        .into_iter()
        .filter(|(_, m)| m.iter().any(|&i| kind(i) != kind(m[0])))
        .map(|(_, members)| {
            let found: Vec<&Findings> = members.iter().map(|&i| &readings[i].findings).collect();
            let rates: Vec<&Rates> = members.iter().map(|&i| &readings[i].rates).collect();
            let answer = |n: usize, value: f64, holds: bool, best: Option<String>| Answer {
                label: columns[members[n]].label.clone(),
                api: columns[members[n]].api.clone(),
                tool: columns[members[n]].tool.clone(),
                value,
                holds,
                best,
            };
            let mut differences: Vec<Difference> = Vec::new();
            for q in &FINDINGS {
                let answers: Vec<Answer> = (0..members.len())
                    .filter_map(|n| {
                        let v = found[n].get(q.finding)?.value;
                        Some(answer(n, v, q.passes(v), None))
                    })
                    .collect();
                let flips = answers.iter().any(|a| a.holds != answers[0].holds);
                differences.extend(difference(q.id, q.question, answers, flips));
            }
            for q in &PATHS {
                // Only the candidates every report measured: a table that lacks a resource
                // type says nothing about whether it is best.
                let common: Vec<&str> = q
                    .candidates
                    .iter()
                    .copied()
                    .filter(|id| rates.iter().all(|r| r.get(id).is_some()))
                    .collect();
                if common.len() < 2 {
                    continue;
                }
                let paths: Vec<(usize, Vec<(&str, f64)>)> = (0..members.len())
                    .map(|n| (n, measured(rates[n], &common)))
                    .collect();
                let flips = no_common_best(paths.iter().map(|(_, m)| m.as_slice()), margin);
                let answers = paths
                    .iter()
                    .map(|(n, m)| {
                        let (best, fastest) = best(m);
                        let slowest = m.iter().map(|(_, v)| *v).fold(f64::MAX, f64::min);
                        answer(*n, fastest / slowest, true, Some(path_name(best)))
                    })
                    .collect();
                differences.extend(difference(q.id, q.question, answers, flips));
            }
            let first = members[0];
            summary(&columns[first].device, &members, columns, differences)
        })
        .collect()
}

/// The `candidates` of a path question that `rates` measured, with their throughputs.
fn measured<'a>(rates: &Rates, candidates: &[&'a str]) -> Vec<(&'a str, f64)> {
    candidates
        .iter()
        .filter_map(|id| Some((*id, rates.get(id)?.per_s)))
        .collect()
}

/// The fastest of `measured` (the first listed on a tie) and its throughput.
fn best<'a>(measured: &[(&'a str, f64)]) -> (&'a str, f64) {
    measured
        .iter()
        .copied()
        .fold(("", 0.0), |b, (id, v)| if v > b.1 { (id, v) } else { b })
}

/// A path candidate's resource type (`ByteAddressBuffer.Load4`).
fn path_name(id: &str) -> String {
    perftest_cases::case_for_id(id).map_or_else(|| id.to_string(), |c| resource(&c.name))
}

/// Whether no candidate is best, or within `margin` of the best, on every one of `per_report`.
fn no_common_best<'a>(
    mut per_report: impl Iterator<Item = &'a [(&'a str, f64)]>,
    margin: f64,
) -> bool {
    let near = |m: &[(&str, f64)]| -> Vec<String> {
        let (_, fastest) = best(m);
        m.iter()
            .filter(|(_, v)| *v >= fastest * (1.0 - margin))
            .map(|(id, _)| (*id).to_string())
            .collect()
    };
    let Some(first) = per_report.next() else {
        return false;
    };
    let mut common = near(first);
    for m in per_report {
        let here = near(m);
        common.retain(|id| here.contains(id));
    }
    common.is_empty()
}

/// The difference of a question, or `None` when fewer than two reports answer it.
fn difference(id: &str, question: &str, answers: Vec<Answer>, flips: bool) -> Option<Difference> {
    if answers.len() < 2 {
        return None;
    }
    let parts: Vec<String> = answers
        .iter()
        .map(|a| {
            let said = match &a.best {
                Some(best) => format!("{best} ({:.2}x the slowest)", a.value),
                None => format!("{} ({:.2})", if a.holds { "yes" } else { "no" }, a.value),
            };
            format!("{} ({}, {}): {said}", a.label, a.api, a.tool)
        })
        .collect();
    let verdict = if flips { "differs" } else { "same" };
    Some(Difference {
        id: id.to_string(),
        question: question.to_string(),
        text: format!("{verdict}: {}.", parts.join("; ")),
        answers,
        flips,
    })
}

/// The GPU's entry: its columns and, in words, which questions flip.
fn summary(device: &str, members: &[usize], columns: &[Column], d: Vec<Difference>) -> SameGpu {
    let under: Vec<String> = members
        .iter()
        .map(|&i| {
            let c = &columns[i];
            format!("{} ({}, {})", c.label, c.api, c.tool)
        })
        .collect();
    let flipped: Vec<&str> = d
        .iter()
        .filter(|x| x.flips)
        .map(|x| x.id.as_str())
        .collect();
    let questions = |n: usize| format!("{n} question{}", if n == 1 { "" } else { "s" });
    let outcome = match (d.len(), flipped.len()) {
        (0, _) => "no question of the advice is answered by two of them".to_string(),
        (n, 0) => format!("the same answers to the {} of the advice", questions(n)),
        (n, f) => format!(
            "different answers to {f} of the {} ({})",
            questions(n),
            flipped.join(", ")
        ),
    };
    SameGpu {
        device: device.to_string(),
        labels: members.iter().map(|&i| columns[i].label.clone()).collect(),
        text: format!("{device} as {}: {outcome}.", under.join(", ")),
        differences: d,
    }
}

#[cfg(test)]
mod tests;
