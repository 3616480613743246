//! The per-case cells the text and Markdown tables share.

use perftest_cases::Unit;

use crate::output::printable::printable;
use crate::report::{CaseResult, CaseStatus, Derived, Report, ReportFigures, Settings};
use perftest_report::analysis::Analysis;
use perftest_report::places::{slower_places, PLACE_MARGIN};

/// Column titles of the human-readable tables, after the case name. `±` is how far the figures
/// may be off, with 95% confidence (how far [`Derived::interval`] reaches from the figure, in
/// percent); `CV` is how much single dispatches vary; `Notes` marks a figure to read with care
/// (`noisy`, `unsteady`, `modal`), in a left-aligned column of its own so the figures line up.
pub(crate) const TITLES: [&str; 7] = ["ms", "x", "Gload/s", "GB/s", "±", "CV", "Notes"];

/// How many of [`TITLES`] hold figures (right-aligned); the rest hold words (left-aligned).
pub(crate) const FIGURE_COLUMNS: usize = 6;

/// What a table shows for one case.
pub(crate) enum Cells {
    /// Figures of a measured case, formatted, in [`TITLES`] order (the last: its notes, or
    /// empty).
    Figures([String; 7]),
    /// A sentence instead of figures (`skipped: reason`).
    Note(String),
}

/// How many of [`TITLES`] a table of `rows` shows: the figures, and the notes column where a
/// row has a note.
pub(crate) fn shown_columns(rows: &[Row]) -> usize {
    let noted = rows
        .iter()
        .any(|r| matches!(&r.cells, Cells::Figures(c) if !c[FIGURE_COLUMNS].is_empty()));
    if noted {
        TITLES.len()
    } else {
        FIGURE_COLUMNS
    }
}

/// One table row: the case's display name and its cells.
pub(crate) struct Row {
    /// The original's display name, control characters escaped.
    pub(crate) name: String,
    /// Figures or a note.
    pub(crate) cells: Cells,
}

/// The rows of every case of `report`, in order, with the figures of its `analysis`.
pub(crate) fn rows(report: &Report, analysis: &Analysis) -> Vec<Row> {
    report
        .cases
        .iter()
        .zip(&analysis.derived)
        .map(|(case, derived)| Row {
            name: printable(&case.name).into_owned(),
            cells: cells(case, derived.as_ref(), report.source.is_some()),
        })
        .collect()
}

/// The cells of `case`; `source` when the report was read from another tool's table.
fn cells(case: &CaseResult, derived: Option<&Derived>, source: bool) -> Cells {
    match (&case.status, derived) {
        (CaseStatus::Measured, None) => Cells::Note("no valid samples".to_string()),
        (CaseStatus::Measured, Some(d)) if source => Cells::Figures([
            format!("{:.3}", d.original_ms),
            relative(d.relative),
            giga(d.loads_per_s),
            giga(d.bytes_per_s),
            "n/a".to_string(),
            // A published figure's spread is the source's, or unknown: never the 0% of one
            // sample.
            case.source_cv
                .map_or_else(|| "-".to_string(), |cv| format!("{:.1}%", cv * 100.0)),
            String::new(),
        ]),
        (CaseStatus::Measured, Some(d)) => {
            let steady = case.measurement.as_ref().is_none_or(|m| m.steady);
            let mut notes: Vec<&str> = Vec::new();
            if d.noisy {
                notes.push("noisy");
            }
            if !steady {
                notes.push("unsteady");
            }
            if d.modes.is_multimodal() {
                notes.push("modal");
            }
            let notes = notes.join(" ");
            if case.unit == Unit::DependentLoad.name() {
                // A chain: one load at a time, so its rate is a latency.
                let latency = d
                    .loads_per_s
                    .map_or_else(|| "n/a".to_string(), |l| format!("{:.1} ns", 1e9 / l));
                let na = || "n/a".to_string();
                return Cells::Figures([
                    na(),
                    na(),
                    latency,
                    na(),
                    plus_minus(d),
                    format!("{:.1}%", d.summary.cv * 100.0),
                    notes,
                ]);
            }
            if case.unit == Unit::Transfer.name() || case.unit == Unit::Launch.name() {
                // One operation per group: its time, and for a transfer its bandwidth.
                let bandwidth = if case.unit == Unit::Transfer.name() {
                    giga(d.bytes_per_s)
                } else {
                    "n/a".to_string()
                };
                return Cells::Figures([
                    "n/a".to_string(),
                    "n/a".to_string(),
                    duration(d.ns_per_group),
                    bandwidth,
                    plus_minus(d),
                    format!("{:.1}%", d.summary.cv * 100.0),
                    notes,
                ]);
            }
            Cells::Figures([
                format!("{:.3}", d.original_ms),
                relative(d.relative),
                giga(d.loads_per_s),
                giga(d.bytes_per_s),
                plus_minus(d),
                format!("{:.1}%", d.summary.cv * 100.0),
                notes,
            ])
        }
        // Skipped, not reached (written as skipped) or failed: the word and why.
        (status, _) => {
            let why = printable(status.reason().unwrap_or_default());
            Cells::Note(format!("{}: {why}", status.label()))
        }
    }
}

