//! `cargo xtask dist`: release archives, `perftest-<version>-<target>.tar.gz` for Linux and
//! `.zip` for Windows, each holding the binary, README.md, LICENSE.md, the man page
//! (`man/perftest.1`), the shell completions (`completions/`) and a SHA256SUMS file of all of
//! them; then every archive is opened again, its sums checked and its binary run (the
//! Windows one under Wine).

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::checks::{Checks, Ran};
use crate::release::{binary_name, build_release};
use crate::shaders::sha256_hex;
use crate::wine::{without_noise, Wine};
use crate::workspace;

/// The version in the archives' names.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The documents shipped beside the binary: (path in the workspace, name in the archive). The
/// man page and completions are the committed ones (`cargo xtask docs`).
const DOCUMENTS: [(&str, &str); 7] = [
    ("README.md", "README.md"),
    ("LICENSE.md", "LICENSE.md"),
    ("docs/man/perftest.1", "man/perftest.1"),
    (
        "docs/completions/perftest.bash",
        "completions/perftest.bash",
    ),
    ("docs/completions/_perftest", "completions/_perftest"),
    (
        "docs/completions/perftest.fish",
        "completions/perftest.fish",
    ),
    (
        "docs/completions/_perftest.ps1",
        "completions/_perftest.ps1",
    ),
];

/// The targets archived by default: the host's and, where Wine can run it (an x86_64 Linux
/// host), Windows.
pub fn default_targets() -> Result<Vec<String>, String> {
    let mut targets = vec![workspace::host()?];
    targets.extend(extra_targets().iter().map(|t| t.to_string()));
    Ok(targets)
}

/// The targets archived by default besides the host's: Windows, where Wine can run it.
pub fn extra_targets() -> Vec<&'static str> {
    match crate::windows::unavailable() {
        None => vec![crate::windows::TARGET],
        Some(_) => Vec::new(),
    }
}

/// Builds, packs and checks the archives of `targets`.
pub fn build_and_check(targets: &[String]) -> Result<(), String> {
    let archives = targets
        .iter()
        .map(|target| build_and_pack(target))
        .collect::<Result<Vec<_>, _>>()?;
    check(&archives)
}

/// Builds the release CLI for `target` and writes its archive into `dist/` of the target
/// folder.
pub fn build_and_pack(target: &str) -> Result<PathBuf, String> {
    let binary = build_release(target)?;
    let root = workspace::root();
    let out = workspace::target_dir()?.join("dist");
    fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut files: Vec<(String, Vec<u8>, u32)> = Vec::new();
    files.push((binary_name(target).to_string(), read(&binary)?, 0o755));
    for (source, name) in DOCUMENTS {
        files.push((name.to_string(), read(&root.join(source))?, 0o644));
    }
    let sums: String = files
        .iter()
        .map(|(name, bytes, _)| format!("{}  {name}\n", sha256_hex(bytes)))
        .collect();
    files.push(("SHA256SUMS".to_string(), sums.into_bytes(), 0o644));

    let stem = format!("perftest-{VERSION}-{target}");
    let time = commit_time();
    let archive = if target.contains("windows") {
        let path = out.join(format!("{stem}.zip"));
        write_zip(&path, &stem, &files, time)?;
        path
    } else {
        let path = out.join(format!("{stem}.tar.gz"));
        write_tar_gz(&path, &stem, &files, time)?;
        path
    };
    let digest = sha256_hex(&read(&archive)?);
    eprintln!("wrote {} (sha256 {digest})", archive.display());
    if target.contains("linux") {
        if let Some(glibc) = needed_glibc(&files[0].1) {
            eprintln!("  the Linux binary needs glibc {glibc} or later");
        }
    }
    Ok(archive)
}

/// The last commit's time (seconds since 1970), so that archives of one commit are the same;
/// `SOURCE_DATE_EPOCH` wins when set, and 0 without git.
fn commit_time() -> u64 {
    if let Some(epoch) = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return epoch;
    }
    Command::new("git")
        .args(["log", "-1", "--format=%ct"])
        .current_dir(workspace::root())
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(0)
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Writes `files` under the folder `stem` into a gzip-compressed tar archive.
fn write_tar_gz(
    path: &Path,
    stem: &str,
    files: &[(String, Vec<u8>, u32)],
    time: u64,
) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let file = File::create(path).map_err(fail)?;
    let gzip = flate2::write::GzEncoder::new(file, flate2::Compression::best());
    let mut tar = tar::Builder::new(gzip);
    for (name, bytes, mode) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(*mode);
        header.set_mtime(time);
        header.set_uid(0);
        header.set_gid(0);
        header.set_entry_type(tar::EntryType::Regular);
        header.set_cksum();
        tar.append_data(&mut header, format!("{stem}/{name}"), bytes.as_slice())
            .map_err(fail)?;
    }
    tar.into_inner()
        .and_then(|gzip| gzip.finish())
        .and_then(|mut file| file.flush())
        .map_err(fail)
}

