//! The book's gallery of every GPU, generated from the results collection: a page per GPU (its
//! findings, advice and table), a page per family across the GPUs, and an index with the
//! advice across GPUs. Every number on them comes from a committed file; the book's build
//! generates the pages, so they are never committed. Text taken from a collection file (a GPU's
//! name, an API, a tool, a file name) is data: the pages, their titles and the book's summary
//! write it through the Markdown export's escapes (free text escaped, names as code spans).

use std::path::{Path, PathBuf};

use crate::cross_gpu;
use crate::export::formats::markdown::{code_span, escape as md};
use crate::export::{Exporter, MarkdownExporter};
use crate::report::Report;
use crate::report_file::load_report;
use perftest_report::cross_gpu::{cross_gpu, CrossGpu};

/// The folder of the generated pages, relative to the book's `src/`.
pub const FOLDER: &str = "gallery/collection";

/// The folder of the generated report tables, relative to the book's `src/`.
pub const TABLES: &str = "gallery/tables";

/// Where the gallery's files are, relative to the repository's root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sources {
    /// Reports that get a page first, in this order.
    pub reports: Vec<PathBuf>,
    /// Folders whose `.txt` and `.csv` tables follow, each folder's files by name.
    pub folders: Vec<PathBuf>,
    /// Runs of `--suite answers` (every case the findings and the vendor guidance need), a
    /// page each after the GPUs' pages. They are not columns of the comparison across GPUs:
    /// their GPU has a page there already, and one GPU counts once.
    pub answers: Vec<PathBuf>,
}

/// The collection's files named by `sources`, relative to `root`, in the gallery's order.
pub fn collection_files(root: &Path, sources: &Sources) -> Result<Vec<PathBuf>, String> {
    let mut files = sources.reports.clone();
    for dir in &sources.folders {
        let mut listed: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt" || x == "csv"))
            .filter_map(|p| p.strip_prefix(root).ok().map(Path::to_path_buf))
            .collect();
        listed.sort();
        files.extend(listed);
    }
    Ok(files)
}

/// A report's table as `perftest render FILE --format markdown` writes it.
pub fn table(file: &Path) -> Result<String, String> {
    let report = load_report(file).map_err(|e| e.to_string())?;
    let bytes = MarkdownExporter
        .serialize(&report)
        .map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// One generated page: its path under the book's `src/` and its Markdown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// Path relative to the book's `src/`.
    pub path: String,
    /// The page's title (its entry in the book's summary), as plain text: it is escaped
    /// wherever it is written as Markdown.
    pub title: String,
    /// Markdown.
    pub text: String,
}

/// The gallery's pages for the files of `sources` under `root`: the index first, then a page
/// per GPU, then a page per family.
pub fn pages(root: &Path, sources: &Sources) -> Result<Vec<Page>, String> {
    let files = collection_files(root, sources)?;
    let mut reports = Vec::new();
    for file in &files {
        let mut report = load_report(&root.join(file)).map_err(|e| e.to_string())?;
        // A table's source names the file as the collection does, not where it was read.
        if let Some(source) = report.source.as_mut() {
            source.file = file.display().to_string();
        }
        reports.push((file.display().to_string(), report));
    }
    let pairs: Vec<(&str, &Report)> = reports.iter().map(|(f, r)| (f.as_str(), r)).collect();
    let cross = cross_gpu(&pairs);
    let mut gpus = Vec::new();
    for (file, report) in &reports {
        gpus.push(gpu_page(file, report, "")?);
    }
    let mut answers = Vec::new();
    for file in &sources.answers {
        let report = load_report(&root.join(file)).map_err(|e| e.to_string())?;
        answers.push(gpu_page(
            &file.display().to_string(),
            &report,
            ANSWERS_TITLE,
        )?);
    }
    let families = family_pages(&cross);
    let mut out = vec![index_page(&cross, (&gpus, &answers), &families)];
    out.extend(gpus);
    out.extend(answers);
    out.extend(families);
    Ok(out)
}