/// The `x` figure with three decimals, `n/a` without a measured baseline.
pub(crate) fn relative(value: Option<f64>) -> String {
    value.map_or_else(|| "n/a".to_string(), |x| format!("{x:.3}"))
}

/// The `±` cell: how far the figure's 95% interval reaches from it, as a percentage of it, with
/// two significant digits at most (`0.015%`, `0.21%`, `3.4%`); `n/a` without an interval (fewer
/// than six samples).
fn plus_minus(d: &Derived) -> String {
    let Some(share) = d.interval.and_then(|i| i.reach_share(d.ns_per_group)) else {
        return "n/a".to_string();
    };
    let percent = share * 100.0;
    let decimals = match percent {
        p if p < 0.1 => 3,
        p if p < 1.0 => 2,
        _ => 1,
    };
    format!("{percent:.decimals$}%")
}

/// A time of `ns` nanoseconds in the unit that reads best (`850 ns`, `12.4 us`, `3.21 ms`).
pub(crate) fn duration(ns: f64) -> String {
    match ns {
        n if !n.is_finite() => "n/a".to_string(),
        n if n < 1e3 => format!("{n:.0} ns"),
        n if n < 1e6 => format!("{:.1} us", n / 1e3),
        n => format!("{:.2} ms", n / 1e6),
    }
}

/// A per-second figure in units of 10^9 with two decimals, `n/a` when unknown.
fn giga(value: Option<f64>) -> String {
    value.map_or_else(|| "n/a".to_string(), |v| format!("{:.2}", v / 1e9))
}

/// How a report's cases were sampled, for headers: `6 samples of 2 ms dispatches`, or for a
/// report without a fixed dispatch time `20 ms per measurement, 10 samples`.
pub(crate) fn sampling(settings: &Settings) -> String {
    match settings.dispatch_ms {
        Some(d) => format!("{} samples of {d} ms dispatches", settings.samples),
        None => format!(
            "{} ms per measurement, {} samples",
            settings.target_ms, settings.samples
        ),
    }
}

/// The device line above a table: `Device: NAME (type, driver info, Vulkan X.Y.Z)`, control
/// characters escaped. A table another tool published names its API and tool instead
/// (`Device: NAME (Direct3D 11, sebbbi/perftest)`), with the driver where the source gives one:
/// it holds no Vulkan device's fields.
pub(crate) fn device_line(report: &Report) -> String {
    let d = &report.device;
    let line = match &report.source {
        Some(source) => {
            let driver = Some(d.driver_info.trim())
                .filter(|i| !i.is_empty())
                .map(|i| format!(", driver {i}"))
                .unwrap_or_default();
            format!(
                "Device: {} ({}, {}{driver})",
                d.name, source.api, source.tool
            )
        }
        None => format!(
            "Device: {} ({}, {} {}, Vulkan {})",
            d.name, d.device_type, d.driver_name, d.driver_info, d.api_version
        ),
    };
    printable(&line).into_owned()
}

/// The lines under the device line of a run with transfer-suite cases: what each kind of
/// memory resolved to (`Memory device-local: type 0 (device-local), heap 80.0 GiB`), control
/// characters escaped; none for other runs, or reports that do not record the types.
pub(crate) fn memory_type_lines(report: &Report) -> Vec<String> {
    let transfer = perftest_cases::Suite::Transfer.name();
    let has_transfer = report
        .cases
        .iter()
        .any(|c| c.suite.as_deref() == Some(transfer));
    if !has_transfer {
        return Vec::new();
    }
    report
        .device
        .memory_types
        .iter()
        .map(|t| printable(&format!("Memory {}", t.describe())).into_owned())
        .collect()
}