/// Writes `files` under the folder `stem` into a deflate-compressed zip archive.
fn write_zip(
    path: &Path,
    stem: &str,
    files: &[(String, Vec<u8>, u32)],
    time: u64,
) -> Result<(), String> {
    let fail = |e: String| format!("cannot write {}: {e}", path.display());
    let file = File::create(path).map_err(|e| fail(e.to_string()))?;
    let mut zip = zip::ZipWriter::new(file);
    let stamp = zip_time(time);
    for (name, bytes, mode) in files {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(*mode)
            .last_modified_time(stamp);
        zip.start_file(format!("{stem}/{name}"), options)
            .map_err(|e| fail(e.to_string()))?;
        zip.write_all(bytes).map_err(|e| fail(e.to_string()))?;
    }
    zip.finish().map(drop).map_err(|e| fail(e.to_string()))
}

/// The zip (MS-DOS) time of `seconds` since 1970, in UTC; 1980-01-01 for earlier times.
fn zip_time(seconds: u64) -> zip::DateTime {
    let days = seconds / 86_400;
    let rest = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    zip::DateTime::from_date_and_time(
        u16::try_from(year).unwrap_or(1980),
        month,
        day,
        (rest / 3600) as u8,
        (rest % 3600 / 60) as u8,
        (rest % 60) as u8,
    )
    .unwrap_or_default()
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: u64) -> (i64, u8, u8) {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The newest `GLIBC_2.N` symbol version a Linux binary refers to, e.g. `2.34`.
pub fn needed_glibc(binary: &[u8]) -> Option<String> {
    const TAG: &[u8] = b"GLIBC_2.";
    let mut newest: Option<(u32, u32)> = None;
    let mut at = 0;
    while let Some(found) = binary[at..].windows(TAG.len()).position(|w| w == TAG) {
        let start = at + found + TAG.len();
        let digits: Vec<u8> = binary[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'.')
            .copied()
            .collect();
        let text = String::from_utf8_lossy(&digits);
        let mut parts = text.split('.').filter_map(|p| p.parse::<u32>().ok());
        if let Some(minor) = parts.next() {
            let version = (minor, parts.next().unwrap_or(0));
            newest = newest.max(Some(version));
        }
        at = start;
    }
    newest.map(|(minor, patch)| {
        if patch == 0 {
            format!("2.{minor}")
        } else {
            format!("2.{minor}.{patch}")
        }
    })
}

/// The files of an archive, by name inside its folder.
type Entries = Vec<(String, Vec<u8>)>;

/// Reads every regular file of a `.tar.gz` or `.zip` archive.
fn read_archive(path: &Path) -> Result<Entries, String> {
    let fail = |e: String| format!("cannot read {}: {e}", path.display());
    let file = File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut entries = Vec::new();
    if path.extension().is_some_and(|e| e == "zip") {
        let mut zip = zip::ZipArchive::new(file).map_err(|e| fail(e.to_string()))?;
        for i in 0..zip.len() {
            let mut entry = zip.by_index(i).map_err(|e| fail(e.to_string()))?;
            let mut bytes = Vec::new();
            entry
                .read_to_end(&mut bytes)
                .map_err(|e| fail(e.to_string()))?;
            entries.push((entry.name().to_string(), bytes));
        }
    } else {
        let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
        for entry in tar.entries().map_err(|e| fail(e.to_string()))? {
            let mut entry = entry.map_err(|e| fail(e.to_string()))?;
            let name = entry
                .path()
                .map_err(|e| fail(e.to_string()))?
                .to_string_lossy()
                .into_owned();
            let mut bytes = Vec::new();
            entry
                .read_to_end(&mut bytes)
                .map_err(|e| fail(e.to_string()))?;
            entries.push((name, bytes));
        }
    }
    Ok(entries)
}

/// Opens every archive, checks its layout and sums, unpacks it and runs its binary.
pub fn check(archives: &[PathBuf]) -> Result<(), String> {
    let mut checks = Checks::new("release archives");
    for archive in archives {
        let name = archive
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let result = read_archive(archive).and_then(|entries| {
            let stem = name
                .strip_suffix(".tar.gz")
                .or_else(|| name.strip_suffix(".zip"))
                .ok_or("unknown archive type")?;
            let target = stem
                .strip_prefix(&format!("perftest-{VERSION}-"))
                .ok_or("the name lacks perftest-VERSION-")?;
            check_contents(stem, target, &entries)?;
            run_unpacked(target, &entries)
        });
        checks.check(&format!("{name}: layout, SHA256SUMS, binary runs"), result);
    }
    checks.finish()
}

/// The archive holds exactly the binary, the documents and SHA256SUMS (of all the others) in
/// the folder `stem`, and the sums match.
fn check_contents(stem: &str, target: &str, entries: &Entries) -> Result<(), String> {
    let mut names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    let mut expected: Vec<String> = std::iter::once(binary_name(target))
        .chain(DOCUMENTS.iter().map(|(_, name)| *name))
        .chain(std::iter::once("SHA256SUMS"))
        .map(|n| format!("{stem}/{n}"))
        .collect();
    expected.sort_unstable();
    if names != expected {
        return Err(format!("entries {names:?}, expected {expected:?}"));
    }
    let get = |name: &str| {
        entries
            .iter()
            .find(|(n, _)| n == &format!("{stem}/{name}"))
            .map(|(_, b)| b.as_slice())
            .unwrap_or_default()
    };
    let sums = String::from_utf8_lossy(get("SHA256SUMS")).into_owned();
    let mut listed = 0;
    for line in sums.lines() {
        let (digest, name) = line.split_once("  ").ok_or(format!("bad line {line:?}"))?;
        let actual = sha256_hex(get(name));
        if actual != digest {
            return Err(format!("{name}: sha256 {actual}, SHA256SUMS says {digest}"));
        }
        listed += 1;
    }
    let wanted = DOCUMENTS.len() + 1;
    if listed != wanted {
        return Err(format!(
            "SHA256SUMS lists {listed} files, expected {wanted}"
        ));
    }
    Ok(())
}

/// Unpacks the binary into a temporary directory and runs `--version` and `--list` (the
/// Windows one under Wine).
fn run_unpacked(target: &str, entries: &Entries) -> Result<(), String> {
    let binary = entries
        .iter()
        .find(|(n, _)| n.ends_with(&format!("/{}", binary_name(target))))
        .map(|(_, b)| b)
        .ok_or("no binary")?;
    let dir = tempfile::Builder::new()
        .prefix("perftest-dist-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let path = dir.path().join(binary_name(target));
    let result = write_executable(&path, binary).and_then(|()| {
        let version = format!("perftest {VERSION}");
        if target.contains("windows") {
            let wine = Wine::prepare(&path)?;
            for args in [&["--version"][..], &["--list"][..]] {
                let output = wine.run(args)?;
                let r = Ran::new(&output, without_noise(&output.stderr));
                r.expect_code(0)?;
                if args == ["--version"] {
                    r.expect_stdout(&version)?;
                }
            }
        } else {
            for args in [&["--version"][..], &["--list"][..]] {
                let output = Command::new(&path)
                    .args(args)
                    .output()
                    .map_err(|e| format!("cannot run the unpacked binary: {e}"))?;
                let r = Ran::new(
                    &output,
                    String::from_utf8_lossy(&output.stderr).into_owned(),
                );
                r.expect_code(0)?;
                if args == ["--version"] {
                    r.expect_stdout(&version)?;
                }
            }
        }
        Ok(())
    });
    drop(dir);
    result
}

fn write_executable(path: &Path, bytes: &[u8]) -> Result<(), String> {
    fs::write(path, bytes).map_err(|e| e.to_string())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glibc_versions_are_compared_as_numbers() {
        let binary = b"\0GLIBC_2.2.5\0GLIBC_2.34\0GLIBC_2.9\0GLIBC_PRIVATE\0";
        assert_eq!(needed_glibc(binary).as_deref(), Some("2.34"));
        assert_eq!(needed_glibc(b"no libc here"), None);
    }

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_781), (2026, 11, 24));
    }
}
