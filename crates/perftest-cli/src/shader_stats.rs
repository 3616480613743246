//! The driver's shader statistics and internal representations in perftest's outputs:
//! conversion into the report, the `--shader-stats` text block and `--dump-shaders` files.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use perftest_core::{PipelineExecutable, StatisticValue};

use crate::export::{OutputError, OutputTarget};
use crate::output::printable::printable_path;
use crate::report::{Report, ShaderStat, StatValue};

/// The note printed once when statistics were asked for but the driver offers none.
pub fn unavailable_note(device: &str) -> String {
    format!(
        "note: {device} does not offer VK_KHR_pipeline_executable_properties: no shader \
         statistics or shader dumps on this device"
    )
}

/// The report's statistics of a pipeline: each executable's statistics, in the driver's
/// order. With several executables, names get the executable's name as a prefix. Non-finite
/// real values are left out (JSON cannot hold them).
pub fn report_stats(executables: &[PipelineExecutable]) -> Vec<ShaderStat> {
    let prefix = executables.len() > 1;
    executables
        .iter()
        .flat_map(|e| {
            e.statistics.iter().filter_map(move |s| {
                let value = match s.value {
                    StatisticValue::Bool(b) => StatValue::Bool(b),
                    // A non-negative integer is a count, whatever type the driver gave it (as
                    // JSON reads it back).
                    StatisticValue::Int(i) => {
                        u64::try_from(i).map_or(StatValue::Int(i), StatValue::Uint)
                    }
                    StatisticValue::Uint(u) => StatValue::Uint(u),
                    StatisticValue::Float(f) => {
                        StatValue::Float(Some(f).filter(|f| f.is_finite())?)
                    }
                };
                let name = if prefix {
                    format!("{}: {}", e.name, s.name)
                } else {
                    s.name.clone()
                };
                Some(ShaderStat {
                    name,
                    description: s.description.clone(),
                    value,
                })
            })
        })
        .collect()
}

/// The `--shader-stats` block: one line per case with statistics,
/// `NAME (ID): Stat 1 = v, Stat 2 = v`. Empty when no case has any.
pub fn text_block(report: &Report) -> String {
    let mut out = String::new();
    let cases: Vec<_> = report
        .cases
        .iter()
        .filter(|c| !c.shader_stats.is_empty())
        .collect();
    if cases.is_empty() {
        return out;
    }
    // Writing into a String cannot fail.
    let _ = writeln!(out, "Shader statistics (from the driver):");
    for case in cases {
        let stats: Vec<String> = case
            .shader_stats
            .iter()
            .map(|s| format!("{} = {}", s.name, s.value))
            .collect();
        let _ = writeln!(out, "{} ({}): {}", case.name, case.id, stats.join(", "));
    }
    out
}

/// The file a case's representations go to: `<id>.txt`, with every character other than
/// ASCII letters, digits, `.`, `-` and `_` replaced by `_`, so it never leaves `dir`.
pub fn dump_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(dump_name(id))
}

/// The file name of a case's dump in its directory (see [`dump_path`]).
pub fn dump_name(id: &str) -> String {
    let mut name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with('.') {
        name.insert(0, '_');
    }
    format!("{name}.txt")
}

/// Creates `dir` (and its parents) when missing; fails when it cannot, or is not a directory.
pub fn prepare_dump_dir(dir: &Path) -> Result<(), String> {
    check_dump_dir(dir)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create --dump-shaders {}: {e}", printable_path(dir)))
}

/// Checks, without leaving anything behind, that `dir` is a directory perftest can write or can
/// become one, so that a run is refused before any GPU work rather than after it: a path that
/// exists must be a directory (links followed) in which a file can be created; a FIFO, file,
/// dangling link or link loop there is named as such. A path not there yet needs its nearest
/// existing ancestor to be a directory in which a directory can be created (not a file, a
/// read-only or full file system, or a folder without permission).
pub fn check_dump_dir(dir: &Path) -> Result<(), String> {
    let shown = printable_path(dir);
    let Ok(own) = std::fs::symlink_metadata(dir) else {
        return check_creatable(dir);
    };
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => tempfile::Builder::new()
            .prefix(".perftest-")
            .tempfile_in(dir)
            .map(drop)
            .map_err(|e| format!("cannot write into --dump-shaders {shown}: {}", e.kind())),
        Ok(meta) => Err(format!(
            "--dump-shaders {shown} is {}, not a directory",
            crate::platform::special_file_kind(&meta).unwrap_or("a file")
        )),
        Err(e) if own.file_type().is_symlink() => Err(format!(
            "--dump-shaders {shown} is a symbolic link that leads nowhere ({e})"
        )),
        Err(e) => Err(format!("cannot use --dump-shaders {shown}: {e}")),
    }
}

