//! Shader sources: which SPIR-V files `shaders/*.{comp,vert,frag}` produce, their `#include`s, and the
//! hash of everything that goes into each compile. `--check` compares these hashes with the
//! manifest ([`crate::spirv_check`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::workspace::{SHADERS_DIR, SPIRV_DIR};

/// The compile settings, part of every input hash: changing how shaders are compiled makes
/// every output stale. The `compile` module applies exactly these.
pub const SETTINGS: &str = "glsl compute entry=main vulkan1.0 spirv1.0 opt=zero \
                            debug-info=off warnings-as-errors";

/// A variant that defines this macro (`// xtask-variant: NAME VULKAN_1_1`) is compiled for
/// Vulkan 1.1 and SPIR-V 1.3 instead of the [`SETTINGS`] target, for kernels that need
/// subgroup operations (`GL_KHR_shader_subgroup_*`); the define is part of its input hash.
/// Only the cases of devices with Vulkan 1.1 may use such a variant.
pub const VULKAN_1_1_DEFINE: &str = "VULKAN_1_1";

/// Whether a variant with `defines` compiles for Vulkan 1.1 and SPIR-V 1.3
/// ([`VULKAN_1_1_DEFINE`]).
#[cfg_attr(not(feature = "compile"), allow(dead_code))]
pub fn targets_vulkan_1_1(defines: &[Define]) -> bool {
    defines
        .iter()
        .any(|define| define.name == VULKAN_1_1_DEFINE)
}

/// A `.comp` variant that defines this macro (`// xtask-variant: NAME FRAGMENT`) is the
/// compute kernel's fragment-shader twin: the same source compiled for the fragment stage
/// (`common.glsl` then takes the thread's place from the fragment's position).
pub const FRAGMENT_DEFINE: &str = "FRAGMENT";

/// The pipeline stage a SPIR-V file is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// `.comp` files.
    Compute,
    /// `.vert` files.
    Vertex,
    /// `.frag` files, and `.comp` variants that define [`FRAGMENT_DEFINE`].
    Fragment,
}

impl Stage {
    /// The extensions of shader sources, with the stage each compiles for by default.
    pub const EXTENSIONS: [(&'static str, Stage); 3] = [
        (".comp", Stage::Compute),
        (".vert", Stage::Vertex),
        (".frag", Stage::Fragment),
    ];

    /// The stage of a variant of `source` (a file name) with `defines`; `None` for a file that
    /// is no shader source.
    pub fn of(source: &str, defines: &[Define]) -> Option<Stage> {
        let (_, stage) = Stage::EXTENSIONS
            .into_iter()
            .find(|(extension, _)| source.ends_with(extension))?;
        let twin = defines.iter().any(|define| define.name == FRAGMENT_DEFINE);
        Some(if stage == Stage::Compute && twin {
            Stage::Fragment
        } else {
            stage
        })
    }

    /// The compile settings of this stage, hashed with each input: [`SETTINGS`] for compute
    /// (so compute outputs keep their hashes), the same words with the stage's name otherwise.
    pub fn settings(self) -> String {
        match self {
            Stage::Compute => SETTINGS.to_string(),
            Stage::Vertex => SETTINGS.replace(" compute ", " vertex "),
            Stage::Fragment => SETTINGS.replace(" compute ", " fragment "),
        }
    }
}

/// Marks a variant line in a shader: `// xtask-variant: NAME DEF=VAL [DEF=VAL...]`.
const VARIANT_MARKER: &str = "// xtask-variant:";

/// A preprocessor macro passed to the compiler: `NAME` or `NAME=VALUE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Define {
    /// The macro's name.
    pub name: String,
    /// Its value; `None` defines it empty.
    pub value: Option<String>,
}

impl Define {
    /// The `NAME` or `NAME=VALUE` spelling, as written in a variant line and hashed.
    fn spelling(&self) -> String {
        match &self.value {
            Some(value) => format!("{}={value}", self.name),
            None => self.name.clone(),
        }
    }
}

/// One compile of a shader: the output name (without `.spv`) and its macro definitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Output file stem.
    pub name: String,
    /// Macros defined for this compile.
    pub defines: Vec<Define>,
}

