//! Where the probe's wall time went: resource set-up, pipeline-cache load and save, each
//! pipeline build, clock warm-up, each measurement, and the time spent waiting for pipelines.

use std::fmt;
use std::time::Duration;

/// One piece of work on a case, as offsets from the start of the probe.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// The case id.
    pub case_id: String,
    /// When it started.
    pub start: Duration,
    /// When it ended.
    pub end: Duration,
}

impl Span {
    /// How long it took.
    pub fn duration(&self) -> Duration {
        self.end.saturating_sub(self.start)
    }
}

/// Phase durations and per-case spans of one probe.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProbeTimeline {
    /// Creating and uploading the suite's resources ([`crate::Bench::new`], before the probe).
    pub resources: Duration,
    /// Reading the pipeline-cache file and creating the `VkPipelineCache`.
    pub cache_load: Duration,
    /// Threads that built pipelines.
    pub build_threads: usize,
    /// Each pipeline build (successful or not), in the order they finished.
    pub pipelines: Vec<Span>,
    /// Warming the clocks up on the first ready case (until two dispatches agree or the
    /// warm-up share of the budget is spent).
    pub warmup: Duration,
    /// Each measured case (sizing and timed dispatches), in the order measured.
    pub measurements: Vec<Span>,
    /// Dispatches run while waiting for pipelines, to keep the GPU clocks up (not on CPU
    /// devices, where they would slow the builds down).
    pub keep_warm: Duration,
    /// Time the measuring thread waited with nothing ready to measure.
    pub waiting: Duration,
    /// Time spent after the measuring stopped waiting for builds still running.
    pub draining: Duration,
    /// Reading the cache data and writing the pipeline-cache file.
    pub cache_save: Duration,
    /// The whole probe (not counting [`ProbeTimeline::resources`]).
    pub total: Duration,
}

/// Milliseconds with one decimal.
fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

impl ProbeTimeline {
    /// When the first pipeline was ready, if any was.
    pub fn first_pipeline_ready(&self) -> Option<Duration> {
        self.pipelines.iter().map(|s| s.end).min()
    }

    /// The sum of the measurements' durations.
    pub fn measuring(&self) -> Duration {
        self.measurements.iter().map(Span::duration).sum()
    }

    /// One line per pipeline build and measurement, in time order (for diagnostics).
    pub fn details(&self) -> String {
        let mut rows: Vec<(Duration, String)> = self
            .pipelines
            .iter()
            .map(|s| (s.start, ("build", s)))
            .chain(self.measurements.iter().map(|s| (s.start, ("measure", s))))
            .map(|(start, (what, s))| {
                (
                    start,
                    format!(
                        "{:>7} - {:>7} ms  {what:<7} {} ({} ms)",
                        ms(s.start),
                        ms(s.end),
                        s.case_id,
                        ms(s.duration())
                    ),
                )
            })
            .collect();
        rows.sort_by_key(|(start, _)| *start);
        rows.into_iter()
            .map(|(_, row)| row + "\n")
            .collect::<String>()
    }
}

impl fmt::Display for ProbeTimeline {
    /// A few lines: set-up, builds (count, threads, first and last ready, shortest, median and
    /// longest), warm-up, measurements, waiting and cache I/O, in milliseconds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "time: resources {} ms, pipeline cache load {} ms / save {} ms",
            ms(self.resources),
            ms(self.cache_load),
            ms(self.cache_save)
        )?;
        let mut builds: Vec<Duration> = self.pipelines.iter().map(Span::duration).collect();
        builds.sort();
        if let (Some(first), Some(last), Some(min), Some(max)) = (
            self.first_pipeline_ready(),
            self.pipelines.iter().map(|s| s.end).max(),
            builds.first(),
            builds.last(),
        ) {
            let median = builds.get(builds.len() / 2).copied().unwrap_or_default();
            writeln!(
                f,
                "time: {} pipeline(s) on {} thread(s), first ready at {} ms, last at {} ms; \
                 each {}-{} ms (median {}), {} ms in all",
                builds.len(),
                self.build_threads,
                ms(first),
                ms(last),
                ms(*min),
                ms(*max),
                ms(median),
                ms(builds.iter().sum())
            )?;
        } else {
            writeln!(
                f,
                "time: no pipeline built ({} thread(s))",
                self.build_threads
            )?;
        }
        write!(
            f,
            "time: warm-up {} ms, {} measurement(s) {} ms, keeping warm {} ms, waiting for \
             pipelines {} ms, draining builds {} ms, probe total {} ms",
            ms(self.warmup),
            self.measurements.len(),
            ms(self.measuring()),
            ms(self.keep_warm),
            ms(self.waiting),
            ms(self.draining),
            ms(self.total)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(id: &str, start: u64, end: u64) -> Span {
        Span {
            case_id: id.into(),
            start: Duration::from_millis(start),
            end: Duration::from_millis(end),
        }
    }

    #[test]
    fn summary_and_details_report_the_spans() {
        let t = ProbeTimeline {
            resources: Duration::from_millis(3),
            build_threads: 2,
            pipelines: vec![span("a", 0, 40), span("b", 0, 60), span("c", 40, 50)],
            measurements: vec![span("a", 41, 45), span("c", 50, 52)],
            warmup: Duration::from_millis(4),
            total: Duration::from_millis(70),
            ..Default::default()
        };
        assert_eq!(t.first_pipeline_ready(), Some(Duration::from_millis(40)));
        assert_eq!(t.measuring(), Duration::from_millis(6));
        let text = t.to_string();
        assert!(text.contains("resources 3.0 ms"), "{text}");
        assert!(
            text.contains(
                "3 pipeline(s) on 2 thread(s), first ready at 40.0 ms, last at 60.0 ms; \
                 each 10.0-60.0 ms (median 40.0), 110.0 ms in all"
            ),
            "{text}"
        );
        assert!(text.contains("2 measurement(s) 6.0 ms"), "{text}");
        let details = t.details();
        let lines: Vec<&str> = details.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(lines[4].contains("measure c (2.0 ms)"), "{details}");
        assert!(ProbeTimeline::default()
            .to_string()
            .contains("no pipeline built"));
    }
}
