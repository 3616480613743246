//! Stopping a run cleanly when the user or the system asks: SIGINT (Ctrl-C), SIGTERM and
//! SIGHUP on Unix; Ctrl-C, Ctrl-Break, closing the console, logoff and shutdown on Windows
//! (the events and their exit codes are in [`crate::platform::STOP_EVENTS`]).
//!
//! The first request raises a flag that the run checks between dispatches: it stops, prints
//! and writes what was measured, and exits with the event's code (on Unix `128 + signal
//! number`: 130, 143, 129, the shell's convention for a process ended by that signal). A second
//! request while the first is being handled ends the process at once with the same kind of code.
//!
//! SIGPIPE is left as the Rust runtime sets it (ignored): writing to a closed standard output
//! (`perftest | head`) then fails with "broken pipe", which perftest treats as "nobody reads
//! stdout any more": it prints nothing more, still writes `--output`, and exits normally.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use crate::platform::{self, StopEvent, STOP_EVENTS};

/// The flag the run checks, and which stop event raised it.
#[derive(Clone, Debug, Default)]
pub struct StopSignals {
    stop: Arc<AtomicBool>,
    /// `1 +` the index of the event in [`STOP_EVENTS`]; 0 while none arrived.
    received: Arc<AtomicUsize>,
}

/// The flag of the installed handlers, for code that waits without a [`StopSignals`] at hand
/// (an output written into a FIFO that no reader has opened yet).
static INSTALLED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// True once a stop request arrived in a process whose handlers are installed; always false
/// where none are (there a stop signal ends the process the default way).
pub fn stop_requested() -> bool {
    INSTALLED
        .get()
        .is_some_and(|stop| stop.load(Ordering::SeqCst))
}

impl StopSignals {
    /// Installs the platform's handlers of the stop events.
    pub fn install() -> io::Result<StopSignals> {
        let signals = StopSignals::default();
        platform::install_stop_handlers(&signals.stop, &signals.received)?;
        let _ = INSTALLED.set(Arc::clone(&signals.stop));
        Ok(signals)
    }

    /// The flag a run polls; true once a stop request arrived.
    pub fn flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The event that stopped the run, if one did.
    pub fn received(&self) -> Option<StopEvent> {
        match self.received.load(Ordering::SeqCst) {
            0 => None,
            n => STOP_EVENTS.get(n - 1).copied(),
        }
    }

    /// The exit code of a run stopped by the event received (Ctrl-C's 130 when the flag was
    /// raised without a recorded event).
    pub fn exit_code(&self) -> i32 {
        self.received().unwrap_or(STOP_EVENTS[0]).exit_code
    }

    /// The event's usual name (`SIGTERM`, `Ctrl-Break`), for messages.
    pub fn name(&self) -> &'static str {
        self.received().unwrap_or(STOP_EVENTS[0]).name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_received_event_names_the_code() {
        let signals = StopSignals::default();
        assert_eq!(signals.received(), None);
        assert_eq!(signals.exit_code(), 130);
        for (i, event) in STOP_EVENTS.iter().enumerate() {
            signals.received.store(i + 1, Ordering::SeqCst);
            assert_eq!(signals.received(), Some(*event));
            assert_eq!(signals.exit_code(), event.exit_code);
            assert_eq!(signals.name(), event.name);
        }
    }

    #[cfg(unix)]
    #[test]
    fn unix_codes_follow_the_shell_convention() {
        let codes: Vec<(&str, i32)> = STOP_EVENTS.iter().map(|e| (e.name, e.exit_code)).collect();
        assert_eq!(
            codes,
            [("SIGINT (Ctrl-C)", 130), ("SIGTERM", 143), ("SIGHUP", 129)]
        );
    }
}
