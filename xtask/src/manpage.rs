//! `cargo xtask docs [--check]`: the man page (`docs/man/perftest.1`) and the shell completions
//! (`docs/completions/`: bash, zsh, fish, PowerShell), generated from perftest's clap
//! definition by the CLI crate's `generate_docs` example (so xtask does not link the CLI) and
//! committed; `--check` (run by CI) fails when they differ from what the current definition
//! generates. The release archives ship them.

use std::fs;
use std::path::{Path, PathBuf};

use crate::workspace;

/// The generated folders, relative to `docs/` and to the example's output folder.
const FOLDERS: [&str; 2] = ["man", "completions"];

/// Writes the generated files into `docs/` (`check == false`) or checks the committed ones are
/// the same, file for file.
pub fn command(check: bool) -> Result<(), String> {
    let root = workspace::root();
    let generated = workspace::target_dir()?.join("generated-docs");
    let _ = fs::remove_dir_all(&generated);
    // Built with `--workspace`, like the `test` step's crates, so that step reuses them.
    let mut example = crate::tasks::build_example("generate_docs")?;
    let status = workspace::status(example.arg(&generated))?;
    if status != 0 {
        return Err(format!("the generate_docs example failed (exit {status})"));
    }
    let docs = root.join("docs");
    let differ = differences(&generated, &docs)?;
    if differ.is_empty() {
        eprintln!("the man page and completions are current");
        return Ok(());
    }
    if check {
        return Err(format!(
            "out of date with perftest's arguments: {}; run `cargo xtask docs` and commit",
            differ.join(", ")
        ));
    }
    for folder in FOLDERS {
        for (name, bytes) in files(&generated.join(folder))? {
            let path = docs.join(folder).join(&name);
            fs::create_dir_all(docs.join(folder))
                .and_then(|()| fs::write(&path, bytes))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    eprintln!("wrote {}", differ.join(", "));
    Ok(())
}

/// The paths (relative to the workspace) of files that differ between the generated folders
/// under `generated` and the committed ones under `docs`, or exist on one side only.
fn differences(generated: &Path, docs: &Path) -> Result<Vec<String>, String> {
    let mut differ = Vec::new();
    for folder in FOLDERS {
        let new = files(&generated.join(folder))?;
        let old = files(&docs.join(folder)).unwrap_or_default();
        for (name, bytes) in &new {
            if old.iter().find(|(n, _)| n == name).map(|(_, b)| b) != Some(bytes) {
                differ.push(format!("docs/{folder}/{}", name.display()));
            }
        }
        for (name, _) in &old {
            if !new.iter().any(|(n, _)| n == name) {
                differ.push(format!(
                    "docs/{folder}/{} (no longer generated)",
                    name.display()
                ));
            }
        }
    }
    Ok(differ)
}

/// The files of `dir` (not recursive), by name, with their contents, sorted by name.
fn files(dir: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_file() {
            let bytes =
                fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            files.push((PathBuf::from(path.file_name().unwrap_or_default()), bytes));
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed page and completions name the options (a generator that wrote empty files
    /// would otherwise pass the freshness check forever).
    #[test]
    fn the_committed_page_and_completions_name_every_option() {
        let docs = workspace::root().join("docs");
        let mut count = 0;
        for folder in FOLDERS {
            for (name, bytes) in files(&docs.join(folder)).unwrap() {
                // roff writes a hyphen as `\-`.
                let text = String::from_utf8_lossy(&bytes).replace("\\-", "-");
                for option in ["suite", "pipeline-cache", "no-refine"] {
                    assert!(text.contains(option), "{}: {option}", name.display());
                }
                count += 1;
            }
        }
        assert_eq!(count, 5);
        let page = fs::read_to_string(docs.join("man/perftest.1")).unwrap();
        assert!(page.contains(".TH perftest"), "{page}");
    }

    #[test]
    fn differences_name_changed_missing_and_extra_files() {
        let base = tempfile::tempdir().unwrap();
        let (new, old) = (base.path().join("new"), base.path().join("old"));
        for (dir, files) in [
            (
                &new,
                [
                    ("man/a", "1"),
                    ("completions/b", "2"),
                    ("completions/c", "3"),
                ],
            ),
            (
                &old,
                [
                    ("man/a", "1"),
                    ("completions/b", "x"),
                    ("completions/d", "4"),
                ],
            ),
        ] {
            for (path, text) in files {
                let path = dir.join(path);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, text).unwrap();
            }
        }
        let differ = differences(&new, &old).unwrap();
        assert_eq!(
            differ,
            [
                "docs/completions/b",
                "docs/completions/c",
                "docs/completions/d (no longer generated)"
            ]
        );
    }
}
