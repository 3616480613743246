//! `cargo xtask docs [--check]`: the man page (`docs/man/perftest.1`) and the shell completions
//! (`docs/completions/`: bash, zsh, fish, PowerShell), generated from perftest's clap
//! definition and committed; `--check` (run by CI) fails when they differ from what the
//! current definition generates. The release archives ship them.

use std::fs;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::Shell;
use perftest_cli::cli::Cli;

/// The generated files, relative to the workspace root, with their contents.
pub fn generated() -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    let mut files = Vec::new();
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| format!("cannot render the man page: {e}"))?;
    files.push((PathBuf::from("docs/man/perftest.1"), page));
    for (shell, name) in [
        (Shell::Bash, "perftest.bash"),
        (Shell::Zsh, "_perftest"),
        (Shell::Fish, "perftest.fish"),
        (Shell::PowerShell, "_perftest.ps1"),
    ] {
        let mut script = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "perftest", &mut script);
        files.push((PathBuf::from("docs/completions").join(name), script));
    }
    Ok(files)
}

/// Writes the generated files (`check == false`) or checks the committed ones are current.
pub fn command(root: &Path, check: bool) -> Result<(), String> {
    let files = generated()?;
    let mut stale = Vec::new();
    for (path, bytes) in &files {
        let full = root.join(path);
        if check {
            if fs::read(&full).ok().as_deref() != Some(bytes.as_slice()) {
                stale.push(path.display().to_string());
            }
        } else {
            if let Some(dir) = full.parent() {
                fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            fs::write(&full, bytes).map_err(|e| format!("cannot write {}: {e}", full.display()))?;
            eprintln!("wrote {}", path.display());
        }
    }
    if stale.is_empty() {
        if check {
            eprintln!(
                "man page and completions are current ({} files)",
                files.len()
            );
        }
        Ok(())
    } else {
        Err(format!(
            "out of date with perftest's arguments: {}; run `cargo xtask docs` and commit",
            stale.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_completions_name_every_option() {
        let files = generated().unwrap();
        assert_eq!(files.len(), 5);
        for (path, bytes) in &files {
            // roff writes a hyphen as `\-`.
            let text = String::from_utf8_lossy(bytes).replace("\\-", "-");
            for option in ["--suite", "--pipeline-cache", "--no-refine"] {
                assert!(
                    text.contains(option.trim_start_matches('-')),
                    "{}: {option}",
                    path.display()
                );
            }
        }
        let page = String::from_utf8_lossy(&files[0].1);
        assert!(
            page.starts_with(".ie") || page.contains(".TH perftest"),
            "{page}"
        );
    }
}
