//! `manifest.txt` beside the SPIR-V: one line per `.spv` file with the hash of its inputs, the
//! hash of its bytes and the compiler that made it; and the comparison `--check` makes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::shaders::Output;

/// The manifest's file name inside the SPIR-V directory.
pub const FILE_NAME: &str = "manifest.txt";

/// One manifest line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The `.spv` file name.
    pub file: String,
    /// SHA-256 of the compile inputs (see `shaders::input_hash`).
    pub input_hash: String,
    /// SHA-256 of the `.spv` file's bytes.
    pub spv_hash: String,
    /// The compiler that produced the file.
    pub compiler: String,
}

/// Renders a manifest: header comment, then `entries` sorted by file name.
// Only `shaders-compile` (feature `compile`) writes manifests.
#[cfg_attr(not(feature = "compile"), allow(dead_code))]
pub fn render(entries: &[Entry], settings: &str) -> String {
    let mut sorted: Vec<&Entry> = entries.iter().collect();
    sorted.sort_by(|a, b| a.file.cmp(&b.file));
    let mut text = format!(
        "# Written by `cargo xtask shaders` from shaders/; checked by `cargo xtask shaders --check`.\n\
         # Do not edit. Columns: file, sha256 of inputs (source, includes, defines, settings),\n\
         # sha256 of the file, compiler. Settings: {settings}\n"
    );
    for entry in sorted {
        text.push_str(&format!(
            "{} {} {} {}\n",
            entry.file, entry.input_hash, entry.spv_hash, entry.compiler
        ));
    }
    text
}

/// Parses a manifest; `#` lines and blank lines are comments.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries: Vec<Entry> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [file, input_hash, spv_hash, compiler] = fields[..] else {
            return Err(format!(
                "line {}: expected `FILE.spv INPUT_HASH SPV_HASH COMPILER`",
                index + 1
            ));
        };
        if !file.ends_with(".spv") || !is_sha256(input_hash) || !is_sha256(spv_hash) {
            return Err(format!(
                "line {}: expected `FILE.spv INPUT_HASH SPV_HASH COMPILER` with 64-digit hex hashes",
                index + 1
            ));
        }
        if entries.iter().any(|entry| entry.file == file) {
            return Err(format!("line {}: {file} is listed twice", index + 1));
        }
        entries.push(Entry {
            file: file.to_string(),
            input_hash: input_hash.to_string(),
            spv_hash: spv_hash.to_string(),
            compiler: compiler.to_string(),
        });
    }
    Ok(entries)
}

/// Whether `text` is a lowercase hex SHA-256.
fn is_sha256(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Something that makes the committed SPIR-V disagree with the shader sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// There is no manifest although shaders or `.spv` files exist.
    ManifestMissing,
    /// A shader produces this file but the manifest does not list it.
    NotInManifest {
        /// The `.spv` file.
        file: String,
        /// The `.comp` file producing it.
        source: String,
    },
    /// The inputs changed since the file was compiled.
    Stale {
        /// The `.spv` file.
        file: String,
        /// The `.comp` file producing it.
        source: String,
    },
    /// The manifest lists a file no shader produces.
    NotProduced {
        /// The `.spv` file.
        file: String,
    },
    /// The manifest lists a file that does not exist.
    FileMissing {
        /// The `.spv` file.
        file: String,
    },
    /// The file's bytes differ from what the manifest recorded.
    FileChanged {
        /// The `.spv` file.
        file: String,
    },
    /// A `.spv` file the manifest does not list.
    FileNotListed {
        /// The `.spv` file.
        file: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::ManifestMissing => write!(
                f,
                "{FILE_NAME}: missing (it records what each .spv file was compiled from)"
            ),
            Problem::NotInManifest { file, source } => write!(
                f,
                "{file}: missing (shaders/{source} produces it but {FILE_NAME} does not list it)"
            ),
            Problem::Stale { file, source } => write!(
                f,
                "{file}: stale (shaders/{source}, its includes or its defines changed since it \
                 was compiled)"
            ),
            Problem::NotProduced { file } => {
                write!(
                    f,
                    "{file}: extra ({FILE_NAME} lists it but no shader produces it)"
                )
            }
            Problem::FileMissing { file } => {
                write!(
                    f,
                    "{file}: missing ({FILE_NAME} lists it but the file does not exist)"
                )
            }
            Problem::FileChanged { file } => write!(
                f,
                "{file}: changed (its bytes differ from what {FILE_NAME} recorded)"
            ),
            Problem::FileNotListed { file } => {
                write!(f, "{file}: extra (not listed in {FILE_NAME})")
            }
        }
    }
}

