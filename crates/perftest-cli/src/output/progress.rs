//! Progress on stderr while cases run: only when stderr is a terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar, or nothing when stderr is not a terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar for `total` cases (hidden unless stderr is a terminal).
    pub fn new(total: usize) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::new(total as u64);
        if let Ok(style) = ProgressStyle::with_template("{pos:>3}/{len} {wide_msg} [{elapsed}]") {
            bar.set_style(style);
        }
        Progress { bar: Some(bar) }
    }

    /// Shows case `index` (0-based) of the run.
    pub fn case(&self, index: usize, name: &str) {
        if let Some(bar) = &self.bar {
            bar.set_position(index as u64 + 1);
            bar.set_message(name.to_string());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// How the command follows a run on stderr: the progress bar (where there is one), with
/// `verbose` a line when every case has had its first turn, and the run's warnings.
pub struct Follow<'a> {
    /// The bar cases advance, if any.
    pub progress: Option<&'a Progress>,
    /// `-v`: say when the first measurement round is done.
    pub verbose: bool,
}

impl crate::benchmark::settings::RunObserver for Follow<'_> {
    fn sizing(&mut self, index: usize, _count: usize, case: &perftest_cases::Case) {
        if let Some(progress) = self.progress {
            progress.case(index, &case.name);
        }
    }

    fn round_done(&mut self, round: usize) {
        // From then on a partial report holds measured cases.
        if self.verbose && round == 1 {
            crate::stderr_line!("perftest: measurement round 1 done");
        }
    }

    fn warning(&mut self, message: &str) {
        crate::stderr_line!(
            "perftest: warning: {}",
            crate::output::printable::printable(message)
        );
    }
}
