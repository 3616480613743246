//! Where an output file goes: checked before the run, written after it.
//!
//! [`OutputTarget::check`] decides, before any GPU work, what `--output PATH` names:
//! - a **regular file** (existing or new, reached directly or through symbolic links, even a
//!   link whose target does not exist yet): written into a fresh, randomly named temporary file
//!   beside the final target, flushed, given the old file's mode and owner, then renamed over
//!   it — readers see the old file or the complete new one, and a symbolic link on the way
//!   stays a link;
//! - anything else that can be written (a character device such as `/dev/null`, a FIFO) or the process's own standard output or error (`/dev/stdout`, `/dev/fd/1`, ...):
//!   written in place, never replaced;
//! - a directory, a path ending in `/`, a file in a directory that does not exist, or a Unix
//!   socket (which cannot be opened as a file): a usage error ([`OutputError::is_usage`]).
//!
//! Nothing is created or opened under a predictable name: the temporary file is `tempfile`'s,
//! an exclusive create (`O_CREAT | O_EXCL`, which never follows a symbolic link) of a random
//! name, retried under another name when one is taken; the writability check creates one the
//! same way and removes it at once. Each temporary file is also listed while it exists, so a
//! process that must end before its write finishes (a stop signal nothing answered, which
//! skips destructors) still removes it ([`remove_temporary_files`]).
//!
//! A file whose name perftest chooses itself inside a directory the user gave
//! ([`OutputTarget::entry`], one `--dump-shaders` file per case) follows the same rule with one
//! difference: only the directory is reached through symbolic links (the protected-links rule
//! applies to it). The entry itself is never followed or opened: a regular file there is
//! replaced by the same temporary-file-and-rename, and anything else found under that name (a
//! symbolic link, a FIFO, a device, a socket, a directory) is refused, since perftest did not
//! put it there.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use tempfile::{NamedTempFile, TempPath};

use crate::output::printable::printable_path as shown;
use crate::platform;

/// Symbolic links followed before giving up: the kernel's own limit (it follows 40 and
/// refuses the 41st with `ELOOP`).
const MAX_LINK_HOPS: u32 = 40;

/// Why an output path cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The path names a directory (an existing one, or it ends in `/`, `.` or `..`).
    #[error("{} is a directory; give a file name", shown(.0))]
    Directory(PathBuf),
    /// The directory that would hold the file does not exist (or is not a directory).
    #[error("{}: {} is not an existing directory", shown(path), shown(dir))]
    MissingDirectory {
        /// The path as given.
        path: PathBuf,
        /// The missing directory.
        dir: PathBuf,
    },
    /// The path names a Unix socket, which cannot be opened as a file (connecting to it is not
    /// writing a report).
    #[error("{} is a socket; give a file, a FIFO or a device", shown(.0))]
    Socket(PathBuf),
    /// Following symbolic links did not end.
    #[error("{}: too many levels of symbolic links", shown(.0))]
    LinkLoop(PathBuf),
    /// A symbolic link in a sticky, world-writable directory belongs to another user.
    #[error(
        "{}: refusing to follow {}, a symbolic link another user owns in the shared directory \
         {} (the rule of the kernel's protected_symlinks)",
        shown(path),
        shown(link),
        shown(dir)
    )]
    ProtectedLink {
        /// The path as given.
        path: PathBuf,
        /// The link that was not followed.
        link: PathBuf,
        /// The sticky, world-writable directory that holds it.
        dir: PathBuf,
    },
    /// A name perftest chose inside a directory is taken by something other than a regular
    /// file (a symbolic link, FIFO, device, socket or directory that someone put there).
    #[error(
        "cannot write {}: it is {what}, not a regular file, and perftest writes only regular \
         files under the names it chooses",
        shown(path)
    )]
    NotRegular {
        /// The entry found.
        path: PathBuf,
        /// What it is, in words (`a symbolic link`, `a FIFO`).
        what: &'static str,
    },
    /// The file cannot be written (permissions, read-only file system, ...).
    #[error("cannot write {}: {source}", shown(path))]
    Io {
        /// The path as given.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
}

impl OutputError {
    /// True when the user named something that can never be an output file (exit code 2);
    /// false for a runtime failure such as a permission or disk error (exit code 1).
    pub fn is_usage(&self) -> bool {
        !matches!(
            self,
            OutputError::Io { .. }
                | OutputError::ProtectedLink { .. }
                | OutputError::NotRegular { .. }
        )
    }
}

