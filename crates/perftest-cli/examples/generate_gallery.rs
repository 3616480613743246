//! Writes the book's gallery of every GPU (`docs/src/gallery/collection/`) from the results
//! collection and lists its pages in `docs/src/SUMMARY.md`, under the results gallery. Run from
//! the repository's root after adding a file to the collection:
//! `cargo run -p perftest-cli --example generate_gallery`. The tests check the committed pages
//! are what it writes.

use std::path::Path;
use std::process::ExitCode;

use perftest_cli::gallery::{pages, summary_lines, FOLDER};

/// The summary's line under which the generated entries go.
const AFTER: &str = "  - [Mesa lavapipe (CPU)](gallery/lavapipe.md)\n";

fn main() -> ExitCode {
    match generate(Path::new(".")) {
        Ok(n) => {
            eprintln!("wrote {n} pages into docs/src/{FOLDER}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("generate_gallery: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Writes the pages and the summary's entries; returns how many pages.
fn generate(root: &Path) -> Result<usize, String> {
    let pages = pages(root)?;
    let src = root.join("docs/src");
    let folder = src.join(FOLDER);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {FOLDER}: {e}"))?;
    for page in &pages {
        std::fs::write(src.join(&page.path), &page.text)
            .map_err(|e| format!("cannot write {}: {e}", page.path))?;
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
    std::fs::write(&summary_path, updated).map_err(|e| format!("cannot write SUMMARY.md: {e}"))?;
    Ok(pages.len())
}
