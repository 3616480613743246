//! `cargo xtask book`: builds the manual (`docs/`, an mdBook) into `book/` of cargo's target
//! folder and checks it. It first writes the pages generated from the results collection
//! (the gallery of every GPU and each report's table, [`generate`]), which are never committed.
//! mdBook itself must print no warning (an unclosed HTML tag in a chapter is one), every link
//! and image of the built pages must lead to a file of the book and, with a `#fragment`, to an
//! element with that id, README.md must stay within [`README_MAX_BYTES`], and every example
//! (fenced block) of README.md must also be in a chapter, since the README is the book's front
//! page and holds nothing the book does not.
//!
//! mdBook is a tool, not a dependency of the crates: the pinned version is installed with
//! `cargo install` (from crates.io, without its `serve` and `watch` features) when the
//! `mdbook` on the PATH is not that version. It is installed unoptimised (`--debug`, no debug
//! info): on a 2-core machine that compiles in 37 s instead of 107 s, and the book still builds
//! in under a second (0.9 s against 0.4 s).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use crate::workspace;

/// The mdBook release the book is built with.
pub const MDBOOK_VERSION: &str = "0.5.4";

/// The most bytes README.md may hold.
pub const README_MAX_BYTES: usize = 15 * 1024;

/// The book's source folder, relative to the workspace root.
const BOOK_DIR: &str = "docs";

/// The reports that get a page in the gallery of every GPU, in its order.
const GALLERY_REPORTS: [&str; 3] = [
    "results/nvidia-h200.json",
    "results/nvidia-h100.json",
    "results/lavapipe.json",
];

/// The folders of published tables that get a gallery page each: the original's README tables,
/// then the contributed ones.
const GALLERY_TABLES: [&str; 2] = [
    "crates/perftest-cli/tests/fixtures/sebbbi",
    "results/published",
];

/// The runs of `--suite answers` that get a gallery page each (their GPUs have a report above).
const GALLERY_ANSWERS: [&str; 1] = ["results/nvidia-h100-answers.json"];

/// The folder whose reports get a table the device chapters include.
const RENDERED: &str = "results";

/// Writes the generated pages into the book's source with the `generate_gallery` example.
pub fn generate(root: &Path) -> Result<(), String> {
    let mut command = workspace::cargo();
    command.args([
        "run",
        "--quiet",
        "-p",
        "perftest-cli",
        "--example",
        "generate_gallery",
        "--",
    ]);
    command.arg(format!("{BOOK_DIR}/src"));
    for report in GALLERY_REPORTS {
        command.args(["--report", report]);
    }
    for folder in GALLERY_TABLES {
        command.args(["--tables", folder]);
    }
    for report in GALLERY_ANSWERS {
        command.args(["--answers", report]);
    }
    command.args(["--render", RENDERED]);
    command.current_dir(root);
    match workspace::status(&mut command)? {
        0 => Ok(()),
        code => Err(format!("generate_gallery failed (exit {code})")),
    }
}