/// What an output path turned out to be.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A regular file at this path (symbolic links resolved), replaced atomically.
    File(PathBuf),
    /// A name perftest chose in a directory: a regular file or nothing, never followed,
    /// replaced atomically.
    Entry(PathBuf),
    /// A device, FIFO or socket at this path, written in place.
    Stream(PathBuf),
    /// The process's standard output.
    Stdout,
    /// The process's standard error.
    Stderr,
}

/// A checked `--output` path, ready to be written once the run is done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputTarget {
    /// The path as the user gave it (used in messages).
    path: PathBuf,
    kind: Kind,
}

impl OutputTarget {
    /// Decides what `path` names and checks, without creating anything lasting, that it can be
    /// written. Run it before the work whose result goes there.
    pub fn check(path: &Path) -> Result<OutputTarget, OutputError> {
        let kind = classify(path)?;
        if let Kind::File(file) = &kind {
            may_replace(file).map_err(|source| io_error(path, source))?;
            // An exclusive create of a random name, removed at once: the same operation the
            // final write starts with, so a directory that passes here is writable then.
            let temp =
                create_temp(&parent_dir(file), 0o600).map_err(|source| io_error(path, source))?;
            let listed = temp.path().to_path_buf();
            drop(temp);
            under_way(&listed, false);
        }
        Ok(OutputTarget {
            path: path.to_path_buf(),
            kind,
        })
    }

