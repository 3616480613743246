//! The cache-hierarchy section of the text and Markdown reports.

use std::fmt::Write;

use super::levels::{DENSE_MIN_OCTAVES, DENSE_MIN_POINTS, MIN_OCTAVES, MIN_POINTS, PLATEAU_SPREAD};
use super::{bandwidth_text, resolution_text, size_text, Carveout, Hierarchy, NamedLevel, Point};

/// How the levels are found and what a capacity means, in one line under the levels.
pub(crate) fn rule_text() -> String {
    format!(
        "Levels are the curve's plateaus: runs of at least {MIN_POINTS} working sets over at least \
         {MIN_OCTAVES} octave (or {DENSE_MIN_POINTS} over {DENSE_MIN_OCTAVES} octave) whose costs \
         stay within {:.0}% of each other; a level's capacity is its last size, within the step \
         to the next size measured (its resolution).",
        (PLATEAU_SPREAD - 1.0) * 100.0
    )
}

/// Where `bytes` lies on `levels`: the name of the level holding it, `outlier`, or `-`.
fn place(levels: &[NamedLevel], outliers: &[Point], bytes: u64) -> String {
    if outliers.iter().any(|p| p.bytes == bytes) {
        return "outlier".to_string();
    }
    levels
        .iter()
        .find(|l| (l.level.first..=l.level.last).contains(&bytes))
        .map_or_else(|| "-".to_string(), |l| l.name.clone())
}

/// Lines of cells, each column padded to its widest cell (right-aligned where `right`), each
/// line indented by `indent`.
fn aligned(rows: &[Vec<String>], right: &[bool], indent: &str) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|cell| crate::output::printable::cell_width(cell))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let mut padded = String::new();
                if right.get(c).copied().unwrap_or(false) {
                    crate::output::printable::push_right(&mut padded, cell, widths[c]);
                } else {
                    crate::output::printable::push_left(&mut padded, cell, widths[c]);
                }
                padded
            })
            .collect();
        let _ = writeln!(out, "{indent}{}", cells.join("  ").trim_end());
    }
    out
}

/// The cache-hierarchy section of the text and Markdown reports, or `None` when the report has
/// no measured sweep case; latencies also in cycles where the analysis has a clock.
pub fn section(analysis: &perftest_report::analysis::Analysis) -> Option<String> {
    analysis
        .hierarchy
        .as_ref()
        .map(|h| hierarchy_text(h, analysis.clock_mhz()))
}

/// The section for a hierarchy (see [`section`]).
pub fn hierarchy_text(h: &Hierarchy, clock_mhz: Option<f64>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Cache hierarchy (the memory suite's sweep; Vulkan reports no cache sizes):"
    );
    sizes_table(&mut out, h, clock_mhz);
    if !h.latency.is_empty() {
        latency_levels(&mut out, h, clock_mhz);
    }
    if !h.bandwidth.is_empty() {
        bandwidth_levels(&mut out, h);
    }
    if !h.carveout.is_empty() {
        carveout_table(&mut out, h, clock_mhz);
    }
    if !h.unsteady.is_empty() {
        let _ = writeln!(out, "  {}", unsteady_text(&h.unsteady));
    }
    let _ = writeln!(out, "  {}", rule_text());
    out
}

