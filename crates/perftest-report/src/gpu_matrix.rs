//! Reports of different GPUs (or APIs, or tools) side by side: a matrix of cases by GPU, each
//! GPU's figures relative to its own baseline case, and advice that holds across them: which
//! choice is best, or within a margin of the best, on how many of the GPUs, and where it
//! fails, with the numbers.

use perftest_cases::{all_cases, case_for_id};

use crate::derived::ReportFigures;
use crate::findings::{Findings, Rates, Reading};
use crate::schema::Report;

/// What a column of the matrix is: its short label and where its figures come from.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Column {
    /// Short label (`G1`, `G2`, ...).
    pub label: String,
    /// The GPU's name.
    pub device: String,
    /// The graphics API (`Vulkan 1.4.312`, `Direct3D 11`).
    pub api: String,
    /// The tool that measured it (`perftest 0.1.0`, `sebbbi/perftest`).
    pub tool: String,
    /// The driver, where the report names it.
    pub driver: String,
    /// The file it was read from, as given.
    pub file: String,
}

/// One case across the GPUs.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Row {
    /// Case id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Resource family (its label).
    pub family: String,
    /// Per column: the case's throughput over its GPU's baseline case (the original's `x`);
    /// `None` where not measured.
    pub relative: Vec<Option<f64>>,
}

/// Cases by GPU.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Matrix {
    /// The GPUs, in the order given.
    pub columns: Vec<Column>,
    /// Every case measured by at least one of them, in suite order.
    pub rows: Vec<Row>,
}

/// What a report is of: its GPU's name, its API and its tool. Reports of one kind are runs of
/// one GPU model (a node, a fleet); reports of different kinds are compared across GPUs.
pub fn kind(report: &Report) -> (String, String, String) {
    (report.device.name.clone(), api(report), tool(report))
}

/// Whether reports differ in GPU, API or tool (a cross-GPU comparison), rather than being runs
/// of one GPU model (a node or a fleet).
pub fn is_cross_gpu(reports: &[&Report]) -> bool {
    reports.windows(2).any(|w| kind(w[0]) != kind(w[1]))
}

/// The API a report's figures were measured with.
pub fn api(report: &Report) -> String {
    match &report.source {
        Some(s) => s.api.clone(),
        None if report.device.api_version.is_empty() => "Vulkan".to_string(),
        None => format!("Vulkan {}", report.device.api_version),
    }
}

/// The tool that measured a report.
pub fn tool(report: &Report) -> String {
    match &report.source {
        Some(s) => s.tool.clone(),
        None => format!("perftest {}", report.perftest_version),
    }
}

/// The matrix of `reports` (each with the file it came from).
pub fn matrix(reports: &[(&str, &Report)]) -> Matrix {
    let columns = reports
        .iter()
        .enumerate()
        .map(|(i, (file, r))| Column {
            label: format!("G{}", i + 1),
            device: r.device.name.clone(),
            api: api(r),
            tool: tool(r),
            driver: [r.device.driver_name.as_str(), r.device.driver_info.as_str()]
                .iter()
                .filter(|s| !s.trim().is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
            file: (*file).to_string(),
        })
        .collect();
    let relative: Vec<std::collections::HashMap<String, f64>> = reports
        .iter()
        .map(|(_, r)| {
            r.cases
                .iter()
                .zip(r.derived_all())
                .filter_map(|(c, d)| Some((c.id.clone(), d?.relative?)))
                .collect()
        })
        .collect();
    let rows = all_cases()
        .into_iter()
        .filter_map(|case| {
            let values: Vec<Option<f64>> =
                relative.iter().map(|r| r.get(&case.id).copied()).collect();
            values.iter().any(Option::is_some).then(|| Row {
                id: case.id.clone(),
                name: case.name.clone(),
                family: case.family.label().to_string(),
                relative: values,
            })
        })
        .collect();
    Matrix { columns, rows }
}

/// A GPU where a piece of advice does not hold, and by how much.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Exception {
    /// The column's label (`G3`).
    pub label: String,
    /// The GPU's name.
    pub device: String,
    /// What the advice's value is there (for a path: how many times slower than the best).
    pub value: f64,
    /// The choice that is best there instead (for a path question).
    pub best_there: Option<String>,
}