/// One SPIR-V file that the shader sources produce.
#[derive(Clone, Debug)]
pub struct Output {
    /// The `.spv` file name inside the SPIR-V directory.
    pub file: String,
    /// The shader source's file name inside `shaders/`.
    pub source: String,
    /// The stage it is compiled for.
    #[cfg_attr(not(feature = "compile"), allow(dead_code))]
    pub stage: Stage,
    /// The source text (line endings normalised to `\n`), as compiled.
    #[cfg_attr(not(feature = "compile"), allow(dead_code))]
    pub text: String,
    /// Every file the source may `#include` (name relative to `shaders/`, normalised text),
    /// as hashed; the compiler is served exactly these.
    #[cfg_attr(not(feature = "compile"), allow(dead_code))]
    pub includes: Vec<(String, String)>,
    /// Macros defined for this compile.
    #[cfg_attr(not(feature = "compile"), allow(dead_code))]
    pub defines: Vec<Define>,
    /// Hash of source, includes, defines and [`SETTINGS`].
    pub input_hash: String,
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lowercase hex spelling of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The variants a shader declares; a shader without variant lines compiles once as `stem`.
pub fn parse_variants(stem: &str, text: &str) -> Result<Vec<Variant>, String> {
    let mut variants = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(spec) = line.trim_start().strip_prefix(VARIANT_MARKER) else {
            continue;
        };
        let mut words = spec.split_whitespace();
        let name = words
            .next()
            .ok_or_else(|| format!("line {}: variant line without a name", index + 1))?;
        if !is_file_stem(name) {
            return Err(format!(
                "line {}: variant name `{name}` may only use letters, digits, `_` and `-`",
                index + 1
            ));
        }
        let defines = words
            .map(|word| parse_define(word).map_err(|error| format!("line {}: {error}", index + 1)))
            .collect::<Result<_, _>>()?;
        variants.push(Variant {
            name: name.to_string(),
            defines,
        });
    }
    if variants.is_empty() {
        variants.push(Variant {
            name: stem.to_string(),
            defines: Vec::new(),
        });
    }
    Ok(variants)
}

/// Parses `NAME` or `NAME=VALUE`.
fn parse_define(word: &str) -> Result<Define, String> {
    let (name, value) = match word.split_once('=') {
        Some((name, value)) => (name, Some(value.to_string())),
        None => (word, None),
    };
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(format!("`{word}` is not a macro definition (NAME=VALUE)"));
    }
    Ok(Define {
        name: name.to_string(),
        value,
    })
}

/// Whether `name` is usable as an output file stem.
fn is_file_stem(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The file names in a text's `#include "..."` / `#include <...>` lines, in order.
///
/// This reads lines, not the preprocessor's view: an include inside `#if 0` still counts,
/// which can only make the hash cover more than the compile reads.
pub fn include_directives(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest.strip_prefix("include")?.trim_start();
            let (open, close) = match rest.chars().next()? {
                '"' => ('"', '"'),
                '<' => ('<', '>'),
                _ => return None,
            };
            let inner = rest.strip_prefix(open)?;
            let end = inner.find(close)?;
            Some(inner[..end].to_string())
        })
        .collect()
}

/// Checks that an include name stays inside `shaders/`: relative, no `..`, no backslashes.
pub fn validate_include_name(name: &str) -> Result<(), String> {
    let bad = name.is_empty()
        || name.starts_with('/')
        || name.contains('\\')
        || name.contains(':')
        || name
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..");
    if bad {
        return Err(format!(
            "`#include \"{name}\"`: includes are relative to shaders/ and must stay inside it"
        ));
    }
    Ok(())
}

