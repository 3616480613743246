//! Stopping a run cleanly on SIGINT (Ctrl-C), SIGTERM and SIGHUP.
//!
//! The first of these signals raises a flag that the run checks between dispatches: it stops,
//! prints and writes what was measured, and exits with `128 + signal number` (130, 143, 129),
//! the shell's convention for a process ended by that signal. A second signal while the first
//! is being handled ends the process at once with the same kind of code.
//!
//! SIGPIPE is left as the Rust runtime sets it (ignored): writing to a closed standard output
//! (`perftest | head`) then fails with "broken pipe", which perftest treats as "nobody reads
//! stdout any more": it prints nothing more, still writes `--output`, and exits normally.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The signals that stop a run.
pub const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// The flag the run checks, and which signal raised it.
#[derive(Clone, Debug, Default)]
pub struct StopSignals {
    stop: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

impl StopSignals {
    /// Installs the handlers of [`STOP_SIGNALS`].
    pub fn install() -> io::Result<StopSignals> {
        let signals = StopSignals::default();
        for signal in STOP_SIGNALS {
            // Registered first, so it sees the flag as it was before this signal: only a
            // second signal ends the process here.
            signal_hook::flag::register_conditional_shutdown(
                signal,
                128 + signal,
                Arc::clone(&signals.stop),
            )?;
            let number = usize::try_from(signal).unwrap_or_default();
            signal_hook::flag::register_usize(signal, Arc::clone(&signals.signal), number)?;
            signal_hook::flag::register(signal, Arc::clone(&signals.stop))?;
        }
        Ok(signals)
    }

    /// The flag a run polls; true once a stop signal arrived.
    pub fn flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The signal that stopped the run, if one did.
    pub fn received(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok(),
        }
    }

    /// The exit code of a run stopped by the signal received: `128 + number` (130 when the
    /// flag was raised without a recorded signal).
    pub fn exit_code(&self) -> i32 {
        128 + self.received().unwrap_or(SIGINT)
    }

    /// The signal's usual name (`SIGTERM`), for messages.
    pub fn name(&self) -> &'static str {
        match self.received() {
            Some(SIGTERM) => "SIGTERM",
            Some(SIGHUP) => "SIGHUP",
            _ => "SIGINT (Ctrl-C)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_shell_convention() {
        let signals = StopSignals::default();
        assert_eq!(signals.received(), None);
        assert_eq!(signals.exit_code(), 130);
        for (signal, code, name) in [
            (SIGINT, 130, "SIGINT (Ctrl-C)"),
            (SIGTERM, 143, "SIGTERM"),
            (SIGHUP, 129, "SIGHUP"),
        ] {
            signals.signal.store(signal as usize, Ordering::SeqCst);
            assert_eq!(signals.exit_code(), code);
            assert_eq!(signals.name(), name);
        }
    }
}