/// One piece of advice across GPUs.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Verdict {
    /// Stable id of the question (`across.16byte`).
    pub id: String,
    /// The question, in words.
    pub question: String,
    /// The answer with its counts and numbers.
    pub text: String,
    /// On how many GPUs it holds.
    pub holds: usize,
    /// Of how many GPUs that measured the cases it needs.
    pub of: usize,
    /// Where it does not hold.
    pub exceptions: Vec<Exception>,
    /// For a finding question over reports of several APIs: on how many GPUs of each it holds
    /// (empty for path questions).
    pub by_api: Vec<ApiCount>,
}

/// On how many GPUs of one API a piece of advice holds.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ApiCount {
    /// The API (`Direct3D 11`, `Vulkan`).
    pub api: String,
    /// GPUs where it holds.
    pub holds: usize,
    /// GPUs of that API that measured it.
    pub of: usize,
}

/// A path question: which of these cases (the same data through different resource types) to
/// use.
pub(crate) struct PathQuestion {
    pub(crate) id: &'static str,
    pub(crate) question: &'static str,
    pub(crate) candidates: &'static [&'static str],
}

pub(crate) const PATHS: [PathQuestion; 3] = [
    PathQuestion {
        id: "across.16byte",
        question: "Which resource type to load 16 bytes per lane from (linear)?",
        candidates: &[
            "structured.float4.linear",
            "raw.load4.linear",
            "typed.rgba32f.linear",
            "tex.load.rgba32f.linear",
        ],
    },
    PathQuestion {
        id: "across.4byte",
        question: "Which resource type to load 4 bytes per lane from (linear)?",
        candidates: &[
            "structured.float.linear",
            "raw.load.linear",
            "typed.r32f.linear",
            "tex.load.r32f.linear",
        ],
    },
    PathQuestion {
        id: "across.texel_vs_storage",
        question: "A texel buffer (Buffer<R32f>) or a storage buffer (StructuredBuffer<float>)?",
        candidates: &["structured.float.linear", "typed.r32f.linear"],
    },
];

/// A finding question: on how many GPUs a finding's value passes a threshold. Its question is
/// asked so that "yes" is the answer where the value passes (a report's answer reads
/// `yes (6.89)` or `no (1.02)`).
pub(crate) struct FindingQuestion {
    pub(crate) id: &'static str,
    pub(crate) finding: &'static str,
    pub(crate) question: &'static str,
    /// The value passes when `value >= at_least` (or `<=` when `below` is true).
    threshold: f64,
    below: bool,
    holds: &'static str,
}

pub(crate) const FINDINGS: [FindingQuestion; 6] = [
    FindingQuestion {
        id: "across.cbuffer_per_lane",
        finding: "cbuffer.divergent",
        question: "Does indexing a constant buffer per lane cost 2x or more?",
        threshold: 2.0,
        below: false,
        holds: "a constant buffer indexed per lane is at least 2x slower than a uniform index",
    },
    FindingQuestion {
        id: "across.raw_wide",
        finding: "raw.wide",
        question: "Does a ByteAddressBuffer.Load4 cost 3 Loads or more (linear)?",
        threshold: 3.0,
        below: false,
        holds: "a Load4 costs 3 Loads or more (linear)",
    },
    FindingQuestion {
        id: "across.bilinear_wide",
        finding: "sample.bilinear_wide",
        question: "Does bilinear filtering of RGBA32F run at a quarter of R32F's rate or slower?",
        threshold: 0.3,
        below: true,
        holds: "it runs at a quarter of R32F's rate or slower",
    },
    FindingQuestion {
        id: "across.uniform_fast_path",
        finding: "uniform.typed",
        question: "Do uniform addresses take a fast path (typed loads, 1.5x or more)?",
        threshold: 1.5,
        below: false,
        holds: "uniform-address typed loads are at least 1.5x faster than per-lane ones (the \
                typed finding's rule, at some channel count)",
    },
    FindingQuestion {
        id: "across.uniform_raw",
        finding: "uniform.raw",
        question:
            "Do uniform addresses take a fast path for raw loads at some width (1.5x or more)?",
        threshold: 1.5,
        below: false,
        holds: "a uniform raw load of some width is at least 1.5x faster than its per-lane one",
    },
    FindingQuestion {
        id: "across.typed_coalescing",
        finding: "typed.coalescing",
        question: "Do linear typed loads coalesce at some channel count (1.5x or more)?",
        threshold: 1.5,
        below: false,
        holds: "linear typed loads of some channel count are at least 1.5x faster than random ones",
    },
];

