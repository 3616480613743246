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
