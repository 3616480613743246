//! Writes the book's generated pages from the results collection: the gallery of every GPU
//! (`gallery/collection/` under the book's source) with its entries in `SUMMARY.md`, and the
//! table of each report of a folder (`gallery/tables/<name>.md`, what `perftest render
//! <name>.json --format markdown` writes). `cargo xtask book` runs it before building the book,
//! from the repository's root:
//!
//! ```text
//! generate_gallery BOOK_SRC [--report FILE]... [--tables DIR]... [--answers FILE]... [--render DIR]...
//! ```
//!
//! `--report` names a report that gets a page, `--tables` a folder of published tables that
//! get one each, `--answers` a run of `--suite answers` that gets a page but no column in the
//! comparison across GPUs, `--render` a folder whose `.json` reports get a table.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use perftest_cli::gallery::{pages, summary_lines, table, Sources, FOLDER, TABLES};

/// The summary's line under which the generated entries go.
const AFTER: &str = "  - [Mesa lavapipe (CPU)](gallery/lavapipe.md)\n";

/// What the command line asks for.
struct Args {
    src: PathBuf,
    sources: Sources,
    render: Vec<PathBuf>,
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)).and_then(|args| generate(Path::new("."), &args)) {
        Ok((n, t)) => {
            eprintln!("wrote {n} gallery pages into {FOLDER} and {t} tables into {TABLES}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("generate_gallery: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the book's source folder and the flags.
fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let usage = "usage: generate_gallery BOOK_SRC [--report FILE]... [--tables DIR]... \
                 [--answers FILE]... [--render DIR]...";
    let src = args.next().ok_or(usage)?;
    let mut out = Args {
        src: PathBuf::from(src),
        sources: Sources::default(),
        render: Vec::new(),
    };
    while let Some(flag) = args.next() {
        let value = PathBuf::from(args.next().ok_or(usage)?);
        match flag.as_str() {
            "--report" => out.sources.reports.push(value),
            "--tables" => out.sources.folders.push(value),
            "--answers" => out.sources.answers.push(value),
            "--render" => out.render.push(value),
            _ => return Err(usage.to_string()),
        }
    }
    Ok(out)
}

/// Writes the pages, the summary's entries and the tables; returns how many pages and tables.
fn generate(root: &Path, args: &Args) -> Result<(usize, usize), String> {
    let pages = pages(root, &args.sources)?;
    let src = root.join(&args.src);
    let folder = src.join(FOLDER);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {FOLDER}: {e}"))?;
    for page in &pages {
        std::fs::write(src.join(&page.path), &page.text)
            .map_err(|e| format!("cannot write {}: {e}", page.path))?;
    }
    let tables = src.join(TABLES);
    let _ = std::fs::remove_dir_all(&tables);
    std::fs::create_dir_all(&tables).map_err(|e| format!("cannot create {TABLES}: {e}"))?;
    let mut written = 0;
    for dir in &args.render {
        let dir = root.join(dir);
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            let (Some(stem), true) = (
                path.file_stem(),
                path.extension().is_some_and(|e| e == "json"),
            ) else {
                continue;
            };
            let text = table(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let out = tables.join(format!("{}.md", stem.to_string_lossy()));
            std::fs::write(&out, text)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            written += 1;
        }
    }
    let summary_path = src.join("SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path)
        .map_err(|e| format!("cannot read SUMMARY.md: {e}"))?;
    // Drop the entries written before, then add the current ones after the lavapipe page.
    let kept: String = summary
        .lines()
        .filter(|l| !l.contains(&format!("]({FOLDER}/")))
        .map(|l| format!("{l}\n"))
        .collect();
    let at = kept
        .find(AFTER)
        .ok_or("SUMMARY.md has no lavapipe gallery entry to put the pages after")?
        + AFTER.len();
    let updated = format!("{}{}{}", &kept[..at], summary_lines(&pages), &kept[at..]);
    if updated != summary {
        std::fs::write(&summary_path, updated)
            .map_err(|e| format!("cannot write SUMMARY.md: {e}"))?;
    }
    Ok((pages.len(), written))
}
