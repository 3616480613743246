//! Writing an output file without ever leaving a partial one.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Distinguishes temporary files of one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically: into a new temporary file in the same directory, which
/// is flushed to disk and then renamed over `path`.
///
/// Readers see either the old file or the complete new one. On error the temporary file is
/// removed and `path` is left as it was. An interrupted process can at worst leave a hidden
/// `.NAME.PID.N.tmp` file beside the target.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let file_name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        )
    })?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (temp_path, file) = create_temp(&dir, &file_name.to_string_lossy())?;
    let written = write_synced(file, bytes).and_then(|()| fs::rename(&temp_path, path));
    if let Err(error) = written {
        // The write's error is the one to report; failing to clean up too is secondary.
        let _ = fs::remove_file(&temp_path);
        return Err(error);
    }
    sync_dir(&dir);
    Ok(())
}

/// Writes `bytes` and flushes them to disk; the file is closed on return.
fn write_synced(mut file: File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    file.sync_all()
}

/// Creates a fresh temporary file in `dir`, never reusing an existing name.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Makes the rename durable where the platform allows syncing a directory (best effort: the
/// file itself is already complete).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh, empty directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("perftest-file-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_and_replaces() {
        let dir = scratch("replace");
        let path = dir.join("report.json");
        write_atomically(&path, b"first").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"first");
        write_atomically(&path, b"second, longer").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second, longer");
        write_atomically(&path, b"").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"");
        assert_eq!(entries(&dir), ["report.json"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn failure_leaves_nothing_behind() {
        let dir = scratch("fail");
        // The target is a non-empty directory: the rename fails after the temp file is written.
        let target = dir.join("taken");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("keep"), b"x").unwrap();
        assert!(write_atomically(&target, b"data").is_err());
        assert_eq!(entries(&dir), ["taken"]);
        assert_eq!(entries(&target), ["keep"]);
        // A directory that does not exist: nothing is created.
        let missing = dir.join("no").join("such").join("out.csv");
        assert!(write_atomically(&missing, b"data").is_err());
        assert!(!dir.join("no").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rejects_a_path_without_file_name() {
        let error = write_atomically(Path::new("/"), b"x").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
    }
}
