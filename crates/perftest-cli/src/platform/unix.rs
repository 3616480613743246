//! Unix: stop signals through `signal-hook`, file modes and owners through `std::os::unix`.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

use super::StopEvent;

/// Whether `a` and `b` name the same existing file (the same device and inode: through links,
/// hard links and different spellings alike).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Makes a file-size limit (`ulimit -f`, which Slurm passes to jobs) an error of the write that
/// reaches it (`EFBIG`, reported like any failed write, the partial file removed) rather than a
/// SIGXFSZ that kills the process with no message.
pub fn report_file_size_limits() {
    // SAFETY: setting a standard signal's disposition to "ignore" runs no code in the handler's
    // place and is async-signal-safe; nothing else in perftest handles SIGXFSZ.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// The signals that stop a run, in the order of `SIGNALS`: SIGINT (Ctrl-C), SIGTERM and
/// SIGHUP, each ending the run with the shell's `128 + signal number`.
pub const STOP_EVENTS: &[StopEvent] = &[
    StopEvent {
        name: "SIGINT (Ctrl-C)",
        exit_code: 128 + SIGINT,
    },
    StopEvent {
        name: "SIGTERM",
        exit_code: 128 + SIGTERM,
    },
    StopEvent {
        name: "SIGHUP",
        exit_code: 128 + SIGHUP,
    },
];

/// The signal numbers of [`STOP_EVENTS`].
const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// When the first stop signal arrived (`CLOCK_MONOTONIC` nanoseconds, 0 while none did), to
/// tell a copy of it from a second request.
static FIRST_AT_NS: AtomicU64 = AtomicU64::new(0);

/// `CLOCK_MONOTONIC` in nanoseconds (at least 1); async-signal-safe.
fn monotonic_ns() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime is async-signal-safe and writes only the timespec it is given.
    unsafe {
        libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now);
    }
    let seconds = u64::try_from(now.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(now.tv_nsec).unwrap_or(0);
    seconds
        .saturating_mul(1_000_000_000)
        .saturating_add(nanos)
        .max(1)
}

/// Installs the handlers: the first stop signal raises `stop` and records `1 +` its index in
/// [`STOP_EVENTS`] in `received`; another one ends the process at once with its exit code,
/// unless it is a copy of the first ([`crate::stop_signals::is_copy_of_first`]: GNU `timeout`
/// signals perftest and then its process group, so one request arrives twice).
pub fn install_stop_handlers(
    stop: &Arc<AtomicBool>,
    received: &Arc<AtomicUsize>,
) -> io::Result<()> {
    for (index, (signal, event)) in SIGNALS.iter().zip(STOP_EVENTS).enumerate() {
        let stop = Arc::clone(stop);
        let received = Arc::clone(received);
        let code = event.exit_code;
        let action = move || {
            let now = monotonic_ns();
            match received.compare_exchange(0, index + 1, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => {
                    FIRST_AT_NS.store(now, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                }
                Err(first) => {
                    // 0: the first handler, on another thread, has not stored its time yet.
                    let at = FIRST_AT_NS.load(Ordering::SeqCst);
                    let since =
                        Duration::from_nanos(if at == 0 { 0 } else { now.saturating_sub(at) });
                    if !crate::stop_signals::is_copy_of_first(first, index + 1, since) {
                        signal_hook::low_level::exit(code);
                    }
                }
            }
        };
        // SAFETY: the action only reads the monotonic clock, uses atomics and calls `_exit`
        // (through signal-hook), all async-signal-safe; it allocates nothing and takes no lock.
        unsafe {
            signal_hook::low_level::register(*signal, action)?;
        }
    }
    Ok(())
}

/// Ends the process now with `code`, running no exit handlers (a thread blocked in the Vulkan
/// loader or driver may hold the locks they would take).
pub fn exit_now(code: i32) -> ! {
    signal_hook::low_level::exit(code)
}

/// A word for a file that is neither a regular file nor a directory, when it is one.
pub fn special_file_kind(meta: &Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

/// Whether `meta` describes a Unix socket.
pub fn is_socket(meta: &Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_socket()
}

/// Opens `path` (a device or FIFO) for writing without ever blocking: a FIFO that no
/// reader has opened yet is retried every few milliseconds until `stop` says to give up (then
/// `ErrorKind::Interrupted`). The file stays non-blocking; [`write_all_unblocked`] writes it.
pub fn open_stream(path: &Path, stop: &dyn Fn() -> bool) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    loop {
        match OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
        {
            // ENXIO: a FIFO with no reader yet.
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {}
            other => return other,
        }
        if stop() {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "stopped while waiting for a reader to open it",
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Writes all of `bytes` to a non-blocking `file`, waiting while it is full (a slow reader)
/// until `stop` says to give up.
pub fn write_all_unblocked(
    file: &mut File,
    bytes: &[u8],
    stop: &dyn Fn() -> bool,
) -> io::Result<()> {
    use std::io::Write;
    let mut rest = bytes;
    while !rest.is_empty() {
        match file.write(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if stop() {
                    return Err(io::Error::new(
                        io::ErrorKind::Interrupted,
                        "stopped while waiting for the reader",
                    ));
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Unix devices are files like any other: the file's type (from its metadata) says what it is,
/// never its name.
pub fn is_device_name(_path: &Path) -> bool {
    false
}

/// The kernel's `protected_symlinks` rule, applied whether or not the host enables it: in a
/// sticky, world-writable directory (`/tmp`) a symbolic link is followed only when it belongs
/// to the user following it or to the directory's owner, so that no other user can plant a
/// link there that makes perftest overwrite a file of theirs choosing.
pub fn link_may_be_followed(link: &Metadata, dir: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    const STICKY_AND_WORLD_WRITABLE: u32 = 0o1002;
    if dir.mode() & STICKY_AND_WORLD_WRITABLE != STICKY_AND_WORLD_WRITABLE {
        return true;
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    link.uid() == me || link.uid() == dir.uid()
}

/// Gives the new file `handle` the owner (where this process may: only a privileged one can
/// give a file away) and the mode of `like`.
pub fn keep_owner_and_mode(handle: &File, like: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    match std::os::unix::fs::fchown(handle, Some(like.uid()), Some(like.gid())) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {}
        Err(e) => return Err(e),
    }
    handle.set_permissions(std::fs::Permissions::from_mode(like.mode() & 0o7777))
}

/// The permissions a new file is created with: `mode`, less the umask.
pub fn new_file_permissions(mode: u32) -> Option<std::fs::Permissions> {
    Some(std::os::unix::fs::PermissionsExt::from_mode(mode))
}

/// Makes a rename in `dir` durable (best effort: the file itself is already complete).
pub fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}