/// Notes below a table: an interrupted run, a missing baseline.
pub(crate) fn footnotes(report: &Report, analysis: &Analysis) -> Vec<String> {
    let mut notes = Vec::new();
    notes.extend(crate::published::note(report));
    notes.extend(crate::clock_notes::notes(report));
    if !report.complete {
        let left = report.cases.iter().filter(|c| c.is_not_reached()).count();
        notes.push(format!(
            "Incomplete run (interrupted, or stopped by a device error): {} of {} case(s) ran \
             before it stopped.",
            report.cases.len() - left,
            report.cases.len()
        ));
    }
    let unsteady = report
        .cases
        .iter()
        .filter(|c| c.measurement.as_ref().is_some_and(|m| !m.steady))
        .count();
    if unsteady > 0 {
        notes.push(format!(
            "unsteady: {unsteady} case(s) whose first and second half of samples differ by more \
             than 2% (clocks changing during the run, or a noisy device), or whose size was never \
             confirmed by a dispatch on target."
        ));
    }
    let derived = &analysis.derived;
    for (case, d) in report.cases.iter().zip(derived) {
        notes.extend(level_notes(case, d.as_ref()));
        notes.extend(place_note(case, d.as_ref()));
    }
    if derived.iter().flatten().any(|d| d.interval.is_some()) {
        notes.push(
            "±: with 95% confidence (90% for a latency case) the case's true figures lie within \
             this share of the printed ones, from the spread of its own dispatches; CV: how much \
             single dispatches vary."
                .to_string(),
        );
    }
    let units: Vec<&str> = ["store", "atomic", "vertex"]
        .into_iter()
        .filter(|u| report.cases.iter().any(|c| c.unit == *u))
        .collect();
    if !units.is_empty() {
        notes.push(format!(
            "Gload/s and GB/s count each case's own unit: {} for the {} cases.",
            units
                .iter()
                .map(|u| match *u {
                    "vertex" => "vertices (each with all its attributes' bytes)".to_string(),
                    u => format!("{u}s"),
                })
                .collect::<Vec<_>>()
                .join(" and "),
            units.join(" and ")
        ));
    }
    if report
        .cases
        .iter()
        .any(|c| c.unit == Unit::DependentLoad.name())
    {
        let mut note = "Latency cases (pointer chase, one dependent load at a time): the Gload/s \
                        column gives the time per load, and ms, x and GB/s do not apply."
            .to_string();
        let two_sizes = report.cases.iter().any(|c| {
            c.unit == Unit::DependentLoad.name()
                && c.measurement.as_ref().is_some_and(|m| m.short.is_some())
        });
        if two_sizes {
            note.push_str(
                " Each is timed at two dispatch sizes and the time per load is their difference \
                 over the extra loads, so what every dispatch pays once (the lap that refills the \
                 L1, which each dispatch starts empty) cancels.",
            );
        }
        notes.push(note);
    }
    let baseline = report.baseline();
    if baseline.and_then(|b| report.derived(b)).is_none() {
        let name = baseline.map_or(report.baseline_id.as_str(), |b| b.name.as_str());
        notes.push(format!(
            "x is n/a: the baseline {} was not measured.",
            printable(name)
        ));
    }
    notes
}

/// The note of a case whose speed depended on where its data lay (`place`): where it was
/// measured, and how much longer its probes took at the slower places ([`slower_places`]).
fn place_note(case: &CaseResult, d: Option<&Derived>) -> Option<String> {
    let places = case.measurement.as_ref()?.data_places.as_ref()?;
    let slower = slower_places(places, d?.summary.cv);
    if slower.is_empty() {
        return None;
    }
    let at = |offset: u64| match (offset, offset % 1024) {
        (0, _) => "at the start of".to_string(),
        (_, 0) => format!("{} KB into", offset / 1024),
        _ => format!("{offset} bytes into"),
    };
    let chosen = places.offsets.get(places.place as usize).copied()?;
    let (margin, n) = (PLACE_MARGIN * 100.0, places.offsets.len());
    let which = if places.place == 0 {
        format!("the first of {n} places (no other probed over {margin:.0}% faster)")
    } else {
        format!("the fastest of {n} places")
    };
    let others: Vec<String> = slower
        .iter()
        .map(|&(offset, longer)| format!("{:.1}% {} it", longer * 100.0, at(offset)))
        .collect();
    Some(format!(
        "place: {} runs at a speed set by where its data lies. It was measured with its data {} \
         its buffer, {which}; elsewhere its probe dispatches took longer: {}.",
        printable(&case.name),
        at(chosen),
        others.join(", ")
    ))
}

/// The notes of one case's levels: `modal` (its dispatches fall into levels; the figure is the
/// fastest) and `faster` (a faster level it took too rarely to count).
fn level_notes(case: &CaseResult, d: Option<&Derived>) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(d) = d.filter(|d| d.modes.is_multimodal()) {
        // A chain's figure is the difference of two medians (see `marginal_ns_per_group`).
        let figure = if case.measurement.as_ref().is_some_and(|m| m.short.is_some()) {
            "its latency comes from the medians of both dispatch sizes"
        } else {
            "its figure is the fastest level"
        };
        notes.push(format!(
            "modal: {} takes one of {} distinct times per dispatch: {} ns per workgroup \
             (share of dispatches); {figure}.",
            printable(&case.name),
            d.modes.as_slice().len(),
            d.modes.describe(|ns| format!("{ns:.2}"))
        ));
    }
    if let Some(faster) = d.and_then(|d| d.faster_level) {
        notes.push(format!(
            "faster: {} took {:.2} ns per workgroup in {:.0}% of its dispatches, too few to \
             be a level in this run; another run may report it, and the ± reaches down to it.",
            printable(&case.name),
            faster.center,
            faster.share * 100.0,
        ));
    }
    notes
}
