//! The stage comparison: every case that runs a compute case's loop in another shader stage (a
//! fragment-shader case), beside its compute twin, when both were measured in the report.

use crate::output::printable::{cell_width, printable, push_left, push_right};
use crate::report::{Report, ReportFigures};

/// One case and its twin's throughput, in units per second.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pair {
    /// The twin's (compute case's) name.
    pub(crate) name: String,
    /// The twin's rate.
    pub(crate) compute: f64,
    /// The case's rate.
    pub(crate) other: f64,
}

impl Pair {
    /// The case's rate over its twin's.
    pub(crate) fn ratio(&self) -> f64 {
        self.other / self.compute
    }
}

/// The pairs of `report`, in the report's order (pure).
pub(crate) fn pairs(report: &Report) -> Vec<Pair> {
    let figures = report.derived_all();
    let rate = |i: usize| figures[i].as_ref().and_then(|d| d.loads_per_s);
    report
        .cases
        .iter()
        .enumerate()
        .filter_map(|(i, case)| {
            let twin_id = case.twin.as_deref()?;
            let t = report.cases.iter().position(|c| c.id == twin_id)?;
            let twin = &report.cases[t];
            let (compute, other) = (rate(t)?, rate(i)?);
            (compute > 0.0).then(|| Pair {
                name: twin.name.clone(),
                compute,
                other,
            })
        })
        .collect()
}

/// The section's column titles after the case's.
pub(crate) const TITLES: [&str; 3] = ["compute", "fragment", "fragment/compute"];

/// The section's heading.
pub(crate) const HEADING: &str = "Fragment shader vs compute shader";

/// The sentence above the table: what it shows and the median ratio (pure; `pairs` not
/// empty).
pub(crate) fn summary(pairs: &[Pair]) -> String {
    let mut ratios: Vec<f64> = pairs.iter().map(Pair::ratio).collect();
    ratios.sort_by(f64::total_cmp);
    let median = ratios.get(ratios.len() / 2).copied().unwrap_or(f64::NAN);
    format!(
        "The same loop in a fragment shader and in a compute shader, in Gload/s (a 16x16 tile of \
         fragments is one workgroup): median fragment/compute {median:.3} over {} pairs.",
        pairs.len()
    )
}

/// One row's cells: the twin's name, then the [`TITLES`] figures.
pub(crate) fn cells(pair: &Pair) -> (String, [String; 3]) {
    (
        printable(&pair.name).into_owned(),
        [
            format!("{:.2}", pair.compute / 1e9),
            format!("{:.2}", pair.other / 1e9),
            format!("{:.3}", pair.ratio()),
        ],
    )
}

/// The section as aligned text, or `None` when no pair was measured.
pub(crate) fn section(report: &Report) -> Option<String> {
    let pairs = pairs(report);
    if pairs.is_empty() {
        return None;
    }
    let titles = TITLES;
    let rows: Vec<(String, [String; 3])> = pairs.iter().map(cells).collect();
    let name_width = rows
        .iter()
        .map(|(n, _)| cell_width(n))
        .chain(std::iter::once("Case".len()))
        .max()
        .unwrap_or(0);
    let mut widths = titles.map(str::len);
    for (_, cells) in &rows {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(cell_width(c));
        }
    }
    let mut out = format!("{HEADING}. {}\n", summary(&pairs));
    push_left(&mut out, "Case", name_width);
    for (t, w) in titles.iter().zip(widths) {
        out.push_str("  ");
        push_right(&mut out, t, w);
    }
    out.push('\n');
    for (name, cells) in &rows {
        push_left(&mut out, name, name_width);
        for (c, w) in cells.iter().zip(widths) {
            out.push_str("  ");
            push_right(&mut out, c, w);
        }
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::CaseResult;
    use perftest_report::samples::{case, measurement, sample_report};

    #[test]
    fn pairs_need_both_twins_measured() {
        let mut report = sample_report();
        assert!(section(&report).is_none());
        let twin = case("typed.r8.uniform");
        report.cases.retain(|c| c.id != twin.id);
        let fragment = perftest_cases::all_cases()
            .into_iter()
            .find(|c| c.id == "frag.typed.r8.uniform")
            .expect("the fragment case exists");
        report.cases.push(CaseResult::measured(
            &fragment,
            measurement(1000, &[4e6, 4e6, 4e6]),
        ));
        assert!(pairs(&report).is_empty(), "the twin is not measured yet");
        report.cases.push(CaseResult::measured(
            &twin,
            measurement(1000, &[1e6, 1e6, 1e6]),
        ));
        let found = pairs(&report);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].name, twin.name);
        assert!((found[0].ratio() - 0.25).abs() < 1e-9, "{:?}", found[0]);
        let text = section(&report).expect("a section");
        assert!(text.contains("0.250"), "{text}");
    }
}