    /// The file `name` (one file name, no separator) that perftest chooses inside the directory
    /// `dir` the user gave: `dir` is reached through symbolic links as an output path is, the
    /// entry never is (see the module documentation). Checked now and again when written.
    pub fn entry(dir: &Path, name: &str) -> Result<OutputTarget, OutputError> {
        let shown_path = dir.join(name);
        let resolved_dir = resolve_links(dir)?;
        match fs::metadata(&resolved_dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(OutputError::MissingDirectory {
                    path: shown_path,
                    dir: dir.to_path_buf(),
                })
            }
            Err(source) => return Err(io_error(&shown_path, source)),
        }
        let file = resolved_dir.join(name);
        regular_or_absent(&file).map_err(|e| e.at(&shown_path))?;
        Ok(OutputTarget {
            path: shown_path,
            kind: Kind::Entry(file),
        })
    }

    /// True when `self` and `other` write the same place: the same file after following
    /// links (an existing file also through hard links, and any file through different
    /// spellings of its directory: `c.bin`, `./c.bin`), the same stream, or the same standard
    /// stream.
    pub fn same_destination(&self, other: &OutputTarget) -> bool {
        if self.kind == other.kind {
            return true;
        }
        match (&self.kind, &other.kind) {
            (
                Kind::File(a) | Kind::Entry(a) | Kind::Stream(a),
                Kind::File(b) | Kind::Entry(b) | Kind::Stream(b),
            ) => same_path(a, b),
            _ => false,
        }
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` to the target: atomically for a regular file, in place otherwise.
    pub fn write(&self, bytes: &[u8]) -> Result<(), OutputError> {
        let result = match &self.kind {
            Kind::File(file) => replace_file(file, bytes),
            Kind::Entry(file) => match regular_or_absent(file) {
                Ok(()) => replace_file(file, bytes),
                Err(refusal) => return Err(refusal.at(&self.path)),
            },
            // Never blocked beyond the reach of a stop signal: a FIFO nobody reads is waited
            // for, and given up on once a stop request arrives.
            Kind::Stream(stream) => {
                let stop = crate::stop_signals::stop_requested;
                platform::open_stream(stream, &stop)
                    .and_then(|mut f| platform::write_all_unblocked(&mut f, bytes, &stop))
            }
            // A closed standard output (`-o - | head`) is no error, as without --output:
            // nobody reads the rest.
            Kind::Stdout => {
                let mut out = io::stdout().lock();
                match out.write_all(bytes).and_then(|()| out.flush()) {
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                    other => other,
                }
            }
            Kind::Stderr => io::stderr().lock().write_all(bytes),
        };
        result.map_err(|source| io_error(&self.path, source))
    }
}

/// Why an entry perftest names itself cannot be written: an I/O error, or what was found.
enum EntryRefusal {
    Io(io::Error),
    NotRegular(&'static str),
}

impl EntryRefusal {
    /// The error, naming `path`.
    fn at(self, path: &Path) -> OutputError {
        match self {
            EntryRefusal::Io(source) => io_error(path, source),
            EntryRefusal::NotRegular(what) => OutputError::NotRegular {
                path: path.to_path_buf(),
                what,
            },
        }
    }
}

/// Accepts an entry that is absent or a regular file, looked at without following it.
fn regular_or_absent(file: &Path) -> Result<(), EntryRefusal> {
    match fs::symlink_metadata(file) {
        Ok(m) if m.is_file() => may_replace(file).map_err(EntryRefusal::Io),
        Ok(m) if m.file_type().is_symlink() => Err(EntryRefusal::NotRegular("a symbolic link")),
        Ok(m) if m.is_dir() => Err(EntryRefusal::NotRegular("a directory")),
        Ok(m) => Err(EntryRefusal::NotRegular(
            platform::special_file_kind(&m).unwrap_or("a special file"),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(EntryRefusal::Io(e)),
    }
}

fn io_error(path: &Path, source: io::Error) -> OutputError {
    OutputError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Decides what `path` names (see the module documentation).
fn classify(path: &Path) -> Result<Kind, OutputError> {
    if names_directory(path) {
        return Err(OutputError::Directory(path.to_path_buf()));
    }
    // `-` is standard output, as for most command-line tools.
    if path.as_os_str() == "-" {
        return Ok(Kind::Stdout);
    }
    match standard_stream(path) {
        Some(1) => return Ok(Kind::Stdout),
        Some(2) => return Ok(Kind::Stderr),
        // Another open descriptor (`3>file`): whatever it is, it is written where it stands.
        Some(_) => return Ok(Kind::Stream(path.to_path_buf())),
        None => {}
    }
    if platform::is_device_name(path) {
        return Ok(Kind::Stream(path.to_path_buf()));
    }
    let resolved = resolve_links(path)?;
    // A link to `/proc/self/fd/1` (or `/dev/stdout`) is that descriptor, whatever it is.
    match standard_stream(&resolved) {
        Some(1) => return Ok(Kind::Stdout),
        Some(2) => return Ok(Kind::Stderr),
        Some(_) => return Ok(Kind::Stream(resolved)),
        None => {}
    }
    match fs::metadata(&resolved) {
        Ok(m) if m.is_dir() => Err(OutputError::Directory(path.to_path_buf())),
        Ok(m) if m.is_file() => Ok(Kind::File(resolved)),
        // Opening a socket always fails (ENXIO, as a FIFO without a reader does): refused now
        // rather than waited on.
        Ok(m) if platform::is_socket(&m) => Err(OutputError::Socket(path.to_path_buf())),
        Ok(_) => Ok(Kind::Stream(resolved)),
        Err(e) if e.kind() == io::ErrorKind::NotADirectory => Err(OutputError::MissingDirectory {
            path: path.to_path_buf(),
            dir: parent_dir(&resolved),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let dir = parent_dir(&resolved);
            match fs::metadata(&dir) {
                Ok(m) if m.is_dir() => Ok(Kind::File(resolved)),
                Ok(_) => Err(OutputError::MissingDirectory {
                    path: path.to_path_buf(),
                    dir,
                }),
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                    ) =>
                {
                    Err(OutputError::MissingDirectory {
                        path: path.to_path_buf(),
                        dir,
                    })
                }
                Err(source) => Err(io_error(path, source)),
            }
        }
        Err(source) => Err(io_error(path, source)),
    }
}

/// True when the path's spelling alone says it is a directory: empty, ending in a separator
/// (`/`, and on Windows `\\` too), or ending in a `.` or `..` component.
fn names_directory(path: &Path) -> bool {
    let text = path.as_os_str().as_encoded_bytes();
    let separator = |b: &u8| std::path::is_separator(char::from(*b));
    if text.last().is_none_or(separator) {
        return true;
    }
    // `Path::components` drops a trailing `.`, so look at the last separated piece.
    let last = text.rsplit(separator).next().unwrap_or_default();
    last == b"." || last == b".."
}

/// The descriptor number when `path` names one of this process's open descriptors by one of
/// the usual aliases (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`).
fn standard_stream(path: &Path) -> Option<u32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"]
        .iter()
        .find_map(|prefix| text.strip_prefix(prefix))
        .and_then(|n| n.parse().ok())
}

