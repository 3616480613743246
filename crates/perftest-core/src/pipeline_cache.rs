//! Pipeline caches for the probe: an engine's own `VkPipelineCache` (borrowed, never destroyed)
//! or a file that perftest-core loads before building pipelines and saves afterwards.
//!
//! The file holds the driver's cache data (which starts with Vulkan's
//! `VkPipelineCacheHeaderVersionOne`) inside a small envelope that lets a damaged file be
//! recognised before the driver sees it:
//!
//! | bytes  | content                                                 |
//! |--------|---------------------------------------------------------|
//! | 0..8   | magic `PTPCACHE`                                        |
//! | 8..12  | envelope version, little-endian `u32` (1)               |
//! | 12..20 | length of the cache data, little-endian `u64`           |
//! | 20..28 | FNV-1a 64 checksum of the cache data, little-endian     |
//! | 28..   | the cache data from `vkGetPipelineCacheData`            |
//!
//! A file that is missing is not an error (the first launch); a perftest cache that is corrupt,
//! truncated, or written by another device or driver is ignored with a warning and replaced
//! when the probe saves. Anything else is never written: a path that is not a regular file (a
//! directory, device, FIFO or socket) or a regular file that is not a perftest cache (it does
//! not start with `PTPCACHE`; an empty file counts as a new cache) is refused by
//! [`check_cache_path`], which never blocks (a FIFO is recognised before it is opened).
//! Saving writes a new file under a random name next to the destination (created with
//! `create_new`, so never through an existing file or link), gives it the old file's
//! permissions, and renames it over the destination; a destination that is a symbolic link is
//! left alone, and so is a file the caller could not have written in place.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use ash::vk;

use crate::context::Context;

/// Where the probe's pipelines are cached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PipelineCacheSource {
    /// No cache: every pipeline is compiled (the driver may still keep its own disk cache).
    #[default]
    None,
    /// The engine's own cache, used for every pipeline and never destroyed. It must belong to
    /// the borrowed device, outlive the probe, and not have been created with
    /// `VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT` (several threads use it at once).
    Borrowed(vk::PipelineCache),
    /// A file perftest-core loads from (when it exists and fits this device and driver) and
    /// saves to after the probe.
    File(PathBuf),
}

/// The magic bytes that open a pipeline-cache file.
pub const FILE_MAGIC: [u8; 8] = *b"PTPCACHE";
/// The envelope version this crate writes and reads.
pub const FILE_VERSION: u32 = 1;
/// Bytes of the envelope before the cache data.
pub const ENVELOPE_BYTES: usize = 28;
/// Bytes of Vulkan's `VkPipelineCacheHeaderVersionOne`.
pub const VULKAN_HEADER_BYTES: usize = 32;
/// Larger files are not read (no driver's cache for a few dozen pipelines comes near).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// What a driver writes into the header of its pipeline-cache data: data whose header differs
/// was made by another device or driver version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheIdentity {
    /// `VkPhysicalDeviceProperties::vendorID`.
    pub vendor_id: u32,
    /// `VkPhysicalDeviceProperties::deviceID`.
    pub device_id: u32,
    /// `VkPhysicalDeviceProperties::pipelineCacheUUID`.
    pub uuid: [u8; vk::UUID_SIZE],
}

impl CacheIdentity {
    /// The identity of `ctx`'s physical device.
    pub fn of(ctx: &Context) -> CacheIdentity {
        let props = &ctx.target.adapter.properties;
        CacheIdentity {
            vendor_id: props.vendor_id,
            device_id: props.device_id,
            uuid: props.pipeline_cache_uuid,
        }
    }

    /// A `VkPipelineCacheHeaderVersionOne` with this identity (32 bytes, little-endian).
    pub fn header(&self) -> [u8; VULKAN_HEADER_BYTES] {
        let mut h = [0u8; VULKAN_HEADER_BYTES];
        h[0..4].copy_from_slice(&(VULKAN_HEADER_BYTES as u32).to_le_bytes());
        h[4..8].copy_from_slice(&1u32.to_le_bytes()); // VK_PIPELINE_CACHE_HEADER_VERSION_ONE
        h[8..12].copy_from_slice(&self.vendor_id.to_le_bytes());
        h[12..16].copy_from_slice(&self.device_id.to_le_bytes());
        h[16..32].copy_from_slice(&self.uuid);
        h
    }
}

