//! Stopping a run cleanly when the user or the system asks: SIGINT (Ctrl-C), SIGTERM and
//! SIGHUP on Unix; Ctrl-C, Ctrl-Break, closing the console, logoff and shutdown on Windows
//! (the events and their exit codes are in [`crate::platform::STOP_EVENTS`]).
//!
//! The first request raises a flag that the run checks between dispatches: it stops, prints
//! and writes what was measured, and exits with the event's code (on Unix `128 + signal
//! number`: 130, 143, 129, the shell's convention for a process ended by that signal). A second
//! request while the first is being handled ends the process at once with the same kind of code;
//! a copy of the first request (the same signal within [`COPY_WINDOW`], as GNU `timeout` sends
//! one to perftest and one to its process group) is not a second request.
//!
//! A request is never swallowed: if the process has not started finishing
//! ([`finishing`]) within [`STOP_GRACE`] of it (the Vulkan loader or a driver blocks, and
//! nothing checks the flag), a watchdog thread removes the temporary output files under way,
//! says so and ends the process with the event's code. `render` and `compare` have nothing
//! measured to save: there the watchdog ends the process at once ([`Work::Files`]).
//!
//! SIGPIPE is left as the Rust runtime sets it (ignored): writing to a closed standard output
//! (`perftest | head`) then fails with "broken pipe", which perftest treats as "nobody reads
//! stdout any more": it prints nothing more, still writes `--output`, and exits normally.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

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

/// A repeat of the first stop signal closer than this to it is a copy of the same request,
/// not a second one.
pub const COPY_WINDOW: Duration = Duration::from_millis(500);

/// How long a stop request may go without the process starting to finish before the watchdog
/// ends it.
pub const STOP_GRACE: Duration = Duration::from_secs(5);

/// Raised by [`finishing`].
static FINISHING: AtomicBool = AtomicBool::new(false);

/// Raised by [`announce_requests`].
static ANNOUNCE: AtomicBool = AtomicBool::new(false);

/// Makes the watchdog say on stderr when it sees a stop request (`--verbose`): the line tells
/// that the request was received, before the run finishes its current step.
pub fn announce_requests() {
    ANNOUNCE.store(true, Ordering::SeqCst);
}

/// Says that the process has seen the stop request (or is past the work that could block
/// without checking it) and writes its results now: the watchdog then leaves it alone.
pub fn finishing() {
    FINISHING.store(true, Ordering::SeqCst);
}

/// Whether [`finishing`] was called.
pub fn is_finishing() -> bool {
    FINISHING.load(Ordering::SeqCst)
}

/// Whether a stop event (`1 +` its index) arriving `since` after the first one (`first`) is a
/// copy of that request rather than a second request.
pub fn is_copy_of_first(first: usize, this: usize, since: Duration) -> bool {
    first == this && since < COPY_WINDOW
}

/// What the process does while a stop request may arrive, which decides how the watchdog
/// answers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A run on a device: it checks the flag between dispatches and writes what it measured;
    /// the watchdog waits [`STOP_GRACE`] for it (the loader or a driver may block).
    Device,
    /// `render` and `compare`: reading reports and writing pages, with nothing measured to
    /// save; the watchdog ends the process at once, its output under way removed.
    Files,
}

impl StopSignals {
    /// Installs the platform's handlers of the stop events, and the watchdog that ends a
    /// process whose stop request went unanswered for [`STOP_GRACE`].
    pub fn install() -> io::Result<StopSignals> {
        Self::install_for(Work::Device)
    }

    /// [`StopSignals::install`] for a process doing `work`.
    pub fn install_for(work: Work) -> io::Result<StopSignals> {
        let signals = StopSignals::default();
        platform::install_stop_handlers(&signals.stop, &signals.received)?;
        let _ = INSTALLED.set(Arc::clone(&signals.stop));
        let watched = signals.clone();
        // Without the watchdog (no thread to be had) a stop still works wherever it is polled.
        let _ = std::thread::Builder::new()
            .name("stop watchdog".into())
            .spawn(move || watched.watch(work));
        Ok(signals)
    }

    /// The watchdog: waits for a stop request, then for [`finishing`] for at most
    /// [`STOP_GRACE`] (none for [`Work::Files`]); ends the process when it does not come.
    fn watch(&self, work: Work) {
        while !self.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(50));
        }
        if work == Work::Files {
            if FINISHING.load(Ordering::SeqCst) {
                return;
            }
            crate::export::remove_temporary_files();
            crate::stderr_line!("perftest: interrupted by {}", self.name());
            platform::exit_now(self.exit_code());
        }
        if ANNOUNCE.load(Ordering::SeqCst) {
            crate::stderr_line!("perftest: {} received, stopping", self.name());
        }
        let since = Instant::now();
        while since.elapsed() < STOP_GRACE {
            if FINISHING.load(Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if FINISHING.load(Ordering::SeqCst) {
            return;
        }
        crate::export::remove_temporary_files();
        crate::stderr_line!(
            "perftest: {} was not answered within {} s (the Vulkan loader or driver does not \
             return); ending now",
            self.name(),
            STOP_GRACE.as_secs()
        );
        platform::exit_now(self.exit_code());
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

    #[test]
    fn only_the_same_event_soon_after_is_a_copy() {
        let soon = COPY_WINDOW / 10;
        assert!(is_copy_of_first(2, 2, Duration::ZERO));
        assert!(is_copy_of_first(2, 2, soon));
        assert!(!is_copy_of_first(2, 2, COPY_WINDOW));
        assert!(
            !is_copy_of_first(1, 2, soon),
            "another signal is a second request"
        );
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
