//! What differs between operating systems, each in one small module: how a run is asked to
//! stop (Unix signals; the Windows console's control events), and the few file-system details
//! of writing an output file (owners and modes, device names, syncing a directory).
//!
//! Everything else in the crate is the same on every platform and calls these functions
//! without `cfg`.

// Pure, so unit-tested everywhere; only the Windows module uses it.
#[cfg_attr(not(windows), allow(dead_code))]
mod device_names;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as os;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as os;

pub use os::{
    exit_now, install_stop_handlers, is_device_name, is_socket, keep_owner_and_mode,
    link_may_be_followed, new_file_permissions, open_stream, report_file_size_limits, same_file,
    special_file_kind, sync_dir, write_all_unblocked, STOP_EVENTS,
};

/// One way the user or the system asks a run to stop (a Unix signal, a Windows console event).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StopEvent {
    /// Its usual name, for messages (`SIGTERM`, `Ctrl-Break`).
    pub name: &'static str,
    /// The exit code of a run it stopped.
    pub exit_code: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_events_have_distinct_names_and_shell_style_codes() {
        assert!(!STOP_EVENTS.is_empty());
        for (i, a) in STOP_EVENTS.iter().enumerate() {
            assert!((129..=159).contains(&a.exit_code), "{a:?}");
            for b in &STOP_EVENTS[i + 1..] {
                assert_ne!(a.name, b.name);
            }
        }
        // Ctrl-C is 130 everywhere, the code shells give a command ended by it.
        assert_eq!(STOP_EVENTS[0].exit_code, 130);
        assert!(STOP_EVENTS[0].name.contains("Ctrl-C"));
    }
}