/// Reads a little-endian `u32` at `at` (None past the end).
fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    let bytes = data.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

/// Reads a little-endian `u64` at `at` (None past the end).
fn u64_at(data: &[u8], at: usize) -> Option<u64> {
    let lo = u64::from(u32_at(data, at)?);
    let hi = u64::from(u32_at(data, at.checked_add(4)?)?);
    Some(lo | hi << 32)
}

/// Checks that `data` starts with a `VkPipelineCacheHeaderVersionOne` written for `expected`
/// (its fields are little-endian whatever the host). Returns why not.
pub fn check_vulkan_header(data: &[u8], expected: &CacheIdentity) -> Result<(), String> {
    let (Some(size), Some(version)) = (u32_at(data, 0), u32_at(data, 4)) else {
        return Err(format!(
            "the cache data is {} bytes, shorter than a Vulkan cache header",
            data.len()
        ));
    };
    if version != 1 {
        return Err(format!(
            "the cache header has version {version}, not VK_PIPELINE_CACHE_HEADER_VERSION_ONE"
        ));
    }
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    if size < VULKAN_HEADER_BYTES || size > data.len() {
        return Err(format!(
            "the cache header claims {size} bytes (at least {VULKAN_HEADER_BYTES}, at most the \
             {} bytes of data)",
            data.len()
        ));
    }
    let vendor = u32_at(data, 8).unwrap_or_default();
    let device = u32_at(data, 12).unwrap_or_default();
    if (vendor, device) != (expected.vendor_id, expected.device_id) {
        return Err(format!(
            "the cache was written for vendor {vendor:#06x} device {device:#06x}, this is vendor \
             {:#06x} device {:#06x}",
            expected.vendor_id, expected.device_id
        ));
    }
    if data.get(16..32) != Some(&expected.uuid[..]) {
        return Err(
            "the cache was written by another driver version (pipelineCacheUUID differs)".into(),
        );
    }
    Ok(())
}

/// FNV-1a, 64-bit: enough to notice a damaged file (not meant against tampering).
pub fn checksum(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The file contents for `data` (cache data from `vkGetPipelineCacheData`).
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ENVELOPE_BYTES + data.len());
    out.extend_from_slice(&FILE_MAGIC);
    out.extend_from_slice(&FILE_VERSION.to_le_bytes());
    out.extend_from_slice(&(data.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(data).to_le_bytes());
    out.extend_from_slice(data);
    out
}

/// The cache data inside a file's contents, if the envelope is intact and the Vulkan header
/// matches `expected`; otherwise why not.
pub fn decode<'a>(file: &'a [u8], expected: &CacheIdentity) -> Result<&'a [u8], String> {
    if file.get(..8) != Some(&FILE_MAGIC[..]) {
        return Err("not a perftest pipeline-cache file (no PTPCACHE magic)".into());
    }
    let (Some(version), Some(length), Some(sum)) =
        (u32_at(file, 8), u64_at(file, 12), u64_at(file, 20))
    else {
        return Err("the file is truncated inside its header".into());
    };
    if version != FILE_VERSION {
        return Err(format!(
            "the file has envelope version {version}; this build reads {FILE_VERSION}"
        ));
    }
    let data = &file[ENVELOPE_BYTES..];
    if data.len() as u64 != length {
        return Err(format!(
            "the file is truncated or has trailing bytes: {} bytes of cache data, the header \
             says {length}",
            data.len()
        ));
    }
    if checksum(data) != sum {
        return Err("the file is corrupt (checksum mismatch)".into());
    }
    check_vulkan_header(data, expected)?;
    Ok(data)
}