/// Every working set measured, steady or not, smallest first.
fn measured_sizes(h: &Hierarchy) -> Vec<u64> {
    let mut sizes: Vec<u64> = h
        .latency
        .iter()
        .chain(&h.bandwidth)
        .chain(&h.latency_unsteady)
        .chain(&h.bandwidth_unsteady)
        .map(|p| p.bytes)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// The table of working sets: latency (and cycles with a clock), bandwidth and level.
fn sizes_table(out: &mut String, h: &Hierarchy, clock_mhz: Option<f64>) {
    let sizes = measured_sizes(h);
    let mut title = vec!["working set".to_string(), "latency ns".to_string()];
    if let Some(mhz) = clock_mhz {
        title.push(format!("cycles@{mhz:.0}MHz"));
    }
    title.extend(["bandwidth".to_string(), "level".to_string()]);
    let mut rows = vec![title];
    rows.extend(sizes.iter().map(|&bytes| size_row(h, bytes, clock_mhz)));
    let right: Vec<bool> = (0..rows[0].len()).map(|c| c + 1 < rows[0].len()).collect();
    if !sizes.is_empty() {
        out.push_str(&aligned(&rows, &right, "  "));
    }
}

/// The row of one working set in [`sizes_table`].
fn size_row(h: &Hierarchy, bytes: u64, clock_mhz: Option<f64>) -> Vec<String> {
    let cycles = |ns: f64| clock_mhz.map(|mhz| format!("{:.0}", ns * mhz / 1e3));
    let find =
        |curve: &[Point], bytes: u64| curve.iter().find(|p| p.bytes == bytes).map(|p| p.cost);
    let latency_at = |bytes| find(&h.latency, bytes).or_else(|| find(&h.latency_unsteady, bytes));
    let bandwidth_at =
        |bytes| find(&h.bandwidth, bytes).or_else(|| find(&h.bandwidth_unsteady, bytes));
    let ns = latency_at(bytes);
    let mut row = vec![
        size_text(bytes as f64),
        ns.map_or_else(|| "-".to_string(), |ns| format!("{ns:.1}")),
    ];
    if clock_mhz.is_some() {
        row.push(ns.and_then(cycles).unwrap_or_else(|| "-".to_string()));
    }
    row.push(bandwidth_at(bytes).map_or_else(|| "-".to_string(), |c| bandwidth_text(1.0 / c)));
    let is_unsteady = |curve: &[Point]| curve.iter().any(|p| p.bytes == bytes);
    let unsteady_here = if h.latency.is_empty() {
        is_unsteady(&h.bandwidth_unsteady)
    } else {
        is_unsteady(&h.latency_unsteady)
    };
    row.push(if unsteady_here {
        "unsteady".to_string()
    } else if h.latency.is_empty() {
        place(&h.bandwidth_levels, &h.bandwidth_outliers, bytes)
    } else {
        place(&h.latency_levels, &h.latency_outliers, bytes)
    });
    row
}

/// The bandwidth levels' line and the bandwidth outliers'.
fn bandwidth_levels(out: &mut String, h: &Hierarchy) {
    let described: Vec<String> = h
        .bandwidth_levels
        .iter()
        .map(|b| {
            let name = if b.name.is_empty() { "-" } else { &b.name };
            format!(
                "{name} {} ({} - {})",
                bandwidth_text(1.0 / b.level.cost),
                size_text(b.level.first as f64),
                size_text(b.level.last as f64)
            )
        })
        .collect();
    let described = if described.is_empty() {
        "none (no plateau)".to_string()
    } else {
        described.join("; ")
    };
    let _ = writeln!(out, "  Bandwidth levels: {described} (all SMs at once).");
    outlier_line(out, "bandwidth", &h.bandwidth_outliers, |c| {
        bandwidth_text(1.0 / c)
    });
}

/// The carve-out table and the carve-outs not measured.
fn carveout_table(out: &mut String, h: &Hierarchy, clock_mhz: Option<f64>) {
    let _ = writeln!(out, "  {}", CARVEOUT_TITLE);
    let mut rows = vec![carveout_titles(clock_mhz)];
    rows.extend(
        h.carveout
            .iter()
            .filter(|c| c.not_measured.is_none())
            .map(|c| carveout_cells(c, clock_mhz)),
    );
    let right: Vec<bool> = rows[0].iter().map(|t| t != "shared memory").collect();
    out.push_str(&aligned(&rows, &right, "    "));
    for line in carveout_not_measured(&h.carveout) {
        let _ = writeln!(out, "    {line}");
    }
}

/// The line naming the points left out as unsteady measurements.
pub(crate) fn unsteady_text(names: &[String]) -> String {
    format!(
        "Left out of the levels as unsteady measurements (the dispatch missed its size, or the \
         halves of the samples disagree): {}.",
        names.join(", ")
    )
}

/// The carve-out table's heading (text, Markdown and HTML reports).
pub(crate) const CARVEOUT_TITLE: &str = "L1 beside shared memory (one SM's chase; the driver \
     splits the L1 and shared memory per pipeline from what the kernel declares):";

/// The carve-out table's column titles.
pub(crate) fn carveout_titles(clock_mhz: Option<f64>) -> Vec<String> {
    let mut titles = vec!["shared memory".to_string(), "L1 latency ns".to_string()];
    if clock_mhz.is_some() {
        titles.push("cycles".to_string());
    }
    titles.extend(["L1 capacity (one SM)".to_string(), "resolution".to_string()]);
    titles
}

/// What a declaration's row calls it: its size, or `none (the sweep)`.
fn declared(c: &Carveout) -> String {
    if c.shared == 0 {
        "none (the sweep)".to_string()
    } else {
        size_text(c.shared as f64)
    }
}

/// One line per declaration that was not measured: `64 KB: skipped: <reason>`.
pub(crate) fn carveout_not_measured(rows: &[Carveout]) -> Vec<String> {
    rows.iter()
        .filter_map(|c| {
            let reason = c.not_measured.as_ref()?;
            Some(format!("{} shared: not measured: {reason}", declared(c)))
        })
        .collect()
}

/// One measured declaration's cells under [`carveout_titles`]: what it declares (the latency
/// sweep's kernel declares none), the L1's latency and capacity.
pub(crate) fn carveout_cells(c: &Carveout, clock_mhz: Option<f64>) -> Vec<String> {
    let mut cells = vec![declared(c)];
    let dash = || "-".to_string();
    cells.push(c.l1.map_or_else(dash, |l| format!("{:.1}", l.cost)));
    if let Some(mhz) = clock_mhz {
        cells.push(c.l1.map_or_else(dash, |l| format!("{:.0}", l.cost * mhz / 1e3)));
    }
    match c.l1.and_then(|l| l.capacity().zip(l.resolution())) {
        Some((capacity, resolution)) => {
            cells.push(size_text(capacity as f64));
            cells.push(resolution_text(resolution));
        }
        None if c.l1.is_some() => {
            let largest = c.points.last().map_or(0, |p| p.bytes);
            cells.push(format!("beyond {}", size_text(largest as f64)));
            cells.push(dash());
        }
        None => {
            cells.push("no plateau at the smallest sets".to_string());
            cells.push(dash());
        }
    }
    cells
}

/// The latency levels: a table (name, latency, cycles, plateau, capacity and resolution,
/// bandwidth), then the points between levels and the outliers.
fn latency_levels(out: &mut String, h: &Hierarchy, clock_mhz: Option<f64>) {
    let levels = &h.latency_levels;
    let _ = writeln!(
        out,
        "  Latency levels: {}, the plateaus of one SM's pointer chase:",
        levels.len()
    );
    if levels.is_empty() {
        return;
    }
    let mut title = vec!["level".to_string(), "latency ns".to_string()];
    if clock_mhz.is_some() {
        title.push("cycles".to_string());
    }
    title.extend(
        ["on the plateau", "capacity (one SM)", "bandwidth"]
            .iter()
            .map(|s| s.to_string()),
    );
    let mut rows = vec![title];
    for named in levels {
        let l = &named.level;
        let mut row = vec![named.name.clone(), format!("{:.1}", l.cost)];
        if let Some(mhz) = clock_mhz {
            row.push(format!("{:.0}", l.cost * mhz / 1e3));
        }
        row.push(format!(
            "{} - {}",
            size_text(l.first as f64),
            size_text(l.last as f64)
        ));
        row.push(match (l.capacity(), l.resolution()) {
            (Some(c), Some(r)) => format!("{} {}", size_text(c as f64), resolution_text(r)),
            _ => "-".to_string(),
        });
        row.push(
            h.bandwidth_of(&named.name)
                .map_or_else(|| "-".to_string(), bandwidth_text),
        );
        rows.push(row);
    }
    let right: Vec<bool> = rows[0]
        .iter()
        .map(|t| t == "latency ns" || t == "cycles")
        .collect();
    out.push_str(&aligned(&rows, &right, "    "));
    for pair in levels.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let between: Vec<&Point> = h
            .latency
            .iter()
            .filter(|p| p.bytes > before.level.last && p.bytes < after.level.first)
            .filter(|p| !h.latency_outliers.contains(p))
            .collect();
        if between.is_empty() {
            continue;
        }
        let listed: Vec<String> = between
            .iter()
            .map(|p| {
                format!(
                    "{} {:.1} ns ({:.1}x {})",
                    size_text(p.bytes as f64),
                    p.cost,
                    p.cost / before.level.cost,
                    before.name
                )
            })
            .collect();
        let note = if between.len() == 1 {
            ": one point shows no plateau; a denser sweep there tells a level from a transition"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  Between {} and {} (on no plateau): {}{note}.",
            before.name,
            after.name,
            listed.join(", ")
        );
    }
    outlier_line(out, "latency", &h.latency_outliers, |c| {
        format!("{c:.1} ns")
    });
    if let Some(line) = inverted_levels(levels) {
        let _ = writeln!(out, "  {line}");
    }
}