impl FindingQuestion {
    /// Whether a finding's value passes the question's threshold.
    pub(crate) fn passes(&self, v: f64) -> bool {
        if self.below {
            v <= self.threshold
        } else {
            v >= self.threshold
        }
    }
}

/// The advice that holds across the GPUs of `matrix`'s reports: for each path question the
/// choice that is best or within `margin` (0.05 = 5%) of the best on the most GPUs, with the
/// GPUs where it is not; for each finding question on how many GPUs it holds.
pub fn advice(reports: &[&Report], columns: &[Column], margin: f64) -> Vec<Verdict> {
    let readings: Vec<Reading> = reports.iter().map(|r| Reading::of(r)).collect();
    advice_with(&readings, columns, margin)
}

/// [`advice`] from each report's [`Reading`] (in the order of `columns`).
pub fn advice_with(readings: &[Reading], columns: &[Column], margin: f64) -> Vec<Verdict> {
    let rates: Vec<&Rates> = readings.iter().map(|r| &r.rates).collect();
    let mut out: Vec<Verdict> = PATHS
        .iter()
        .filter_map(|q| path_verdict(q, &rates, columns, margin))
        .collect();
    let found: Vec<&Findings> = readings.iter().map(|r| &r.findings).collect();
    out.extend(
        FINDINGS
            .iter()
            .filter_map(|q| finding_verdict(q, &found, columns)),
    );
    out
}

/// The verdict of a finding question, or `None` when no report gives the finding.
fn finding_verdict(
    q: &FindingQuestion,
    found: &[&Findings],
    columns: &[Column],
) -> Option<Verdict> {
    let values: Vec<(usize, f64)> = found
        .iter()
        .enumerate()
        .filter_map(|(i, f)| Some((i, f.get(q.finding)?.value)))
        .collect();
    if values.is_empty() {
        return None;
    }
    let passes = |v: f64| q.passes(v);
    let holds = values.iter().filter(|(_, v)| passes(*v)).count();
    let (low, high) = values
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), (_, v)| {
            (lo.min(*v), hi.max(*v))
        });
    let exceptions: Vec<Exception> = values
        .iter()
        .filter(|(_, v)| !passes(*v))
        .map(|&(i, value)| Exception {
            label: columns[i].label.clone(),
            device: columns[i].device.clone(),
            value,
            best_there: None,
        })
        .collect();
    let by_api = by_api(&values, columns, passes);
    let api_text = if by_api.len() > 1 {
        let parts: Vec<String> = by_api
            .iter()
            .map(|a| format!("{} {} of {}", a.api, a.holds, a.of))
            .collect();
        format!("; by API: {}", parts.join(", "))
    } else {
        String::new()
    };
    Some(Verdict {
        id: q.id.to_string(),
        question: q.question.to_string(),
        text: format!(
            "On {holds} of {} GPUs {} ({} from {low:.2} to {high:.2}){api_text}{}.",
            values.len(),
            q.holds,
            q.finding,
            except_list(&exceptions, |e| format!("{:.2}", e.value))
        ),
        holds,
        of: values.len(),
        exceptions,
        by_api,
    })
}

/// On how many GPUs of each API (`Vulkan` whatever its version) `passes` holds, in order of
/// first appearance.
fn by_api(
    values: &[(usize, f64)],
    columns: &[Column],
    passes: impl Fn(f64) -> bool,
) -> Vec<ApiCount> {
    let mut out: Vec<ApiCount> = Vec::new();
    for &(i, v) in values {
        let api = api_family(&columns[i].api);
        let at = match out.iter().position(|a| a.api == api) {
            Some(at) => at,
            None => {
                out.push(ApiCount {
                    api: api.to_string(),
                    holds: 0,
                    of: 0,
                });
                out.len() - 1
            }
        };
        out[at].of += 1;
        if passes(v) {
            out[at].holds += 1;
        }
    }
    out
}

/// An API without its version where the version is the driver's (`Vulkan 1.4.312`: `Vulkan`).
pub(crate) fn api_family(api: &str) -> &str {
    if api.starts_with("Vulkan") {
        "Vulkan"
    } else {
        api
    }
}