/// Why a path cannot be used as a pipeline-cache file.
#[derive(Debug, thiserror::Error)]
pub enum CacheFileError {
    /// The path names a directory, device, FIFO or socket.
    #[error(
        "{} is {what}; a pipeline cache is only ever read from and written to a regular file",
        .path.display()
    )]
    NotAFile {
        /// The path as given.
        path: PathBuf,
        /// What it names instead (`a directory`, ...).
        what: &'static str,
    },
    /// The path names a regular file that is not a perftest pipeline cache.
    #[error(
        "{} is not a perftest pipeline cache (it does not start with PTPCACHE) and is never \
         overwritten; remove it or name another file",
        .path.display()
    )]
    Foreign {
        /// The path as given.
        path: PathBuf,
    },
    /// The file exists but cannot be inspected.
    #[error("cannot read {}: {source}", .path.display())]
    Unreadable {
        /// The path as given.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// Checks, without blocking and without changing anything, that `path` may serve as a
/// pipeline-cache file: it does not exist yet (a dangling link counts), or it is a regular file
/// (links followed) that is empty or starts with [`FILE_MAGIC`].
pub fn check_cache_path(path: &Path) -> Result<(), CacheFileError> {
    let unreadable = |source| CacheFileError::Unreadable {
        path: path.to_path_buf(),
        source,
    };
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(unreadable(e)),
    };
    if !meta.is_file() {
        return Err(CacheFileError::NotAFile {
            path: path.to_path_buf(),
            what: if meta.is_dir() {
                "a directory"
            } else {
                "a device, FIFO or socket"
            },
        });
    }
    let mut head = Vec::with_capacity(FILE_MAGIC.len());
    File::open(path)
        .and_then(|f| f.take(FILE_MAGIC.len() as u64).read_to_end(&mut head))
        .map_err(unreadable)?;
    if head.is_empty() || head == FILE_MAGIC {
        Ok(())
    } else {
        Err(CacheFileError::Foreign {
            path: path.to_path_buf(),
        })
    }
}

/// Reads `path`: `Ok(None)` when it does not exist, an error message when it cannot be read or
/// is larger than [`MAX_FILE_BYTES`].
pub(crate) fn read_file(path: &Path) -> Result<Option<Vec<u8>>, String> {
    // Never open what is not a regular file: a FIFO would block the open.
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(format!("{} is not a regular file", path.display()))
        }
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        _ => {}
    }
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot open {}: {e}", path.display())),
    };
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{} is larger than {MAX_FILE_BYTES} bytes",
            path.display()
        ));
    }
    Ok(Some(bytes))
}