/// The file name of a collection file's page: its stem, every character other than ASCII
/// letters, digits, `.`, `-` and `_` replaced by `-`, so it is a link target as it stands.
fn slug(file: &str) -> String {
    let stem = Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// What the title of an answers run's page adds to its GPU's name and API.
const ANSWERS_TITLE: &str = ", every answer";

/// A GPU's page: where its figures come from, then what `perftest render --format markdown`
/// writes (findings, advice, vendor guidance, table). The title is the GPU's name, then its API
/// and `suffix` in parentheses.
fn gpu_page(file: &str, report: &Report, suffix: &str) -> Result<Page, String> {
    let (api, tool) = (
        perftest_report::gpu_matrix::api(report),
        perftest_report::gpu_matrix::tool(report),
    );
    let title = format!("{} ({api}{suffix})", report.device.name);
    let table = MarkdownExporter
        .serialize(report)
        .map_err(|e| e.to_string())?;
    let table = String::from_utf8(table).map_err(|e| e.to_string())?;
    // The GPU's name, the API, the tool and the file name are the contributor's text.
    let text = format!(
        "# {}\n\nMeasured with {} ({}); from {}, rendered by {}.\n\n{table}",
        md(&title),
        md(&tool),
        md(&api),
        code_span(file),
        code_span(&format!("perftest render {file} --format markdown"))
    );
    Ok(Page {
        path: format!("{FOLDER}/{}.md", slug(file)),
        title,
        text,
    })
}

/// A page per family: the family's rows of the matrix across every GPU.
fn family_pages(cross: &CrossGpu) -> Vec<Page> {
    let mut families: Vec<&str> = Vec::new();
    for row in &cross.matrix.rows {
        if !families.contains(&row.family.as_str()) {
            families.push(&row.family);
        }
    }
    families
        .into_iter()
        .map(|family| {
            let mut matrix = cross.matrix.clone();
            matrix.rows.retain(|r| r.family == family);
            let title = perftest_cases::family(family).map_or(family, |f| f.title());
            let one = CrossGpu {
                matrix,
                advice: Vec::new(),
                same_gpu: Vec::new(),
                guidance: Vec::new(),
            };
            Page {
                path: format!("{FOLDER}/family-{family}.md"),
                title: format!("{title} across GPUs"),
                text: format!(
                    "# {} across GPUs\n\n{}",
                    md(title),
                    cross_gpu::markdown(&one)
                ),
            }
        })
        .collect()
}

/// The index: the advice across every GPU of the collection, the GPUs it has under two or more
/// APIs or tools, and links to every page (the GPUs', the answers runs', the families').
fn index_page(cross: &CrossGpu, (gpus, answers): (&[Page], &[Page]), families: &[Page]) -> Page {
    let mut text = String::from(
        "# Every GPU side by side\n\nGenerated from the results collection (see \
         [The results collection](../../collection.md)) by the generator the tests run again: \
         every number here and on the pages below comes from a committed file.\n\n",
    );
    let mut advice_only = CrossGpu {
        matrix: cross.matrix.clone(),
        advice: cross.advice.clone(),
        same_gpu: cross.same_gpu.clone(),
        guidance: cross.guidance.clone(),
    };
    advice_only.matrix.rows.clear();
    text.push_str(&cross_gpu::markdown(&advice_only));
    let link = |p: &Page| {
        let name = Path::new(&p.path)
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        format!("- [{}]({name})\n", md(&p.title))
    };
    text.push_str("\n**Each GPU**\n\n");
    gpus.iter().for_each(|p| text.push_str(&link(p)));
    if !answers.is_empty() {
        text.push_str(
            "\n**Every answer on one GPU** (a run of `--suite answers`: the findings and a \
             verdict on each vendor claim)\n\n",
        );
        answers.iter().for_each(|p| text.push_str(&link(p)));
    }
    text.push_str("\n**Each family across the GPUs**\n\n");
    families.iter().for_each(|p| text.push_str(&link(p)));
    Page {
        path: format!("{FOLDER}/index.md"),
        title: "Every GPU side by side".to_string(),
        text,
    }
}

/// The book summary's entries of `pages`: the index, with every other page under it.
pub fn summary_lines(pages: &[Page]) -> String {
    let mut out = String::new();
    for (i, p) in pages.iter().enumerate() {
        let indent = if i == 0 { "  " } else { "    " };
        out.push_str(&format!("{indent}- [{}]({})\n", md(&p.title), p.path));
    }
    out
}
