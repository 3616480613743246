//! Windows: stop requests from the console's control handler, and Windows' device names.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use windows_sys::core::BOOL;
use windows_sys::Win32::System::Console::{
    SetConsoleCtrlHandler, CTRL_BREAK_EVENT, CTRL_CLOSE_EVENT, CTRL_C_EVENT, CTRL_LOGOFF_EVENT,
    CTRL_SHUTDOWN_EVENT,
};

use super::device_names::names_windows_device;
use super::StopEvent;

/// The console events that stop a run, in the order of [`CONSOLE_EVENTS`]. Ctrl-C ends it with
/// 130 as on Unix; Ctrl-Break with 149 (128 + the C runtime's `SIGBREAK`, 21); closing the
/// console with 129 (what SIGHUP gives on Unix when the terminal goes away); logging off or
/// shutting down with 143 (what SIGTERM gives on Unix when the system asks a process to end).
pub const STOP_EVENTS: &[StopEvent] = &[
    StopEvent {
        name: "Ctrl-C",
        exit_code: 130,
    },
    StopEvent {
        name: "Ctrl-Break",
        exit_code: 149,
    },
    StopEvent {
        name: "closing the console",
        exit_code: 129,
    },
    StopEvent {
        name: "logoff",
        exit_code: 143,
    },
    StopEvent {
        name: "shutdown",
        exit_code: 143,
    },
];

/// The `CTRL_*_EVENT` numbers of [`STOP_EVENTS`].
const CONSOLE_EVENTS: [u32; 5] = [
    CTRL_C_EVENT,
    CTRL_BREAK_EVENT,
    CTRL_CLOSE_EVENT,
    CTRL_LOGOFF_EVENT,
    CTRL_SHUTDOWN_EVENT,
];

/// How long the handler of a close, logoff or shutdown event holds the process open: Windows
/// ends the process when the handler returns (or after about 5 s), and the run needs the time
/// to write what it measured. The run's own exit ends the wait.
const HOLD_OPEN: Duration = Duration::from_secs(10);

/// Whether `a` and `b` name the same existing file (their canonical paths are equal).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Nothing to do: Windows has no file-size-limit signal (a write past a quota fails as any
/// failed write does).
pub fn report_file_size_limits() {}

/// The flags [`install_stop_handlers`] gave the console handler.
static FLAGS: OnceLock<(Arc<AtomicBool>, Arc<AtomicUsize>)> = OnceLock::new();

/// The console control handler (runs on a thread Windows creates for the event).
unsafe extern "system" fn on_console_event(event: u32) -> BOOL {
    let Some(index) = CONSOLE_EVENTS.iter().position(|&e| e == event) else {
        return 0;
    };
    let Some((stop, received)) = FLAGS.get() else {
        return 0;
    };
    if stop.swap(true, Ordering::SeqCst) {
        // A second request while the first is being handled: end at once.
        std::process::exit(STOP_EVENTS[index].exit_code);
    }
    received.store(index + 1, Ordering::SeqCst);
    if matches!(
        event,
        CTRL_CLOSE_EVENT | CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT
    ) {
        std::thread::sleep(HOLD_OPEN);
    }
    1
}

/// Windows' files are never sockets here.
pub fn is_socket(_meta: &Metadata) -> bool {
    false
}

/// Ends the process now with `code`.
pub fn exit_now(code: i32) -> ! {
    std::process::exit(code)
}

/// Installs the console control handler: the first stop event raises `stop` and records `1 +`
/// its index in [`STOP_EVENTS`] in `received`; a second one ends the process at once.
pub fn install_stop_handlers(
    stop: &Arc<AtomicBool>,
    received: &Arc<AtomicUsize>,
) -> io::Result<()> {
    if FLAGS.set((Arc::clone(stop), Arc::clone(received))).is_err() {
        return Err(io::Error::other("the stop handler is already installed"));
    }
    // SAFETY: `on_console_event` has the PHANDLER_ROUTINE signature and only touches `FLAGS`
    // (set above, never changed again) and the process's exit.
    match unsafe { SetConsoleCtrlHandler(Some(on_console_event), 1) } {
        0 => Err(io::Error::last_os_error()),
        _ => Ok(()),
    }
}

/// Windows has no FIFOs, sockets or devices among the files a path can name other than through
/// device names ([`is_device_name`]).
pub fn special_file_kind(_meta: &Metadata) -> Option<&'static str> {
    None
}

/// Opens `path` (a device) for writing; opening a Windows device or pipe does not wait for a
/// reader.
pub fn open_stream(path: &Path, _stop: &dyn Fn() -> bool) -> io::Result<File> {
    OpenOptions::new().write(true).open(path)
}

/// Writes all of `bytes` to `file`.
pub fn write_all_unblocked(
    file: &mut File,
    bytes: &[u8],
    _stop: &dyn Fn() -> bool,
) -> io::Result<()> {
    std::io::Write::write_all(file, bytes)
}

/// Whether `path` names a Windows device (`NUL`, `CON`, `COM1`, `\\.\...`), which is written in
/// place and never replaced.
pub fn is_device_name(path: &Path) -> bool {
    names_windows_device(&path.to_string_lossy())
}

/// Windows has no sticky directories: every link the user may read is followed.
pub fn link_may_be_followed(_link: &Metadata, _dir: &Metadata) -> bool {
    true
}

/// Gives the new file `handle` the attributes of `like` that `std` can set (read-only; a file
/// that was read-only is never replaced in the first place).
pub fn keep_owner_and_mode(handle: &File, like: &Metadata) -> io::Result<()> {
    handle.set_permissions(like.permissions())
}

/// Windows files have no Unix mode: a new file gets the directory's inherited access rules.
pub fn new_file_permissions(_mode: u32) -> Option<std::fs::Permissions> {
    None
}

/// Windows cannot open a directory to flush it; the file itself was flushed before the rename.
pub fn sync_dir(_dir: &Path) {}
