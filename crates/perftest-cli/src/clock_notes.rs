//! The notes reports print about the shader clock and the shader units (the clock figures are
//! perftest-report's [`perftest_report::clock`]).

use perftest_report::clock::{
    case_clock, clock, clock_with, measured_with, rate_clock, run_clock, throttled_in, Clock,
    ClockSource, RunClock, THROTTLE_FRACTION,
};

use crate::output::printable::printable;
use crate::report::{Report, ReportFigures};

/// The notes reports print about the clock: its value and source (with the run's spread, or
/// the measured one beside a given one), and the cases measured on a throttled clock.
pub fn notes(report: &Report) -> Vec<String> {
    let run = report.clock.as_ref().and_then(run_clock);
    let measured = measured_with(report, run.as_ref());
    let clock = clock_with(report, measured);
    let mut notes = Vec::new();
    let spread = run.as_ref().map_or_else(String::new, |r| {
        format!(
            " (during the run: {:.0}-{:.0} MHz, median {:.0}, {} readings)",
            r.min_mhz,
            r.max_mhz,
            r.median_mhz,
            r.readings.len()
        )
    });
    match (clock, measured) {
        (Some(c), _) if c.source == ClockSource::Measured => notes.push(format!(
            "Shader clock: {:.0} MHz, measured with the subgroup clock{spread}.",
            c.mhz
        )),
        (Some(c), Some(m)) => notes.push(format!(
            "Shader clock: {:.0} MHz as given (--clock-mhz); measured with the subgroup clock: \
             {m:.0} MHz ({:+.1}%){spread}.",
            c.mhz,
            (m / c.mhz - 1.0) * 100.0
        )),
        (Some(c), None) => notes.push(format!(
            "Shader clock: {:.0} MHz as given (--clock-mhz).",
            c.mhz
        )),
        (None, _) => {}
    }
    let slow = run
        .as_ref()
        .map_or_else(Vec::new, |r| throttled_in(report, r));
    if !slow.is_empty() {
        notes.push(format!(
            "throttled: {} case(s) measured on a clock more than {:.0}% below the run's median: {}.",
            slow.len(),
            THROTTLE_FRACTION * 100.0,
            printable(&slow.join(", "))
        ));
    }
    notes.extend(units_note_with(report, clock, run.as_ref()));
    notes
}

/// The note on the shader units, where the driver tells them: their count and, with a clock,
/// the case that moves the most bytes per clock and unit.
pub fn units_note(report: &Report) -> Option<String> {
    let run = report.clock.as_ref().and_then(run_clock);
    units_note_with(report, clock(report), run.as_ref())
}

/// [`units_note`] with the clocks already derived.
fn units_note_with(
    report: &Report,
    clock: Option<Clock>,
    run: Option<&RunClock>,
) -> Option<String> {
    let units = perftest_report::derived::shader_units(report)?;
    let (one, plural) = perftest_report::derived::unit_words(report.device.vendor_id);
    let mut note = format!("Shader units: {units} {plural}");
    if report.settings.shader_units.is_some() {
        note.push_str(" as given (--shader-units)");
    }
    if clock.is_some() {
        let best = report
            .cases
            .iter()
            .zip(report.derived_all())
            .filter_map(|(case, d)| Some((case, d?.bytes_per_s?)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let mhz = |case| rate_clock(clock, run.and_then(|r| case_clock(r, case)));
        let best = best.and_then(|(case, b)| Some((case, b, mhz(case)?)));
        if let Some((case, bytes_per_s, mhz)) = best {
            let per = bytes_per_s / (mhz * 1e6) / f64::from(units);
            note.push_str(&format!(
                "; the most bytes per clock and {one}: {} ({per:.1})",
                printable(&case.name)
            ));
        }
    }
    note.push('.');
    Some(note)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_units_note_names_the_most_bytes_per_clock_and_unit() {
        let mut report = perftest_report::samples::sample_report();
        report.settings.clock_mhz = Some(1000.0);
        let note = units_note(&report).unwrap();
        // raw.load4.random: 2000 groups x 65536 loads x 16 B in a 20 ms median, over 1 GHz and
        // 132 SMs.
        let expected = 2000.0 * 65536.0 * 16.0 / 20e-3 / 1e9 / 132.0;
        assert_eq!(
            note,
            format!(
                "Shader units: 132 SMs; the most bytes per clock and SM: \
                 ByteAddressBuffer.Load4 random ({expected:.1})."
            )
        );
        report.settings.clock_mhz = None;
        assert_eq!(units_note(&report).unwrap(), "Shader units: 132 SMs.");
        report.device.shader_units = None;
        assert!(units_note(&report).is_none());
    }
}