/// Checks that the missing directory `dir` can be created: its nearest existing ancestor is a
/// directory in which a directory can be made (a probe made and removed at once).
fn check_creatable(dir: &Path) -> Result<(), String> {
    let shown = printable_path(dir);
    let mut ancestor = dir;
    let existing = loop {
        match ancestor.parent() {
            Some(parent) if parent.as_os_str().is_empty() => break Path::new("."),
            Some(parent) => {
                if std::fs::symlink_metadata(parent).is_ok() {
                    break parent;
                }
                ancestor = parent;
            }
            None => break ancestor,
        }
    };
    match std::fs::metadata(existing) {
        Ok(meta) if meta.is_dir() => tempfile::Builder::new()
            .prefix(".perftest-")
            .tempdir_in(existing)
            .map(drop)
            .map_err(|e| format!("cannot create --dump-shaders {shown}: {}", e.kind())),
        Ok(_) => Err(format!(
            "cannot create --dump-shaders {shown}: {} is not a directory",
            printable_path(existing)
        )),
        Err(e) => Err(format!(
            "cannot create --dump-shaders {shown}: {} cannot be used ({})",
            printable_path(existing),
            e.kind()
        )),
    }
}

/// The text of a case's dump: for each executable and representation a header, then the
/// text (binary representations are described, not written). `None` when there is nothing.
pub fn dump_text(executables: &[PipelineExecutable]) -> Option<String> {
    let mut out = String::new();
    for e in executables {
        for r in &e.representations {
            let _ = writeln!(
                out,
                "// executable: {} ({})\n// representation: {} ({})",
                e.name, e.description, r.name, r.description
            );
            if r.is_text {
                out.push_str(&String::from_utf8_lossy(&r.data));
                if !out.ends_with('\n') {
                    out.push('\n');
                }
            } else {
                let _ = writeln!(out, "// binary data, {} bytes, not shown", r.data.len());
            }
            out.push('\n');
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Writes the dump of case `id` into `dir` by the rule of every file perftest writes (a new
/// file renamed into place; a link, FIFO or device found under the case's name is refused,
/// never followed or opened: [`OutputTarget::entry`]); returns whether a file was written.
pub fn dump(dir: &Path, id: &str, executables: &[PipelineExecutable]) -> Result<bool, OutputError> {
    match dump_text(executables) {
        Some(text) => OutputTarget::entry(dir, &dump_name(id))
            .and_then(|target| target.write(text.as_bytes()))
            .map(|()| true),
        None => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_core::{InternalRepresentation, ShaderStatistic};
    use perftest_report::samples::sample_report;

    fn executable(name: &str) -> PipelineExecutable {
        let stat = |name: &str, value| ShaderStatistic {
            name: name.to_string(),
            description: format!("{name} of the shader"),
            value,
        };
        PipelineExecutable {
            name: name.to_string(),
            description: "Compute Shader".to_string(),
            subgroup_size: 32,
            statistics: vec![
                stat("Register Count", StatisticValue::Uint(32)),
                stat("Spills", StatisticValue::Int(-1)),
                stat("Uses LDS", StatisticValue::Bool(true)),
                stat("Occupancy", StatisticValue::Float(0.5)),
                stat("Broken", StatisticValue::Float(f64::NAN)),
            ],
            representations: vec![
                InternalRepresentation {
                    name: "Assembly".to_string(),
                    description: "Final ISA".to_string(),
                    is_text: true,
                    data: b"s_endpgm".to_vec(),
                },
                InternalRepresentation {
                    name: "Binary".to_string(),
                    description: "bytes".to_string(),
                    is_text: false,
                    data: vec![0; 12],
                },
            ],
        }
    }

    #[test]
    fn statistics_into_the_report() {
        let stats = report_stats(&[executable("CS")]);
        let names: Vec<&str> = stats.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Register Count", "Spills", "Uses LDS", "Occupancy"]);
        assert_eq!(stats[0].value, StatValue::Uint(32));
        assert_eq!(stats[0].description, "Register Count of the shader");
        let two = report_stats(&[executable("A"), executable("B")]);
        assert_eq!(two.len(), 8);
        assert_eq!(two[4].name, "B: Register Count");
        assert!(report_stats(&[]).is_empty());
    }

    #[test]
    fn text_block_lists_cases_with_statistics() {
        let mut report = sample_report();
        assert_eq!(text_block(&report), "");
        report.cases[2].shader_stats = report_stats(&[executable("CS")]);
        assert_eq!(
            text_block(&report),
            "Shader statistics (from the driver):\nByteAddressBuffer.Load4 random \
             (raw.load4.random): Register Count = 32, Spills = -1, Uses LDS = true, \
             Occupancy = 0.5\n"
        );
        // Statistics round-trip through the JSON report, and old reports (none) still load.
        let text = serde_json::to_string(&report).unwrap();
        let back: Report = serde_json::from_str(&text).unwrap();
        assert_eq!(back, report);
        assert!(!serde_json::to_string(&sample_report())
            .unwrap()
            .contains("shader_stats"));
    }

    #[test]
    fn dump_files_stay_inside_the_directory() {
        let dir = Path::new("/base");
        assert_eq!(
            dump_path(dir, "raw.load4.linear"),
            dir.join("raw.load4.linear.txt")
        );
        for hostile in ["../../etc/passwd", "/abs", "..", "", "a\\b", "a\u{0}b"] {
            let path = dump_path(dir, hostile);
            assert_eq!(path.parent(), Some(dir), "{hostile:?} -> {path:?}");
            let name = path.file_name().unwrap().to_str().unwrap();
            assert!(!name.starts_with('.') && !name.contains('/'), "{name}");
        }
    }

    #[test]
    fn dumps_are_written_per_case() {
        let text = dump_text(&[executable("CS")]).unwrap();
        assert!(text.starts_with("// executable: CS (Compute Shader)\n// representation: Assembly (Final ISA)\ns_endpgm\n"), "{text}");
        assert!(
            text.contains("// binary data, 12 bytes, not shown"),
            "{text}"
        );
        let mut bare = executable("CS");
        bare.representations.clear();
        assert_eq!(dump_text(&[bare.clone()]), None);

        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let nested = dir.join("a/b");
        prepare_dump_dir(&nested).unwrap();
        assert!(dump(&nested, "tex.load.r8.linear", &[executable("CS")]).unwrap());
        assert!(!dump(&nested, "typed.r8.uniform", &[bare]).unwrap());
        let names: Vec<String> = std::fs::read_dir(&nested)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["tex.load.r8.linear.txt"]);
        let file = nested.join("tex.load.r8.linear.txt");
        assert!(prepare_dump_dir(&file)
            .unwrap_err()
            .contains("not a directory"));
    }

    /// A link, FIFO or directory planted under a case's dump name is neither followed nor
    /// opened: the dump of that case fails with a message, the planted thing and what it
    /// points to stay as they were, and no temporary file is left. (Dumps were written with
    /// a plain create-or-truncate, which wrote through the link into its target and blocked
    /// forever on the FIFO.)
    #[cfg(unix)]
    #[test]
    fn dumps_never_follow_what_is_planted_in_the_directory() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("dumps");
        std::fs::create_dir(&dir).unwrap();
        let victim = scratch.path().join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        std::os::unix::fs::symlink(&victim, dump_path(&dir, "linked")).unwrap();
        let fifo = dump_path(&dir, "fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()));
        std::fs::create_dir(dump_path(&dir, "directory")).unwrap();
        // Run in a thread: the old code blocked forever opening the FIFO.
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let thread_dir = dir.clone();
        std::thread::spawn(move || {
            let results: Vec<(String, Result<bool, String>)> = ["linked", "fifo", "directory"]
                .into_iter()
                .map(|id| {
                    let result = dump(&thread_dir, id, &[executable("CS")]);
                    (id.to_string(), result.map_err(|e| e.to_string()))
                })
                .collect();
            let _ = done_tx.send(results);
        });
        let results = done_rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .unwrap_or_else(|_| {
                // Let the blocked open go, then fail.
                drop(std::fs::File::open(&fifo));
                panic!("a dump blocked on a FIFO planted in the directory");
            });
        for (id, result) in results {
            let error = result.expect_err(&id);
            assert!(error.contains("not a regular file"), "{id}: {error}");
            assert!(error.contains(&format!("{id}.txt")), "{id}: {error}");
        }
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["directory.txt", "fifo.txt", "linked.txt"]);
        // A regular file under the name (an earlier dump) is replaced, and a dump reached
        // through a link to the directory itself is written.
        std::fs::write(dump_path(&dir, "old"), b"stale").unwrap();
        assert!(dump(&dir, "old", &[executable("CS")]).unwrap());
        let text = std::fs::read_to_string(dump_path(&dir, "old")).unwrap();
        assert!(text.starts_with("// executable: CS"), "{text}");
        let link = scratch.path().join("to-dumps");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        assert!(dump(&link, "through", &[executable("CS")]).unwrap());
        assert!(dump_path(&dir, "through").is_file());
    }
}