/// Every file `text` includes, directly or through other includes, depth first, each once,
/// with its (line-ending normalised) contents. `read` loads a file by its include name.
pub fn resolve_includes(
    text: &str,
    read: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<Vec<(String, String)>, String> {
    fn visit(
        text: &str,
        read: &mut dyn FnMut(&str) -> Result<String, String>,
        seen: &mut BTreeSet<String>,
        found: &mut Vec<(String, String)>,
    ) -> Result<(), String> {
        for name in include_directives(text) {
            validate_include_name(&name)?;
            if !seen.insert(name.clone()) {
                continue;
            }
            let contents = normalise_line_endings(&read(&name)?);
            visit(&contents, read, seen, found)?;
            found.push((name, contents));
        }
        Ok(())
    }
    let mut found = Vec::new();
    visit(text, read, &mut BTreeSet::new(), &mut found)?;
    Ok(found)
}

/// Hash of everything one compile depends on. Each part is length-prefixed, so moving bytes
/// between parts changes the hash.
pub fn input_hash(
    source: &str,
    includes: &[(String, String)],
    defines: &[Define],
    settings: &str,
) -> String {
    let mut hasher = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    part(b"perftest-xtask-inputs-v1");
    part(settings.as_bytes());
    part(source.as_bytes());
    part(&(includes.len() as u64).to_le_bytes());
    for (name, contents) in includes {
        part(name.as_bytes());
        part(contents.as_bytes());
    }
    part(&(defines.len() as u64).to_le_bytes());
    for define in defines {
        part(define.spelling().as_bytes());
    }
    hex(&hasher.finalize())
}

/// `\r\n` to `\n`, so a checkout with Windows line endings hashes like the original.
fn normalise_line_endings(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// Reads a UTF-8 text file, naming it (relative to the workspace root) in errors.
fn read_text(path: &Path, shown: &str) -> Result<String, String> {
    let bytes = fs::read(path).map_err(|error| format!("cannot read {shown}: {error}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown} is not UTF-8"))?;
    if text.contains('\0') {
        return Err(format!("{shown} contains a NUL byte"));
    }
    Ok(normalise_line_endings(&text))
}

/// Every output of the shader sources (`shaders/*.{comp,vert,frag}`) under `root`, sorted by
/// file name.
pub fn outputs(root: &Path) -> Result<Vec<Output>, String> {
    let dir = root.join(SHADERS_DIR);
    let mut sources: Vec<String> = match fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| Stage::of(name, &[]).is_some())
            .collect(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(format!("cannot list {SHADERS_DIR}/: {error}")),
    };
    sources.sort();

    let mut outputs: Vec<Output> = Vec::new();
    for source in sources {
        let shown = format!("{SHADERS_DIR}/{source}");
        let text = read_text(&dir.join(&source), &shown)?;
        let stem = source
            .rsplit_once('.')
            .map_or(source.as_str(), |(stem, _)| stem);
        let variants = parse_variants(stem, &text).map_err(|error| format!("{shown}: {error}"))?;
        let includes = resolve_includes(&text, &mut |name| {
            read_text(&dir.join(name), &format!("{SHADERS_DIR}/{name}"))
        })
        .map_err(|error| format!("{shown}: {error}"))?;
        for variant in variants {
            let file = format!("{}.spv", variant.name);
            if let Some(other) = outputs.iter().find(|output| output.file == file) {
                return Err(format!(
                    "{file} is produced by both {SHADERS_DIR}/{} and {shown}",
                    other.source
                ));
            }
            let stage = Stage::of(&source, &variant.defines).unwrap_or(Stage::Compute);
            outputs.push(Output {
                input_hash: input_hash(&text, &includes, &variant.defines, &stage.settings()),
                stage,
                file,
                source: source.clone(),
                text: text.clone(),
                includes: includes.clone(),
                defines: variant.defines,
            });
        }
    }
    outputs.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(outputs)
}

/// The `.spv` files in the SPIR-V directory with the hash of their bytes.
pub fn spirv_files(root: &Path) -> Result<BTreeMap<String, String>, String> {
    let dir = root.join(SPIRV_DIR);
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(error) => return Err(format!("cannot list {SPIRV_DIR}/: {error}")),
    };
    let mut files = BTreeMap::new();
    for entry in entries.filter_map(Result::ok) {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if name.ends_with(".spv") {
            let bytes = fs::read(entry.path())
                .map_err(|error| format!("cannot read {SPIRV_DIR}/{name}: {error}"))?;
            files.insert(name, sha256_hex(&bytes));
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn define(name: &str, value: &str) -> Define {
        Define {
            name: name.to_string(),
            value: Some(value.to_string()),
        }
    }

    #[test]
    fn shader_without_variants_compiles_once_as_its_stem() {
        let variants = parse_variants("typed_buffer", "void main() {}\n").unwrap();
        assert_eq!(
            variants,
            vec![Variant {
                name: "typed_buffer".to_string(),
                defines: vec![]
            }]
        );
    }

    #[test]
    fn a_vulkan_1_1_variant_is_marked_by_its_define() {
        let text = "// xtask-variant: wave KIND=1 VULKAN_1_1\n// xtask-variant: lane KIND=0\n";
        let variants = parse_variants("atomic", text).unwrap();
        assert!(targets_vulkan_1_1(&variants[0].defines));
        assert!(!targets_vulkan_1_1(&variants[1].defines));
    }

    #[test]
    fn variant_lines_give_names_and_defines() {
        let text =
            "// xtask-variant: tex_load MODE=1 FLAG\n  // xtask-variant: tex_sample MODE=2\n";
        let variants = parse_variants("texture", text).unwrap();
        assert_eq!(variants.len(), 2);
        assert_eq!(variants[0].name, "tex_load");
        assert_eq!(
            variants[0].defines,
            vec![
                define("MODE", "1"),
                Define {
                    name: "FLAG".to_string(),
                    value: None
                }
            ]
        );
        assert_eq!(variants[1].name, "tex_sample");
        assert_eq!(variants[1].defines, vec![define("MODE", "2")]);
    }

    #[test]
    fn bad_variant_lines_are_errors() {
        assert!(parse_variants("s", "// xtask-variant:\n").is_err());
        assert!(parse_variants("s", "// xtask-variant: a/b X=1\n").is_err());
        assert!(parse_variants("s", "// xtask-variant: ok 1X=2\n").is_err());
    }

    #[test]
    fn include_directives_are_found() {
        let text = "#version 450\n#include \"common.glsl\"\n  #  include <lib/hash.glsl>\n\
                    // #include \"commented.glsl\"\n#included\n";
        assert_eq!(
            include_directives(text),
            vec!["common.glsl".to_string(), "lib/hash.glsl".to_string()]
        );
    }

    #[test]
    fn include_names_must_stay_inside_shaders() {
        assert!(validate_include_name("common.glsl").is_ok());
        assert!(validate_include_name("lib/hash.glsl").is_ok());
        assert!(validate_include_name("../secret").is_err());
        assert!(validate_include_name("/etc/passwd").is_err());
        assert!(validate_include_name("a//b").is_err());
        assert!(validate_include_name("").is_err());
    }

    #[test]
    fn includes_resolve_recursively_once_each() {
        let files: BTreeMap<&str, &str> = [
            ("a.glsl", "#include \"b.glsl\"\nA\n"),
            ("b.glsl", "#include \"a.glsl\"\nB\r\n"),
        ]
        .into_iter()
        .collect();
        let mut read = |name: &str| {
            files
                .get(name)
                .map(|text| text.to_string())
                .ok_or_else(|| format!("no {name}"))
        };
        let found =
            resolve_includes("#include \"a.glsl\"\n#include \"b.glsl\"\n", &mut read).unwrap();
        let names: Vec<&str> = found.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, vec!["b.glsl", "a.glsl"]);
        assert_eq!(found[0].1, "#include \"a.glsl\"\nB\n");
    }

    #[test]
    fn missing_include_is_an_error() {
        let mut read = |name: &str| Err(format!("no {name}"));
        assert_eq!(
            resolve_includes("#include \"gone.glsl\"\n", &mut read),
            Err("no gone.glsl".to_string())
        );
    }

    #[test]
    fn input_hash_covers_every_input() {
        let includes = vec![("c.glsl".to_string(), "X".to_string())];
        let defines = vec![define("MODE", "1")];
        let base = input_hash("src", &includes, &defines, SETTINGS);
        assert_eq!(base.len(), 64);
        assert_eq!(base, input_hash("src", &includes, &defines, SETTINGS));
        assert_ne!(base, input_hash("src2", &includes, &defines, SETTINGS));
        let other_include = vec![("c.glsl".to_string(), "Y".to_string())];
        assert_ne!(base, input_hash("src", &other_include, &defines, SETTINGS));
        assert_ne!(base, input_hash("src", &[], &defines, SETTINGS));
        assert_ne!(
            base,
            input_hash("src", &includes, &[define("MODE", "2")], SETTINGS)
        );
        assert_ne!(base, input_hash("src", &includes, &defines, "opt=size"));
    }

    #[test]
    fn input_hash_separates_parts() {
        let includes = vec![("c.glsl".to_string(), "X".to_string())];
        let moved = vec![("c.glslX".to_string(), String::new())];
        assert_ne!(
            input_hash("src", &moved, &[], SETTINGS),
            input_hash("src", &includes, &[], SETTINGS)
        );
    }

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn stages_follow_extensions_and_the_fragment_define() {
        let fragment = [Define {
            name: FRAGMENT_DEFINE.to_string(),
            value: None,
        }];
        assert_eq!(Stage::of("a.comp", &[]), Some(Stage::Compute));
        assert_eq!(Stage::of("a.comp", &fragment), Some(Stage::Fragment));
        assert_eq!(Stage::of("a.vert", &[]), Some(Stage::Vertex));
        assert_eq!(Stage::of("a.vert", &fragment), Some(Stage::Vertex));
        assert_eq!(Stage::of("a.frag", &[]), Some(Stage::Fragment));
        assert_eq!(Stage::of("a.glsl", &[]), None);
        assert_eq!(Stage::Compute.settings(), SETTINGS);
        assert_ne!(Stage::Vertex.settings(), Stage::Fragment.settings());
        assert!(Stage::Fragment.settings().contains(" fragment "));
    }
}