/// `cargo xtask book`: the book is written to `book/` in cargo's target folder.
pub fn command(root: &Path) -> Result<(), String> {
    generate(root)?;
    let mdbook = ensure_mdbook()?;
    let built = workspace::target_dir()?.join("book");
    let output = Command::new(&mdbook)
        .arg("build")
        .arg("--dest-dir")
        .arg(&built)
        .current_dir(root.join(BOOK_DIR))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", mdbook.display()))?;
    let log = String::from_utf8_lossy(&output.stderr).into_owned()
        + &String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!("mdbook build failed:\n{log}"));
    }
    let warnings: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR"))
        .collect();
    if !warnings.is_empty() {
        return Err(format!(
            "mdbook build printed warnings:\n{}",
            warnings.join("\n")
        ));
    }
    let pages = read_pages(&built)?;
    let broken = broken_links(&pages, &|path| built.join(path).is_file());
    if !broken.is_empty() {
        return Err(format!(
            "{} broken link(s) in the book:\n  {}",
            broken.len(),
            broken.join("\n  ")
        ));
    }
    let readme = fs::read_to_string(root.join("README.md"))
        .map_err(|e| format!("cannot read README.md: {e}"))?;
    let chapters = read_chapters(&root.join(BOOK_DIR).join("src"))?;
    readme_problems(&readme, &chapters)?;
    let missing: Vec<String> = markdown_links(&readme)
        .into_iter()
        .filter(|l| !l.contains("://") && !l.starts_with('#'))
        .filter(|l| !root.join(l.split('#').next().unwrap_or(l)).exists())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "README.md links to files that do not exist: {}",
            missing.join(", ")
        ));
    }
    println!(
        "book: {} pages in {}/ (open index.html), every link and anchor found; \
         README.md {} bytes, its examples all in the book",
        pages.len(),
        built.display(),
        readme.len()
    );
    Ok(())
}