/// Follows symbolic links at the end of `path` (not only existing targets: a dangling link is
/// followed to the file it names), so the file that is finally written is the link's target.
fn resolve_links(path: &Path) -> Result<PathBuf, OutputError> {
    let mut current = path.to_path_buf();
    // One look more than the links followed: the last look finds what the 40th link names.
    for _ in 0..=MAX_LINK_HOPS {
        // The descriptor aliases are links too (`/proc/self/fd/1` -> `pipe:[1234]`), to
        // something that is not a path: they end the walk.
        if standard_stream(&current).is_some() {
            return Ok(current);
        }
        match fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let dir = parent_dir(&current);
                let dir_meta = fs::metadata(&dir).map_err(|e| io_error(path, e))?;
                if !platform::link_may_be_followed(&m, &dir_meta) {
                    return Err(OutputError::ProtectedLink {
                        path: path.to_path_buf(),
                        link: current,
                        dir,
                    });
                }
                let target = fs::read_link(&current).map_err(|e| io_error(path, e))?;
                current = if target.is_absolute() {
                    target
                } else {
                    parent_dir(&current).join(target)
                };
            }
            Ok(_) => return Ok(current),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(current)
            }
            Err(e) => return Err(io_error(path, e)),
        }
    }
    Err(OutputError::LinkLoop(path.to_path_buf()))
}

/// Whether two resolved paths name one file: the same file where both exist, else the same
/// name in the same directory (before either is written).
fn same_path(a: &Path, b: &Path) -> bool {
    if platform::same_file(a, b) {
        return true;
    }
    let dir = |p: &Path| fs::canonicalize(parent_dir(p));
    a.file_name().is_some()
        && a.file_name() == b.file_name()
        && matches!((dir(a), dir(b)), (Ok(x), Ok(y)) if x == y)
}

/// The directory holding `path` (`.` for a bare file name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ if path.components().next() == Some(Component::RootDir) => PathBuf::from("/"),
        _ => PathBuf::from("."),
    }
}

/// Replaces the regular file `file` atomically with `bytes`, keeping an existing file's mode
/// and, where the process may set it, its owner. On error the temporary file is removed and
/// `file` is left as it was.
fn replace_file(file: &Path, bytes: &[u8]) -> io::Result<()> {
    may_replace(file)?;
    let dir = parent_dir(file);
    // Looked at without following: a link put there since the check is replaced, and lends
    // the new file neither its target's mode nor its owner.
    let existing = fs::symlink_metadata(file).ok().filter(Metadata::is_file);
    // A new file gets the usual mode (0666 less the umask); a replacement starts private and
    // receives the old file's mode once it is complete.
    let mode = if existing.is_some() { 0o600 } else { 0o666 };
    let (handle, temp) = create_temp(&dir, mode)?.into_parts();
    let listed = temp.to_path_buf();
    // On an error `temp` is dropped, which removes the temporary file; the write's error is
    // the one to report, failing to clean up too is secondary.
    let written = fill(handle, bytes, existing.as_ref())
        .and_then(|()| not_stopped())
        .and_then(|()| persist(temp, file));
    under_way(&listed, false);
    written?;
    platform::sync_dir(&dir);
    Ok(())
}

/// An error once a stop request arrived: a `render` or `compare` stopped before its output
/// took the place of the old file leaves the old one (a run's report is written after its
/// stop, and stops only the waits of a FIFO: see [`OutputTarget::write`]).
fn not_stopped() -> io::Result<()> {
    if crate::stop_signals::stop_requested() && !crate::stop_signals::is_finishing() {
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            "stopped by a signal before the file was complete; the old file is left as it was",
        ));
    }
    Ok(())
}

/// Refuses to replace an existing file that the caller could not have written in place (a
/// read-only file, one owned by another user without write permission): a rename over it would
/// otherwise succeed wherever the directory is writable. Opening it for writing, without
/// truncating, asks the operating system the same question an in-place write would.
fn may_replace(file: &Path) -> io::Result<()> {
    match fs::symlink_metadata(file) {
        Ok(meta) if meta.is_file() => {
            OpenOptions::new()
                .write(true)
                .open(file)
                .map(drop)
                .map_err(|e| {
                    match e.kind() {
                io::ErrorKind::PermissionDenied => io::Error::new(
                    e.kind(),
                    "the file is read-only or not writable by this user, and perftest replaces \
                     a file only where it could write it in place",
                ),
                _ => e,
            }
                })
        }
        _ => Ok(()),
    }
}