/// Replaces `path` with `bytes` atomically: writes a new file with a random name in the same
/// directory (`create_new`: fails rather than open an existing file or follow a link), gives it
/// the old file's permissions, syncs it, then renames it over `path`. A `path` that is a
/// symbolic link, not a perftest cache ([`check_cache_path`]) or not writable by the caller is
/// refused.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "{} is a symbolic link; not replacing it",
            path.display()
        ));
    }
    check_cache_path(path).map_err(|e| e.to_string())?;
    let existing = fs::metadata(path).ok();
    if existing.is_some() {
        // A rename needs only the directory to be writable: ask the question an in-place
        // write would ask.
        OpenOptions::new().write(true).open(path).map_err(|e| {
            format!(
                "{} is not writable by this user ({e}); not replacing it",
                path.display()
            )
        })?;
    }
    let name = path
        .file_name()
        .ok_or_else(|| format!("{} names no file", path.display()))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (mut file, temp) = temporary_file(&dir, name)
        .map_err(|e| format!("cannot create a temporary file in {}: {e}", dir.display()))?
        .into_parts();
    let permissions = match &existing {
        Some(old) => file.set_permissions(old.permissions()),
        None => Ok(()),
    };
    // On an error `temp` is dropped, which removes the temporary file.
    let written = permissions
        .and_then(|()| file.write_all(bytes))
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            temp.persist(path).map_err(|e| e.error)
        });
    written.map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Creates `.NAME.RANDOM.tmp` in `dir` exclusively (`O_CREAT | O_EXCL`: never an existing file
/// or a link; a taken name is retried with another), with the mode a new file gets (0666 less
/// the umask on Unix). Dropped, it is removed.
fn temporary_file(dir: &Path, name: &std::ffi::OsStr) -> std::io::Result<tempfile::NamedTempFile> {
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp").rand_bytes(16);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// The cache one probe builds its pipelines through, and where it goes afterwards.
pub(crate) struct ProbeCache {
    /// The handle given to `vkCreateComputePipelines` (may be null).
    pub(crate) handle: vk::PipelineCache,
    owned: bool,
    file: Option<PathBuf>,
    loaded: Vec<u8>,
}

impl ProbeCache {
    /// Opens the cache `source` names on `ctx`'s device. Never fails: problems become warnings
    /// and the probe runs without (or with an empty) cache.
    pub(crate) fn open(
        ctx: &Context,
        source: &PipelineCacheSource,
        warnings: &mut Vec<String>,
    ) -> ProbeCache {
        let path = match source {
            PipelineCacheSource::None => return ProbeCache::none(),
            PipelineCacheSource::Borrowed(handle) => {
                return ProbeCache {
                    handle: *handle,
                    owned: false,
                    file: None,
                    loaded: Vec::new(),
                }
            }
            PipelineCacheSource::File(path) => path,
        };
        if let Err(why) = check_cache_path(path) {
            warnings.push(format!("pipeline cache not used: {why}"));
            return ProbeCache::none();
        }
        let identity = CacheIdentity::of(ctx);
        let loaded = match read_file(path) {
            Ok(None) => Vec::new(),
            Ok(Some(bytes)) => match decode(&bytes, &identity) {
                Ok(data) => data.to_vec(),
                Err(why) => {
                    warnings.push(format!("pipeline cache {} ignored: {why}", path.display()));
                    Vec::new()
                }
            },
            Err(why) => {
                warnings.push(format!("pipeline cache ignored: {why}"));
                Vec::new()
            }
        };
        let info = vk::PipelineCacheCreateInfo::default().initial_data(&loaded);
        // SAFETY: valid device; the initial data was checked to carry this device's header.
        match unsafe { ctx.device.create_pipeline_cache(&info, None) } {
            Ok(handle) => ProbeCache {
                handle,
                owned: true,
                file: Some(path.clone()),
                loaded,
            },
            Err(r) => {
                warnings.push(format!(
                    "vkCreatePipelineCache failed ({r}); building pipelines without a cache"
                ));
                ProbeCache::none()
            }
        }
    }

    fn none() -> ProbeCache {
        ProbeCache {
            handle: vk::PipelineCache::null(),
            owned: false,
            file: None,
            loaded: Vec::new(),
        }
    }

    /// Saves the cache to its file (when it has one and the data changed) and destroys the
    /// cache if perftest created it. No pipeline may be in creation through it any more.
    pub(crate) fn close(self, ctx: &Context, warnings: &mut Vec<String>) {
        if !self.owned {
            return; // none, or the engine's: never destroyed here
        }
        // SAFETY: the cache was created on this device and no thread uses it any more.
        let data = unsafe { ctx.device.get_pipeline_cache_data(self.handle) };
        match (&self.file, data) {
            (Some(path), Ok(data)) if data != self.loaded && !data.is_empty() => {
                if let Err(why) = write_atomically(path, &encode(&data)) {
                    warnings.push(format!("pipeline cache not saved: {why}"));
                }
            }
            (Some(_), Err(r)) => warnings.push(format!(
                "pipeline cache not saved: vkGetPipelineCacheData failed ({r})"
            )),
            _ => {}
        }
        // SAFETY: created here; no pipeline creation uses it any more.
        unsafe { ctx.device.destroy_pipeline_cache(self.handle, None) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> CacheIdentity {
        CacheIdentity {
            vendor_id: 0x10de,
            device_id: 0x2335,
            uuid: *b"0123456789abcdef",
        }
    }

    fn cache_data(id: &CacheIdentity) -> Vec<u8> {
        let mut data = id.header().to_vec();
        data.extend_from_slice(b"driver payload");
        data
    }

    #[test]
    fn a_good_file_round_trips() {
        let id = identity();
        let data = cache_data(&id);
        let file = encode(&data);
        assert_eq!(&file[..8], b"PTPCACHE");
        assert_eq!(decode(&file, &id), Ok(&data[..]));
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let id = identity();
        let file = encode(&cache_data(&id));
        let mut corrupt = file.clone();
        let last = corrupt.len() - 1;
        corrupt[last] ^= 0x40;
        assert!(decode(&corrupt, &id).unwrap_err().contains("checksum"));
        for cut in [0, 5, 8, 20, ENVELOPE_BYTES, file.len() - 1] {
            let err = decode(&file[..cut], &id).unwrap_err();
            assert!(
                err.contains("truncated") || err.contains("magic"),
                "{cut}: {err}"
            );
        }
        let mut longer = file.clone();
        longer.push(0);
        assert!(decode(&longer, &id).unwrap_err().contains("trailing"));
        assert!(decode(b"random bytes that are no cache", &id)
            .unwrap_err()
            .contains("magic"));
        let mut version = file;
        version[8] = 2;
        assert!(decode(&version, &id).unwrap_err().contains("version 2"));
    }

    #[test]
    fn foreign_headers_are_refused() {
        let id = identity();
        let other_device = CacheIdentity {
            device_id: 0x1234,
            ..id
        };
        let other_vendor = CacheIdentity {
            vendor_id: 0x1002,
            ..id
        };
        let other_driver = CacheIdentity {
            uuid: [7; 16],
            ..id
        };
        for other in [other_device, other_vendor, other_driver] {
            let file = encode(&cache_data(&other));
            let err = decode(&file, &id).unwrap_err();
            assert!(
                err.contains("vendor") || err.contains("pipelineCacheUUID"),
                "{err}"
            );
        }
        let mut header = cache_data(&id);
        header[0..4].copy_from_slice(&16u32.to_le_bytes());
        assert!(check_vulkan_header(&header, &id)
            .unwrap_err()
            .contains("claims 16"));
        header[0..4].copy_from_slice(&4096u32.to_le_bytes());
        assert!(check_vulkan_header(&header, &id)
            .unwrap_err()
            .contains("claims 4096"));
        let mut version = cache_data(&id);
        version[4] = 2;
        assert!(check_vulkan_header(&version, &id)
            .unwrap_err()
            .contains("version 2"));
        assert!(check_vulkan_header(&[1, 0, 0], &id)
            .unwrap_err()
            .contains("shorter"));
        assert_eq!(check_vulkan_header(&id.header(), &id), Ok(()));
    }

    #[test]
    fn only_missing_empty_or_perftest_files_may_be_caches() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        assert!(check_cache_path(&dir.join("new.cache")).is_ok());
        fs::write(dir.join("empty.cache"), b"").unwrap();
        assert!(check_cache_path(&dir.join("empty.cache")).is_ok());
        fs::write(dir.join("ours.cache"), encode(b"anything")).unwrap();
        assert!(check_cache_path(&dir.join("ours.cache")).is_ok());
        fs::write(dir.join("report.json"), b"{\"schema\": 1}").unwrap();
        let foreign = check_cache_path(&dir.join("report.json")).unwrap_err();
        assert!(
            matches!(foreign, CacheFileError::Foreign { .. }),
            "{foreign}"
        );
        // Saving refuses it too, and leaves it as it was.
        assert!(write_atomically(&dir.join("report.json"), &encode(b"x")).is_err());
        assert_eq!(
            fs::read(dir.join("report.json")).unwrap(),
            b"{\"schema\": 1}"
        );
        let not_file = check_cache_path(dir).unwrap_err();
        assert!(matches!(
            not_file,
            CacheFileError::NotAFile {
                what: "a directory",
                ..
            }
        ));
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                // Recognised without opening it: an open would block with no writer.
                let error = check_cache_path(&fifo).unwrap_err();
                assert!(matches!(error, CacheFileError::NotAFile { .. }), "{error}");
                assert!(read_file(&fifo).is_err());
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn saving_keeps_a_private_mode() {
        use std::os::unix::fs::PermissionsExt;
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let path = dir.join("p.cache");
        fs::write(&path, encode(b"old")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        write_atomically(&path, &encode(b"new")).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(fs::read(&path).unwrap(), encode(b"new"));
    }

    #[test]
    fn saving_replaces_the_file_and_leaves_no_temporary_file() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let path = dir.join("cache.bin");
        write_atomically(&path, &encode(b"first")).unwrap();
        write_atomically(&path, &encode(b"second")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), encode(b"second"));
        assert_eq!(read_file(&path), Ok(Some(encode(b"second"))));
        assert_eq!(read_file(&dir.join("missing")), Ok(None));
        #[cfg(unix)]
        {
            let target = dir.join("target");
            fs::write(&target, b"keep").unwrap();
            let link = dir.join("link");
            std::os::unix::fs::symlink(&target, &link).unwrap();
            assert!(write_atomically(&link, b"x")
                .unwrap_err()
                .contains("symbolic link"));
            assert_eq!(fs::read(&target).unwrap(), b"keep");
        }
        let names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    }
}