/// A warning when a level is faster than the one before it, which no cache hierarchy does:
/// the smaller working sets were measured at a lower clock. `None` when the levels rise.
pub(crate) fn inverted_levels(levels: &[NamedLevel]) -> Option<String> {
    let pair = levels
        .windows(2)
        .find(|p| p[1].level.cost < p[0].level.cost)?;
    Some(format!(
        "Warning: {} ({:.1} ns) is slower than {} after it ({:.1} ns): no cache does that; the \
         smaller working sets were probably measured at a lower clock. Run again.",
        pair[0].name, pair[0].level.cost, pair[1].name, pair[1].level.cost
    ))
}

fn outlier_line(out: &mut String, curve: &str, outliers: &[Point], value: impl Fn(f64) -> String) {
    if outliers.is_empty() {
        return;
    }
    let listed: Vec<String> = outliers
        .iter()
        .map(|p| format!("{} ({})", size_text(p.bytes as f64), value(p.cost)))
        .collect();
    let _ = writeln!(
        out,
        "  Left out of the {curve} levels as outliers: {}.",
        listed.join(", ")
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use perftest_report::hierarchy::curves::{grid, h200, sample};

    #[test]
    fn a_level_faster_than_the_one_before_is_flagged() {
        let level = |name: &str, cost: f64| NamedLevel {
            name: name.to_string(),
            level: super::super::Level {
                first: 4096,
                last: 8192,
                beyond: Some(16384),
                cost,
                points: 2,
            },
        };
        assert_eq!(
            inverted_levels(&[level("L1", 17.7), level("L2", 142.0)]),
            None
        );
        let warning = inverted_levels(&[level("L1", 59.8), level("L2", 17.7), level("L3", 142.1)]);
        assert!(warning.unwrap().contains("L1 (59.8 ns) is slower than L2"));
    }

    /// The H200's doubling sweep as committed (ns per load; GB/s).
    pub(crate) fn h200_doubling() -> Hierarchy {
        let latency = [
            17.7, 17.8, 17.8, 18.0, 18.3, 19.0, 126.3, 143.1, 142.8, 142.7, 142.8, 142.9, 145.3,
            240.3, 351.6, 351.8, 351.1, 352.1,
        ];
        let bandwidth = [
            32254.8, 32262.3, 32271.1, 32280.0, 32281.8, 30885.8, 29962.3, 29602.0, 20981.5,
            13767.1, 11917.5, 10960.2, 10460.2, 5415.4, 4717.8, 4704.2, 4709.1,
        ];
        let latency: Vec<Point> = latency
            .iter()
            .enumerate()
            .map(|(i, &ns)| Point {
                bytes: 4096 << i,
                cost: ns,
            })
            .collect();
        let bandwidth: Vec<Point> = bandwidth
            .iter()
            .enumerate()
            .map(|(i, &gbs)| Point {
                bytes: 8192 << i,
                cost: 1.0 / gbs,
            })
            .collect();
        Hierarchy::from_curves(&latency, &bandwidth, 512 << 20)
    }

    #[test]
    fn the_h200_sweep_reads_as_levels_with_capacities_and_bandwidths() {
        let text = hierarchy_text(&h200_doubling(), Some(1980.0));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            "  working set  latency ns  cycles@1980MHz  bandwidth  level"
        );
        assert_eq!(
            lines[2],
            "         4 KB        17.7              35          -  L1"
        );
        assert_eq!(
            lines[8],
            "       256 KB       126.3             250  30.9 TB/s  -"
        );
        assert!(text.contains("Latency levels: 3, the plateaus"), "{text}");
        let table: Vec<&str> = lines
            .iter()
            .copied()
            .skip_while(|l| !l.starts_with("    level"))
            .take(4)
            .collect();
        assert_eq!(
            table,
            [
                "    level   latency ns  cycles  on the plateau  capacity (one SM)  bandwidth",
                "    L1            17.9      35  4 KB - 128 KB   128 KB ±100%       32.3 TB/s",
                "    L2           142.9     283  512 KB - 16 MB  16 MB ±100%        10.7 TB/s",
                "    memory       351.7     696  64 MB - 512 MB  -                  4.71 TB/s",
            ],
            "{text}"
        );
        // 32 MB is a point of the far-L2 plateau, not "a share of misses": the section says
        // it lies on no plateau yet.
        assert!(
            text.contains(
                "Between L2 and memory (on no plateau): 32 MB 240.3 ns (1.7x L2): one point"
            ),
            "{text}"
        );
        assert!(
            text.contains("Bandwidth levels: L1 32.3 TB/s (8 KB - 256 KB); L2 10.7 TB/s"),
            "{text}"
        );
        assert!(!text.contains("Gload"), "{text}");
        assert!(text.contains("within 15% of each other"), "{text}");
    }

    #[test]
    fn a_dense_sweep_names_near_and_far_l2_without_cycles() {
        let points = sample(&grid(16), |w| h200(w) / 1.98);
        let text = hierarchy_text(&Hierarchy::from_curves(&points, &[], 512 << 20), None);
        assert!(!text.contains("cycles"), "{text}");
        for name in ["L1", "L2 near", "L2 far", "memory"] {
            assert!(
                text.lines().any(|l| l.starts_with(&format!("    {name} "))),
                "{name}: {text}"
            );
        }
        assert!(text.contains("±4.4%"), "{text}");
        assert!(!text.contains("Bandwidth levels"), "{text}");
        assert!(!text.contains("on no plateau"), "{text}");
    }

    #[test]
    fn outliers_are_named() {
        let mut points = sample(&grid(1), h200);
        points[10].cost *= 3.0;
        let text = hierarchy_text(&Hierarchy::from_curves(&points, &[], 512 << 20), None);
        assert!(
            text.contains("Left out of the latency levels as outliers: 4 MB (849.0 ns)."),
            "{text}"
        );
        assert!(
            text.contains("   4 MB       849.0          -  outlier"),
            "{text}"
        );
    }
}