/// The verdict of a path question, or `None` when no GPU measured two of its candidates.
fn path_verdict(
    q: &PathQuestion,
    rates: &[&Rates],
    columns: &[Column],
    margin: f64,
) -> Option<Verdict> {
    // Per GPU: each candidate's throughput, where measured.
    let per_gpu: Vec<(usize, Vec<(&str, f64)>)> = rates
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let measured = q
                .candidates
                .iter()
                .filter_map(|id| Some((*id, r.get(id)?.per_s)))
                .collect::<Vec<_>>();
            (i, measured)
        })
        .filter(|(_, m)| m.len() >= 2)
        .collect();
    if per_gpu.is_empty() {
        return None;
    }
    let best_of = |m: &[(&str, f64)]| m.iter().map(|(_, v)| *v).fold(0.0, f64::max);
    let holds_for = |id: &str| {
        per_gpu
            .iter()
            .filter(|(_, m)| {
                let best = best_of(m);
                m.iter()
                    .any(|(c, v)| *c == id && *v >= best * (1.0 - margin))
            })
            .count()
    };
    // The most GPUs; on a tie, the candidate listed first.
    let choice = q
        .candidates
        .iter()
        .enumerate()
        .max_by_key(|(i, id)| (holds_for(id), std::cmp::Reverse(*i)))
        .map_or(q.candidates[0], |(_, id)| *id);
    let name = |id: &str| case_for_id(id).map_or_else(|| id.to_string(), |c| resource(&c.name));
    // The GPUs that measured the choice beside another candidate say whether it holds; the
    // others are counted apart.
    let (with, lacking): (Vec<_>, Vec<_>) = per_gpu
        .iter()
        .partition(|(_, m)| m.iter().any(|(c, _)| *c == choice));
    let holds = holds_for(choice);
    let exceptions: Vec<Exception> = with
        .iter()
        .filter_map(|(i, m)| {
            let best = best_of(m);
            let (best_id, _) = m.iter().copied().find(|(_, v)| *v == best)?;
            let mine = m.iter().find(|(c, _)| *c == choice).map(|(_, v)| *v)?;
            let slower = best / mine;
            (slower > 1.0 + margin).then(|| Exception {
                label: columns[*i].label.clone(),
                device: columns[*i].device.clone(),
                value: slower,
                best_there: Some(name(best_id)),
            })
        })
        .collect();
    let lacking_note = match lacking.len() {
        0 => String::new(),
        n => format!(" ({n} more GPUs did not measure it)"),
    };
    let text = format!(
        "{}: best or within {:.0}% on {holds} of {} GPUs{lacking_note}{}.",
        name(choice),
        margin * 100.0,
        with.len(),
        except_list(&exceptions, |e| match &e.best_there {
            Some(best) => format!("{:.2}x slower, {best} best", e.value),
            None => format!("{:.2}x slower", e.value),
        })
    );
    Some(Verdict {
        id: q.id.to_string(),
        question: q.question.to_string(),
        text,
        holds,
        of: with.len(),
        exceptions,
        by_api: Vec::new(),
    })
}

/// `; not on G2 NAME (detail), G5 NAME (detail)` or nothing.
fn except_list(exceptions: &[Exception], detail: impl Fn(&Exception) -> String) -> String {
    if exceptions.is_empty() {
        return String::new();
    }
    let list: Vec<String> = exceptions
        .iter()
        .map(|e| format!("{} {} ({})", e.label, e.device, detail(e)))
        .collect();
    format!("; not on {}", list.join(", "))
}