/// The `mdbook` to run: the one on the PATH when it is [`MDBOOK_VERSION`], else the one
/// `cargo install` puts in cargo's bin folder.
fn ensure_mdbook() -> Result<PathBuf, String> {
    let version_of = |program: &Path| {
        Command::new(program)
            .arg("--version")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let wanted = format!("mdbook v{MDBOOK_VERSION}");
    let on_path = PathBuf::from("mdbook");
    if version_of(&on_path).as_deref() == Some(wanted.as_str()) {
        return Ok(on_path);
    }
    eprintln!("installing mdbook {MDBOOK_VERSION} with cargo install (once; under a minute)");
    let status = workspace::status(
        workspace::cargo()
            .args([
                "install",
                "mdbook",
                "--locked",
                "--debug",
                "--no-default-features",
                "--version",
                MDBOOK_VERSION,
            ])
            .env("CARGO_PROFILE_DEV_DEBUG", "0"),
    )?;
    if status != 0 {
        return Err(format!("cargo install mdbook failed (exit {status})"));
    }
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .ok_or("neither CARGO_HOME nor HOME is set")?;
    let installed = home.join("bin").join("mdbook");
    match version_of(&installed) {
        Some(v) if v == wanted => Ok(installed),
        other => Err(format!(
            "{} reports {other:?}, not {wanted}",
            installed.display()
        )),
    }
}

/// Every `.html` file under `dir`, by its path relative to `dir` (with `/`), with its text.
fn read_pages(dir: &Path) -> Result<BTreeMap<String, String>, String> {
    let mut pages = BTreeMap::new();
    for path in files_under(dir)? {
        if path.extension().is_some_and(|e| e == "html") {
            let text = fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            pages.insert(relative(dir, &path), text);
        }
    }
    Ok(pages)
}

/// Every `.md` chapter source under `dir` (the linked results folder aside), with its text.
fn read_chapters(dir: &Path) -> Result<Vec<String>, String> {
    let mut chapters = Vec::new();
    for path in files_under(dir)? {
        let rel = relative(dir, &path);
        if path.extension().is_some_and(|e| e == "md") && !rel.starts_with("results/") {
            chapters.push(
                fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            );
        }
    }
    Ok(chapters)
}

/// The files under `dir`, recursively (following links to folders).
fn files_under(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let entries =
            fs::read_dir(&at).map_err(|e| format!("cannot list {}: {e}", at.display()))?;
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `path` relative to `dir`, with `/` between components.
fn relative(dir: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The values of every `href="..."` and `src="..."` attribute in `html`.
pub fn link_targets(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attribute in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(at) = rest.find(attribute) {
            // An attribute starts after whitespace (not `data-href=`).
            let before = rest[..at].chars().last();
            rest = &rest[at + attribute.len()..];
            let Some(end) = rest.find('"') else { break };
            if before.is_some_and(char::is_whitespace) {
                out.push(rest[..end].to_string());
            }
            rest = &rest[end..];
        }
    }
    out
}

/// The `id="..."` values of `html`.
pub fn ids(html: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = html;
    while let Some(at) = rest.find("id=\"") {
        let before = rest[..at].chars().last();
        rest = &rest[at + 4..];
        let Some(end) = rest.find('"') else { break };
        if before.is_some_and(char::is_whitespace) {
            out.insert(rest[..end].to_string());
        }
        rest = &rest[end..];
    }
    out
}

/// Resolves `target` (a link in the page at `page`, both relative to the book's root) to a path
/// relative to the root and a fragment; `None` for links that leave the book (a scheme such
/// as `https:` or `mailto:`, or a path above the root).
pub fn resolve(page: &str, target: &str) -> Option<(String, Option<String>)> {
    if target.contains("://") || target.starts_with("mailto:") || target.starts_with("data:") {
        return None;
    }
    let (path, fragment) = match target.split_once('#') {
        Some((p, f)) => (p, Some(f.to_string())),
        None => (target, None),
    };
    let path = path.split('?').next().unwrap_or(path);
    if path.is_empty() {
        return Some((page.to_string(), fragment));
    }
    let base = Path::new(page).parent().unwrap_or(Path::new(""));
    let mut parts: Vec<String> = Vec::new();
    for component in base.join(path).components() {
        match component {
            Component::Normal(c) => parts.push(c.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            _ => {}
        }
    }
    let mut resolved = parts.join("/");
    if path.ends_with('/') || resolved.is_empty() {
        resolved = if resolved.is_empty() {
            "index.html".to_string()
        } else {
            format!("{resolved}/index.html")
        };
    }
    Some((resolved, fragment))
}

/// Every link of `pages` (the built book's HTML by path) that leads nowhere: `page: target
/// (why)`. `exists` says whether a path that is not an HTML page (an image, a results file)
/// is a file of the book. mdBook's print page repeats every chapter with its own ids, and its
/// 404 page is served from the site's root; neither is checked.
pub fn broken_links(
    pages: &BTreeMap<String, String>,
    exists: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let page_ids: BTreeMap<&str, BTreeSet<String>> = pages
        .iter()
        .map(|(p, html)| (p.as_str(), ids(html)))
        .collect();
    let mut broken = Vec::new();
    for (page, html) in pages {
        if page == "print.html" || page == "404.html" {
            continue;
        }
        for target in link_targets(html) {
            let Some((path, fragment)) = resolve(page, &target) else {
                if !target.contains("://") && !target.starts_with("mailto:") {
                    broken.push(format!("{page}: {target} (leaves the book)"));
                }
                continue;
            };
            match (page_ids.get(path.as_str()), fragment) {
                (Some(found), Some(fragment)) if !fragment.is_empty() => {
                    if !found.contains(&fragment) {
                        broken.push(format!("{page}: {target} (no id \"{fragment}\" in {path})"));
                    }
                }
                (Some(_), _) => {}
                (None, _) if exists(&path) => {}
                (None, _) => broken.push(format!("{page}: {target} (no file {path})")),
            }
        }
    }
    broken
}

/// What is wrong with README.md as the book's front page: more than [`README_MAX_BYTES`], or
/// a fenced block (an example) that no chapter holds.
pub fn readme_problems(readme: &str, chapters: &[String]) -> Result<(), String> {
    let mut problems = Vec::new();
    if readme.len() > README_MAX_BYTES {
        problems.push(format!(
            "README.md is {} bytes, more than {README_MAX_BYTES}",
            readme.len()
        ));
    }
    let flat: Vec<String> = chapters.iter().map(|c| unindent(c)).collect();
    for block in fenced_blocks(readme) {
        if !flat.iter().any(|c| c.contains(&block)) {
            let first = block.lines().next().unwrap_or("");
            problems.push(format!(
                "README.md's example starting {first:?} is in no chapter of the book"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The targets of the inline links and images of `markdown` (`[text](target)`).
pub fn markdown_links(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = markdown;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    out
}

/// The contents of the fenced blocks of `markdown` (without the fences), each unindented.
fn fenced_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(lines) => blocks.push(unindent(&lines.join("\n"))),
                None => current = Some(Vec::new()),
            }
        } else if let Some(lines) = current.as_mut() {
            lines.push(line);
        }
    }
    blocks
}

/// `text` with each line's leading spaces removed (a chapter indents examples inside lists).
fn unindent(text: &str) -> String {
    text.lines()
        .map(str::trim_start)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages(list: &[(&str, &str)]) -> BTreeMap<String, String> {
        list.iter()
            .map(|(p, h)| (p.to_string(), h.to_string()))
            .collect()
    }

    #[test]
    fn links_resolve_against_their_page() {
        assert_eq!(
            resolve("suites/memory.html", "../results/a.txt"),
            Some(("results/a.txt".into(), None))
        );
        assert_eq!(
            resolve("suites/memory.html", "#levels"),
            Some(("suites/memory.html".into(), Some("levels".into())))
        );
        assert_eq!(
            resolve("index.html", "gallery/h100.html#memory"),
            Some(("gallery/h100.html".into(), Some("memory".into())))
        );
        assert_eq!(resolve("index.html", "../README.md"), None);
        assert_eq!(resolve("index.html", "https://example.com/x"), None);
    }

    #[test]
    fn a_missing_page_file_or_anchor_is_broken() {
        let book = pages(&[
            (
                "index.html",
                r##"<a href="a.html#two">x</a> <a href="a.html">y</a> <img src="img/p.png"> <a href="https://x.org/">z</a>"##,
            ),
            (
                "a.html",
                r##"<h2 id="one">1</h2> <a href="index.html#nowhere">back</a> <a href="b.html">b</a> <a href="../up.md">up</a> <a href="#one">self</a> <div data-href="gone.html"></div>"##,
            ),
            ("print.html", r##"<a href="missing.html">ignored</a>"##),
        ]);
        let broken = broken_links(&book, &|path| path == "img/p.png");
        assert_eq!(
            broken,
            [
                "a.html: index.html#nowhere (no id \"nowhere\" in index.html)",
                "a.html: b.html (no file b.html)",
                "a.html: ../up.md (leaves the book)",
                "index.html: a.html#two (no id \"two\" in a.html)",
            ]
        );
        let fixed = pages(&[
            ("index.html", r##"<a href="a.html#one">x</a>"##),
            ("a.html", r##"<h2 id="one">1</h2>"##),
        ]);
        assert!(broken_links(&fixed, &|_| false).is_empty());
    }

    #[test]
    fn markdown_links_are_found() {
        let text = "See [a](docs/a.md), ![b](img/b.png \"t\") and [c](https://x.org/).";
        assert_eq!(
            markdown_links(text),
            ["docs/a.md", "img/b.png \"t\"", "https://x.org/"]
        );
    }

    #[test]
    fn the_readme_holds_nothing_the_book_lacks() {
        let chapter =
            "# Getting started\n\n1. Run:\n\n   ```sh\n   perftest --list\n   ```\n".to_string();
        let readme = "# perftest\n\n```sh\nperftest --list\n```\n";
        assert!(readme_problems(readme, std::slice::from_ref(&chapter)).is_ok());
        let extra = "# perftest\n\n```sh\nperftest --list\n```\n\n```sh\nperftest --secret\n```\n";
        let error = readme_problems(extra, std::slice::from_ref(&chapter)).unwrap_err();
        assert!(error.contains("\"perftest --secret\""), "{error}");
        let long = format!("{readme}{}", "x".repeat(README_MAX_BYTES));
        assert!(readme_problems(&long, &[chapter])
            .unwrap_err()
            .contains("bytes"));
    }
}