/// Writes `bytes`, gives the file the owner and mode of `like` (when given) and flushes it to
/// disk; the file is closed on return.
fn fill(mut handle: File, bytes: &[u8], like: Option<&Metadata>) -> io::Result<()> {
    handle.write_all(bytes)?;
    if let Some(like) = like {
        platform::keep_owner_and_mode(&handle, like)?;
    }
    handle.sync_all()
}

/// The temporary files being written now, removed by [`remove_temporary_files`] when the
/// process must end before it could finish them.
static UNDER_WAY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the temporary files of the writes under way (for a process that ends before they
/// finish: a stop request nothing answered). Never waits: a write holding the list is left.
pub fn remove_temporary_files() {
    if let Ok(list) = UNDER_WAY.try_lock() {
        for temp in list.iter() {
            let _ = fs::remove_file(temp);
        }
    }
}

/// Adds `temp` to the writes under way, or takes it off.
fn under_way(temp: &Path, started: bool) {
    if let Ok(mut list) = UNDER_WAY.lock() {
        if started {
            list.push(temp.to_path_buf());
        } else {
            list.retain(|t| t != temp);
        }
    }
}

/// Creates a new, randomly named file `.perftest-RANDOM.tmp` in `dir` with `O_CREAT | O_EXCL`
/// (never following or reusing an existing name; a taken name is retried with another), with
/// `mode` (less the umask) on Unix, and lists it among the writes under way. Dropped, it is
/// removed.
fn create_temp(dir: &Path, mode: u32) -> io::Result<NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".perftest-").suffix(".tmp").rand_bytes(16);
    if let Some(permissions) = platform::new_file_permissions(mode) {
        builder.permissions(permissions);
    }
    let temp = builder.tempfile_in(dir).map_err(without_temp_name)?;
    under_way(temp.path(), true);
    Ok(temp)
}

/// A failed temporary file's error without the temporary file's random name, which the user
/// never gave and which does not exist (the caller names the output path instead).
fn without_temp_name(error: io::Error) -> io::Error {
    let text = error.to_string();
    match text.split_once(" at path ") {
        Some((message, _)) => io::Error::new(error.kind(), message.to_owned()),
        None => error,
    }
}