/// A case name without its access pattern (`StructuredBuffer<float4>.Load`).
pub(crate) fn resource(name: &str) -> String {
    name.rsplit_once(' ').map_or(name, |(n, _)| n).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{case, measurement, sample_report};
    use crate::schema::CaseResult;

    /// A report of GPU `name` with `(id, ns per workgroup)` cases and the baseline at 100 ns.
    fn gpu(name: &str, cases: &[(&str, f64)]) -> Report {
        let mut r = sample_report();
        r.device.name = name.to_string();
        r.cases = std::iter::once(("typed.rgba8.random", 100.0))
            .chain(cases.iter().copied())
            .map(|(id, ns)| CaseResult::measured(&case(id), measurement(1000, &[ns * 1000.0])))
            .collect();
        r
    }

    #[test]
    fn the_matrix_is_relative_to_each_gpus_baseline() {
        let a = gpu("A", &[("raw.load.linear", 50.0)]);
        let b = gpu(
            "B",
            &[("raw.load.linear", 25.0), ("raw.load4.linear", 50.0)],
        );
        let m = matrix(&[("a.json", &a), ("b.json", &b)]);
        assert_eq!(m.columns[1].label, "G2");
        let row = m.rows.iter().find(|r| r.id == "raw.load.linear").unwrap();
        assert_eq!(row.relative, [Some(2.0), Some(4.0)]);
        let row = m.rows.iter().find(|r| r.id == "raw.load4.linear").unwrap();
        assert_eq!(row.relative, [None, Some(2.0)]);
        assert!(is_cross_gpu(&[&a, &b]));
        assert!(!is_cross_gpu(&[&a, &a]));
    }

    #[test]
    fn a_path_is_best_or_within_the_margin_on_a_count_of_gpus() {
        let paths = |s: f64, r: f64| [("structured.float4.linear", s), ("raw.load4.linear", r)];
        let reports = [
            gpu("A", &paths(10.0, 40.0)),
            gpu("B", &paths(10.0, 10.2)),
            gpu("C", &paths(20.0, 10.0)),
        ];
        let refs: Vec<&Report> = reports.iter().collect();
        let m = matrix(&[("a", &reports[0]), ("b", &reports[1]), ("c", &reports[2])]);
        let advice = advice(&refs, &m.columns, 0.05);
        let v = advice.iter().find(|v| v.id == "across.16byte").unwrap();
        assert_eq!((v.holds, v.of), (2, 3));
        assert_eq!(v.exceptions.len(), 1);
        assert_eq!(v.exceptions[0].label, "G3");
        assert!((v.exceptions[0].value - 2.0).abs() < 1e-9);
        assert_eq!(
            v.text,
            "StructuredBuffer<float4>.Load: best or within 5% on 2 of 3 GPUs; not on G3 C \
             (2.00x slower, ByteAddressBuffer.Load4 best)."
        );
    }

    #[test]
    fn a_finding_question_counts_where_it_holds() {
        let cb = |u: f64, l: f64| [("cbuffer.float4.uniform", u), ("cbuffer.float4.linear", l)];
        let reports = [gpu("A", &cb(10.0, 400.0)), gpu("B", &cb(10.0, 12.0))];
        let refs: Vec<&Report> = reports.iter().collect();
        let m = matrix(&[("a", &reports[0]), ("b", &reports[1])]);
        let v = advice(&refs, &m.columns, 0.05)
            .into_iter()
            .find(|v| v.id == "across.cbuffer_per_lane")
            .unwrap();
        assert_eq!((v.holds, v.of), (1, 2));
        assert!(v
            .text
            .starts_with("On 1 of 2 GPUs a constant buffer indexed per lane"));
        assert!(v.text.ends_with("not on G2 B (1.20)."), "{}", v.text);
        assert!(
            v.by_api.len() == 1 && !v.text.contains("by API"),
            "{}",
            v.text
        );
    }

    #[test]
    fn a_finding_question_over_several_apis_counts_each() {
        let cb = |u: f64, l: f64| [("cbuffer.float4.uniform", u), ("cbuffer.float4.linear", l)];
        let mut d3d = gpu("A", &cb(10.0, 400.0));
        d3d.source = Some(crate::schema::ReportSource {
            tool: "sebbbi/perftest".to_string(),
            api: "Direct3D 11".to_string(),
            file: "a.txt".to_string(),
        });
        let reports = [d3d, gpu("B", &cb(10.0, 12.0)), gpu("C", &cb(10.0, 50.0))];
        let refs: Vec<&Report> = reports.iter().collect();
        let m = matrix(&[("a", &reports[0]), ("b", &reports[1]), ("c", &reports[2])]);
        let v = advice(&refs, &m.columns, 0.05)
            .into_iter()
            .find(|v| v.id == "across.cbuffer_per_lane")
            .unwrap();
        assert!(
            v.text
                .contains("; by API: Direct3D 11 1 of 1, Vulkan 1 of 2;"),
            "{}",
            v.text
        );
    }
}
