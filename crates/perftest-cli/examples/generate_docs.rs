//! Writes perftest's man page and shell completions, generated from its clap definition, into
//! the folder named by the only argument: `man/perftest.1` and `completions/` (bash, zsh,
//! fish, PowerShell). `cargo xtask docs` runs it and copies the files into `docs/` (or, with
//! `--check`, compares them with the committed ones), so xtask never links the CLI.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;
use perftest_cli::cli::Cli;

/// The completion scripts: each shell with its file name.
const COMPLETIONS: [(Shell, &str); 4] = [
    (Shell::Bash, "perftest.bash"),
    (Shell::Zsh, "_perftest"),
    (Shell::Fish, "perftest.fish"),
    (Shell::PowerShell, "_perftest.ps1"),
];

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(dir), None) = (args.next(), args.next()) else {
        eprintln!("usage: generate_docs DIR");
        return ExitCode::from(2);
    };
    match generate(Path::new(&dir)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("generate_docs: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Writes every file under `dir`.
fn generate(dir: &Path) -> Result<(), String> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| format!("cannot render the man page: {e}"))?;
    write(&dir.join("man/perftest.1"), &page)?;
    for (shell, name) in COMPLETIONS {
        let mut script = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "perftest", &mut script);
        write(&dir.join("completions").join(name), &script)?;
    }
    Ok(())
}

/// Writes `bytes` to `path`, creating its folder.
fn write(path: &PathBuf, bytes: &[u8]) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