/// Renames the complete temporary file over `file` (on failure the temporary file is removed).
fn persist(temp: TempPath, file: &Path) -> io::Result<()> {
    temp.persist(file).map_err(|e| e.error)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};

    /// A fresh, empty directory for one test.
    fn scratch(name: &str) -> PathBuf {
        // Kept: each test removes it at its end.
        tempfile::Builder::new()
            .prefix(&format!("perftest-file-{name}-"))
            .tempdir()
            .unwrap()
            .keep()
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn write(path: &Path, bytes: &[u8]) {
        OutputTarget::check(path).unwrap().write(bytes).unwrap();
    }

    #[test]
    fn writes_and_replaces() {
        let dir = scratch("replace");
        let path = dir.join("report.json");
        write(&path, b"first");
        assert_eq!(fs::read(&path).unwrap(), b"first");
        write(&path, b"second, longer");
        assert_eq!(fs::read(&path).unwrap(), b"second, longer");
        write(&path, b"");
        assert_eq!(fs::read(&path).unwrap(), b"");
        assert_eq!(entries(&dir), ["report.json"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn directories_and_missing_directories_are_usage_errors() {
        let dir = scratch("dirs");
        fs::create_dir(dir.join("taken")).unwrap();
        for path in [
            dir.join("taken"),
            PathBuf::from(format!("{}/", dir.join("new").display())),
            dir.join("taken").join("."),
            dir.join("taken").join(".."),
            PathBuf::new(),
        ] {
            let error = OutputTarget::check(&path).unwrap_err();
            assert!(
                matches!(error, OutputError::Directory(_)),
                "{path:?}: {error}"
            );
            assert!(error.is_usage());
        }
        let missing = dir.join("no").join("such").join("out.csv");
        let error = OutputTarget::check(&missing).unwrap_err();
        assert!(
            matches!(error, OutputError::MissingDirectory { .. }),
            "{error}"
        );
        assert!(error.is_usage());
        assert!(
            error.to_string().contains("is not an existing directory"),
            "{error}"
        );
        // A regular file where a directory should be.
        fs::write(dir.join("plain"), b"x").unwrap();
        let error = OutputTarget::check(&dir.join("plain").join("out.csv")).unwrap_err();
        assert!(error.is_usage(), "{error}");
        assert_eq!(entries(&dir), ["plain", "taken"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_nothing_behind() {
        let dir = scratch("fail");
        let target = dir.join("out.json");
        let checked = OutputTarget::check(&target).unwrap();
        // The target became a non-empty directory during the run: the rename fails.
        fs::create_dir(&target).unwrap();
        fs::write(target.join("keep"), b"x").unwrap();
        let error = checked.write(b"data").unwrap_err();
        assert!(!error.is_usage());
        assert!(error.to_string().contains("out.json"), "{error}");
        assert_eq!(entries(&dir), ["out.json"]);
        assert_eq!(entries(&target), ["keep"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// When the temporary file cannot be made (here: its directory is gone by the time the
    /// report is written), the error names the output path and the system's reason, never the
    /// random name of a temporary file the user did not ask for.
    #[test]
    fn an_error_names_the_output_not_the_temporary_file() {
        let dir = scratch("gone");
        let sub = dir.join("sub");
        fs::create_dir(&sub).unwrap();
        let checked = OutputTarget::check(&sub.join("out.json")).unwrap();
        fs::remove_dir(&sub).unwrap();
        let error = checked.write(b"data").unwrap_err().to_string();
        assert!(error.contains("out.json"), "{error}");
        assert!(!error.contains(".perftest-"), "{error}");
        assert!(!error.contains(".tmp"), "{error}");
        assert_eq!(entries(&dir), Vec::<String>::new());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_are_written_through() {
        let dir = scratch("links");
        let real = dir.join("real.json");
        fs::write(&real, b"old").unwrap();
        let link = dir.join("link.json");
        symlink("real.json", &link).unwrap();
        write(&link, b"new");
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        // A link to a file that does not exist yet creates that file.
        let dangling = dir.join("dangling.json");
        symlink(dir.join("later.json"), &dangling).unwrap();
        write(&dangling, b"later");
        assert!(fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(dir.join("later.json")).unwrap(), b"later");
        // The kernel follows a chain of 40 links and refuses 41: so does perftest.
        let end = dir.join("end.json");
        let link_name = |i: u32| dir.join(format!("chain-{i}"));
        symlink(&end, link_name(0)).unwrap();
        for i in 1..=40 {
            symlink(link_name(i - 1), link_name(i)).unwrap();
        }
        write(&link_name(39), b"forty");
        assert_eq!(fs::read(&end).unwrap(), b"forty");
        let error = OutputTarget::check(&link_name(40)).unwrap_err();
        assert!(matches!(error, OutputError::LinkLoop(_)), "{error}");
        // A loop is an error, not a hang.
        symlink("loop-b", dir.join("loop-a")).unwrap();
        symlink("loop-a", dir.join("loop-b")).unwrap();
        let error = OutputTarget::check(&dir.join("loop-a")).unwrap_err();
        assert!(matches!(error, OutputError::LinkLoop(_)), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A link another user planted in a sticky, world-writable directory is not followed (the
    /// kernel's protected_symlinks rule, applied even where the host leaves it off); one owned
    /// by the directory's owner or by this user is.
    #[cfg(unix)]
    #[test]
    fn links_planted_in_shared_directories_are_not_followed() {
        let dir = scratch("sticky");
        let shared = dir.join("shared");
        fs::create_dir(&shared).unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
        let victim = dir.join("victim");
        fs::write(&victim, b"precious").unwrap();
        let planted = shared.join("out.json");
        symlink(&victim, &planted).unwrap();
        // Another user's link: only root can make one here; without it the refusal cannot be
        // shown, and the own-link half below still runs.
        if std::os::unix::fs::lchown(&planted, Some(4242), Some(4242)).is_ok() {
            let error = OutputTarget::check(&planted).unwrap_err();
            assert!(
                matches!(error, OutputError::ProtectedLink { .. }),
                "{error}"
            );
            assert!(!error.is_usage());
            assert!(error.to_string().contains("protected_symlinks"), "{error}");
            assert_eq!(fs::read(&victim).unwrap(), b"precious");
            // The same link in a directory that is not sticky is followed.
            fs::set_permissions(&shared, fs::Permissions::from_mode(0o777)).unwrap();
            write(&planted, b"report");
            assert_eq!(fs::read(&victim).unwrap(), b"report");
            fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
            fs::remove_file(&planted).unwrap();
            symlink(&victim, &planted).unwrap();
        }
        // This user's own link in the sticky directory is followed.
        write(&planted, b"mine");
        assert_eq!(fs::read(&victim).unwrap(), b"mine");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The old writability check created `.perftest-probe-PID` with `File::create`, which
    /// follows a planted symbolic link and truncates its target.
    #[cfg(unix)]
    #[test]
    fn the_check_never_opens_a_predictable_name() {
        let dir = scratch("planted");
        let victim = dir.join("victim");
        fs::write(&victim, b"precious").unwrap();
        for name in [
            format!(".perftest-probe-{}", std::process::id()),
            format!(".out.json.{}.0.tmp", std::process::id()),
        ] {
            symlink(&victim, dir.join(name)).unwrap();
        }
        write(&dir.join("out.json"), b"report");
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        assert_eq!(fs::read(dir.join("out.json")).unwrap(), b"report");
        assert_eq!(entries(&dir).len(), 4, "{:?}", entries(&dir));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_and_owner() {
        let dir = scratch("mode");
        let path = dir.join("private.json");
        fs::write(&path, b"old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        // Giving the file to another user only works for root; otherwise the owner is ours.
        let other = std::os::unix::fs::chown(&path, Some(4242), Some(4343)).is_ok();
        write(&path, b"new");
        let meta = fs::metadata(&path).unwrap();
        assert_eq!(meta.mode() & 0o7777, 0o640);
        if other {
            assert_eq!((meta.uid(), meta.gid()), (4242, 4343));
        }
        assert_eq!(fs::read(&path).unwrap(), b"new");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A file that the caller could not write in place is never replaced by a rename (which
    /// only needs the directory to be writable). Root may write anything on Unix, so there the
    /// replacement is expected; elsewhere (a normal user, Windows' read-only attribute) the
    /// refusal is.
    #[test]
    fn a_file_the_caller_cannot_write_is_not_replaced() {
        let dir = scratch("readonly");
        let path = dir.join("locked.json");
        fs::write(&path, b"old").unwrap();
        let mut permissions = fs::metadata(&path).unwrap().permissions();
        permissions.set_readonly(true);
        fs::set_permissions(&path, permissions).unwrap();
        let writable = OpenOptions::new().write(true).open(&path).is_ok();
        match OutputTarget::check(&path) {
            Ok(target) => {
                assert!(writable, "a file this user cannot write passed the check");
                target.write(b"new").unwrap();
                assert_eq!(fs::read(&path).unwrap(), b"new");
            }
            Err(error) => {
                assert!(!writable, "{error}");
                assert!(!error.is_usage());
                assert!(error.to_string().contains("read-only"), "{error}");
                assert_eq!(fs::read(&path).unwrap(), b"old");
            }
        }
        let mut permissions = fs::metadata(&path).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        permissions.set_readonly(false);
        fs::set_permissions(&path, permissions).unwrap();
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn separators_of_the_platform_end_a_directory() {
        assert!(names_directory(Path::new("reports/")));
        assert_eq!(
            names_directory(Path::new("reports\\")),
            cfg!(windows),
            "a backslash separates only on Windows"
        );
    }

    #[test]
    fn a_dash_is_standard_output() {
        let target = OutputTarget::check(Path::new("-")).unwrap();
        assert_eq!(target.kind, Kind::Stdout);
        let dir = scratch("dash");
        let named = OutputTarget::check(&dir.join("-")).unwrap();
        assert!(
            matches!(named.kind, Kind::File(_)),
            "DIR/- is a file named -"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn descriptor_aliases() {
        assert_eq!(standard_stream(Path::new("/dev/stdout")), Some(1));
        assert_eq!(standard_stream(Path::new("/dev/fd/2")), Some(2));
        assert_eq!(standard_stream(Path::new("/proc/self/fd/1")), Some(1));
        assert_eq!(standard_stream(Path::new("/proc/self/fd/x")), None);
        assert_eq!(standard_stream(Path::new("out.json")), None);
        assert!(names_directory(Path::new("a/")));
        assert!(names_directory(Path::new("a/..")));
        assert!(!names_directory(Path::new("a/.b")));
        assert!(!names_directory(Path::new("..b")));
    }
}