/// Compares what the shaders produce (`outputs`), the manifest (`entries`, `None` when there
/// is no manifest file) and the `.spv` files present (`files`: name to SHA-256 of bytes).
/// Empty when everything agrees.
pub fn compare(
    outputs: &[Output],
    entries: Option<&[Entry]>,
    files: &BTreeMap<String, String>,
) -> Vec<Problem> {
    let Some(entries) = entries else {
        return if outputs.is_empty() && files.is_empty() {
            Vec::new()
        } else {
            vec![Problem::ManifestMissing]
        };
    };
    let mut problems = Vec::new();
    let listed: BTreeMap<&str, &Entry> = entries
        .iter()
        .map(|entry| (entry.file.as_str(), entry))
        .collect();
    for output in outputs {
        match listed.get(output.file.as_str()) {
            None => problems.push(Problem::NotInManifest {
                file: output.file.clone(),
                source: output.source.clone(),
            }),
            Some(entry) if entry.input_hash != output.input_hash => problems.push(Problem::Stale {
                file: output.file.clone(),
                source: output.source.clone(),
            }),
            Some(_) => {}
        }
    }
    let produced: BTreeSet<&str> = outputs.iter().map(|output| output.file.as_str()).collect();
    for entry in entries {
        if !produced.contains(entry.file.as_str()) {
            problems.push(Problem::NotProduced {
                file: entry.file.clone(),
            });
        }
        match files.get(&entry.file) {
            None => problems.push(Problem::FileMissing {
                file: entry.file.clone(),
            }),
            Some(hash) if *hash != entry.spv_hash => problems.push(Problem::FileChanged {
                file: entry.file.clone(),
            }),
            Some(_) => {}
        }
    }
    for file in files.keys() {
        if !listed.contains_key(file.as_str()) {
            problems.push(Problem::FileNotListed { file: file.clone() });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    const H1: &str = "1111111111111111111111111111111111111111111111111111111111111111";
    const H2: &str = "2222222222222222222222222222222222222222222222222222222222222222";
    const H3: &str = "3333333333333333333333333333333333333333333333333333333333333333";

    fn entry(file: &str, input_hash: &str, spv_hash: &str) -> Entry {
        Entry {
            file: file.to_string(),
            input_hash: input_hash.to_string(),
            spv_hash: spv_hash.to_string(),
            compiler: "shaderc-0.10.1".to_string(),
        }
    }

    fn output(file: &str, input_hash: &str) -> Output {
        Output {
            file: file.to_string(),
            source: "a.comp".to_string(),
            stage: crate::shaders::Stage::Compute,
            text: String::new(),
            includes: Vec::new(),
            defines: Vec::new(),
            input_hash: input_hash.to_string(),
        }
    }

    fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(file, hash)| (file.to_string(), hash.to_string()))
            .collect()
    }

    #[test]
    fn render_then_parse_round_trips_sorted() {
        let entries = vec![entry("b.spv", H1, H2), entry("a.spv", H2, H3)];
        let text = render(&entries, "opt=zero");
        assert!(text.starts_with('#'));
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed, vec![entries[1].clone(), entries[0].clone()]);
    }

    #[test]
    fn malformed_lines_are_rejected_with_line_numbers() {
        assert!(parse(&format!("# c\na.spv {H1} {H2}\n"))
            .unwrap_err()
            .starts_with("line 2"));
        assert!(parse(&format!("a.txt {H1} {H2} c\n")).is_err());
        assert!(parse(&format!("a.spv {} {H2} c\n", &H1[1..])).is_err());
        assert!(parse(&format!("a.spv {} {H2} c\n", "AB".repeat(32))).is_err());
        assert!(parse(&format!("a.spv {} {H2} c\n", "ab".repeat(32))).is_ok());
        assert!(parse(&format!("a.spv {H1} {H2} c\na.spv {H1} {H2} c\n"))
            .unwrap_err()
            .contains("twice"));
    }

    #[test]
    fn matching_state_has_no_problems() {
        let problems = compare(
            &[output("a.spv", H1)],
            Some(&[entry("a.spv", H1, H2)]),
            &files(&[("a.spv", H2)]),
        );
        assert_eq!(problems, vec![]);
    }

    #[test]
    fn missing_manifest_is_one_problem_unless_there_is_nothing() {
        assert_eq!(compare(&[], None, &files(&[])), vec![]);
        assert_eq!(
            compare(&[output("a.spv", H1)], None, &files(&[("a.spv", H2)])),
            vec![Problem::ManifestMissing]
        );
        assert_eq!(
            compare(&[], None, &files(&[("a.spv", H2)])),
            vec![Problem::ManifestMissing]
        );
    }

    #[test]
    fn changed_source_is_stale() {
        let problems = compare(
            &[output("a.spv", H3)],
            Some(&[entry("a.spv", H1, H2)]),
            &files(&[("a.spv", H2)]),
        );
        assert_eq!(
            problems,
            vec![Problem::Stale {
                file: "a.spv".to_string(),
                source: "a.comp".to_string()
            }]
        );
        assert!(problems[0].to_string().contains("a.spv: stale"));
    }

    #[test]
    fn new_output_is_missing() {
        let problems = compare(&[output("a.spv", H1)], Some(&[]), &files(&[]));
        assert_eq!(
            problems,
            vec![Problem::NotInManifest {
                file: "a.spv".to_string(),
                source: "a.comp".to_string()
            }]
        );
    }

    #[test]
    fn removed_shader_leaves_extra_entry() {
        let problems = compare(
            &[],
            Some(&[entry("a.spv", H1, H2)]),
            &files(&[("a.spv", H2)]),
        );
        assert_eq!(
            problems,
            vec![Problem::NotProduced {
                file: "a.spv".to_string()
            }]
        );
    }

    #[test]
    fn edited_missing_and_unlisted_files_are_reported() {
        let problems = compare(
            &[output("a.spv", H1), output("b.spv", H1)],
            Some(&[entry("a.spv", H1, H2), entry("b.spv", H1, H2)]),
            &files(&[("a.spv", H3), ("c.spv", H2)]),
        );
        assert_eq!(
            problems,
            vec![
                Problem::FileChanged {
                    file: "a.spv".to_string()
                },
                Problem::FileMissing {
                    file: "b.spv".to_string()
                },
                Problem::FileNotListed {
                    file: "c.spv".to_string()
                },
            ]
        );
    }
}
